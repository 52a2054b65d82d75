// Element offsets inside residency regions (issue 12): a run whose buffer
// lies strictly inside a device-resident range gets that range's buffer and
// an element offset (runtime/include/idiomrt.h, "Element offsets"), not a
// view buffer filled by a device copy and copied back.
//  - jacobi2d: a 2-D interior stencil time loop over doubles, buffers
//    swapped every step: the interior rows of b lie strictly inside b's
//    entry (grown to the whole grid by the reads of the next step);
//  - smooth1d: a 1-D interior map over floats (4-byte elements), swapped;
//  - the view path stays for what takes no offset: the interior sum of
//    smooth1d's result in the same region (a reduction: views >= 1).
// Every output is the sequential build's, bit for bit (the sums are of
// integers held exactly in doubles).
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
// Without regions the same kernels run with offset 0 (no residency line).
// RUN: %clang-idiom -fplugin=%plugin -mllvm -idiom-residency=false %s -lidiomrt -o %t.nores
// RUN: env IDIOM_ZERO_COPY=off IDIOM_COST=off IDIOM_MIN_TRIP=0 IDIOM_STATS=1 IDIOM_CACHE_DIR=off %t.nores > %t.out1 2> %t.stats1
// RUN: diff %t.expected %t.out1
// RUN: FileCheck %s --check-prefix=NORES < %t.stats1
// NORES: resid-offsets.c:{{[^ ]+}} map calls=8 offloaded=8
// NORES-NOT: idiom-stats: residency
#include <stdio.h>
#include <stdlib.h>

// REMARK-DAG: resid-offsets.c:[[@LINE+7]]:5: remark: offloaded 2-D map
// REMARK-DAG: resid-offsets.c:[[@LINE+5]]:3: remark: residency region
// STATS-DAG: resid-offsets.c:[[@LINE+5]] map calls=8 offloaded=8
// Both programs' sub-ranges at an offset; the reduction's through a view.
// STATS-DAG: idiom-stats: residency regions=2 {{.*}} offsets={{[1-9][0-9]*}} views={{[1-9][0-9]*}}
__attribute__((noinline)) void jacobi2d(int n, int steps, double *a, double *b) {
  for (int t = 0; t < steps; t++) {
    for (int i = 1; i < n - 1; i++)
      for (int j = 1; j < n - 1; j++)
        b[i * n + j] = 0.25 * (a[(i - 1) * n + j] + a[(i + 1) * n + j] +
                               a[i * n + j - 1] + a[i * n + j + 1]);
    double *tmp = a;
    a = b;
    b = tmp;
  }
}

// REMARK-DAG: resid-offsets.c:[[@LINE+6]]:5: remark: offloaded map
// REMARK-DAG: resid-offsets.c:[[@LINE+4]]:3: remark: residency region
// STATS-DAG: resid-offsets.c:[[@LINE+4]] map calls=9 offloaded=9
__attribute__((noinline)) double smooth1d(int n, int steps, float *x, float *y) {
  double s = 0;
  for (int t = 0; t < steps; t++) {
    for (int i = 1; i < n - 1; i++)
      y[i] = 0.5f * x[i - 1] + 0.5f * x[i + 1];
    for (int i = 2; i < n - 2; i++)
      s += y[i];
    float *tmp = x;
    x = y;
    y = tmp;
  }
  return s;
}

int main(int argc, char **argv) {
  int n = 61 + (argc > 5), m = 5003 + (argc > 5);
  double *a = malloc(sizeof(double) * n * n), *b = malloc(sizeof(double) * n * n);
  float *x = malloc(sizeof(float) * m), *y = malloc(sizeof(float) * m);
  for (int q = 0; q < n * n; q++)
    a[q] = b[q] = (double)(q % 17);
  for (int q = 0; q < m; q++)
    x[q] = y[q] = (float)(q % 11) * 4.0f;
  jacobi2d(n, 8, a, b);
  printf("%.17g\n", smooth1d(m, 9, x, y));
  double c = 0;
  for (int q = 0; q < n * n; q++)
    c += a[q] * (q % 5) + b[q];
  double d = 0;
  for (int q = 0; q < m; q++)
    d += x[q] * (q % 3) + y[q];
  printf("%.17g %.17g\n", c, d);
  return 0;
}
