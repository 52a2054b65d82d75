// Two grids of one array (passes/SharedBases.h) inside a residency region:
// a time loop whose body restricts a fine level into a coarse one at
// offsets read from memory (the nest versioned on their run-time
// disjointness, its store rebased on `llvm.launder.invariant.group`), then
// scales the coarse level. The region analysis looks through the launder
// (getUnderlyingObjects does), so the loop is a residency region; while
// the intrinsic counted as a call it was not ("no residency region: the
// loop calls llvm.launder.invariant.group.p0": NAS MG's V-cycle).
// Overlapping levels fail the check: the unchanged nest runs on the host,
// with no runtime call (4 calls, all from the disjoint run). Every output
// is the sequential build's, bit for bit. Copies, not zero-copy, so the
// region's device copies are the ones read.
// RUN: %clang -O2 %s -o %t.seq
// RUN: %clang-idiom %s -lidiomrt -Rpass=idiom-offload -Rpass-missed=idiom-offload -o %t.idiom 2> %t.remarks
// RUN: FileCheck %s --check-prefix=REMARK < %t.remarks
// RUN: %t.seq > %t.expected
// RUN: env IDIOM_ZERO_COPY=off IDIOM_COST=off IDIOM_MIN_TRIP=0 IDIOM_STATS=1 IDIOM_CACHE_DIR=off %t.idiom > %t.out 2> %t.stats
// RUN: diff %t.expected %t.out
// RUN: FileCheck %s --check-prefix=STATS < %t.stats
#include <stdio.h>
#include <stdlib.h>

#include "../run/Inputs/grid_fill.h"

// NAS MG's restriction (test/lit/run/shared-grid.c's rprj3, row
// temporaries privatised), inlined into the time loop below.
// REMARK-DAG: shared-grid-region.c:[[@LINE+6]]:3: remark: offloaded 3-D map
static void rprj3(double *g, const long *ir, int k, int m1k, int m2k, int m1j,
                  int m2j, int m3j) {
  double (*r)[m2k][m1k] = (double (*)[m2k][m1k])(g + ir[k]);
  double (*s)[m2j][m1j] = (double (*)[m2j][m1j])(g + ir[k - 1]);
  double x1[1024], y1[1024], x2, y2;
  for (int j3 = 1; j3 < m3j - 1; j3++) {
    int i3 = 2 * j3 - 1;
    for (int j2 = 1; j2 < m2j - 1; j2++) {
      int i2 = 2 * j2 - 1;
      for (int j1 = 1; j1 < m1j; j1++) {
        int i1 = 2 * j1 - 1;
        x1[i1] = r[i3 + 1][i2][i1] + r[i3 + 1][i2 + 2][i1] + r[i3][i2 + 1][i1] +
                 r[i3 + 2][i2 + 1][i1];
        y1[i1] = r[i3][i2][i1] + r[i3 + 2][i2][i1] + r[i3][i2 + 2][i1] +
                 r[i3 + 2][i2 + 2][i1];
      }
      for (int j1 = 1; j1 < m1j - 1; j1++) {
        int i1 = 2 * j1 - 1;
        y2 = r[i3][i2][i1 + 1] + r[i3 + 2][i2][i1 + 1] + r[i3][i2 + 2][i1 + 1] +
             r[i3 + 2][i2 + 2][i1 + 1];
        x2 = r[i3 + 1][i2][i1 + 1] + r[i3 + 1][i2 + 2][i1 + 1] +
             r[i3][i2 + 1][i1 + 1] + r[i3 + 2][i2 + 1][i1 + 1];
        s[j3][j2][j1] = 0.5 * r[i3 + 1][i2 + 1][i1 + 1] +
                        0.25 * (r[i3 + 1][i2 + 1][i1] + r[i3 + 1][i2 + 1][i1 + 2] + x2) +
                        0.125 * (x1[i1] + x1[i1 + 2] + y2) +
                        0.0625 * (y1[i1] + y1[i1 + 2]);
      }
    }
  }
}

// REMARK-NOT: no residency region
// REMARK-DAG: shared-grid-region.c:[[@LINE+6]]:5: remark: offloaded map
// REMARK-DAG: shared-grid-region.c:[[@LINE+3]]:3: remark: residency region
__attribute__((noinline)) void cycle(double *g, const long *ir, int n,
                                     int steps) {
  for (int t = 0; t < steps; t++) {
    rprj3(g, ir, 1, n, n, n / 2 + 1, n / 2 + 1, n / 2 + 1);
    for (long i = 0; i < ir[1]; i++)
      g[i] = 0.25 * g[i] - 0.5;
  }
}

int main(void) {
  int n = 18;
  long total = 2L * n * n * n;
  double *g = malloc(total * sizeof(double));
  long two[2] = {0, (long)n * n * n};
  fill(g, total, 13);
  cycle(g, two, n, 4);
  print("disjoint", g, total);
  // The written level one row after the read one: the check fails, the
  // unchanged copy runs on the host every step.
  two[0] = n;
  two[1] = 0;
  fill(g, total, 17);
  cycle(g, two, n, 4);
  print("overlapping", g, total);
  free(g);
  return 0;
}
// STATS-DAG: shared-grid-region.c:33 map calls=4 offloaded=4
// STATS-DAG: shared-grid-region.c:66 map calls=4 offloaded=4
// STATS-DAG: residency regions=2 reused={{[1-9]}}
