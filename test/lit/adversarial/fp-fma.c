// Contraction follows the host, and for GEMMs the floating-point licence.
// With -mfma (this CPU has FMA) the back end fuses llvm.fmuladd, so the
// kernels evaluate a*b+c as fma(a, b, c). Without it maps evaluate it
// unfused (the sequential build's bits), and the GEMM is fused under the
// licence (-idiom-fp-reassoc, the default): its lines are those of the
// -mfma sequential build, which fuses the same operations in the same order.
// With -idiom-fp-reassoc=false everything is the sequential build's. The
// data make fused and unfused results differ.
// RUN: %clang -O2 -mfma %s -o %t.fma.seq
// RUN: %clang-idiom -mfma %s -lidiomrt -o %t.fma.idiom
// RUN: %t.fma.seq > %t.fma.expected
// RUN: env IDIOM_MIN_TRIP=0 IDIOM_STATS=1 %t.fma.idiom > %t.fma.out 2> %t.fma.stats
// RUN: diff %t.fma.expected %t.fma.out
// RUN: FileCheck %s --check-prefix=STATS < %t.fma.stats
// RUN: %clang -O2 %s -o %t.seq
// RUN: %clang-idiom %s -lidiomrt -o %t.idiom
// RUN: %t.seq > %t.expected
// RUN: env IDIOM_MIN_TRIP=0 IDIOM_STATS=1 %t.idiom > %t.out 2> %t.stats
// RUN: grep ' map: ' %t.expected > %t.expected.maps
// RUN: grep ' map: ' %t.out > %t.out.maps
// RUN: diff %t.expected.maps %t.out.maps
// RUN: grep '^gemm' %t.fma.expected > %t.fma.expected.gemm
// RUN: grep '^gemm' %t.out > %t.out.gemm
// RUN: diff %t.fma.expected.gemm %t.out.gemm
// RUN: FileCheck %s --check-prefix=STATS < %t.stats
// RUN: %clang-idiom -fplugin=%plugin -mllvm -idiom-fp-reassoc=false %s -lidiomrt -o %t.exact
// RUN: env IDIOM_MIN_TRIP=0 IDIOM_STATS=1 %t.exact > %t.exactout 2> %t.exactstats
// RUN: diff %t.expected %t.exactout
// RUN: FileCheck %s --check-prefix=STATS < %t.exactstats
// The two sequential builds differ, in the maps and in the GEMM, so each
// comparison above can fail.
// RUN: grep ' map: ' %t.fma.expected > %t.fma.expected.maps
// RUN: not diff %t.expected.maps %t.fma.expected.maps
// RUN: grep '^gemm: ' %t.expected > %t.expected.gemm
// RUN: grep '^gemm: ' %t.fma.expected > %t.fma.expected.gemm1
// RUN: not diff %t.expected.gemm %t.fma.expected.gemm1
#include "Inputs/hashf.h"
#include <stdio.h>

#define N 4096
#define M 64
static float a[N], b[N], c[N], o[N];
static double da[N], db[N], dc[N], dout[N];
static float A[M * M], B[M * M], C[M * M];

__attribute__((noinline)) static void muladd(float *out, const float *x, const float *y,
                                             const float *z, int n) {
  for (int i = 0; i < n; i++)
    out[i] = x[i] * y[i] + z[i];
}

__attribute__((noinline)) static void muladdd(double *out, const double *x, const double *y,
                                              const double *z, int n) {
  for (int i = 0; i < n; i++)
    out[i] = x[i] * y[i] - z[i];
}

__attribute__((noinline)) static void gemm(float *restrict Cm, const float *restrict Am,
                                           const float *restrict Bm, int n, float alpha,
                                           float beta) {
  for (int i = 0; i < n; i++)
    for (int j = 0; j < n; j++) {
      float s = 0.0f;
      for (int k = 0; k < n; k++)
        s += Am[i * n + k] * Bm[k * n + j];
      Cm[i * n + j] = alpha * s + beta * Cm[i * n + j];
    }
}

int main(void) {
  for (int i = 0; i < N; i++) {
    a[i] = 1.0f + (float)(i % 97) * 0x1p-13f;
    b[i] = 1.0f + (float)(i % 89) * 0x1p-13f;
    c[i] = -a[i] * b[i] * (i % 3 ? 1.0f : 0.5f);
    da[i] = 1.0 + (double)(i % 97) * 0x1p-29;
    db[i] = 1.0 - (double)(i % 83) * 0x1p-29;
    dc[i] = da[i] * db[i];
  }
  muladd(o, a, b, c, N);
  printf("float map: %08x %a %a %a\n", hashf(o, N), o[5], o[100], o[N - 1]);
  muladdd(dout, da, db, dc, N);
  printf("double map: %a %a %a\n", dout[5], dout[100], dout[N - 1]);
  for (int i = 0; i < M * M; i++) {
    A[i] = (float)((i * 7919) % 1009) / 1009.0f - 0.5f;
    B[i] = (float)((i * 104729) % 997) / 997.0f - 0.5f;
    C[i] = (float)(i % 13) - 6.0f;
  }
  gemm(C, A, B, M, 1.5f, -0.75f);
  printf("gemm: %08x %a %a\n", hashf(C, M * M), C[0], C[M * M - 1]);
  // alpha = 0 with infinities in A: NaN rows, and zeros whose sign follows
  // alpha * s and beta * C.
  for (int i = 0; i < M; i++)
    A[i * M + (i * 5) % M] = i % 2 ? __builtin_inff() : -__builtin_inff();
  gemm(C, A, B, M, 0.0f, 0.0f);
  int neg = 0;
  for (int i = 0; i < M * M; i++)
    neg += __builtin_signbit(C[i]) != 0;
  printf("gemm alpha=0: %08x negative %d\n", hashf(C, M * M), neg);
  return 0;
}
// STATS-DAG: idiom-stats: fp-fma.c:muladd map calls=1 offloaded=1
// STATS-DAG: idiom-stats: fp-fma.c:muladdd map calls=1 offloaded=1
// STATS-DAG: idiom-stats: fp-fma.c:gemm gemm calls=2 offloaded=2
