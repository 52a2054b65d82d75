// Reductions into small fixed arrays (NAS style), in both shapes that reach
// the plugin: the small loop kept (-fno-unroll-loops) and fully unrolled
// with the elements kept in registers and stored back every iteration (-O2).
// RUN: %clang -O2 -g -fno-vectorize -fno-unroll-loops -S -emit-llvm %s -o %t.ll
// RUN: %opt -passes='loop-simplify,lcssa,print<idiom>' -disable-output %t.ll | FileCheck %s --implicit-check-not='idiom histogram'
// RUN: %clang-idiom -c %s -o /dev/null -Rpass-analysis=idiom-offload -Rpass-missed=idiom-offload 2>&1 | FileCheck %s --check-prefix=O2 --implicit-check-not='idiom histogram'
// Near misses with the two specs of this directory loaded alone, in the
// built-in order (so that another spec getting further on the same loop
// cannot hide them):
// RUN: %opt -idiom-builtin-specs=false -idiom-spec=%srcroot/constraints/specs/array-reduction.idl -idiom-spec=%srcroot/constraints/specs/histogram.idl -passes='loop-simplify,lcssa,print<idiom>' -disable-output %t.ll | FileCheck %s --check-prefix=MISS
// RUN: %clang-idiom -fplugin=%plugin -mllvm -idiom-builtin-specs=false -mllvm -idiom-spec=%srcroot/constraints/specs/array-reduction.idl -mllvm -idiom-spec=%srcroot/constraints/specs/histogram.idl -c %s -o /dev/null -Rpass-missed=idiom-offload 2>&1 | FileCheck %s --check-prefix=O2MISS

// NAS: rms[m] += u[i][m]^2 for m < 5, into a global. Reported once, at the
// outer loop (the inner loop is not tried again, and is no map).
// CHECK-LABEL: Idioms in function 'nas_rms':
// CHECK-NEXT: loop {{.*}}: idiom array-reduction (detected only)
// CHECK-NOT: loop
// O2: array-reductions.c:[[@LINE+3]]:3: remark: detected idiom array-reduction
double rms[5];
void nas_rms(double u[][5], int n) {
  for (int i = 0; i < n; i++)
    for (int m = 0; m < 5; m++)
      rms[m] += u[i][m] * u[i][m];
}

// The same into a pointer argument (which may alias u: a run-time check).
// CHECK-LABEL: Idioms in function 'nas_rms_arg':
// CHECK-NEXT: loop {{.*}}: idiom array-reduction (detected only)
// CHECK-NOT: loop
// O2: array-reductions.c:[[@LINE+2]]:3: remark: detected idiom array-reduction
void nas_rms_arg(const double (*u)[5], int n, double *r) {
  for (int i = 0; i < n; i++)
    for (int m = 0; m < 5; m++)
      r[m] += u[i][m] * u[i][m];
}

// Two small arrays, two operators (fadd, fmax).
// CHECK-LABEL: Idioms in function 'norms':
// CHECK-NEXT: loop {{.*}}: idiom array-reduction (detected only)
// CHECK-NOT: loop
// O2: array-reductions.c:[[@LINE+3]]:3: remark: detected idiom array-reduction
double err[5], emax[5];
void norms(const double (*u)[5], const double (*v)[5], int n) {
  for (int i = 0; i < n; i++)
    for (int m = 0; m < 5; m++) {
      double d = u[i][m] - v[i][m];
      err[m] += d * d;
      emax[m] = d > emax[m] ? d : emax[m];
    }
}

// Constant indices in a single loop: GVN keeps s[0..2] in header phis and
// stores them back every iteration (s may alias x).
// CHECK-LABEL: Idioms in function 'moments':
// CHECK-NEXT: loop {{.*}}: idiom array-reduction (detected only)
// O2: array-reductions.c:[[@LINE+2]]:3: remark: detected idiom array-reduction
void moments(double *s, const double *x, int n) {
  for (int i = 0; i < n; i++) {
    s[0] += x[i];
    s[1] += x[i] * x[i];
    s[2] += x[i] * x[i] * x[i];
  }
}

// Conditional counts into a global int[3].
// CHECK-LABEL: Idioms in function 'classify3':
// CHECK-NEXT: loop {{.*}}: idiom array-reduction (detected only)
// O2: array-reductions.c:[[@LINE+3]]:3: remark: detected idiom array-reduction
int counts[3];
void classify3(const int *x, int n) {
  for (int i = 0; i < n; i++) {
    counts[0] += x[i] < 0;
    counts[1] += x[i] == 0;
    counts[2] += x[i] > 0;
  }
}

// A global scalar: x may point to it, so it stays in memory (one element).
// CHECK-LABEL: Idioms in function 'global_total':
// CHECK-NEXT: loop {{.*}}: idiom array-reduction (detected only)
// O2: array-reductions.c:[[@LINE+3]]:3: remark: detected idiom array-reduction
long total;
void global_total(const long *x, int n) {
  for (int i = 0; i < n; i++)
    total += x[i];
}

// Sixteen elements are not a small array (fewer than 8); the nest, with
// the small loop kept, is an outer-loop accumulation (in order, exact).
// CHECK-LABEL: Idioms in function 'too_many':
// CHECK-NEXT: loop {{.*}}: idiom outer-accumulation (outer-loop accumulation)
// MISS-LABEL: Idioms in function 'too_many':
// MISS-NEXT: loop {{.*}}: no idiom (closest: array-reduction): {{.*}}FewElementsPerArray(loop, 8): the loop updates 8 or more elements of @big
// CHECK-NOT: idiom array-reduction
// O2: array-reductions.c:[[@LINE+4]]:3: remark: loop is not an idiom
// O2MISS: array-reductions.c:[[@LINE+3]]:3: remark: loop is not an idiom (closest: array-reduction): {{.*}}FewElementsPerArray(loop, 8): the loop updates 8 or more elements of @big
double big[16];
void too_many(double u[][16], int n) {
  for (int i = 0; i < n; i++)
    for (int m = 0; m < 16; m++)
      big[m] += u[i][m];
}

// The inner trip count is not a compile-time constant (an outer-loop
// accumulation).
// CHECK-LABEL: Idioms in function 'unknown_extent':
// CHECK-NEXT: loop {{.*}}: idiom outer-accumulation (outer-loop accumulation)
// MISS-LABEL: Idioms in function 'unknown_extent':
// MISS-NEXT: loop {{.*}}: no idiom (closest: array-reduction): {{.*}}OuterInvariantIndex(st, loop): inner trip count is not a compile-time constant
// CHECK-NOT: idiom array-reduction
// O2: array-reductions.c:[[@LINE+2]]:3: remark: floating-point row sums may be reassociated
void unknown_extent(const double *u, int n, int nm, double *r) {
  for (int i = 0; i < n; i++)
    for (int m = 0; m < nm; m++)
      r[m] += u[i * nm + m];
}

// The address changes with the outer loop: a 2-D map, not a reduction.
// CHECK-LABEL: Idioms in function 'map_not_reduction':
// CHECK-NEXT: loop {{.*}}: idiom map (2-D map)
void map_not_reduction(double a[][5], const double b[][5], int n) {
  for (int i = 0; i < n; i++)
    for (int m = 0; m < 5; m++)
      a[i][m] += b[i][m];
}

// r[m] = u - r[m] is not r[m] (+) g(u); applied in i's order it is an
// outer-loop accumulation.
// CHECK-LABEL: Idioms in function 'not_commutative':
// CHECK-NEXT: loop {{.*}}: idiom outer-accumulation (outer-loop accumulation)
// CHECK-NOT: idiom array-reduction
// MISS-LABEL: Idioms in function 'not_commutative':
// MISS-NEXT: loop {{.*}}: no idiom (closest: array-reduction): {{.*}}AssocCommUpdate(st, loop): Z3 finds no associative, commutative (+)
// O2: array-reductions.c:[[@LINE+3]]:3: remark: loop is not an idiom
// O2MISS: array-reductions.c:[[@LINE+2]]:3: remark: loop is not an idiom (closest: array-reduction): {{.*}}AssocCommUpdate(st, loop)
void not_commutative(double u[][5], int n, double *r) {
  for (int i = 0; i < n; i++)
    for (int m = 0; m < 5; m++)
      r[m] = u[i][m] - r[m];
}

// The update reads another element of the array being reduced.
// CHECK-LABEL: Idioms in function 'reads_accumulated':
// CHECK-NEXT: loop {{.*}}: no idiom
// MISS-LABEL: Idioms in function 'reads_accumulated':
// MISS-NEXT: loop {{.*}}: no idiom (closest: array-reduction): {{.*}}InputLoad(m, loop): load reads %2, which the loop also writes
// CHECK-NOT: idiom array-reduction
// O2: array-reductions.c:[[@LINE+2]]:3: remark: loop is not an idiom
void reads_accumulated(double u[][5], int n, double *r) {
  for (int i = 0; i < n; i++)
    for (int m = 0; m < 5; m++)
      r[m] += u[i][m] * r[0];
}
