// A map whose flat index is a grid access only while a subscript stays in
// its extent (GridDependence.h: grid subscripts assumed in extent, the
// assumption checked at run time; test/lit/detect/map-dependence-
// delinearised.c `wrongstride`): c[j * n + i] with i < m is column i of
// row j only when m <= n. With m > n two iterations (i, j) and
// (i - n, j + 1) scale one element, twice in the loop's order, and a
// parallel map would race on it: the call must run the original loop.
// Calls: m < n and m == n (offloaded), m > n (the check fails, the loop
// runs, no device run). Every output is the sequential build's, bit for
// bit.
// RUN: %clang -O2 %s -o %t.seq
// RUN: %clang-idiom %s -lidiomrt -Rpass=idiom-offload -o %t.idiom 2> %t.remarks
// RUN: FileCheck %s --check-prefix=REMARK < %t.remarks
// RUN: %t.seq > %t.expected
// RUN: env IDIOM_COST=off IDIOM_MIN_TRIP=0 IDIOM_STATS=1 IDIOM_CACHE_DIR=off %t.idiom > %t.out 2> %t.stats
// RUN: diff %t.expected %t.out
// RUN: FileCheck %s --check-prefix=STATS < %t.stats
#include <stdio.h>
#include <stdlib.h>

// REMARK: grid-extent-check.c:[[@LINE+3]]:3: remark: offloaded 2-D map
// STATS: grid-extent-check.c:[[@LINE+2]] map calls=2 offloaded=2
__attribute__((noinline)) void wrongstride(int m, int n, float *restrict c, float beta) {
  for (int i = 0; i < m; i++)
    for (int j = 0; j < n; j++)
      c[j * n + i] *= beta;
}

static void run(int m, int n) {
  long len = (long)n * n + m + 8;
  float *c = malloc(len * sizeof(float));
  for (long k = 0; k < len; k++)
    c[k] = (float)(k % 97) * 0.75f + 1.0f;
  wrongstride(m, n, c, 1.5f);
  double s = 0.0;
  for (long k = 0; k < len; k++)
    s = 0.5 * s + c[k];
  printf("m %d n %d: %.9g %.9g %.9g\n", m, n, s, c[n], c[len - 9]);
  free(c);
}

int main(void) {
  run(37, 64);
  run(64, 64);
  run(96, 64);
  return 0;
}
