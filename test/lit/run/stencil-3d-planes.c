// A 3-D 7-point heat time loop written the legacy way (int counters and
// sizes, flattened i*ps + j*n + k indices, buffers swapped every step), end
// to end on PoCL, whose plane stride ps is a parameter: the 3-D map needs
// planes at least a plane apart (ps >= n * (n - 2)), which nothing proves
// here, so no idiom takes the 3-deep nest (run/stencil-3d.c has the 3-D map).
// Map takes its inner 2-D nest, launched once per plane i with the plane's
// offset (a recurrence of i) as an argument: the per-plane path, the
// fallback of 3-D nests the 3-D map refuses. The time loop is a residency
// region. The output is the sequential build's, bit for bit.
// RUN: %clang -O2 %s -o %t.seq
// RUN: %clang-idiom %s -lidiomrt -Rpass=idiom-offload -o %t.idiom 2> %t.remarks
// RUN: FileCheck %s --check-prefix=REMARK < %t.remarks
// RUN: %t.seq > %t.expected
// RUN: env IDIOM_ZERO_COPY=off IDIOM_COST=off IDIOM_MIN_TRIP=0 IDIOM_STATS=1 IDIOM_CACHE_DIR=off %t.idiom > %t.out 2> %t.stats
// RUN: diff %t.expected %t.out
// Zero-copy on PoCL (runtime/lib/zerocopy.c): the same output, and the runs
// passed buffers over the program's memory.
// RUN: env IDIOM_COST=off IDIOM_MIN_TRIP=0 IDIOM_STATS=1 %t.idiom > %t.zc 2> %t.zcstats
// RUN: diff %t.expected %t.zc
// RUN: grep -q "idiom-stats: zero-copy args=[1-9]" %t.zcstats
// RUN: FileCheck %s --check-prefix=STATS < %t.stats
#include <stdio.h>
#include <stdlib.h>

// REMARK-DAG: stencil-3d-planes.c:[[@LINE+12]]:7: remark: offloaded 2-D map
// REMARK-DAG: stencil-3d-planes.c:[[@LINE+9]]:3: remark: residency region
// 6 steps x 38 planes.
// STATS-DAG: stencil-3d-planes.c:[[@LINE+9]] map calls=228 offloaded=228
// The planes of a and b grow into one entry each on the device; each plane,
// strictly inside its entry, is passed as the entry's buffer and an element
// offset (no view copies).
// STATS-DAG: idiom-stats: residency {{.*}} grown={{[1-9][0-9]*}} offsets={{[1-9][0-9]*}} views=0
__attribute__((noinline)) void heat(int n, int ps, int steps, double *a,
                                    double *b) {
  for (int t = 0; t < steps; t++) {
    for (int i = 1; i < n - 1; i++)
      for (int j = 1; j < n - 1; j++)
        for (int k = 1; k < n - 1; k++)
          b[i * ps + j * n + k] =
              a[i * ps + j * n + k] +
              0.1 * (a[(i - 1) * ps + j * n + k] + a[(i + 1) * ps + j * n + k] +
                     a[i * ps + (j - 1) * n + k] + a[i * ps + (j + 1) * n + k] +
                     a[i * ps + j * n + k - 1] + a[i * ps + j * n + k + 1] -
                     6.0 * a[i * ps + j * n + k]);
    double *tmp = a;
    a = b;
    b = tmp;
  }
}

int main(void) {
  int n = 40;
  double *a = malloc(sizeof(double) * n * n * n);
  double *b = malloc(sizeof(double) * n * n * n);
  for (int q = 0; q < n * n * n; q++) {
    a[q] = (q % 13) * 0.5;
    b[q] = a[q];
  }
  heat(n, n * n, 6, a, b);
  double c = 0;
  for (int q = 0; q < n * n * n; q++)
    c = c * 0.999 + a[q] + 0.25 * b[q];
  printf("%.17g %.17g\n", c, a[(20 * n + 20) * n + 20]);
  free(a);
  free(b);
  return 0;
}
