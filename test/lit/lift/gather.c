// Gathers lifted to FunIL: a load x[idx] whose index is computed from affine
// loads reads a buffer that holds x[lo..hi] (lo, hi: the extent check's
// smallest and largest index), as at(view(b, 0, 1, count), sub(index, lo)).
// The extent check is a min/max reduction of the index over the same
// inputs. Negatives keep their reasons.
// RUN: %clang -O2 -g -fno-vectorize -fno-unroll-loops -S -emit-llvm %s -o %t.ll
// RUN: %opt -passes='loop-simplify,lcssa,print<idiom>' -disable-output %t.ll | FileCheck %s
// RUN: %clang-idiom -c %s -o /dev/null -Rpass=idiom -Rpass-missed=idiom -Rpass-analysis=idiom 2>&1 | FileCheck %s --check-prefix=REMARK
// A corrupted lift (the first add of each program becomes a sub) is
// refused by translation validation, also where the add is in a gather's
// index.
// RUN: %clang-idiom -fplugin=%plugin -mllvm -idiom-test-corrupt-lift -c %s -o /dev/null -Rpass=idiom -Rpass-missed=idiom 2>&1 | FileCheck %s --check-prefix=BAD

// CHECK-LABEL: Idioms in function 'permute'
// CHECK: idiom map (map)
// CHECK-NEXT: FunIL:
// CHECK-NEXT: idiom idiom_permute_{{[0-9]+}}(n0: i64, b0: [i32], b1: [f32], b2: [f32], e0: i64, e1: i64) {
// CHECK-NEXT:   store view(b1, 0:i64, 1:i64, n0) = map(\(t: i32) => at(view(b2, 0:i64, 1:i64, e1), sub(sext.i64(t), e0)), view(b0, 0:i64, 1:i64, n0));
// CHECK: Extent check FunIL:
// CHECK-NEXT: idiom idiom_permute_{{[0-9]+}}_extent(n0: i64, b0: [i32]) {
// CHECK-NEXT:   return reduce(\(a: (i64, i64), b: (i64, i64)) => (smin(a.0, b.0), smax(a.1, b.1)), (9223372036854775807:i64, -9223372036854775808:i64), map(\(t: i32) => (sext.i64(t), sext.i64(t)), view(b0, 0:i64, 1:i64, n0)));
// CHECK: __kernel void idiom_permute_{{[0-9]+}}(const long n0, __global const int *b0, __global float *b1, __global const float *b2, const long e0, const long e1, const long b0_off, const long b1_off, const long b2_off)
// The element offsets (runtime/include/idiomrt.h) move each buffer first.
// CHECK-NEXT: b0 += b0_off;
// CHECK-NEXT: b1 += b1_off;
// CHECK-NEXT: b2 += b2_off;
// REMARK: gather.c:[[@LINE+3]]:3: remark: offloaded map (map) to OpenCL
// REMARK: gather.c:[[@LINE+2]]:3: remark: the range of an indirect index is known only at run time
void permute(float *y, const float *x, const int *p, int n) {
  for (int i = 0; i < n; i++)
    y[i] = x[p[i]];
}

// CHECK-LABEL: Idioms in function 'gather_sum'
// CHECK: idiom scalar-reduction (scalar reduction)
// CHECK: map(\(t: i32) => sext.i64(at(view(b1, 0:i64, 1:i64, e1), sub(sext.i64(t), e0))), view(b0, 0:i64, 1:i64, n0))
// CHECK: Extent check FunIL:
// REMARK: gather.c:[[@LINE+3]]:3: remark: offloaded scalar reduction (scalar-reduction) to OpenCL
long gather_sum(const int *a, const int *idx, int n) {
  long s = 0;
  for (int i = 0; i < n; i++)
    s += a[idx[i]];
  return s;
}

// The index is a sum of two loaded values; the corrupted lift reads
// x[p[i] - q[i]] and is refused.
// CHECK-LABEL: Idioms in function 'sum_index'
// CHECK: map(\(t: (i32, i32)) => at(view(b3, 0:i64, 1:i64, e1), sub(sext.i64(add(t.1, t.0)), e0)), zip(view(b0, 0:i64, 1:i64, n0), view(b1, 0:i64, 1:i64, n0)))
// CHECK: Extent check FunIL:
// CHECK: map(\(t: (i32, i32)) => (sext.i64(add(t.1, t.0)), sext.i64(add(t.1, t.0))), zip(view(b0, 0:i64, 1:i64, n0), view(b1, 0:i64, 1:i64, n0)))
// REMARK: gather.c:[[@LINE+3]]:3: remark: offloaded map (map) to OpenCL
// BAD: gather.c:[[@LINE+2]]:3: remark: idiom map not offloaded: translation validation failed: Z3 found inputs on which the lifted FunIL and the LLVM slice differ
void sum_index(float *y, const float *x, const int *p, const int *q, int n) {
  for (int i = 0; i < n; i++)
    y[i] = x[p[i] + q[i]];
}

// Two gathers of one array: two extents (four results of the check).
// CHECK-LABEL: Idioms in function 'two'
// CHECK: idiom idiom_two_{{[0-9]+}}(n0: i64, b0: [i32], b1: [i32], b2: [f64], b3: [f64], e0: i64, e1: i64, b4: [f64], e2: i64, e3: i64) {
// CHECK: Extent check FunIL:
// CHECK-NEXT: idiom idiom_two_{{[0-9]+}}_extent(n0: i64, b0: [i32], b1: [i32]) {
// CHECK-NEXT:   return reduce(\(a: (i64, i64, i64, i64), b: (i64, i64, i64, i64)) => (smin(a.0, b.0), smax(a.1, b.1), smin(a.2, b.2), smax(a.3, b.3))
// REMARK: gather.c:[[@LINE+2]]:3: remark: offloaded map (map) to OpenCL
void two(double *y, const double *x, const int *p, const int *q, int n) {
  for (int i = 0; i < n; i++)
    y[i] = x[p[i]] - x[q[i]];
}

// A gather from a global array (getelementptr [N x T], @g, 0, index).
float table[4096];
// CHECK-LABEL: Idioms in function 'from_global'
// CHECK: map(\(t: i32) => at(view(b2, 0:i64, 1:i64, e1), sub(sext.i64(t), e0)), view(b0, 0:i64, 1:i64, n0))
// REMARK: gather.c:[[@LINE+2]]:3: remark: offloaded map (map) to OpenCL
void from_global(float *y, const int *p, int n) {
  for (int i = 0; i < n; i++)
    y[i] = table[p[i]];
}

// Negatives.
// REMARK: gather.c:[[@LINE+2]]:3: remark: loop is not an idiom (closest: map): {{.*}}AffineAccess(m, loop): address is not affine
void in_place(float *y, const int *p, int n) {
  for (int i = 0; i < n; i++)
    y[i] = y[p[i]] + 1;
}
// REMARK: gather.c:[[@LINE+3]]:3: remark: loop is not an idiom (closest: scalar-reduction): {{.*}}AffineAccess(ld, loop): address is not affine
long twice(const int *a, const int *idx, int n) {
  long s = 0;
  for (int i = 0; i < n; i++)
    s += a[idx[idx[i]]];
  return s;
}
