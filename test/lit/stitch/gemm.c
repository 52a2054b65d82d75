// The stitched IR of a GEMM: the run-time test of C's leading dimension
// (|ldc| >= the column length, else columns overlap) joins the nest's
// zero-trip guards before the call; the call passes A and B as input
// buffers, C as in/out (beta*C reads it), the sizes {M, N} of a 2-D map;
// on a decline (or a failed test) the original nest runs.
// RUN: %clang-idiom -fno-discard-value-names -S -emit-llvm %s -o %t.ll
// RUN: FileCheck %s < %t.ll
// RUN: FileCheck %s --check-prefix=DESC < %t.ll

// The arguments' fields known at compile time are one private constant per
// call (A and B IN = kind 0, zero here; C INOUT = 2 in parboil, OUT = 1 in
// rm, flags IDIOM_ARG_DENSE = 1 where C's rows abut (rm), so that it is not
// copied in; then i64 and float scalars); pointers, extents and scalars
// known only at run time are stored into a stack copy of it.
// CHECK: @idiom_parboil_0.args = private unnamed_addr constant [14 x {{.*}}] [{{.*}} zeroinitializer, {{.*}} zeroinitializer, {{.*}} { i32 2, i32 0, ptr null, i64 0, i64 0 }, {{.*}} { i32 4,
// CHECK: @idiom_rm_1.args = private unnamed_addr constant [6 x {{.*}}] [{{.*}} zeroinitializer, {{.*}} zeroinitializer, {{.*}} { i32 1, i32 1, ptr null, i64 0, i64 0 }, {{.*}} { i32 4,
// CHECK-LABEL: define {{.*}} @parboil(
// CHECK: %idiom.check = icmp
// CHECK: br i1 %{{.*}}, label %idiom.hint, label %[[FALLBACK:[A-Za-z0-9._]+]]
// CHECK: idiom.call:
// CHECK: call void @llvm.memcpy.p0.p0.i64(ptr {{.*}}%idiom.args, ptr {{.*}}@idiom_parboil_0.args, i64 448,
// CHECK: store ptr %idiom.lo{{[0-9]*}}, ptr
// CHECK: %idiom.ok = call i32 @idiom_run(ptr nonnull @idiom_parboil_0.desc, ptr nonnull %idiom.args, i32 14, ptr nonnull %idiom.sizes, ptr nonnull %idiom.results)
// CHECK-NEXT: %[[NOT:[A-Za-z0-9._]+]] = icmp eq i32 %idiom.ok, 0
// CHECK-NEXT: br i1 %[[NOT]], label %idiom.declined, label %
// CHECK: idiom.declined:
// CHECK-NEXT: call void @idiom_host_hint(
// CHECK-NEXT: %idiom.host.token = call i64 @idiom_host_begin(ptr nonnull @idiom_parboil_0.desc)
// CHECK-NEXT: br label %[[FALLBACK]]
// CHECK: [[FALLBACK]]:
// The original nest is still there.
// CHECK: call float @llvm.fmuladd.f32
void parboil(int m, int n, int k, float alpha, const float *a, int lda,
             const float *b, int ldb, float beta, float *c, int ldc) {
  for (int mm = 0; mm < m; ++mm)
    for (int nn = 0; nn < n; ++nn) {
      float s = 0.0f;
      for (int i = 0; i < k; ++i)
        s += a[mm + i * lda] * b[nn + i * ldb];
      c[mm + nn * ldc] = c[mm + nn * ldc] * beta + alpha * s;
    }
}

// C's row length is its leading dimension: no run-time test, C written only.
// CHECK-LABEL: define {{.*}} @rm(
// CHECK-NOT: %idiom.check
// CHECK: br i1 %{{.*}}, label %idiom.hint, label %[[FALLBACK2:[A-Za-z0-9._]+]]
// CHECK: idiom.call:
// CHECK: call void @llvm.memcpy.p0.p0.i64(ptr {{.*}}%idiom.args, ptr {{.*}}@idiom_rm_1.args, i64 192,
// CHECK: %idiom.ok = call i32 @idiom_run(ptr nonnull @idiom_rm_1.desc, ptr nonnull %idiom.args, i32 6,
// CHECK-NEXT: %[[NOT2:[A-Za-z0-9._]+]] = icmp eq i32 %idiom.ok, 0
// CHECK-NEXT: br i1 %[[NOT2]], label %idiom.declined, label %
// CHECK: idiom.declined:
// CHECK-NEXT: call void @idiom_host_hint(
// CHECK-NEXT: %idiom.host.token = call i64 @idiom_host_begin(ptr nonnull @idiom_rm_1.desc)
// CHECK-NEXT: br label %[[FALLBACK2]]
// CHECK: [[FALLBACK2]]:
// CHECK: call float @llvm.fmuladd.f32
void rm(int m, int n, int k, const float *a, const float *b, float *c) {
  for (int i = 0; i < m; i++)
    for (int j = 0; j < n; j++) {
      float s = 0;
      for (int p = 0; p < k; p++)
        s += a[i * k + p] * b[p * n + j];
      c[i * n + j] = s;
    }
}

// Map descriptors with ndims 2 and the gemm idiom name.
// DESC-DAG: @idiom_parboil_0.desc = private constant {{.*}} i32 0, i32 2, i32 0, i32 {{[0-9]+}}, ptr null
// DESC-DAG: @idiom_rm_1.desc = private constant {{.*}} i32 0, i32 2, i32 0, i32 {{[0-9]+}}, ptr null
// DESC-DAG: c"gemm\00"
// DESC-DAG: c"{{.*}}__kernel {{.*}}void idiom_parboil_0(__global const float *A, __global const float *B, __global float *C,
