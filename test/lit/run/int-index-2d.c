// Legacy 2-D loops with `int` counters and sizes, end to end on PoCL: an
// interior Jacobi sweep over a flattened grid (i*n + j) and its copy back in
// a time loop (2-D maps, one residency region), the same sweep through
// VLA-typed pointers. The offloaded build prints what the sequential build
// prints, bit for bit (maps are exact).
// RUN: %clang -O2 %s -o %t.seq
// RUN: %clang-idiom %s -lidiomrt -Rpass=idiom-offload -o %t.idiom 2> %t.remarks
// RUN: FileCheck %s --check-prefix=REMARK < %t.remarks
// RUN: %t.seq > %t.expected
// RUN: env IDIOM_COST=off IDIOM_MIN_TRIP=0 IDIOM_STATS=1 IDIOM_CACHE_DIR=off %t.idiom > %t.out 2> %t.stats
// RUN: diff %t.expected %t.out
// RUN: FileCheck %s --check-prefix=STATS < %t.stats
#include <stdio.h>
#include <stdlib.h>

// REMARK-DAG: int-index-2d.c:[[@LINE+6]]:5: remark: offloaded 2-D map
// REMARK-DAG: int-index-2d.c:[[@LINE+9]]:5: remark: offloaded 2-D map
// STATS-DAG: int-index-2d.c:[[@LINE+4]] map calls=7 offloaded=7
// STATS-DAG: int-index-2d.c:[[@LINE+7]] map calls=7 offloaded=7
__attribute__((noinline)) static void jacobi(int n, int steps, double *u, double *v) {
  for (int t = 0; t < steps; t++) {
    for (int i = 1; i < n - 1; i++)
      for (int j = 1; j < n - 1; j++)
        v[i * n + j] = 0.25 * (u[(i - 1) * n + j] + u[(i + 1) * n + j] +
                               u[i * n + j - 1] + u[i * n + j + 1]);
    for (int i = 1; i < n - 1; i++)
      for (int j = 1; j < n - 1; j++)
        u[i * n + j] = v[i * n + j];
  }
}

// REMARK-DAG: int-index-2d.c:[[@LINE+2]]:3: remark: offloaded 2-D map
__attribute__((noinline)) static void vla(int n, double (*u)[n], double (*v)[n]) {
  for (int i = 1; i < n - 1; i++)
    for (int j = 1; j < n - 1; j++)
      v[i][j] = 0.2 * (u[i - 1][j] + u[i + 1][j] + u[i][j - 1] + u[i][j + 1] +
                       u[i][j]);
}

int main(void) {
  int n = 203;
  double *u = malloc(sizeof(double) * n * n), *v = malloc(sizeof(double) * n * n);
  for (int k = 0; k < n * n; k++) {
    u[k] = (k % 17) * 0.125;
    v[k] = -1.0;
  }
  jacobi(n, 7, u, v);
  double c = 0;
  for (int k = 0; k < n * n; k++)
    c = c * 0.999 + u[k] + 0.5 * v[k];
  printf("jacobi %.17g %.17g %.17g\n", c, u[n + 1], v[(n - 2) * n + n - 2]);
  vla(n, (double (*)[n])u, (double (*)[n])v);
  c = 0;
  for (int k = 0; k < n * n; k++)
    c = c * 0.999 + v[k];
  printf("vla %.17g\n", c);
  free(u);
  free(v);
  return 0;
}
