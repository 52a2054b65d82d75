// The work hint (idiomrt.h, idiom_work_hint; passes/NestWork.h) on PoCL:
// each call passes the number of times its original nest's innermost body
// runs, counted row by row for a band (PolyBench trmm: k from i + 1) and a
// triangle (SYRK: j <= i); a plain map passes none. IDIOM_DEBUG prints the
// hints and the lower bound of host time the runtime derives (0.25 ns an
// iteration of a floating-point chain, runtime/lib/devwait.c): too small
// here to wait for a device, so every call runs as before (the first of
// its size class on the host) and the output is the sequential build's.
// RUN: %clang -O2 %s -o %t.seq
// RUN: %clang-idiom -fplugin=%plugin -g %s -lidiomrt -mllvm -idiom-residency=false -o %t.idiom
// RUN: %t.seq > %t.expected
// RUN: env IDIOM_DEBUG=1 IDIOM_CACHE_DIR=off %t.idiom > %t.out 2> %t.debug
// RUN: diff %t.expected %t.out
// RUN: FileCheck %s < %t.debug
// RUN: env IDIOM_COST=off IDIOM_MIN_TRIP=0 %t.idiom > %t.forced
// RUN: python3 %S/Inputs/tolcompare.py %t.expected %t.forced
#include <stdio.h>

#define M 64
#define N 48
#define K 24

static float A[M][M], B[M][N], C[M][N], S[M][M], X[M][K], Y[4 * M * N];

// 48 columns x (63 + 62 + ... + 0) band iterations; a chain of fmuladds.
// CHECK: work-hint.c:[[@LINE+3]]: work hint 96768 iterations, FP chain: at least 0.024 ms on the host
// CHECK-NEXT: work-hint.c:[[@LINE+2]]: declined: cost model: measuring the host loop
__attribute__((noinline)) static void trmm(int m, int n, float alpha) {
  for (int i = 0; i < m; i++)
    for (int j = 0; j < n; j++) {
      for (int k = i + 1; k < m; k++)
        B[i][j] += A[k][i] * B[k][j];
      B[i][j] = alpha * B[i][j];
    }
}

// (1 + 2 + ... + 64) x 24 iterations of the k loop.
// CHECK: work-hint.c:[[@LINE+3]]: work hint 49920 iterations, FP chain: at least 0.012 ms on the host
// CHECK-NEXT: work-hint.c:[[@LINE+2]]: declined: cost model: measuring the host loop
__attribute__((noinline)) static void syrk(int n, int k) {
  for (int i = 0; i < n; i++)
    for (int j = 0; j <= i; j++) {
      float s = 0;
      for (int q = 0; q < k; q++)
        s += X[i][q] * X[j][q];
      S[i][j] = 1.5f * s + 0.5f * S[i][j];
    }
}

// i-k-j: 64 x 64 x 48 iterations, vectorizable on the host (no chain).
// CHECK: work-hint.c:[[@LINE+3]]: work hint 196608 iterations: at least 0.001 ms on the host
// CHECK-NEXT: work-hint.c:[[@LINE+2]]: declined: cost model: measuring the host loop
__attribute__((noinline)) static void gemm(int m, int n) {
  for (int i = 0; i < m; i++)
    for (int k = 0; k < m; k++)
      for (int j = 0; j < n; j++)
        C[i][j] += A[i][k] * B[k][j];
}

// A map over its iteration space: no hint.
// CHECK-NOT: work hint
// CHECK: work-hint.c:[[@LINE+2]]: declined: cost model: measuring the host loop
__attribute__((noinline)) static void scale(int n) {
  for (int i = 0; i < n; i++)
    Y[i] = 2.0f * Y[i] + 1.0f;
}

int main(void) {
  for (int i = 0; i < M; i++)
    for (int j = 0; j < M; j++) {
      A[i][j] = (float)((i * 7 + j * 3) % 11) / 16.0f;
      S[i][j] = (float)((i + j) % 5);
    }
  for (int i = 0; i < M; i++) {
    for (int j = 0; j < N; j++)
      B[i][j] = (float)((i * 5 + j) % 13) / 8.0f;
    for (int q = 0; q < K; q++)
      X[i][q] = (float)((i * 3 + q) % 7) / 4.0f;
  }
  for (int i = 0; i < 4 * M * N; i++)
    Y[i] = (float)(i % 9);
  trmm(M, N, 0.5f);
  syrk(M, K);
  gemm(M, N);
  scale(4 * M * N);
  double sb = 0, ss = 0, sc = 0, sy = 0;
  for (int i = 0; i < M; i++) {
    for (int j = 0; j < N; j++)
      sb += B[i][j], sc += C[i][j];
    for (int j = 0; j <= i; j++)
      ss += S[i][j];
  }
  for (int i = 0; i < 4 * M * N; i++)
    sy += Y[i];
  printf("trmm %.6e\nsyrk %.6e\ngemm %.6e\nscale %.6e\n", sb, ss, sc, sy);
  return 0;
}
