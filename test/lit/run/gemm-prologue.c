// PolyBench gemm end to end on PoCL: `for (j) C[i][j] *= beta;` then the
// i-k-j update in the same loop i, lifted as one GEMM whose INIT is beta
// times the old element (the prologue of the chain), at odd sizes (37 x 29
// x 41), through pointers and on 2-D arrays. The offloaded build prints
// what the sequential build prints within the GEMM tolerance; a call whose
// C overlaps A declines (overlapping ranges) and the loop runs.
// RUN: %clang -O2 %s -o %t.seq
// RUN: %clang-idiom -g %s -lidiomrt -o %t.idiom
// RUN: %t.seq > %t.expected
// RUN: env IDIOM_MIN_TRIP=1 IDIOM_STATS=1 %t.idiom > %t.out 2> %t.stats
// RUN: python3 %S/Inputs/tolcompare.py %t.expected %t.out
// RUN: FileCheck %s --check-prefix=STATS < %t.stats
// RUN: env IDIOM_MIN_TRIP=1 IDIOM_DEVICE=seq %t.idiom > %t.seqout
// RUN: diff %t.expected %t.seqout
#include "Inputs/gemm_check.h"
#include <stdio.h>

#define NI 37
#define NJ 29
#define NK 41

static float a[NI * NK], b[NK * NJ], c[NI * NJ], sq[NI * NI], sqb[NI * NI];
static double A2[NI][NK], B2[NK][NJ], C2[NI][NJ];

__attribute__((noinline)) void gemm(int ni, int nj, int nk, float alpha,
                                    float beta, float *pc, const float *pa,
                                    const float *pb) {
  // STATS-DAG: idiom-stats: gemm-prologue.c:[[@LINE+1]] gemm calls=2 offloaded=1 device="{{.+}}" {{.*}}fallbacks=1 {{.*}}reasons="overlapping input/output ranges
  for (int i = 0; i < ni; i++) {
    for (int j = 0; j < nj; j++)
      pc[i * nj + j] *= beta;
    for (int k = 0; k < nk; k++)
      for (int j = 0; j < nj; j++)
        pc[i * nj + j] += alpha * pa[i * nk + k] * pb[k * nj + j];
  }
}

__attribute__((noinline)) void gemm2d(double alpha, double beta) {
  // STATS-DAG: idiom-stats: gemm-prologue.c:[[@LINE+1]] gemm calls=1 offloaded=1 device=
  for (int i = 0; i < NI; i++) {
    for (int j = 0; j < NJ; j++)
      C2[i][j] *= beta;
    for (int k = 0; k < NK; k++)
      for (int j = 0; j < NJ; j++)
        C2[i][j] += alpha * A2[i][k] * B2[k][j];
  }
}

int main(void) {
  for (int i = 0; i < NI * NK; i++)
    a[i] = val(i, 1);
  for (int i = 0; i < NK * NJ; i++)
    b[i] = val(i, 2);
  for (int i = 0; i < NI * NJ; i++)
    c[i] = val(i, 3);
  gemm(NI, NJ, NK, 1.5f, 1.2f, c, a, b);
  print_f("gemm", c, NI * NJ, 1e-4 * (1.5 * NK + 1.2));
  for (int i = 0; i < NI; i++)
    for (int k = 0; k < NK; k++)
      A2[i][k] = val(i * NK + k, 4);
  for (int k = 0; k < NK; k++)
    for (int j = 0; j < NJ; j++)
      B2[k][j] = val(k * NJ + j, 5);
  for (int i = 0; i < NI; i++)
    for (int j = 0; j < NJ; j++)
      C2[i][j] = val(i * NJ + j, 6);
  gemm2d(0.75, -0.5);
  printf("tol gemm2d 1e-12\n");
  for (int i = 0; i < NI; i++)
    for (int j = 0; j < NJ; j++)
      printf("gemm2d %d %d %.17g\n", i, j, C2[i][j]);
  // C is A (square): the update reads elements of C it has already
  // overwritten; the runtime sees the overlap and runs the loop.
  for (int i = 0; i < NI * NI; i++) {
    sq[i] = val(i, 7);
    sqb[i] = val(i, 8);
  }
  gemm(NI, NI, NI, 1.0f, 0.5f, sq, sq, sqb);
  print_f("alias", sq, NI * NI, 0);
  return 0;
}
