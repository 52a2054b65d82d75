// Scatter-adds over a small data-dependent neighbourhood (issue #14): the
// neighbourhood loop unrolled at -O2, several guarded updates of one bins
// array per iteration lifted as one reduceIndexed over (i, k), its index
// and value select chains on k (HistogramLift::More); float weights only
// under the reassociation licence. Near misses: a cell carried from the
// previous sample, a guard that reads the grid, updates of two arrays.
// RUN: %clang -O2 -g -fno-vectorize -S -emit-llvm %s -o %t.ll
// RUN: %opt -passes='loop-simplify,lcssa,print<idiom>' -disable-output %t.ll | FileCheck %s
// RUN: %clang-idiom -c %s -o /dev/null -Rpass=idiom-offload -Rpass-missed=idiom-offload 2>&1 | FileCheck %s --check-prefix=REMARK
// RUN: %clang-idiom -fplugin=%plugin -mllvm -idiom-fp-reassoc=false -c %s -o /dev/null -Rpass=idiom-offload -Rpass-missed=idiom-offload 2>&1 | FileCheck %s --check-prefix=EXACT
// A corrupted lift (the first add made a sub) is refused by translation
// validation.
// RUN: %clang-idiom -fplugin=%plugin -mllvm -idiom-test-corrupt-lift -c %s -o /dev/null -Rpass=idiom-offload -Rpass-missed=idiom-offload 2>&1 | FileCheck %s --check-prefix=BAD

int hits[256];
float line[256];

// Three guarded integer updates: index and value chains on t.2, each input
// repeated 3 times.
// CHECK-LABEL: Idioms in function 'count'
// CHECK: idiom histogram (histogram)
// CHECK-NEXT: FunIL:
// CHECK-NEXT: idiom idiom_count_0(n0: i64, b0: [f32], b1: [i32], b2: [i32]) {
// CHECK-NEXT: store view(b2, 0:i64, 1:i64, 256:i64) = reduceIndexed(\(a: i32, b: i32) => add(a, b), view(b2, 0:i64, 1:i64, 256:i64), \(t: (f32, i32, i64)) => (select(icmp_eq(t.2, 0:i64), {{.*}}, select(icmp_eq(t.2, 1:i64), {{.*}})), select(icmp_eq(t.2, 0:i64), select(fcmp_ult({{.*}}), t.1, 0:i32), select(icmp_eq(t.2, 1:i64), select(fcmp_ult({{.*}}), t.1, 0:i32), select(fcmp_ult({{.*}}), t.1, 0:i32)))), zip(join(view(b0, 0:i64, 1:i64, n0, 0:i64, 3:i64)), join(view(b1, 0:i64, 1:i64, n0, 0:i64, 3:i64)), join(map(\(r: i64) => iota(3:i64), iota(n0)))));
// REMARK: scatter-add.c:[[@LINE+4]]:3: remark: offloaded histogram (histogram) to OpenCL as idiom_count_{{[0-9]+}} with operator add
// EXACT: scatter-add.c:[[@LINE+3]]:3: remark: offloaded histogram (histogram) to OpenCL as idiom_count_{{[0-9]+}} with operator add
// BAD: scatter-add.c:[[@LINE+2]]:3: remark: idiom histogram not offloaded: translation validation failed: Z3 found inputs on which the lifted FunIL and the LLVM slice differ
void count(const float *x, const int *k, int n) {
  for (int i = 0; i < n; i++) {
    float xi = x[i];
    int c = (int)xi, ki = k[i];
    for (int d = -1; d <= 1; d++) {
      float e = (float)(c + d) - xi;
      if (e * e >= 1.0f)
        continue;
      hits[c + d] += ki;
    }
  }
}

// Float weights, `line[c + d] += w * f(r2)` contracted to fmuladd: the value
// is fmul(w, f(r2)) under fadd.
// CHECK-LABEL: Idioms in function 'spread'
// CHECK: idiom histogram (histogram)
// CHECK: reduceIndexed(\(a: f32, b: f32) => fadd(a, b), {{.*}} select(fcmp_ult({{.*}}), fmul(t.1, {{.*}}), -0x0p+0:f32)
// REMARK: scatter-add.c:[[@LINE+3]]:3: remark: offloaded histogram (histogram) to OpenCL as idiom_spread_{{[0-9]+}} with operator fadd
// EXACT: scatter-add.c:[[@LINE+2]]:3: remark: loop is not an idiom (closest: histogram): matched but cannot be lifted with template 'histogram': floating-point histogram needs reassociation (disabled by -idiom-fp-reassoc=false)
void spread(const float *x, const float *w, int n) {
  for (int i = 0; i < n; i++) {
    float xi = x[i], wi = w[i];
    int c = (int)xi;
    for (int d = -2; d <= 2; d++) {
      float e = (float)(c + d) - xi;
      float r2 = e * e;
      if (r2 >= 2.25f)
        continue;
      line[c + d] += wi * (1.0f - r2 * (1.0f / 2.25f));
    }
  }
}

// The cell depends on the previous sample (a value carried between
// iterations): the order of the updates matters.
// REMARK: scatter-add.c:[[@LINE+3]]:3: remark: loop is not an idiom (closest: map): {{.*}}InductionPhi(phi, loop): phi is not an induction variable
void carried(const float *x, const int *k, int n) {
  int c = 0;
  for (int i = 0; i < n; i++) {
    float xi = x[i];
    int ki = k[i];
    for (int d = -1; d <= 1; d++) {
      float e = (float)(c + d) - xi;
      if (e * e >= 1.0f)
        continue;
      hits[(c + d) & 255] += ki;
    }
    c = (int)xi;
  }
}

// A guard that reads the grid.
// REMARK: scatter-add.c:[[@LINE+2]]:3: remark: loop is not an idiom (closest: histogram): {{.*}}AssocCommUpdate(st, loop): update tests the value it updates
void reads_grid(const float *x, const int *k, int n) {
  for (int i = 0; i < n; i++) {
    float xi = x[i];
    int c = (int)xi, ki = k[i];
    for (int d = -1; d <= 1; d++) {
      if (hits[c + d] > 100)
        continue;
      hits[c + d] += ki;
    }
  }
}

// Updates of two arrays: one reduceIndexed updates one.
// REMARK: scatter-add.c:[[@LINE+2]]:3: remark: idiom histogram not offloaded: cannot lift to FunIL: the loop makes 2 bin updates per iteration; one reduceIndexed lifts one
void two_arrays(const float *x, const int *k, int n) {
  for (int i = 0; i < n; i++) {
    int c = (int)x[i] & 255, ki = k[i];
    hits[c] += ki;
    line[c] += 1.0f;
  }
}
