// The lifted FunIL text for a map and a reduction, and the OpenCL emitted
// from it: the kernel signatures follow runtime/include/idiomrt.h.
// RUN: %clang -O2 -g -fno-vectorize -fno-unroll-loops -S -emit-llvm %s -o %t.ll
// RUN: %opt -passes='loop-simplify,lcssa,print<idiom>' -disable-output %t.ll | FileCheck %s

// CHECK-LABEL: Idioms in function 'saxpy'
// CHECK: FunIL:
// CHECK-NEXT: idiom idiom_saxpy_0(n0: i64, b0: [f32], b1: [f32], s0: f32) {
// CHECK-NEXT: store view(b0, 0:i64, 1:i64, n0) = map(\(t: (f32, f32)) => fmuladd(s0, t.1, t.0), zip(view(b0, 0:i64, 1:i64, n0), view(b1, 0:i64, 1:i64, n0)));
// CHECK: OpenCL:
// CHECK: __kernel void idiom_saxpy_0(
// CHECK-SAME: long n0
// CHECK-SAME: __global float *b0
// CHECK-SAME: __global const float *b1
// CHECK-SAME: float s0
void saxpy(float *y, const float *x, float a, int n) {
  for (int i = 0; i < n; i++)
    y[i] = a * x[i] + y[i];
}

// CHECK-LABEL: Idioms in function 'dot'
// CHECK: FunIL:
// CHECK-NEXT: idiom idiom_dot_0(n0: i64, b0: [f32], b1: [f32]
// CHECK: return reduce(\(a: f32, b: f32) => fadd(a, b), -0x0p+0:f32, map(\(t: (f32, f32)) => fmul(t.0, t.1), zip(view(b0,
// CHECK: OpenCL:
// CHECK-DAG: __kernel void idiom_dot_0_partial(
// CHECK-DAG: __kernel void idiom_dot_0_final(
// CHECK-DAG: barrier(CLK_LOCAL_MEM_FENCE)
float dot(const float *x, const float *y, int n) {
  float s = 0;
  for (int i = 0; i < n; i++)
    s += x[i] * y[i];
  return s;
}

// Two accumulators: a tuple reduction with a component-wise operator.
// CHECK-LABEL: Idioms in function 'count_and_max'
// CHECK: return reduce(\(a: (i32, i32), b: (i32, i32)) => ({{(add|smax)}}({{[ab]}}.0, {{[ab]}}.0), {{(add|smax)}}({{[ab]}}.1, {{[ab]}}.1))
int count_and_max(const int *x, int n, int *mx) {
  int c = 0, m = -2147483647 - 1;
  for (int i = 0; i < n; i++) {
    c += x[i] > 10;
    m = x[i] > m ? x[i] : m;
  }
  *mx = m;
  return c;
}
