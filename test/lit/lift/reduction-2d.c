// A scalar reduction over a rectangular 2-D nest lifts to ONE reduce over
// the joined 2-D views of its inputs (the flattened rows x cols space, row
// by row as the loops visit it); translation validation covers it (a
// corrupted combine operator is refused), and -idiom-fp-reassoc=false keeps
// floating-point 2-D sums on the host as it does 1-D sums.
// RUN: %clang -O2 -g -fno-vectorize -fno-unroll-loops -S -emit-llvm %s -o %t.ll
// RUN: %opt -passes='loop-simplify,lcssa,print<idiom>' -disable-output %t.ll | FileCheck %s
// RUN: %clang-idiom -ffp-contract=off -c %s -o /dev/null -Rpass=idiom-offload 2>&1 | FileCheck %s --check-prefix=OK
// RUN: %clang-idiom -ffp-contract=off -fplugin=%plugin -mllvm -idiom-test-corrupt-lift -mllvm -idiom-z3-timeout=600000 -c %s -o /dev/null -Rpass=idiom-offload -Rpass-missed=idiom-offload 2>&1 | FileCheck %s --check-prefix=BAD
// RUN: %clang-idiom -c %s -o /dev/null -Rpass-missed=idiom-offload 2>&1 | FileCheck %s --check-prefix=MISSED
// RUN: %clang-idiom -ffp-contract=off -fplugin=%plugin -mllvm -idiom-fp-reassoc=false -c %s -o /dev/null -Rpass=idiom-offload -Rpass-missed=idiom-offload 2>&1 | FileCheck %s --check-prefix=NOREASSOC

// CHECK-LABEL: Idioms in function 'resid'
// CHECK: FunIL:
// CHECK-NEXT: idiom idiom_resid_0(n0: i64, n1: i64, b0: [f64], b1: [f64], [[S:x[0-9]+]]: i64) {
// CHECK-NEXT: return reduce(\(a: f64, b: f64) => fadd(a, b), -0x0p+0:f64, map(\(t: (f64, f64)) => {{.*}}, zip(join(view(b0, 0:i64, [[S]], n0, 1:i64, n1)), join(view(b1, 0:i64, [[S]], n0, 1:i64, n1)))));
double resid(const double *u, const double *v, int n, int m) {
  double s = 0;
  // OK: reduction-2d.c:[[@LINE+3]]:3: remark: offloaded 2-D scalar reduction (scalar-reduction-2d)
  // BAD: reduction-2d.c:[[@LINE+2]]:3: remark: idiom scalar-reduction-2d not offloaded: translation validation failed: Z3 found inputs on which the lifted FunIL and the LLVM slice differ
  // NOREASSOC: reduction-2d.c:[[@LINE+1]]:3: remark: {{.*}}scalar-reduction-2d{{.*}}floating-point reduction needs reassociation
  for (int i = 1; i < n - 1; i++)
    for (int j = 1; j < m - 1; j++)
      s += (u[i * m + j] - v[i * m + j]) * (u[i * m + j] - v[i * m + j]);
  return s;
}

// CHECK-LABEL: Idioms in function 'imax'
// CHECK: FunIL:
// CHECK-NEXT: idiom idiom_imax_0(n0: i64, n1: i64, b0: [i32]) {
// CHECK-NEXT: return reduce(\(a: i32, b: i32) => {{.*}}, map(\(t: i32) => t, join(view(b0, 0:i64, n1, n0, 1:i64, n1))));
int imax(int n, int m, const int (*a)[m]) {
  int r = -2147483647 - 1;
  // OK: reduction-2d.c:[[@LINE+2]]:3: remark: offloaded 2-D scalar reduction (scalar-reduction-2d)
  // NOREASSOC: reduction-2d.c:[[@LINE+1]]:3: remark: offloaded 2-D scalar reduction (scalar-reduction-2d)
  for (int i = 0; i < n; i++)
    for (int j = 0; j < m; j++)
      r = a[i][j] > r ? a[i][j] : r;
  return r;
}

// CHECK-LABEL: Idioms in function 'wsum'
// CHECK: FunIL:
// CHECK-NEXT: idiom idiom_wsum_0(n0: i64, n1: i64, b0: [i32]) {
// CHECK-NEXT: return reduce(\(a: i64, b: i64) => add({{.*}}), 0:i64, map(\(t: (i32, i64, i64)) => mul(sub(mul(t.1, 3:i64), t.2), sext.i64(t.0)), zip(join(view(b0, 0:i64, {{n.}}, {{n.}}, 1:i64, {{n.}})), join(map(\(r: i64) => map(\(c: i64) => r, iota({{n.}})), iota({{n.}}))), join(map(\(r: i64) => iota({{n.}}), iota({{n.}}))))));
long wsum(int n, const int (*a)[n]) {
  long s = 0;
  for (int i = 0; i < n; i++)
    for (int j = 0; j < n; j++)
      s += (long)a[i][j] * (3 * i - j);
  return s;
}

// Negatives: the accumulator is changed between rows, or a row's own
// reduction is added to it (the inner phi does not start from the outer).
// MISSED: reduction-2d.c:[[@LINE+3]]:3: remark: loop is not an idiom (closest: scalar-reduction-2d): {{.*}}ReductionPhi(phi, loop): the outer loop does not pass the inner loop's final value to the next row: {{.*}}fmul
double decay(const double *a, int n, int m) {
  double s = 0;
  for (int i = 0; i < n; i++) {
    for (int j = 0; j < m; j++)
      s += a[i * m + j];
    s *= 0.5;
  }
  return s;
}

// MISSED: reduction-2d.c:[[@LINE+3]]:3: remark: loop is not an idiom (closest: scalar-reduction-2d): {{.*}}ReductionPhi(phi, loop): the accumulator is not carried through both loops of the nest
long rowmax(const int *a, int n, int m) {
  long s = 0;
  for (int i = 0; i < n; i++) {
    int r = 0;
    for (int j = 0; j < m; j++)
      r = a[i * m + j] > r ? a[i * m + j] : r;
    s += r;
  }
  return s;
}
