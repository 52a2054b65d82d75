// Triangular GEMM variants (issue 13) end to end on PoCL: SYRK over the lower
// triangle j <= i in the i-j-k order (alpha*sum + beta*C, run-time sizes,
// pointers) and in PolyBench's i-k-j order with its beta prologue (2-D
// double arrays), lifted as the masked GEMM program
// (docs/FunIL.md, "Triangular GEMM programs"). Every element above the
// diagonal holds a sentinel that must survive bit for bit (the program
// keeps q.1 there; the copy back writes nothing it did not change); the
// triangle matches the sequential build within the GEMM tolerance. Sizes
// 0, 1, 2, 37 (odd: partial tiles), 64 and 300 (3 x 3 tiles of 128: the
// tiles above the diagonal skip); a call whose C overlaps A
// declines (overlapping ranges) and the loop runs.
// RUN: %clang -O2 %s -o %t.seq
// RUN: %clang-idiom -g %s -lidiomrt -o %t.idiom
// RUN: %t.seq > %t.expected
// RUN: env IDIOM_COST=off IDIOM_MIN_TRIP=1 IDIOM_STATS=1 %t.idiom > %t.out 2> %t.stats
// RUN: python3 %S/Inputs/tolcompare.py %t.expected %t.out
// RUN: FileCheck %s --check-prefix=STATS < %t.stats
// RUN: env IDIOM_COST=off IDIOM_DEVICE=seq %t.idiom > %t.seqout
// RUN: diff %t.expected %t.seqout
#include "Inputs/gemm_check.h"
#include <stdio.h>
#include <string.h>

#define NMAX 300
#define M 41
#define SENTINEL 12345.5f

static float a[NMAX * M], c[NMAX * NMAX];
static double A2[37][M], C2[37][37];

__attribute__((noinline)) void syrk(int n, int m, float alpha, float beta,
                                    float *pc, const float *pa) {
  // STATS-DAG: idiom-stats: syrk-triangle.c:[[@LINE+1]] gemm-triangle calls=6 offloaded=5 device="{{.+}}" {{.*}}fallbacks=1 {{.*}}reasons="{{.*}}overlapping input/output ranges
  for (int i = 0; i < n; i++)
    for (int j = 0; j <= i; j++) {
      float s = 0;
      for (int k = 0; k < m; k++)
        s += pa[i * m + k] * pa[j * m + k];
      pc[i * n + j] = alpha * s + beta * pc[i * n + j];
    }
}

__attribute__((noinline)) void syrk2d(int n, double alpha, double beta) {
  // STATS-DAG: idiom-stats: syrk-triangle.c:[[@LINE+1]] gemm-triangle calls=1 offloaded=1 device=
  for (int i = 0; i < n; i++) {
    for (int j = 0; j <= i; j++)
      C2[i][j] *= beta;
    for (int k = 0; k < M; k++)
      for (int j = 0; j <= i; j++)
        C2[i][j] += alpha * A2[i][k] * A2[j][k];
  }
}

static void run(int n) {
  for (int i = 0; i < n * M; i++)
    a[i] = val(i, n);
  for (int i = 0; i < n; i++)
    for (int j = 0; j < n; j++)
      c[i * n + j] = j <= i ? val(i * n + j, 3) : SENTINEL;
  syrk(n, M, 1.5f, 0.75f, c, a);
  int bad = 0;
  for (int i = 0; i < n; i++)
    for (int j = i + 1; j < n; j++)
      bad += memcmp(&c[i * n + j], &(float){SENTINEL}, sizeof(float)) != 0;
  printf("syrk n=%d above-diagonal changed=%d\n", n, bad);
  char name[32];
  snprintf(name, sizeof name, "syrk%d", n);
  print_f(name, c, n * n, 1e-4 * (1.5 * M + 1));
}

int main(void) {
  int sizes[] = {0, 1, 2, 37, 64, 300};
  for (int s = 0; s < 6; s++)
    run(sizes[s]);
  for (int i = 0; i < 37; i++)
    for (int k = 0; k < M; k++)
      A2[i][k] = val(i * M + k, 4);
  for (int i = 0; i < 37; i++)
    for (int j = 0; j < 37; j++)
      C2[i][j] = j <= i ? val(i * 37 + j, 6) : -2.0;
  syrk2d(37, 0.75, -0.5);
  int bad = 0;
  for (int i = 0; i < 37; i++)
    for (int j = i + 1; j < 37; j++)
      bad += C2[i][j] != -2.0;
  printf("syrk2d above-diagonal changed=%d\n", bad);
  printf("tol syrk2d 1e-12\n");
  for (int i = 0; i < 37; i++)
    for (int j = 0; j <= i; j++)
      printf("syrk2d %d %d %.17g\n", i, j, C2[i][j]);
  // C is A: the update reads elements of C it overwrites; the runtime sees
  // the overlap and runs the loop.
  for (int i = 0; i < 37 * 37; i++)
    c[i] = val(i, 7);
  syrk(37, 37, 1.0f, 0.5f, c, c);
  print_f("alias", c, 37 * 37, 0);
  return 0;
}
