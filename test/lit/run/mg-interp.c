// NAS MG's prolongation (interp) end to end on PoCL: a row loop that fills
// the row temporaries z1, z2, z3, then four consumer loops, each updating
// two points of one of the four fine rows around the coarse row (`+=`).
// The temporaries are privatised (passes/RowTemporaries.h), the four
// consumer loops fused into one (passes/ConsumerFusion.h), and the nest is
// a 3-D map with eight stores per point. The coarse grid z and the fine
// grid u are two levels of one array (`g + ir[k - 1]`, `g + ir[k]`: NAS
// MG's layout), checked disjoint at run time (passes/SharedBases.h); the
// fine grid's subscripts are checked to stay inside its rows and planes
// (the extents n1, n2 are parameters unrelated to mm1, mm2). Calls: the
// real sizes (offloaded), levels that overlap (the unchanged nest runs),
// and a fine grid whose rows are too short for the coarse row (the
// subscript check fails: the unchanged nest runs, where the four loops
// write one element in different orders). Every output is the sequential
// build's, bit for bit. A corrupted lift is refused (BAD).
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

#define NM 1026

// REMARK-NOT: not fused
// REMARK-NOT: loop-carried dependence
// REMARK: mg-interp.c:[[@LINE+11]]:3: remark: offloaded 3-D map
// BAD: mg-interp.c:[[@LINE+10]]:3: remark: idiom map not offloaded: translation validation failed
// The real sizes twice (two levels); overlapping and short rows run the
// original nest.
// STATS: mg-interp.c:[[@LINE+7]] map calls=2 offloaded=2
__attribute__((noinline)) void interp(double *g, const long *ir, int k, int mm1,
                                      int mm2, int mm3, int n1, int n2) {
  double (*z)[mm2][mm1] = (double (*)[mm2][mm1])(g + ir[k - 1]);
  double (*u)[n2][n1] = (double (*)[n2][n1])(g + ir[k]);
  double z1[NM], z2[NM], z3[NM];
  int i1, i2, i3;
  for (i3 = 0; i3 < mm3 - 1; i3++)
    for (i2 = 0; i2 < mm2 - 1; i2++) {
      for (i1 = 0; i1 < mm1; i1++) {
        z1[i1] = z[i3][i2 + 1][i1] + z[i3][i2][i1];
        z2[i1] = z[i3 + 1][i2][i1] + z[i3][i2][i1];
        z3[i1] = z[i3 + 1][i2 + 1][i1] + z[i3 + 1][i2][i1] + z1[i1];
      }
      for (i1 = 0; i1 < mm1 - 1; i1++) {
        u[2 * i3][2 * i2][2 * i1] += z[i3][i2][i1];
        u[2 * i3][2 * i2][2 * i1 + 1] += 0.5 * (z[i3][i2][i1 + 1] + z[i3][i2][i1]);
      }
      for (i1 = 0; i1 < mm1 - 1; i1++) {
        u[2 * i3][2 * i2 + 1][2 * i1] += 0.5 * z1[i1];
        u[2 * i3][2 * i2 + 1][2 * i1 + 1] += 0.25 * (z1[i1] + z1[i1 + 1]);
      }
      for (i1 = 0; i1 < mm1 - 1; i1++) {
        u[2 * i3 + 1][2 * i2][2 * i1] += 0.5 * z2[i1];
        u[2 * i3 + 1][2 * i2][2 * i1 + 1] += 0.25 * (z2[i1] + z2[i1 + 1]);
      }
      for (i1 = 0; i1 < mm1 - 1; i1++) {
        u[2 * i3 + 1][2 * i2 + 1][2 * i1] += 0.25 * z3[i1];
        u[2 * i3 + 1][2 * i2 + 1][2 * i1 + 1] += 0.125 * (z3[i1] + z3[i1 + 1]);
      }
    }
}

// Two consumer loops (the planes 2*i3 and 2*i3 + 1 of one row).
// REMARK: mg-interp.c:[[@LINE+7]]:3: remark: offloaded 3-D map
// STATS: mg-interp.c:[[@LINE+6]] map calls=1 offloaded=1
__attribute__((noinline)) void interp2(void *oz, int mm1, int mm2, int mm3,
                                       void *ou, int n1, int n2) {
  double (*z)[mm2][mm1] = (double (*)[mm2][mm1])oz;
  double (*u)[n2][n1] = (double (*)[n2][n1])ou;
  double z2[NM];
  for (int i3 = 0; i3 < mm3 - 1; i3++)
    for (int i2 = 0; i2 < mm2 - 1; i2++) {
      for (int i1 = 0; i1 < mm1; i1++)
        z2[i1] = z[i3 + 1][i2][i1] + z[i3][i2][i1];
      for (int i1 = 0; i1 < mm1 - 1; i1++) {
        u[2 * i3][2 * i2][2 * i1] += z[i3][i2][i1];
        u[2 * i3][2 * i2][2 * i1 + 1] += 0.5 * (z[i3][i2][i1 + 1] + z[i3][i2][i1]);
      }
      for (int i1 = 0; i1 < mm1 - 1; i1++) {
        u[2 * i3 + 1][2 * i2][2 * i1] += 0.5 * z2[i1];
        u[2 * i3 + 1][2 * i2][2 * i1 + 1] += 0.25 * (z2[i1] + z2[i1 + 1]);
      }
    }
}

#include "Inputs/grid_fill.h"

int main(void) {
  // Levels of 34^3 (k = 5), 18^3 (k = 4) and 10^3 (k = 3), fine levels
  // first as in NAS MG: ir[k] is the offset of level k.
  int m[6] = {0, 0, 0, 10, 18, 34};
  long ir[6] = {0}, total = 0;
  for (int k = 5; k >= 3; k--) {
    ir[k] = total;
    total += (long)m[k] * m[k] * m[k];
  }
  double *g = malloc(total * sizeof(double));
  fill(g, total, 7);
  for (int k = 4; k <= 5; k++)
    interp(g, ir, k, m[k - 1], m[k - 1], m[k - 1], m[k], m[k]);
  print("levels", g, total);
  // Overlap: the coarse level (10^3) inside the fine one (18^3).
  long bad[6] = {0};
  bad[3] = 500;
  bad[4] = 0;
  fill(g, total, 11);
  interp(g, bad, 4, m[3], m[3], m[3], m[4], m[4]);
  print("overlapping", g, total);
  // Rows of 12 for a coarse row of 10: 2*i1 + 1 reaches 17, past the row.
  fill(g, total, 13);
  interp(g, ir, 4, m[3], m[3], m[3], 12, 12);
  print("short rows", g, total);
  // Two consumer loops, separate arrays.
  double *zc = malloc(10 * 10 * 10 * sizeof(double));
  double *uf = malloc(18 * 18 * 18 * sizeof(double));
  fill(zc, 1000, 17);
  fill(uf, 18 * 18 * 18, 19);
  interp2(zc, 10, 10, 10, uf, 18, 18);
  print("two consumers", uf, 18 * 18 * 18);
  free(zc);
  free(uf);
  free(g);
  return 0;
}
