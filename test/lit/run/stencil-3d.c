// 3-D maps end to end on PoCL: a perfect nest of three rectangular loops
// whose body is a map runs as one launch over a 3-D NDRange, not one per
// plane (run/stencil-3d-planes.c is the per-plane fallback).
//  - heat: a 7-point heat time loop written the legacy way (int counters
//    and sizes, flattened (i*n + j)*n + k indices, buffers swapped every
//    step): one launch a step, the time loop a residency region;
//  - jacobi_swapped: the outermost loop walks the unit stride (`for i, for
//    j, for k: b[k][j][i]`): the lift puts that loop innermost;
//  - coords: constant sizes, the three iteration indices read (iotas), a
//    dense output (not copied in);
//  - carried_k (negative): plane k reads plane k - 1 of the same array, no
//    3-D map (the original nest runs; its 2-D planes are not proven either).
// Every output is the sequential build's, bit for bit.
// RUN: %clang -O2 %s -o %t.seq
// RUN: %clang-idiom %s -lidiomrt -Rpass=idiom-offload -Rpass-missed=idiom-offload -o %t.idiom 2> %t.remarks
// RUN: FileCheck %s --check-prefix=REMARK < %t.remarks
// RUN: %t.seq > %t.expected
// RUN: env IDIOM_ZERO_COPY=off IDIOM_COST=off IDIOM_MIN_TRIP=0 IDIOM_STATS=1 IDIOM_CACHE_DIR=off %t.idiom > %t.out 2> %t.stats
// RUN: diff %t.expected %t.out
// RUN: FileCheck %s --check-prefix=STATS < %t.stats
// Tuning and the variants: every variant of the 3-D kernels gives the
// sequential output.
// RUN: env IDIOM_COST=off IDIOM_MIN_TRIP=0 IDIOM_TUNE_MIN=0 IDIOM_CACHE_DIR=off %t.idiom > %t.tuned
// RUN: diff %t.expected %t.tuned
// RUN: env IDIOM_COST=off IDIOM_MIN_TRIP=0 IDIOM_VARIANT=1 IDIOM_CACHE_DIR=off %t.idiom > %t.v1
// RUN: diff %t.expected %t.v1
// RUN: env IDIOM_COST=off IDIOM_MIN_TRIP=0 IDIOM_VARIANT=3 IDIOM_CACHE_DIR=off %t.idiom > %t.v3
// RUN: diff %t.expected %t.v3
// The wide tile (2: 256x1) and the plane walks (3: 16 planes a work-item;
// 4 and 5: 8 planes; 6 and 7: 4 planes; the last chunk of the 29 planes
// ragged in each):
// the heat nest runs each of them at every step (WALK).
// RUN: env IDIOM_COST=off IDIOM_MIN_TRIP=0 IDIOM_VARIANT=2 IDIOM_CACHE_DIR=off %t.idiom > %t.v2
// RUN: diff %t.expected %t.v2
// RUN: env IDIOM_ZERO_COPY=off IDIOM_COST=off IDIOM_MIN_TRIP=0 IDIOM_VARIANT=4 IDIOM_STATS=1 IDIOM_CACHE_DIR=off %t.idiom > %t.v4 2> %t.v4.stats
// RUN: diff %t.expected %t.v4
// RUN: FileCheck %s --check-prefix=WALK < %t.v4.stats
// RUN: env IDIOM_COST=off IDIOM_MIN_TRIP=0 IDIOM_VARIANT=5 IDIOM_CACHE_DIR=off %t.idiom > %t.v5
// RUN: diff %t.expected %t.v5
// RUN: env IDIOM_COST=off IDIOM_MIN_TRIP=0 IDIOM_VARIANT=6 IDIOM_CACHE_DIR=off %t.idiom > %t.v6
// RUN: diff %t.expected %t.v6
// RUN: env IDIOM_ZERO_COPY=off IDIOM_COST=off IDIOM_MIN_TRIP=0 IDIOM_VARIANT=7 IDIOM_STATS=1 IDIOM_CACHE_DIR=off %t.idiom > %t.v7 2> %t.v7.stats
// RUN: diff %t.expected %t.v7
// RUN: FileCheck %s --check-prefix=WALK < %t.v7.stats
#include <stdio.h>
#include <stdlib.h>

// REMARK-DAG: stencil-3d.c:[[@LINE+9]]:5: remark: offloaded 3-D map
// REMARK-DAG: stencil-3d.c:[[@LINE+7]]:3: remark: residency region
// One launch a step: 7 steps.
// STATS-DAG: stencil-3d.c:[[@LINE+6]] map calls=7 offloaded=7
// WALK: stencil-3d.c:[[@LINE+5]] map calls=7 offloaded=7
// Two regions: this time loop and carried_k's plane loop.
// STATS-DAG: idiom-stats: residency regions=2
__attribute__((noinline)) void heat(int n, int steps, double *a, double *b) {
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

// REMARK-DAG: stencil-3d.c:[[@LINE+3]]:3: remark: offloaded 3-D map
// STATS-DAG: stencil-3d.c:[[@LINE+2]] map calls=1 offloaded=1
__attribute__((noinline)) void jacobi_swapped(int n, const float *a, float *b) {
  for (int i = 1; i < n - 1; i++)
    for (int j = 1; j < n - 1; j++)
      for (int k = 1; k < n - 1; k++)
        b[(k * n + j) * n + i] =
            (a[((k - 1) * n + j) * n + i] + a[((k + 1) * n + j) * n + i] +
             a[(k * n + j - 1) * n + i] + a[(k * n + j + 1) * n + i] +
             a[(k * n + j) * n + i - 1] + a[(k * n + j) * n + i + 1]) /
            6.0f;
}

// Every point of C is written (planes and rows abut): the output is dense,
// so the runtime does not copy it in.
int C[12][20][36];
// REMARK-DAG: stencil-3d.c:[[@LINE+3]]:3: remark: offloaded 3-D map
// STATS-DAG: stencil-3d.c:[[@LINE+2]] map calls=1 offloaded=1 {{.*}} bytes_in=0 bytes_out=34560
__attribute__((noinline)) void coords(int s) {
  for (int k = 0; k < 12; k++)
    for (int j = 0; j < 20; j++)
      for (int i = 0; i < 36; i++)
        C[k][j][i] = s * (k * 10000 + j * 100 + i) + (k ^ j ^ i);
}

// No 3-D map: plane k reads plane k - 1 (each plane alone is a 2-D map,
// independent over the grid's subscripts, one launch per k).
// REMARK-DAG: stencil-3d.c:[[@LINE+4]]:3: remark: loop is not an idiom {{.*}}loop-carried dependence
// REMARK-DAG: stencil-3d.c:[[@LINE+4]]:5: remark: offloaded 2-D map
// STATS-NOT: stencil-3d.c:[[@LINE+2]]
__attribute__((noinline)) void carried_k(int n, double *a) {
  for (int k = 1; k < n; k++)
    for (int j = 0; j < n; j++)
      for (int i = 0; i < n; i++)
        a[(k * n + j) * n + i] = 0.5 * a[((k - 1) * n + j) * n + i] + 1.0;
}

int main(int argc, char **argv) {
  int n = 30 + argc; // not a constant for the plugin
  double *a = malloc(sizeof(double) * n * n * n);
  double *b = malloc(sizeof(double) * n * n * n);
  float *x = malloc(sizeof(float) * n * n * n);
  float *y = malloc(sizeof(float) * n * n * n);
  for (int q = 0; q < n * n * n; q++) {
    a[q] = (q % 13) * 0.5;
    b[q] = a[q];
    x[q] = (float)((q * 7) % 11) - 5.0f;
    y[q] = -1.0f;
  }
  heat(n, 7, a, b);
  double c = 0;
  for (int q = 0; q < n * n * n; q++)
    c = c * 0.999 + a[q] + 0.25 * b[q];
  printf("heat %.17g %.17g\n", c, a[(15 * n + 15) * n + 15]);
  jacobi_swapped(n, x, y);
  double d = 0;
  for (int q = 0; q < n * n * n; q++)
    d = d * 0.999 + y[q];
  printf("jacobi %.9g %.9g\n", d, (double)y[(3 * n + 4) * n + 5]);
  coords(3);
  long e = 0;
  for (int k = 0; k < 12; k++)
    for (int j = 0; j < 20; j++)
      for (int i = 0; i < 36; i++)
        e = e * 31 + C[k][j][i];
  printf("coords %ld %d\n", e, C[11][19][35]);
  carried_k(n, a);
  printf("carried %.17g\n", a[n * n * n - 1]);
  free(a);
  free(b);
  free(x);
  free(y);
  return 0;
}
