// The lifted FunIL of an argmin and an argmax: one reduction over (index,
// value) pairs. Each element is the loop's step from the identity pair (so
// a NaN element becomes the identity); the index combine takes the index of
// the strictly better value and, on equal values, the smaller index (strict
// compare: the loop keeps the first) or the larger (non-strict: the last).
// RUN: %clang -O2 -g -fno-vectorize -fno-unroll-loops -S -emit-llvm %s -o %t.ll
// RUN: %opt -passes='loop-simplify,lcssa,print<idiom>' -disable-output %t.ll | FileCheck %s
// Translation validation accepts both (the second has the unordered
// fcmp_ult, a float relation, not an unsigned compare):
// RUN: %clang-idiom -g -c %s -o /dev/null -Rpass=idiom-offload -Rpass-missed=idiom-offload 2>&1 | FileCheck %s --check-prefix=TV --implicit-check-not=remark:

// CHECK-LABEL: Idioms in function 'argmin_first'
// CHECK: FunIL:
// CHECK-NEXT: idiom idiom_argmin_first_0(n0: i64, b0: [i32]) {
// CHECK-NEXT: return reduce(\(a: (i32, i32), b: (i32, i32)) => (select(icmp_slt(b.1, a.1), b.0, select(icmp_slt(a.1, b.1), a.0, smin(a.0, b.0))), smin(b.1, a.1)), (2147483647:i32, 2147483647:i32), map(\(t: (i32, i64)) => (select(icmp_slt(t.0, 2147483647:i32), trunc.i32(add(1:i64, t.1)), 2147483647:i32), smin(t.0, 2147483647:i32)), zip(view(b0, 0:i64, 1:i64, n0), iota(n0))));
// TV: argminmax.c:[[@LINE+3]]:3: remark: offloaded scalar reduction (scalar-reduction) to OpenCL as {{.*}} with 2 accumulator(s): argindex-first smin
int argmin_first(const int *a, int n) {
  int best = a[0], k = 0;
  for (int i = 1; i < n; i++)
    if (a[i] < best) {
      best = a[i];
      k = i;
    }
  return k + best;
}

// CHECK-LABEL: Idioms in function 'fargmax_last'
// CHECK: FunIL:
// CHECK-NEXT: idiom idiom_fargmax_last_0(n0: i64, b0: [f32]) {
// CHECK-NEXT: return reduce(\(a: (i32, f32), b: (i32, f32)) => (select(fcmp_ogt(b.1, a.1), b.0, select(fcmp_ogt(a.1, b.1), a.0, smax(a.0, b.0))), select(fcmp_ult(b.1, a.1), a.1, b.1)), (-2147483648:i32, -inf:f32), map(\(t: (f32, i64)) => (select(fcmp_ult(t.0, -inf:f32), -2147483648:i32, trunc.i32(add(1:i64, t.1))), select(fcmp_ult(t.0, -inf:f32), -inf:f32, t.0)), zip(view(b0, 0:i64, 1:i64, n0), iota(n0))));
// TV: argminmax.c:[[@LINE+4]]:3: remark: offloaded scalar reduction (scalar-reduction) to OpenCL as {{.*}} with 2 accumulator(s): argindex-last fmax
int fargmax_last(const float *a, int n) {
  float best = a[0];
  int k = 0;
  for (int i = 1; i < n; i++)
    if (a[i] >= best) {
      best = a[i];
      k = i;
    }
  return k + (int)best;
}
