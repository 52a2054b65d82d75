// GEMMs end to end on PoCL at odd sizes (M x N x K = 67 x 45 x 33): the
// offloaded build prints what the sequential build prints, within the GEMM
// tolerance |d| <= 1e-4 * (K * max|a| * max|b| * |alpha| + |beta| * max|c|)
// (f32; 1e-12 for f64): the device may fuse llvm.fmuladd where the host does
// not. Layouts: row-major ijk with alpha/beta, Parboil's column-major
// C = alpha*A*B^T + beta*C with a padded leading dimension of C (tested at
// run time), i-k-j in place on 2-D double arrays, transposed B, a square
// product with one size variable. A call whose
// C is A declines (overlapping ranges) and the original loop runs.
// RUN: %clang -O2 %s -o %t.seq
// RUN: %clang-idiom -g %s -lidiomrt -o %t.idiom
// RUN: %clang-idiom -g -ffp-contract=off %s -lidiomrt -o %t.off
// RUN: %t.seq > %t.expected
// RUN: env IDIOM_MIN_TRIP=1 IDIOM_STATS=1 %t.idiom > %t.out 2> %t.stats
// RUN: python3 %S/Inputs/tolcompare.py %t.expected %t.out
// RUN: FileCheck %s --check-prefix=STATS < %t.stats
// RUN: env IDIOM_MIN_TRIP=1 %t.off > %t.offout
// RUN: python3 %S/Inputs/tolcompare.py %t.expected %t.offout
// RUN: env IDIOM_MIN_TRIP=1 IDIOM_DEVICE=seq %t.idiom > %t.seqout
// RUN: diff %t.expected %t.seqout
#include <math.h>
#include "Inputs/gemm_check.h"
#include <stdio.h>

#define M 67
#define N 45
#define K 33
#define LDC 70 // padded leading dimension of Parboil's C

// Row-major, inner product, C = alpha*A*B + beta*C.
__attribute__((noinline)) void sgemm_rm(int m, int n, int k, float alpha,
                                        const float *a, const float *b,
                                        float beta, float *c) {
  // STATS-DAG: idiom-stats: gemm.c:[[@LINE+1]] gemm calls=2 offloaded=1 device="{{.+}}" {{.*}}fallbacks=1 {{.*}}reasons="overlapping input/output ranges
  for (int i = 0; i < m; i++)
    for (int j = 0; j < n; j++) {
      float s = 0;
      for (int p = 0; p < k; p++)
        s += a[i * k + p] * b[p * n + j];
      c[i * n + j] = alpha * s + beta * c[i * n + j];
    }
}

// Parboil's sgemm: column-major, C = alpha*A*B^T + beta*C.
__attribute__((noinline)) void sgemm_parboil(int m, int n, int k, float alpha,
                                             const float *a, int lda,
                                             const float *b, int ldb,
                                             float beta, float *c, int ldc) {
  // A leading dimension of C shorter than a column fails the run-time test
  // before the call: the original loop runs, and the stats do not see it.
  // STATS-DAG: idiom-stats: gemm.c:[[@LINE+1]] gemm calls=1 offloaded=1 device="{{.+}}" {{.*}}fallbacks=0
  for (int mm = 0; mm < m; ++mm)
    for (int nn = 0; nn < n; ++nn) {
      float s = 0.0f;
      for (int i = 0; i < k; ++i)
        s += a[mm + i * lda] * b[nn + i * ldb];
      c[mm + nn * ldc] = c[mm + nn * ldc] * beta + alpha * s;
    }
}

// i-k-j order, C updated in place, 2-D arrays of double.
__attribute__((noinline)) void dgemm_ikj(double (*c)[N], double (*a)[K],
                                         double (*b)[N]) {
  // STATS-DAG: idiom-stats: gemm.c:[[@LINE+1]] gemm calls=1 offloaded=1 device="{{.+}}" {{.*}}fallbacks=0
  for (int i = 0; i < M; i++)
    for (int p = 0; p < K; p++)
      for (int j = 0; j < N; j++)
        c[i][j] += a[i][p] * b[p][j];
}

// Transposed B: C = A * B^T, B stored N x K.
__attribute__((noinline)) void sgemm_tb(int m, int n, int k, const float *a,
                                        const float *b, float *c) {
  // STATS-DAG: idiom-stats: gemm.c:[[@LINE+1]] gemm calls=1 offloaded=1 device="{{.+}}" {{.*}}fallbacks=0
  for (int i = 0; i < m; i++)
    for (int j = 0; j < n; j++) {
      float s = 0;
      for (int p = 0; p < k; p++)
        s += a[i * k + p] * b[j * k + p];
      c[i * n + j] = s;
    }
}

// Square with one size n: M, N and K are separate parameters of one value.
__attribute__((noinline)) void sgemm_sq(int n, const float *a, const float *b,
                                        float *c) {
  // STATS-DAG: idiom-stats: gemm.c:[[@LINE+1]] gemm calls=1 offloaded=1 device="{{.+}}" {{.*}}fallbacks=0
  for (int i = 0; i < n; i++)
    for (int j = 0; j < n; j++) {
      float s = 0;
      for (int p = 0; p < n; p++)
        s += a[i * n + p] * b[p * n + j];
      c[i * n + j] = s;
    }
}

static float fa[M * K], fb[K * N], fc[LDC * N], fs[48 * 48], fs2[48 * 48];
static double da[M][K], db[K][N], dc[M][N];

int main(void) {
  for (int i = 0; i < M * K; i++)
    fa[i] = val(i, 1);
  for (int i = 0; i < K * N; i++)
    fb[i] = val(i, 2);
  for (int i = 0; i < LDC * N; i++)
    fc[i] = val(i, 3);
  // |a|, |b|, |c| <= 1.
  sgemm_rm(M, N, K, 1.5f, fa, fb, -0.5f, fc);
  print_f("rm", fc, M * N, 1e-4 * (K * 1.5 + 0.5));

  for (int i = 0; i < LDC * N; i++)
    fc[i] = val(i, 4);
  // A is M x K (lda = M), B is N x K (ldb = N), C is M x N in LDC rows.
  sgemm_parboil(M, N, K, 0.75f, fa, M, fb, N, 2.0f, fc, LDC);
  // The padding rows stay as they were.
  print_f("parboil", fc, LDC * N, 1e-4 * (K * 0.75 + 2.0));
  // ldc < m: columns of C overlap, the last write wins (sequential loop).
  // Fresh inputs: the offloaded call above may differ in the last bits
  // (fused multiply-add), and this one must be exact.
  for (int i = 0; i < LDC * N; i++)
    fc[i] = val(i, 4);
  sgemm_parboil(M, N, K, 0.75f, fa, M, fb, N, 2.0f, fc, M - 20);
  print_f("overlap", fc, LDC * N, 0);

  for (int i = 0; i < M; i++)
    for (int p = 0; p < K; p++)
      da[i][p] = val(i * K + p, 5);
  for (int p = 0; p < K; p++)
    for (int j = 0; j < N; j++)
      db[p][j] = val(p * N + j, 6);
  for (int i = 0; i < M; i++)
    for (int j = 0; j < N; j++)
      dc[i][j] = val(i * N + j, 7);
  dgemm_ikj(dc, da, db);
  printf("tol ikj 1e-12\n");
  for (int i = 0; i < M; i++)
    for (int j = 0; j < N; j++)
      printf("ikj %d %d %.17g\n", i, j, dc[i][j]);

  sgemm_tb(M, N, K, fa, fb, fc);
  print_f("tb", fc, M * N, 1e-4 * K);

  sgemm_sq(K, fa, fb, fc); // 33 x 33 x 33
  print_f("sq", fc, K * K, 1e-4 * K);

  // C is A (48 x 48 x 48): sequentially the product reads elements it has
  // already overwritten; the runtime sees the overlap and declines.
  for (int i = 0; i < 48 * 48; i++) {
    fs[i] = val(i, 8);
    fs2[i] = val(i, 9);
  }
  sgemm_rm(48, 48, 48, 1.0f, fs, fs2, 0.0f, fs);
  print_f("alias", fs, 48 * 48, 0);
  return 0;
}
