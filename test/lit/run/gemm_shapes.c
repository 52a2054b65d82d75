// Other GEMM shapes end to end on PoCL (see gemm.c for the tolerance): the
// running store of i-j-k in place, k outermost, j-i-k with alpha and beta on
// 2-D arrays, a hoisted alpha*A[i][k], a sum that starts from C, a batch of
// products whose offsets recur in an enclosing loop, a negative-step loop.
// RUN: %clang -O2 %s -o %t.seq
// RUN: %clang-idiom -g %s -lidiomrt -o %t.idiom -Rpass=idiom-offload 2> %t.remarks
// RUN: FileCheck %s --check-prefix=REMARK < %t.remarks
// RUN: %t.seq > %t.expected
// RUN: env IDIOM_MIN_TRIP=1 IDIOM_STATS=1 %t.idiom > %t.out 2> %t.stats
// RUN: python3 %S/Inputs/tolcompare.py %t.expected %t.out
// RUN: FileCheck %s --check-prefix=STATS < %t.stats
#include <stdio.h>

#define M 37
#define N 29
#define K 23

__attribute__((noinline)) void ijk_in_place(int m, int n, int k, const float *a,
                                            const float *b, float *c) {
  // REMARK: gemm_shapes.c:[[@LINE+2]]:3: remark: offloaded GEMM (gemm)
  // STATS-DAG: gemm_shapes.c:[[@LINE+1]] gemm calls=1 offloaded=1
  for (int i = 0; i < m; i++)
    for (int j = 0; j < n; j++)
      for (int p = 0; p < k; p++)
        c[i * n + j] += a[i * k + p] * b[p * n + j];
}

__attribute__((noinline)) void kij(int m, int n, int k, const double *a,
                                   const double *b, double *c) {
  // REMARK: gemm_shapes.c:[[@LINE+2]]:3: remark: offloaded GEMM (gemm)
  // STATS-DAG: gemm_shapes.c:[[@LINE+1]] gemm calls=1 offloaded=1
  for (int p = 0; p < k; p++)
    for (int i = 0; i < m; i++)
      for (int j = 0; j < n; j++)
        c[i * n + j] += a[i * k + p] * b[p * n + j];
}

__attribute__((noinline)) void jik(float alpha, float beta, float (*a)[K],
                                   float (*b)[N], float (*c)[N]) {
  // REMARK: gemm_shapes.c:[[@LINE+2]]:3: remark: offloaded GEMM (gemm)
  // STATS-DAG: gemm_shapes.c:[[@LINE+1]] gemm calls=1 offloaded=1
  for (int j = 0; j < N; j++)
    for (int i = 0; i < M; i++) {
      float sum = 0;
      for (int p = 0; p < K; p++)
        sum += b[p][j] * a[i][p];
      c[i][j] = beta * c[i][j] + alpha * sum;
    }
}

__attribute__((noinline)) void hoisted(float alpha, float (*a)[K],
                                       float (*b)[N], float (*c)[N]) {
  // REMARK: gemm_shapes.c:[[@LINE+2]]:3: remark: offloaded GEMM (gemm)
  // STATS-DAG: gemm_shapes.c:[[@LINE+1]] gemm calls=1 offloaded=1
  for (int i = 0; i < M; i++)
    for (int p = 0; p < K; p++) {
      float t = alpha * a[i][p];
      for (int j = 0; j < N; j++)
        c[i][j] += t * b[p][j];
    }
}

__attribute__((noinline)) void sum_from_c(float (*a)[K], float (*b)[N],
                                          float (*c)[N]) {
  // REMARK: gemm_shapes.c:[[@LINE+2]]:3: remark: offloaded GEMM (gemm)
  // STATS-DAG: gemm_shapes.c:[[@LINE+1]] gemm calls=1 offloaded=1
  for (int i = 0; i < M; i++)
    for (int j = 0; j < N; j++) {
      float sum = c[i][j];
      for (int p = 0; p < K; p++)
        sum += a[i][p] * b[p][j];
      c[i][j] = sum;
    }
}

// Three products, one per iteration of t; each is its own offload.
__attribute__((noinline)) void batched(int nb, const float *a, const float *b,
                                       float *c) {
  for (int t = 0; t < nb; t++)
    // REMARK: gemm_shapes.c:[[@LINE+2]]:5: remark: offloaded GEMM (gemm)
    // STATS-DAG: gemm_shapes.c:[[@LINE+1]] gemm calls=3 offloaded=3
    for (int i = 0; i < M; i++)
      for (int j = 0; j < N; j++) {
        float sum = 0;
        for (int p = 0; p < K; p++)
          sum += a[t * M * K + i * K + p] * b[t * K * N + p * N + j];
        c[t * M * N + i * N + j] = sum;
      }
}

// i counts down: C's rows are visited from the last, strides are negative.
__attribute__((noinline)) void down(const double *a, const double *b, double *c) {
  // REMARK: gemm_shapes.c:[[@LINE+2]]:3: remark: offloaded GEMM (gemm)
  // STATS-DAG: gemm_shapes.c:[[@LINE+1]] gemm calls=1 offloaded=1
  for (int i = M - 1; i >= 0; i--)
    for (int j = 0; j < N; j++) {
      double s = 0;
      for (int p = 0; p < K; p++)
        s += a[i * K + p] * b[p * N + j];
      c[i * N + j] = s;
    }
}

static float fa[3 * M * K], fb[3 * K * N], fc[3 * M * N];
static double da[M * K], db[K * N], dc[M * N];

static float val(int i, int salt) {
  return (float)(((i * 7919 + salt * 104729) % 2001) - 1000) / 1000.0f;
}

static void init(void) {
  for (int i = 0; i < 3 * M * K; i++)
    fa[i] = val(i, 1);
  for (int i = 0; i < 3 * K * N; i++)
    fb[i] = val(i, 2);
  for (int i = 0; i < 3 * M * N; i++)
    fc[i] = val(i, 3);
  for (int i = 0; i < M * K; i++)
    da[i] = val(i, 4);
  for (int i = 0; i < K * N; i++)
    db[i] = val(i, 5);
  for (int i = 0; i < M * N; i++)
    dc[i] = val(i, 6);
}

static void print_f(const char *name, const float *x, int n, double tol) {
  printf("tol %s %.3g\n", name, tol);
  for (int i = 0; i < n; i++)
    printf("%s %d %.9g\n", name, i, x[i]);
}

static void print_d(const char *name, const double *x, int n) {
  printf("tol %s 1e-12\n", name);
  for (int i = 0; i < n; i++)
    printf("%s %d %.17g\n", name, i, x[i]);
}

int main(void) {
  init();
  ijk_in_place(M, N, K, fa, fb, fc);
  print_f("ijk_in_place", fc, M * N, 1e-4 * (K + 1));
  kij(M, N, K, da, db, dc);
  print_d("kij", dc, M * N);
  init();
  jik(1.25f, -0.5f, (float(*)[K])fa, (float(*)[N])fb, (float(*)[N])fc);
  print_f("jik", fc, M * N, 1e-4 * (K * 1.25 + 0.5));
  hoisted(0.5f, (float(*)[K])fa, (float(*)[N])fb, (float(*)[N])fc);
  print_f("hoisted", fc, M * N, 1e-4 * (K * 1.25 + 0.5 + K * 0.5));
  init();
  sum_from_c((float(*)[K])fa, (float(*)[N])fb, (float(*)[N])fc);
  print_f("sum_from_c", fc, M * N, 1e-4 * (K + 1));
  batched(3, fa, fb, fc);
  print_f("batched", fc, 3 * M * N, 1e-4 * K);
  down(da, db, dc);
  print_d("down", dc, M * N);
  return 0;
}
