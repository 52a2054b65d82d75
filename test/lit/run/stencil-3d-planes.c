// A 3-D 7-point heat time loop written the legacy way (int counters and
// sizes, flattened (i*n + j)*n + k indices, buffers swapped every step), end
// to end on PoCL. No idiom takes the 3-deep nest; map takes its inner 2-D
// nest, launched once per plane i with the plane's offset (a recurrence of
// i) as an argument, and the time loop is a residency region. The output is
// the sequential build's, bit for bit.
// RUN: %clang -O2 %s -o %t.seq
// RUN: %clang-idiom %s -lidiomrt -Rpass=idiom-offload -o %t.idiom 2> %t.remarks
// RUN: FileCheck %s --check-prefix=REMARK < %t.remarks
// RUN: %t.seq > %t.expected
// RUN: env IDIOM_COST=off IDIOM_MIN_TRIP=0 IDIOM_STATS=1 IDIOM_CACHE_DIR=off %t.idiom > %t.out 2> %t.stats
// RUN: diff %t.expected %t.out
// RUN: FileCheck %s --check-prefix=STATS < %t.stats
#include <stdio.h>
#include <stdlib.h>

// REMARK-DAG: stencil-3d-planes.c:[[@LINE+9]]:7: remark: offloaded 2-D map
// REMARK-DAG: stencil-3d-planes.c:[[@LINE+6]]:3: remark: residency region
// 6 steps x 38 planes.
// STATS-DAG: stencil-3d-planes.c:[[@LINE+6]] map calls=228 offloaded=228
// The planes of a and b grow into one entry each on the device.
// STATS-DAG: idiom-stats: residency {{.*}} grown={{[1-9][0-9]*}}
__attribute__((noinline)) static void heat(int n, int steps, double *a, double *b) {
  for (int t = 0; t < steps; t++) {
    for (int i = 1; i < n - 1; i++)
      for (int j = 1; j < n - 1; j++)
        for (int k = 1; k < n - 1; k++)
          b[(i * n + j) * n + k] =
              a[(i * n + j) * n + k] +
              0.1 * (a[((i - 1) * n + j) * n + k] + a[((i + 1) * n + j) * n + k] +
                     a[(i * n + j - 1) * n + k] + a[(i * n + j + 1) * n + k] +
                     a[(i * n + j) * n + k - 1] + a[(i * n + j) * n + k + 1] -
                     6.0 * a[(i * n + j) * n + k]);
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
  heat(n, 6, a, b);
  double c = 0;
  for (int q = 0; q < n * n * n; q++)
    c = c * 0.999 + a[q] + 0.25 * b[q];
  printf("%.17g %.17g\n", c, a[(20 * n + 20) * n + 20]);
  free(a);
  free(b);
  return 0;
}
