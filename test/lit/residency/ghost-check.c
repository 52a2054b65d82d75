// Ghost columns (GridDependence.h: subscripts assumed in extent, checked at
// run time) inside a residency region with a 3-D map: with n1 = 1 the
// check fails on every step and the original ghost loop runs on the host
// between two device kernels, so the region syncs the grid back first
// (syncs=3); n1 = 40 and n1 = 2 run both nests on the device. Copies, not
// zero-copy. Every output is the sequential build's, bit for bit.
// RUN: %clang -O2 %s -o %t.seq
// RUN: %clang-idiom %s -lidiomrt -Rpass=idiom-offload -o %t.idiom 2> %t.remarks
// RUN: FileCheck %s --check-prefix=REMARK < %t.remarks
// RUN: %t.seq > %t.expected
// RUN: env IDIOM_ZERO_COPY=off IDIOM_COST=off IDIOM_MIN_TRIP=0 IDIOM_STATS=1 IDIOM_CACHE_DIR=off %t.idiom > %t.out 2> %t.stats
// RUN: diff %t.expected %t.out
// RUN: FileCheck %s --check-prefix=STATS < %t.stats
#include <stdio.h>
#include <stdlib.h>

// REMARK-DAG: ghost-check.c:[[@LINE+7]]:5: remark: offloaded 3-D map
// REMARK-DAG: ghost-check.c:[[@LINE+10]]:5: remark: offloaded 2-D map
// REMARK-DAG: ghost-check.c:[[@LINE+4]]:3: remark: residency region
// STATS-DAG: ghost-check.c:[[@LINE+8]] map calls=6 offloaded=6
__attribute__((noinline)) void step(double *g, int n1, int n2, int n3, int steps) {
  double (*u)[n2][n1] = (double (*)[n2][n1])g;
  for (int t = 0; t < steps; t++) {
    for (int i3 = 0; i3 < n3; i3++)
      for (int i2 = 0; i2 < n2; i2++)
        for (int i1 = 0; i1 < n1; i1++)
          u[i3][i2][i1] = u[i3][i2][i1] * 0.5 + (double)(i1 + i2 + i3);
    for (int i3 = 1; i3 < n3 - 1; i3++)
      for (int i2 = 1; i2 < n2 - 1; i2++) {
        u[i3][i2][0] = u[i3][i2][n1 - 2];
        u[i3][i2][n1 - 1] = u[i3][i2][1];
      }
  }
}
// STATS-DAG: idiom-stats: residency regions={{[0-9]+}} {{.*}}syncs=3

static void run(int n1, int n2, int n3) {
  size_t n = (size_t)n1 * n2 * n3;
  double *g = malloc(n * sizeof *g);
  for (size_t i = 0; i < n; i++)
    g[i] = (double)(i % 17);
  step(g, n1, n2, n3, 3);
  double s = 0;
  for (size_t i = 0; i < n; i++)
    s = s * 0.999 + g[i];
  printf("%d %d %d %.17g\n", n1, n2, n3, s);
  free(g);
}

int main(void) {
  run(40, 40, 40);
  run(1, 60, 60);
  run(2, 50, 50);
  return 0;
}
