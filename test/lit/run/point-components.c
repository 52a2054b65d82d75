// Maps over points of 5 components end to end on PoCL (issue 13, NAS SP's
// u[k][j][i][m]): every output is the sequential build's, bit for bit.
//  - xi: the five components of rhs at each interior point from u at i +- 1
//    (reads that -O2 forwards from one iteration to the next in phis);
//  - eta_row: a boundary row (j = 1) treated apart, a 2-D map over (k, i);
//  - partial: components 1 and 3 only; components 0, 2 and 4 keep what the
//    program wrote there before (the output is not dense: only changed
//    bytes are written back);
//  - vla: the xi shape through VLA parameters;
//  - neighbour (negative): rhs read at the previous point, a recurrence,
//    stays sequential.
// RUN: %clang -O2 %s -o %t.seq
// RUN: %clang-idiom -g %s -lidiomrt -Rpass=idiom-offload -Rpass-missed=idiom-offload -o %t.idiom 2> %t.remarks
// RUN: FileCheck %s --check-prefix=REMARK < %t.remarks
// RUN: %t.seq > %t.expected
// RUN: env IDIOM_COST=off IDIOM_MIN_TRIP=0 IDIOM_STATS=1 IDIOM_CACHE_DIR=off %t.idiom > %t.out 2> %t.stats
// RUN: diff %t.expected %t.out
// RUN: FileCheck %s --check-prefix=STATS < %t.stats
// RUN: env IDIOM_COST=off IDIOM_MIN_TRIP=0 IDIOM_VARIANT=1 IDIOM_CACHE_DIR=off %t.idiom > %t.v1
// RUN: diff %t.expected %t.v1
#include <stdio.h>
#include <string.h>

#define N 20
static double u[N][N][N][5], rhs[N][N][N][5];

// REMARK-DAG: point-components.c:[[@LINE+3]]:3: remark: offloaded 3-D map
// STATS-DAG: point-components.c:[[@LINE+2]] map calls=1 offloaded=1
__attribute__((noinline)) static void xi(double c, double t) {
  for (int k = 1; k < N - 1; k++)
    for (int j = 1; j < N - 1; j++)
      for (int i = 1; i < N - 1; i++) {
        rhs[k][j][i][0] += c * (u[k][j][i + 1][0] - 2.0 * u[k][j][i][0] + u[k][j][i - 1][0]) -
                           t * (u[k][j][i + 1][1] - u[k][j][i - 1][1]);
        rhs[k][j][i][1] += c * (u[k][j][i + 1][1] - 2.0 * u[k][j][i][1] + u[k][j][i - 1][1]) -
                           t * (u[k][j][i + 1][1] * u[k][j][i + 1][2] -
                                u[k][j][i - 1][1] * u[k][j][i - 1][2]);
        rhs[k][j][i][2] += c * (u[k][j][i + 1][2] - 2.0 * u[k][j][i][2] + u[k][j][i - 1][2]);
        rhs[k][j][i][3] += c * (u[k][j][i + 1][3] - 2.0 * u[k][j][i][3] + u[k][j][i - 1][3]);
        rhs[k][j][i][4] += c * (u[k][j][i + 1][4] - 2.0 * u[k][j][i][4] + u[k][j][i - 1][4]) -
                           t * (u[k][j][i + 1][4] / u[k][j][i + 1][0] -
                                u[k][j][i - 1][4] / u[k][j][i - 1][0]);
      }
}

// REMARK-DAG: point-components.c:[[@LINE+3]]:3: remark: offloaded 2-D map
// STATS-DAG: point-components.c:[[@LINE+2]] map calls=1 offloaded=1
__attribute__((noinline)) static void eta_row(double d) {
  for (int k = 1; k < N - 1; k++)
    for (int i = 1; i < N - 1; i++) {
      int j = 1;
      for (int m = 0; m < 5; m++)
        rhs[k][j][i][m] -= d * (5.0 * u[k][j][i][m] - 4.0 * u[k][j + 1][i][m] + u[k][j + 2][i][m]);
    }
}

// REMARK-DAG: point-components.c:[[@LINE+3]]:3: remark: offloaded 3-D map
// STATS-DAG: point-components.c:[[@LINE+2]] map calls=1 offloaded=1
__attribute__((noinline)) static void partial(double c) {
  for (int k = 1; k < N - 1; k++)
    for (int j = 1; j < N - 1; j++)
      for (int i = 1; i < N - 1; i++) {
        rhs[k][j][i][1] = c * (u[k][j][i + 1][1] - u[k][j][i - 1][1]);
        rhs[k][j][i][3] = c * (u[k][j][i + 1][3] - u[k][j][i - 1][3]);
      }
}

// The same shape through VLA parameters (`double a[n][n][n][5]`): the row
// offsets are products such as n * (40 + 40 n) bytes, whole elements.
// REMARK-DAG: point-components.c:[[@LINE+3]]:3: remark: offloaded 3-D map
// STATS-DAG: point-components.c:[[@LINE+2]] map calls=1 offloaded=1
__attribute__((noinline)) static void vla(int n, double a[n][n][n][5], double r[n][n][n][5], double c) {
  for (int k = 1; k < n - 1; k++)
    for (int j = 1; j < n - 1; j++)
      for (int i = 1; i < n - 1; i++)
        for (int m = 0; m < 5; m++)
          r[k][j][i][m] += c * (a[k][j][i + 1][m] - 2.0 * a[k][j][i][m] + a[k][j - 1][i][m]);
}

// REMARK-DAG: point-components.c:[[@LINE+2]]:3: remark: loop is not an idiom {{.*}}loop-carried dependence
__attribute__((noinline)) static void neighbour(double c) {
  for (int k = 1; k < N - 1; k++)
    for (int j = 1; j < N - 1; j++)
      for (int i = 1; i < N - 1; i++)
        for (int m = 0; m < 5; m++)
          rhs[k][j][i][m] = c * rhs[k][j][i - 1][m] + u[k][j][i][m];
}

static unsigned state = 12345u;
static double uniform(void) {
  state = state * 1103515245u + 12345u;
  return (double)((state >> 8) & 0xffffff) / 16777216.0;
}

// A hash of every bit of rhs (h * P ^ bits: a recurrence, not a reduction,
// so it runs on the host in both builds).
static void print(const char *what) {
  unsigned long long h = 1469598103934665603ull;
  for (int k = 0; k < N; k++)
    for (int j = 0; j < N; j++)
      for (int i = 0; i < N; i++)
        for (int m = 0; m < 5; m++) {
          unsigned long long b;
          memcpy(&b, &rhs[k][j][i][m], sizeof b);
          h = (h * 1099511628211ull) ^ b;
        }
  printf("%s %016llx %.17g %.17g\n", what, h, rhs[3][4][5][2], rhs[1][1][1][4]);
}

int main(void) {
  for (int k = 0; k < N; k++)
    for (int j = 0; j < N; j++)
      for (int i = 0; i < N; i++)
        for (int m = 0; m < 5; m++) {
          u[k][j][i][m] = m == 0 ? 1.0 + uniform() : uniform() - 0.5;
          rhs[k][j][i][m] = uniform();
        }
  xi(0.7, 0.3);
  print("xi");
  eta_row(0.25);
  print("eta_row");
  partial(1.5);
  print("partial");
  vla(N, u, rhs, 0.125);
  print("vla");
  neighbour(0.5);
  print("neighbour");
  return 0;
}
