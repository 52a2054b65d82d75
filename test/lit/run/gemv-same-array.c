// GEMVs that subtract (`y -= A x`: clang's llvm.fmuladd(-x, A, y), the
// fneg read as a factor of -1 by ScaledLoad) and GEMVs whose vector, matrix
// and output are parts of one array: LU's row of U, `A[i][j] -= A[i][k] *
// A[k][j]` for j >= i and k < i (issue #13), where x is A[i][0..i), the
// matrix the rows above and y A[i][i..n). The lifter cannot prove the three
// ranges apart at compile time (they are, for i >= 0), so the stitched code
// tests it and runs the original loop when they meet: `band` with a start
// s below the end t of the sum reads y's own elements as x, and must run
// on the host (its output is the sequential one either way). Every element
// is summed in the loop's order: the bits are the sequential build's.
// RUN: %clang -O2 %s -o %t.seq
// RUN: %clang-idiom -g %s -lidiomrt -Rpass=idiom-offload -Rpass-missed=idiom-offload -o %t.idiom 2> %t.remarks
// RUN: FileCheck %s --check-prefix=REMARK < %t.remarks
// RUN: %t.seq > %t.expected
// RUN: env IDIOM_MIN_TRIP=1 IDIOM_COST=off IDIOM_DEVICE=cpu IDIOM_STATS=1 %t.idiom > %t.out 2> %t.stats
// RUN: diff %t.expected %t.out
// RUN: FileCheck %s --check-prefix=STATS < %t.stats
// RUN: env IDIOM_DEVICE=seq %t.idiom > %t.seqout
// RUN: diff %t.expected %t.seqout
#include <stdio.h>

#define N 37

// y -= A x (row form).
// REMARK: gemv-same-array.c:[[@LINE+3]]:3: remark: offloaded GEMV (gemv)
// STATS-DAG: idiom-stats: gemv-same-array.c:[[@LINE+2]] gemv calls=1 offloaded=1 {{.*}}fallbacks=0
__attribute__((noinline)) void gemv_sub(int n, double A[N][N], const double *x, double *y) {
  for (int i = 0; i < n; i++)
    for (int j = 0; j < n; j++)
      y[i] -= A[i][j] * x[j];
}

// PolyBench 4 lu's row of U for one i (a launch per row).
// REMARK: gemv-same-array.c:[[@LINE+3]]:3: remark: offloaded GEMV (gemv)
// STATS-DAG: idiom-stats: gemv-same-array.c:[[@LINE+2]] gemv calls=36 offloaded=36 {{.*}}fallbacks=0
__attribute__((noinline)) void lu_row(int n, int i, double A[N][N]) {
  for (int j = i; j < n; j++)
    for (int k = 0; k < i; k++)
      A[i][j] -= A[i][k] * A[k][j];
}

// The same with the start s of the row and the end t of the sum apart:
// with t > s, x = A[i][0..t) overlaps y = A[i][s..n) and the run-time test
// sends the call to the original loop before the runtime is called (the
// runtime sees one call of two; without the test it would see both and
// decline the first for overlapping ranges).
// REMARK: gemv-same-array.c:[[@LINE+3]]:3: remark: offloaded GEMV (gemv)
// STATS-DAG: idiom-stats: gemv-same-array.c:[[@LINE+2]] gemv calls=1 offloaded=1 {{.*}}fallbacks=0
__attribute__((noinline)) void band(int n, int i, int s, int t, double A[N][N]) {
  for (int j = s; j < n; j++)
    for (int k = 0; k < t; k++)
      A[i][j] -= A[i][k] * A[k][j];
}

static double A[N][N], B[N][N], C[N][N], x[N], y[N];

int main(void) {
  for (int i = 0; i < N; i++) {
    for (int j = 0; j < N; j++) {
      A[i][j] = (double)((i * 7 + j * 3) % 11) / 11.0 + (i == j ? 4.0 : 0.0);
      B[i][j] = A[i][j];
      C[i][j] = A[i][j] * 0.5;
    }
    x[i] = (double)(i % 5) / 5.0;
    y[i] = 1.0 / (i + 1);
  }
  gemv_sub(N, A, x, y);
  for (int i = 1; i < N; i++)
    lu_row(N, i, B);
  band(N, 20, 3, 10, C); // x and y overlap: the original loop
  band(N, 20, 12, 10, C); // apart: offloaded
  for (int i = 0; i < N; i++)
    printf("y %d %a\n", i, y[i]);
  for (int i = 0; i < N; i++)
    for (int j = 0; j < N; j++)
      printf("B %d %d %a C %a\n", i, j, B[i][j], C[i][j]);
  return 0;
}
