// NAS MG's periodic ghost copies (comm3) end to end on PoCL: the ghost
// columns (two points a row), the ghost rows and the ghost planes of a
// grid reached through a VLA-typed cast, each nest a 2-D map. The flat
// index has products of the run-time extents (i3 * n2 * n1), and the
// columns written and read (0 and n1 - 2, n1 - 1 and 1) meet in flat
// memory for some extents (n1 = 1); over the grid subscripts
// (GridDependence.h) the iterations are independent when every subscript
// lies in its extent, which the call checks at run time (n1 >= 2 for the
// columns, n2 >= 2 for the rows; else the original loop runs). Calls: the
// real sizes, n1 = 2 and n2 = 2 (the columns or rows read are the ones
// written, in the same iteration), n1 = 1 and n2 = 1 (the checks fail: the
// loops run). Negatives: ghost loops that really carry a dependence (a
// row or a plane that the next iteration reads) stay refused, with the
// remark naming the dependence. Every output is the sequential build's,
// bit for bit.
// RUN: %clang -O2 %s -o %t.seq
// RUN: %clang-idiom -g %s -lidiomrt -Rpass=idiom-offload -Rpass-missed=idiom-offload -o %t.idiom 2> %t.remarks
// RUN: FileCheck %s --check-prefix=REMARK < %t.remarks
// RUN: %t.seq > %t.expected
// RUN: env IDIOM_COST=off IDIOM_MIN_TRIP=0 IDIOM_STATS=1 IDIOM_CACHE_DIR=off %t.idiom > %t.out 2> %t.stats
// RUN: diff %t.expected %t.out
// RUN: FileCheck %s --check-prefix=STATS < %t.stats
#include <stdio.h>
#include <stdlib.h>

// REMARK: mg-ghost.c:[[@LINE+10]]:3: remark: offloaded 2-D map
// REMARK: mg-ghost.c:[[@LINE+14]]:3: remark: offloaded 2-D map
// REMARK: mg-ghost.c:[[@LINE+18]]:3: remark: offloaded 2-D map
// Columns: the real sizes and n1 = 2 (n2 = 2 and n2 = 1: no row; n1 = 1:
// the check fails, the loop runs). Rows: all but n2 = 1 (the check).
// STATS-DAG: mg-ghost.c:[[@LINE+5]] map calls=2 offloaded=2
// STATS-DAG: mg-ghost.c:[[@LINE+9]] map calls=4 offloaded=4
__attribute__((noinline)) void comm3(void *ou, int n1, int n2, int n3) {
  double (*u)[n2][n1] = (double (*)[n2][n1])ou;
  int i1, i2, i3;
  for (i3 = 1; i3 < n3 - 1; i3++)
    for (i2 = 1; i2 < n2 - 1; i2++) {
      u[i3][i2][0] = u[i3][i2][n1 - 2];
      u[i3][i2][n1 - 1] = u[i3][i2][1];
    }
  for (i3 = 1; i3 < n3 - 1; i3++)
    for (i1 = 0; i1 < n1; i1++) {
      u[i3][0][i1] = u[i3][n2 - 2][i1];
      u[i3][n2 - 1][i1] = u[i3][1][i1];
    }
  for (i2 = 0; i2 < n2; i2++)
    for (i1 = 0; i1 < n1; i1++) {
      u[0][i2][i1] = u[n3 - 2][i2][i1];
      u[n3 - 1][i2][i1] = u[1][i2][i1];
    }
}

// A ghost column that copies the row before (a row the previous iteration
// wrote): a true dependence.
// REMARK: mg-ghost.c:[[@LINE+3]]:3: remark: loop is not an idiom (closest: map): {{.*}}NoLoopCarriedDependence(loop): loop-carried dependence between a store and another access of the same array (a store and a load)
__attribute__((noinline)) void carried_rows(void *ou, int n1, int n2, int n3) {
  double (*u)[n2][n1] = (double (*)[n2][n1])ou;
  for (int i3 = 1; i3 < n3 - 1; i3++)
    for (int i2 = 1; i2 < n2 - 1; i2++) {
      u[i3][i2][0] = u[i3][i2 - 1][n1 - 2];
      u[i3][i2][n1 - 1] = u[i3][i2][1];
    }
}

// Ghost rows copied from the plane before (written by the previous i3).
// REMARK: mg-ghost.c:[[@LINE+3]]:3: remark: loop is not an idiom (closest: map): {{.*}}NoLoopCarriedDependence(loop): loop-carried dependence between a store and another access of the same array (a store and a load)
__attribute__((noinline)) void carried_planes(void *ou, int n1, int n2, int n3) {
  double (*u)[n2][n1] = (double (*)[n2][n1])ou;
  for (int i3 = 1; i3 < n3 - 1; i3++)
    for (int i1 = 0; i1 < n1; i1++)
      u[i3][0][i1] = u[i3 - 1][0][i1] + u[i3][n2 - 2][i1];
}

static unsigned long seed = 12345;
static double next(void) {
  seed = seed * 6364136223846793005ul + 1442695040888963407ul;
  return (double)(seed >> 11) / 9007199254740992.0;
}

static void run(int n1, int n2, int n3) {
  size_t n = (size_t)n1 * n2 * n3 + 8;
  double *g = malloc(n * sizeof *g);
  for (size_t i = 0; i < n; i++)
    g[i] = next();
  comm3(g, n1, n2, n3);
  carried_rows(g, n1, n2, n3);
  carried_planes(g, n1, n2, n3);
  double s = 0;
  for (size_t i = 0; i < n; i++)
    s = s * 1.0000001 + g[i] * (double)(i % 97 + 1);
  printf("%d %d %d %.17g %.17g %.17g\n", n1, n2, n3, s, g[0], g[n - 9]);
  free(g);
}

int main(void) {
  run(66, 66, 66);
  run(2, 34, 34);
  run(34, 2, 34);
  run(1, 34, 34);
  run(34, 1, 34);
  return 0;
}
