// The flags field of each buffer argument (idiom_arg::flags, bit 0
// IDIOM_ARG_DENSE): set only where one unconditional store with a contiguous
// footprint writes every element of the range copied back, so the runtime
// may copy the whole range back; elsewhere 0, and the runtime writes back
// only the bytes that changed (a concurrent writer of the other bytes keeps
// its writes). Fields: { kind, flags, ptr, bytes, value }; kinds 1 OUT,
// 2 INOUT, 4 I64 (an IN buffer's constant part is all zeros).
// RUN: %clang-idiom -S -emit-llvm %s -o %t.ll
// RUN: sed "s/{ i32, i32, ptr, i64, i64 } //g" %t.ll | FileCheck %s

struct P { float x, v; };

// (x, read at the element o's store writes, is flagged IDIOM_ARG_INPLACE: 4;
// test/lit/stitch/inplace-input.c.)
// CHECK-DAG: @idiom_scale_{{[0-9]+}}.args = {{.*}} { i32 0, i32 4, {{.*}}{ i32 1, i32 1,
void scale(float *restrict o, const float *restrict x, int n) {
  for (int i = 0; i < n; i++)
    o[i] = 2.0f * x[i];
}

// In place: the load reads exactly the elements the store writes.
// CHECK-DAG: @idiom_inplace_{{[0-9]+}}.args = {{.*}} { i32 2, i32 1,
void inplace(float *a, int n) {
  for (int i = 0; i < n; i++)
    a[i] = a[i] * 0.5f;
}

// Array of structs: the range holds .v, which the loop never writes.
// CHECK-DAG: @idiom_aos_{{[0-9]+}}.args = {{.*}} { i32 2, i32 0,
void aos(struct P *p, int n) {
  for (int i = 0; i < n; i++)
    p[i].x = p[i].x * 3.0f;
}

// Two stores to one array: not dense, even where they tile it.
// CHECK-DAG: @idiom_pairs_{{[0-9]+}}.args = {{.*}} { i32 1, i32 0,
void pairs(float *restrict o, const float *restrict x, int n) {
  for (int i = 0; i < n; i++) {
    o[2 * i] = x[i];
    o[2 * i + 1] = -x[i];
  }
}

// 2-D, rows that abut (row length = inner trip count): dense.
// CHECK-DAG: @idiom_rows_{{[0-9]+}}.args = {{.*}} { i32 0, i32 4, {{.*}}{ i32 1, i32 1,
void rows(float *restrict c, const float *restrict a, int m, int n) {
  for (int i = 0; i < m; i++)
    for (int j = 0; j < n; j++)
      c[i * n + j] = a[i * n + j] * 2.0f;
}

// GEMM: C written whole (leading dimension = row length, the store runs for
// every (i, j)): dense, so C is neither copied in nor diffed on the way back.
// A and B come first (IN).
// CHECK-DAG: @idiom_gemm_dense_{{[0-9]+}}.args = {{.*}}zeroinitializer, zeroinitializer, { i32 1, i32 1,
void gemm_dense(int m, int n, int k, const float *restrict a,
                const float *restrict b, float *restrict c) {
  for (int i = 0; i < m; i++)
    for (int j = 0; j < n; j++) {
      float s = 0;
      for (int p = 0; p < k; p++)
        s += a[i * k + p] * b[p * n + j];
      c[i * n + j] = s;
    }
}

// C += A B: read and written whole (INOUT, dense).
// CHECK-DAG: @idiom_gemm_acc_{{[0-9]+}}.args = {{.*}}zeroinitializer, zeroinitializer, { i32 2, i32 1,
void gemm_acc(int m, int n, int k, const float *restrict a,
              const float *restrict b, float *restrict c) {
  for (int i = 0; i < m; i++)
    for (int j = 0; j < n; j++) {
      float s = c[i * n + j];
      for (int p = 0; p < k; p++)
        s += a[i * k + p] * b[p * n + j];
      c[i * n + j] = s;
    }
}

// A sub-matrix of C (leading dimension ldc, maybe longer than a row): the
// gaps between rows are not written, so not dense.
// CHECK-DAG: @idiom_gemm_ld_{{[0-9]+}}.args = {{.*}}zeroinitializer, zeroinitializer, { i32 1, i32 0,
void gemm_ld(int m, int n, int k, int ldc, const float *restrict a,
             const float *restrict b, float *restrict c) {
  for (int i = 0; i < m; i++)
    for (int j = 0; j < n; j++) {
      float s = 0;
      for (int p = 0; p < k; p++)
        s += a[i * k + p] * b[p * n + j];
      c[i * ldc + j] = s;
    }
}
