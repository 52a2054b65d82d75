// The work hint before idiom_run (idiomrt.h, idiom_work_hint;
// passes/NestWork.h): a nest whose innermost body runs more often than its
// iteration space counts (a GEMM, either loop order; a GEMV) or that
// carries a serial floating-point chain (a float sum, a GEMM in i-j-k
// order) tells the runtime its innermost iterations, with flag 1 for the
// chain, right before idiom_run; a plain map and an integer sum, whose
// work the runtime knows from its arguments, get no call; nor does a sum
// written with reassoc (it vectorizes on the host).
// RUN: %clang-idiom -fno-discard-value-names -S -emit-llvm %s -o %t.ll
// RUN: FileCheck %s < %t.ll

// CHECK-LABEL: define {{.*}} @gemm_ijk(
// CHECK: idiom.call:
// CHECK: call void @idiom_work_hint(ptr nonnull @idiom_gemm_ijk_0.desc, i64 %{{.*}}, i32 1)
// CHECK-NEXT: %idiom.ok = call i32 @idiom_run(ptr nonnull @idiom_gemm_ijk_0.desc,
void gemm_ijk(int n, float A[n][n], float B[n][n], float C[n][n]) {
  for (int i = 0; i < n; i++)
    for (int j = 0; j < n; j++) {
      float s = 0;
      for (int k = 0; k < n; k++)
        s += A[i][k] * B[k][j];
      C[i][j] = s;
    }
}

// CHECK-LABEL: define {{.*}} @gemm_ikj(
// CHECK: call void @idiom_work_hint(ptr nonnull @idiom_gemm_ikj_1.desc, i64 %{{.*}}, i32 0)
// CHECK-NEXT: %idiom.ok = call i32 @idiom_run(ptr nonnull @idiom_gemm_ikj_1.desc,
void gemm_ikj(int n, float alpha, float A[n][n], float B[n][n],
              float C[n][n]) {
  for (int i = 0; i < n; i++)
    for (int k = 0; k < n; k++)
      for (int j = 0; j < n; j++)
        C[i][j] += alpha * A[i][k] * B[k][j];
}

// CHECK-LABEL: define {{.*}} @fsum(
// CHECK: call void @idiom_work_hint(ptr nonnull @idiom_fsum_2.desc, i64 %n, i32 1)
// CHECK-NEXT: %idiom.ok = call i32 @idiom_run(ptr nonnull @idiom_fsum_2.desc,
float fsum(const float *x, long n) {
  float s = 0;
  for (long i = 0; i < n; i++)
    s += x[i];
  return s;
}

// CHECK-LABEL: define {{.*}} @isum(
// CHECK-NOT: idiom_work_hint
// CHECK: %idiom.ok = call i32 @idiom_run(ptr nonnull @idiom_isum_3.desc,
int isum(const int *x, long n) {
  int s = 0;
  for (long i = 0; i < n; i++)
    s += x[i];
  return s;
}

// CHECK-LABEL: define {{.*}} @saxpy(
// CHECK-NOT: idiom_work_hint
// CHECK: %idiom.ok = call i32 @idiom_run(ptr nonnull @idiom_saxpy_4.desc,
void saxpy(float *restrict y, const float *restrict x, long n) {
  for (long i = 0; i < n; i++)
    y[i] += 2.f * x[i];
}

// CHECK-LABEL: define {{.*}} @gemv(
// CHECK: call void @idiom_work_hint(ptr nonnull @idiom_gemv_5.desc, i64 %{{.*}}, i32 1)
// CHECK-NEXT: %idiom.ok = call i32 @idiom_run(ptr nonnull @idiom_gemv_5.desc,
void gemv(int n, int m, float A[n][m], float *restrict x, float *restrict y) {
  for (int i = 0; i < n; i++) {
    float s = 0;
    for (int j = 0; j < m; j++)
      s += A[i][j] * x[j];
    y[i] = s;
  }
}

// CHECK-LABEL: define {{.*}} @fsum_fast(
// CHECK-NOT: idiom_work_hint
// CHECK: %idiom.ok = call i32 @idiom_run(
// CHECK-LABEL: declare void @idiom_work_hint(ptr, i64, i32)
float fsum_fast(const float *x, long n) {
#pragma clang fp reassociate(on)
  float s = 0;
  for (long i = 0; i < n; i++)
    s += x[i];
  return s;
}
