// The stitched IR of GEMVs: a y stride known only at run time must not
// repeat an element (|incy| >= 1, or a single row), a test that joins the
// nest's zero-trip guards before the call; the call passes the sizes {1, N}
// of the one-row GEMM program; y is OUT, and DENSE (not copied in) when an
// initialising store makes the loop write every element without reading it.
// RUN: %clang-idiom -fno-discard-value-names -S -emit-llvm %s -o %t.ll
// RUN: FileCheck %s < %t.ll

// Argument kinds (x and A IN = 0, zero here; y OUT = 1): strided y is not
// dense; atax's tmp is dense (flags 1).
// CHECK: @idiom_strided_0.args = private unnamed_addr constant [12 x {{.*}}] [{{.*}} zeroinitializer, {{.*}} zeroinitializer, {{.*}} { i32 1, i32 0, ptr null, i64 0, i64 0 }
// CHECK: @idiom_atax_tmp_1.args = private unnamed_addr constant [5 x {{.*}}] [{{.*}} zeroinitializer, {{.*}} zeroinitializer, {{.*}} { i32 1, i32 1, ptr null, i64 0, i64 0 }
// CHECK-LABEL: define {{.*}} @strided(
// CHECK: %[[ABS:[0-9]+]] = tail call i64 @llvm.abs.i64(
// CHECK: = add nsw i64 %[[ABS]], -1
// CHECK: %idiom.check = icmp sgt i64 %{{.*}}, -1
// CHECK: br i1 %{{.*}}, label %idiom.hint, label %[[FALLBACK:[A-Za-z0-9._]+]]
// CHECK: idiom.call:
// CHECK: store i64 1, ptr %idiom.sizes
// CHECK: %idiom.ok = call i32 @idiom_run(ptr nonnull @idiom_strided_0.desc, ptr nonnull %idiom.args, i32 12, ptr nonnull %idiom.sizes, ptr nonnull %idiom.results)
// CHECK: idiom.declined:
// CHECK-NEXT: call void @idiom_host_hint(
// CHECK-NEXT: %idiom.host.token = call i64 @idiom_host_begin(ptr nonnull @idiom_strided_0.desc)
// CHECK-NEXT: br label %[[FALLBACK]]
// CHECK: [[FALLBACK]]:
void strided(int m, int n, float alpha, const float *a, int lda, const float *x,
             int incx, float *y, int incy) {
  for (int i = 0; i < m; i++) {
    float sum = 0;
    for (int j = 0; j < n; j++)
      sum += a[i * lda + j] * x[j * incx];
    y[i * incy] = alpha * sum;
  }
}

// y's stride is 1: no run-time test.
// CHECK-LABEL: define {{.*}} @atax_tmp(
// CHECK-NOT: %idiom.check
// CHECK: idiom.call:
// CHECK: store i64 1, ptr %idiom.sizes
// CHECK: %idiom.ok = call i32 @idiom_run(ptr nonnull @idiom_atax_tmp_1.desc, ptr nonnull %idiom.args, i32 5,
void atax_tmp(int m, int n, const float *A, const float *x, float *tmp) {
  for (int i = 0; i < m; i++) {
    tmp[i] = 0.0f;
    for (int j = 0; j < n; j++)
      tmp[i] = tmp[i] + A[i * n + j] * x[j];
  }
}
