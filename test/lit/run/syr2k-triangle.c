// SYR2K (issue 13; specs syr2k and syr2k-triangle) end to end on PoCL: two
// products in one sum, C = alpha A B^T + alpha B A^T + beta C, lifted as the
// GEMM program whose rows and columns zip a second operand each
// (docs/FunIL.md, "GEMM programs with two products"). PolyBench 4's syr2k
// (lower triangle, i-k-j with the beta prologue, run-time sizes and
// pointers), the i-j-k order over the triangle (2-D double arrays) and the
// whole square with two statements (PolyBench 3.2). Every element above the
// diagonal holds a sentinel that must survive bit for bit; the float
// triangle matches the sequential build within 1e-4 * (2 * 1.5 * M + 1) per
// element (the device may fuse or not fuse each multiply-add: within one
// rounding of each of the 2 M partial sums, whose magnitude is at most
// 2 * 1.5 * M + 1), the doubles within 1e-12. Sizes 0, 1, 2, 37, 64 and
// 300; a call whose C overlaps A declines (overlapping ranges) and the loop
// runs.
// RUN: %clang -O2 %s -o %t.seq
// RUN: %clang-idiom -g %s -lidiomrt -o %t.idiom
// RUN: %t.seq > %t.expected
// RUN: env IDIOM_COST=off IDIOM_MIN_TRIP=1 IDIOM_STATS=1 %t.idiom > %t.out 2> %t.stats
// RUN: python3 %S/Inputs/tolcompare.py %t.expected %t.out
// RUN: FileCheck %s --check-prefix=STATS < %t.stats
// RUN: env IDIOM_COST=off IDIOM_DEVICE=seq %t.idiom > %t.seqout
// RUN: diff %t.expected %t.seqout
// Each 2-D map variant (work-group shapes) forced in turn:
// RUN: env IDIOM_COST=off IDIOM_MIN_TRIP=1 IDIOM_VARIANT=1 %t.idiom > %t.v1
// RUN: python3 %S/Inputs/tolcompare.py %t.expected %t.v1
// RUN: env IDIOM_COST=off IDIOM_MIN_TRIP=1 IDIOM_VARIANT=2 %t.idiom > %t.v2
// RUN: python3 %S/Inputs/tolcompare.py %t.expected %t.v2
// RUN: env IDIOM_COST=off IDIOM_MIN_TRIP=1 IDIOM_VARIANT=3 %t.idiom > %t.v3
// RUN: python3 %S/Inputs/tolcompare.py %t.expected %t.v3
#include "Inputs/gemm_check.h"
#include <stdio.h>
#include <string.h>

#define NMAX 300
#define M 41
#define SENTINEL 12345.5f

static float a[NMAX * M], b[NMAX * M], c[NMAX * NMAX];
static double A2[37][M], B2[37][M], C2[37][37], S2[37][37];

__attribute__((noinline)) void syr2k(int n, int m, float alpha, float beta,
                                     float *pc, const float *pa,
                                     const float *pb) {
  // STATS-DAG: idiom-stats: syr2k-triangle.c:[[@LINE+1]] syr2k-triangle calls=6 offloaded=5 device="{{.+}}" {{.*}}fallbacks=1 {{.*}}reasons="{{.*}}overlapping input/output ranges
  for (int i = 0; i < n; i++) {
    for (int j = 0; j <= i; j++)
      pc[i * n + j] *= beta;
    for (int k = 0; k < m; k++)
      for (int j = 0; j <= i; j++)
        pc[i * n + j] += pa[j * m + k] * alpha * pb[i * m + k] +
                         pb[j * m + k] * alpha * pa[i * m + k];
  }
}

__attribute__((noinline)) void syr2k_ijk(int n, double alpha, double beta) {
  // STATS-DAG: idiom-stats: syr2k-triangle.c:[[@LINE+1]] syr2k-triangle calls=1 offloaded=1 device=
  for (int i = 0; i < n; i++)
    for (int j = 0; j <= i; j++) {
      double s = 0;
      for (int k = 0; k < M; k++)
        s += A2[i][k] * B2[j][k] + B2[i][k] * A2[j][k];
      C2[i][j] = alpha * s + beta * C2[i][j];
    }
}

__attribute__((noinline)) void syr2k_square(int n, double alpha) {
  // STATS-DAG: idiom-stats: syr2k-triangle.c:[[@LINE+1]] syr2k calls=1 offloaded=1 device=
  for (int i = 0; i < n; i++)
    for (int j = 0; j < n; j++)
      for (int k = 0; k < M; k++) {
        S2[i][j] += alpha * A2[i][k] * B2[j][k];
        S2[i][j] += alpha * B2[i][k] * A2[j][k];
      }
}

static void run(int n) {
  for (int i = 0; i < n * M; i++) {
    a[i] = val(i, n);
    b[i] = val(i, n + 11);
  }
  for (int i = 0; i < n; i++)
    for (int j = 0; j < n; j++)
      c[i * n + j] = j <= i ? val(i * n + j, 3) : SENTINEL;
  syr2k(n, M, 1.5f, 0.75f, c, a, b);
  int bad = 0;
  for (int i = 0; i < n; i++)
    for (int j = i + 1; j < n; j++)
      bad += memcmp(&c[i * n + j], &(float){SENTINEL}, sizeof(float)) != 0;
  printf("syr2k n=%d above-diagonal changed=%d\n", n, bad);
  char name[32];
  snprintf(name, sizeof name, "syr2k%d", n);
  print_f(name, c, n * n, 1e-4 * (2 * 1.5 * M + 1));
}

int main(void) {
  int sizes[] = {0, 1, 2, 37, 64, 300};
  for (int s = 0; s < 6; s++)
    run(sizes[s]);
  for (int i = 0; i < 37; i++)
    for (int k = 0; k < M; k++) {
      A2[i][k] = val(i * M + k, 4);
      B2[i][k] = val(i * M + k, 5);
    }
  for (int i = 0; i < 37; i++)
    for (int j = 0; j < 37; j++) {
      C2[i][j] = j <= i ? val(i * 37 + j, 6) : -2.0;
      S2[i][j] = val(i * 37 + j, 8);
    }
  syr2k_ijk(37, 0.75, -0.5);
  syr2k_square(37, 0.5);
  int bad = 0;
  for (int i = 0; i < 37; i++)
    for (int j = i + 1; j < 37; j++)
      bad += C2[i][j] != -2.0;
  printf("syr2k_ijk above-diagonal changed=%d\n", bad);
  printf("tol syr2k_ijk 1e-12\n");
  for (int i = 0; i < 37; i++)
    for (int j = 0; j <= i; j++)
      printf("syr2k_ijk %d %d %.17g\n", i, j, C2[i][j]);
  printf("tol syr2k_square 1e-12\n");
  for (int i = 0; i < 37; i++)
    for (int j = 0; j < 37; j++)
      printf("syr2k_square %d %d %.17g\n", i, j, S2[i][j]);
  // C is A: the update reads elements of C it overwrites; the runtime sees
  // the overlap and runs the loop.
  for (int i = 0; i < 37 * 37; i++)
    c[i] = val(i, 7);
  syr2k(37, 37, 1.0f, 0.5f, c, c, b);
  print_f("alias", c, 37 * 37, 0);
  return 0;
}
