// The stitched IR of a compensated float sum (docs/Rewrite.md, "Compensated
// sums"): the kernels have two result slots (the finished sum and its
// compensation), so the descriptor counts two (nresults 2, result_bytes
// {8, 8} for double, {4, 4} for float) and the results array has two slots;
// the host reads slot 0 and adds the accumulator's initial value. An integer
// sum keeps one slot.
// RUN: %clang-idiom -fno-discard-value-names -S -emit-llvm %s -o %t.ll
// RUN: FileCheck %s < %t.ll

// CHECK-DAG: @idiom_dsum_0.result_bytes = private constant [2 x i32] [i32 8, i32 8]
// CHECK-DAG: @idiom_dsum_0.desc = private constant {{.*}} i32 1, i32 1, i32 2, i32 {{[0-9]+}}, ptr @idiom_dsum_0.result_bytes }
// CHECK-DAG: @idiom_fsum_1.result_bytes = private constant [2 x i32] [i32 4, i32 4]
// CHECK-DAG: @idiom_isum_2.result_bytes = private constant [1 x i32] [i32 8]
// CHECK-DAG: @idiom_isum_2.desc = private constant {{.*}} i32 1, i32 1, i32 1, i32 {{[0-9]+}}, ptr @idiom_isum_2.result_bytes }

// CHECK-LABEL: define {{.*}} double @dsum(
// CHECK: %idiom.results = alloca [2 x i64]
// CHECK: idiom.done:
// CHECK-NEXT: %idiom.result = load double, ptr %idiom.results
// CHECK-NEXT: fadd double %idiom.result, %s0
double dsum(const double *x, long n, double s0) {
  double s = s0;
  for (long i = 0; i < n; i++)
    s += x[i];
  return s;
}

// CHECK-LABEL: define {{.*}} float @fsum(
// CHECK: %idiom.results = alloca [2 x i64]
// CHECK: idiom.done:
// CHECK-NEXT: %idiom.result = load float, ptr %idiom.results
float fsum(const float *x, long n) {
  float s = 0.0f;
  for (long i = 0; i < n; i++)
    s += x[i];
  return s;
}

// CHECK-LABEL: define {{.*}} i64 @isum(
// CHECK: %idiom.results = alloca [1 x i64]
long isum(const long *x, long n) {
  long s = 0;
  for (long i = 0; i < n; i++)
    s += x[i];
  return s;
}
