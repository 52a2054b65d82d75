// Two grids in one array, end to end on PoCL (passes/SharedBases.h): NAS
// MG's restriction (rprj3) with the fine and the coarse level at offsets
// read from memory into one allocation (`g + ir[k]`, `g + ir[k - 1]`, NAS's
// layout), so nothing proves at compile time that the levels are
// disjoint. The nest (row temporaries privatised) is versioned on a
// run-time check that the coarse range it writes is disjoint from the
// fine range it reads. Disjoint levels: offloaded as a 3-D map. Levels
// that overlap (the coarse level placed inside the fine one) fail the
// check and run the unchanged nest, with no runtime call. Every output is
// the sequential build's, bit for bit. The same for a plain copy between
// two levels (no row temporaries: the nest is versioned on its own).
// Translation validation covers the
// rebased nest: a lift corrupted on purpose is refused (BAD).
// RUN: %clang -O2 %s -o %t.seq
// RUN: %clang-idiom -g %s -lidiomrt -Rpass=idiom-offload -Rpass-missed=idiom-offload -o %t.idiom 2> %t.remarks
// RUN: FileCheck %s --check-prefix=REMARK < %t.remarks
// RUN: %t.seq > %t.expected
// RUN: env IDIOM_COST=off IDIOM_MIN_TRIP=0 IDIOM_STATS=1 IDIOM_CACHE_DIR=off %t.idiom > %t.out 2> %t.stats
// RUN: diff %t.expected %t.out
// RUN: FileCheck %s --check-prefix=STATS < %t.stats
// RUN: %clang-idiom -fplugin=%plugin -mllvm -idiom-test-corrupt-lift -c %s -o /dev/null -Rpass=idiom-offload -Rpass-missed=idiom-offload 2>&1 | FileCheck %s --check-prefix=BAD
#include <stdio.h>
#include <stdlib.h>

// REMARK-NOT: loop-carried dependence
// REMARK: shared-grid.c:[[@LINE+9]]:3: remark: offloaded 3-D map
// BAD: shared-grid.c:[[@LINE+8]]:3: remark: idiom map not offloaded: translation validation failed
// Two calls on disjoint levels; the overlapping one runs the original.
// STATS: shared-grid.c:[[@LINE+6]] map calls=2 offloaded=2
__attribute__((noinline)) void rprj3(double *g, const long *ir, int k, int m1k,
                                     int m2k, int m1j, int m2j, int m3j) {
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

// STATS: shared-grid.c:[[@LINE+5]] map calls=1 offloaded=1
__attribute__((noinline)) void copy_level(double *g, const long *ir, int n1,
                                          int n2, int n3) {
  double (*r)[n2][n1] = (double (*)[n2][n1])(g + ir[1]);
  double (*s)[n2][n1] = (double (*)[n2][n1])(g + ir[0]);
  for (int i3 = 0; i3 < n3; i3++)
    for (int i2 = 0; i2 < n2; i2++)
      for (int i1 = 0; i1 < n1; i1++)
        s[i3][i2][i1] = 2.0 * r[i3][i2][i1] + 1.0;
}

#include "Inputs/grid_fill.h"

int main(void) {
  // Levels of 34^3 (k = 5) down to 18^3 (k = 4) and 10^3 (k = 3), fine
  // levels first as in NAS MG: ir[k] is the offset of level k.
  int m[6] = {0, 0, 0, 10, 18, 34};
  long ir[6] = {0}, total = 0;
  for (int k = 5; k >= 3; k--) {
    ir[k] = total;
    total += (long)m[k] * m[k] * m[k];
  }
  double *g = malloc(total * sizeof(double));
  fill(g, total, 7);
  for (int k = 5; k > 3; k--)
    rprj3(g, ir, k, m[k], m[k], m[k - 1], m[k - 1], m[k - 1]);
  print("disjoint", g, total);
  // Overlap: the coarse level (18^3) starts inside the fine one (34^3), at
  // an element the restriction reads after it has written it.
  long bad[6] = {0};
  bad[5] = 0;
  bad[4] = 1000;
  fill(g, total, 11);
  rprj3(g, bad, 5, m[5], m[5], m[4], m[4], m[4]);
  print("overlapping", g, total);
  // A copy between levels: disjoint (offloaded), then the written level one
  // row after the read one (the unchanged nest runs: each point reads what
  // the point one row before wrote, a chain a parallel copy would break).
  long two[2] = {0, 18 * 18 * 18};
  fill(g, total, 13);
  copy_level(g, two, 18, 18, 18);
  print("copy disjoint", g, total);
  two[0] = 18;
  two[1] = 0;
  fill(g, total, 17);
  copy_level(g, two, 18, 18, 18);
  print("copy overlapping", g, total);
  free(g);
  return 0;
}
