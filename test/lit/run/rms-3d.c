// Reductions into a small array inside a deep nest (issue 13, NAS SP/BT's
// error_norm and rhs_norm): `rms[m] += d*d` with m innermost (5 components)
// inside a k/j/i nest. -O2 unrolls the m loop; each rms[m] is then an
// accumulator carried through the three loops: one 3-D scalar reduction of
// 5 sums over the flattened (k, j, i) space (one kernel, 5 results), the
// post-loop sqrt on the host. Where rms is a local array the sums live in
// registers; where it is a pointer that may alias the grid, -O2 also stores
// each running sum to rms[m] on every iteration: the stitched code stores
// the final sums after the nest, and runs the original loop when rms
// overlaps the grid (a run-time check). Exact data (quarters), so every
// order gives the same sums and outputs compare exactly.
// RUN: %clang -O2 %s -lm -o %t.seq
// RUN: %clang-idiom -g %s -lidiomrt -lm -Rpass=idiom-offload -Rpass-missed=idiom-offload -o %t.idiom 2> %t.remarks
// RUN: FileCheck %s --check-prefix=REMARK < %t.remarks
// RUN: %t.seq > %t.expected
// RUN: env IDIOM_DEVICE=cpu IDIOM_COST=off IDIOM_MIN_TRIP=0 IDIOM_STATS=1 IDIOM_CACHE_DIR=off %t.idiom > %t.out 2> %t.stats
// RUN: diff %t.expected %t.out
// RUN: FileCheck %s --check-prefix=STATS < %t.stats
// RUN: env IDIOM_DEVICE=seq %t.idiom > %t.seqout
// RUN: diff %t.expected %t.seqout
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#define N 24

// REMARK-DAG: rms-3d.c:[[@LINE+5]]:3: remark: {{.*}}offloaded 3-D scalar reduction (scalar-reduction-3d) to OpenCL as {{.*}} with 5 accumulator(s): fadd fadd fadd fadd fadd
// STATS-DAG: idiom-stats: rms-3d.c:[[@LINE+4]] scalar-reduction-3d calls=1 offloaded=1
__attribute__((noinline)) static void rms_local(int nx, int ny, int nz,
                                                double (*a)[N][N][5], double out[5]) {
  double rms[5] = {0, 0, 0, 0, 0};
  for (int k = 1; k <= nz - 2; k++)
    for (int j = 1; j <= ny - 2; j++)
      for (int i = 1; i <= nx - 2; i++)
        for (int m = 0; m < 5; m++) {
          double add = a[k][j][i][m];
          rms[m] = rms[m] + add * add;
        }
  for (int m = 0; m < 5; m++)
    out[m] = sqrt(rms[m] / ((double)(nx - 2) * (ny - 2) * (nz - 2)));
}

// rms through a pointer: the running sums are stored every iteration. The
// second call passes rms inside the grid: the stitched check runs the loop
// without calling the runtime (so calls=1).
// REMARK-DAG: rms-3d.c:[[@LINE+6]]:3: remark: {{.*}}offloaded 3-D scalar reduction (scalar-reduction-3d) to OpenCL as {{.*}} with 5 accumulator(s): fadd fadd fadd fadd fadd
// STATS-DAG: idiom-stats: rms-3d.c:[[@LINE+5]] scalar-reduction-3d calls=1 offloaded=1
__attribute__((noinline)) static void rms_norm(int nx, int ny, int nz,
                                               double (*a)[N][N][5], double *rms) {
  for (int m = 0; m < 5; m++)
    rms[m] = 0.0;
  for (int k = 1; k <= nz - 2; k++)
    for (int j = 1; j <= ny - 2; j++)
      for (int i = 1; i <= nx - 2; i++)
        for (int m = 0; m < 5; m++) {
          double add = a[k][j][i][m];
          rms[m] = rms[m] + add * add;
        }
  for (int m = 0; m < 5; m++)
    rms[m] = sqrt(rms[m] / ((double)(nx - 2) * (ny - 2) * (nz - 2)));
}

int main(void) {
  double (*a)[N][N][5] = malloc(sizeof(double) * N * N * N * 5);
  double *flat = (double *)a;
  for (int k = 0; k < N * N * N * 5; k++)
    flat[k] = ((k * 7) % 19 - 9) * 0.25;
  double out[5], rms[5];
  rms_local(N, N, N, a, out);
  for (int m = 0; m < 5; m++)
    printf("local %d %.17g\n", m, out[m]);
  rms_norm(N, N, N, a, rms);
  for (int m = 0; m < 5; m++)
    printf("norm %d %.17g\n", m, rms[m]);
  // rms overlaps the grid's interior: the loop reads its own partial sums.
  double *inside = &a[N / 2][N / 2][N / 2][0];
  rms_norm(N, N, N, a, inside);
  for (int m = 0; m < 5; m++)
    printf("aliased %d %.17g\n", m, inside[m]);
  free(a);
  return 0;
}
