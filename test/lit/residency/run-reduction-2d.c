// A 2-D scalar reduction (a residual norm) in a time loop after a map that
// updates the grid: the reduction is one call per time step (not one per
// row) and reads the map's output where it stays on the device (residency
// region). Every value is a multiple of 2^-13 below 2, every square a
// multiple of 2^-26: all sums are exact in any order, outputs compare
// exactly.
// RUN: %clang -O2 %s -o %t.seq
// RUN: %clang-idiom %s -Rpass=idiom-offload -lidiomrt -o %t.idiom 2> %t.remarks
// RUN: FileCheck %s --check-prefix=REMARK < %t.remarks
// RUN: %t.seq > %t.expected
// RUN: env IDIOM_ZERO_COPY=off IDIOM_DEVICE=cpu IDIOM_COST=off IDIOM_MIN_TRIP=0 IDIOM_STATS=1 %t.idiom > %t.out 2> %t.stats
// RUN: diff %t.expected %t.out
// Zero-copy on PoCL (runtime/lib/zerocopy.c): the same output, and the runs
// passed buffers over the program's memory.
// RUN: env IDIOM_COST=off IDIOM_MIN_TRIP=0 IDIOM_STATS=1 %t.idiom > %t.zc 2> %t.zcstats
// RUN: diff %t.expected %t.zc
// RUN: grep -q "idiom-stats: zero-copy args=[1-9]" %t.zcstats
// RUN: FileCheck %s --check-prefix=STATS < %t.stats
#include <stdio.h>
#include <stdlib.h>

#define STEPS 5
__attribute__((noinline)) static double iterate(double *u, double *v, int n, int m) {
  double r = 0;
  // REMARK-DAG: run-reduction-2d.c:[[@LINE+1]]:3: remark: residency region: the buffers of 2 offloaded idiom(s) stay on the device
  for (int t = 0; t < STEPS; t++) {
    for (int i = 1; i < n - 1; i++)
      for (int j = 1; j < m - 1; j++)
        v[i * m + j] = 0.25 * (u[(i - 1) * m + j] + u[(i + 1) * m + j] + u[i * m + j - 1] +
                               u[i * m + j + 1]);
    double s = 0;
    // REMARK-DAG: run-reduction-2d.c:[[@LINE+2]]:5: remark: offloaded 2-D scalar reduction (scalar-reduction-2d)
    // STATS-DAG: idiom-stats: run-reduction-2d.c:[[@LINE+1]] scalar-reduction-2d calls=5 offloaded=5
    for (int i = 1; i < n - 1; i++)
      for (int j = 1; j < m - 1; j++)
        s += (v[i * m + j] - u[i * m + j]) * (v[i * m + j] - u[i * m + j]);
    r += s;
    double *w = u;
    u = v;
    v = w;
  }
  return r;
}

int main(void) {
  volatile int vn = 200, vm = 160;
  int n = vn, m = vm;
  double *u = calloc(n * m, sizeof(double)), *v = calloc(n * m, sizeof(double));
  for (int k = 0; k < n * m; k++)
    u[k] = v[k] = (k % 13) * 0.125;
  printf("total %.17g\n", iterate(u, v, n, m));
  free(u);
  free(v);
  return 0;
}
