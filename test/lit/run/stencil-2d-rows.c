// The row walks of a 2-D map (map-to-mapGlobal-2d-rows, docs/Rewrite.md:
// 16 and 64 whole rows per work-item, a 1-D NDRange of row chunks, marker
// ept=*xR) end to end on PoCL: a 5-point Jacobi stencil over 89 x 89 interior
// points (five chunks of 16 and a ragged one of 9; one of 64 and a ragged one
// of 25), each variant forced with IDIOM_VARIANT, then tuned. Every run
// prints the sequential build's output bit for bit (maps are exact).
// RUN: %clang -O2 %s -o %t.seq
// RUN: %clang-idiom %s -lidiomrt -o %t.idiom
// RUN: %t.seq > %t.expected
// RUN: env IDIOM_DEVICE=cpu IDIOM_COST=off IDIOM_MIN_TRIP=0 IDIOM_VARIANT=4 IDIOM_STATS=1 IDIOM_CACHE_DIR=off %t.idiom > %t.v4 2> %t.v4.stats
// RUN: diff %t.expected %t.v4
// RUN: FileCheck %s --check-prefix=V4 < %t.v4.stats
// RUN: env IDIOM_DEVICE=cpu IDIOM_COST=off IDIOM_MIN_TRIP=0 IDIOM_VARIANT=5 IDIOM_STATS=1 IDIOM_CACHE_DIR=off %t.idiom > %t.v5 2> %t.v5.stats
// RUN: diff %t.expected %t.v5
// RUN: FileCheck %s --check-prefix=V5 < %t.v5.stats
// With copies instead of zero-copy, and tuned (IDIOM_TUNE_MIN=0: every
// variant timed on this small grid):
// RUN: env IDIOM_DEVICE=cpu IDIOM_COST=off IDIOM_MIN_TRIP=0 IDIOM_ZERO_COPY=off IDIOM_VARIANT=4 IDIOM_CACHE_DIR=off %t.idiom > %t.copy
// RUN: diff %t.expected %t.copy
// RUN: env IDIOM_DEVICE=cpu IDIOM_COST=off IDIOM_MIN_TRIP=0 IDIOM_TUNE_MIN=0 IDIOM_CACHE_DIR=off %t.idiom > %t.tuned
// RUN: diff %t.expected %t.tuned
#include <stdio.h>
#include <stdlib.h>

// V4: stencil-2d-rows.c:step map calls=12 offloaded=12 {{.*}}variant 4 tuned=forced
// V5: stencil-2d-rows.c:step map calls=12 offloaded=12 {{.*}}variant 5 tuned=forced
__attribute__((noinline)) static void step(const double *u, double *v,
                                           long n) {
  for (long i = 1; i < n - 1; i++)
    for (long j = 1; j < n - 1; j++)
      v[i * n + j] = 0.25 * (u[(i - 1) * n + j] + u[(i + 1) * n + j] +
                             u[i * n + j - 1] + u[i * n + j + 1]);
}

int main(void) {
  // 89 interior rows of 89 points; the size unknown at compile time (a
  // constant row count gets row walks only when R divides it)
  volatile long vn = 91;
  long n = vn, m = n;
  double *u = malloc(sizeof(double) * n * m), *v = malloc(sizeof(double) * n * m);
  if (!u || !v)
    return 1;
  for (long k = 0; k < n * m; k++)
    u[k] = v[k] = (double)((k * 7919) % 1009) / 1009.0;
  for (int t = 0; t < 6; t++) {
    step(u, v, n);
    step(v, u, n);
  }
  // every 97th value, printed in the loop (no idiom: a bit-exact witness)
  for (long k = 0; k < n * m; k += 97)
    printf("%ld %.17g\n", k, u[k]);
  free(u);
  free(v);
  return 0;
}
