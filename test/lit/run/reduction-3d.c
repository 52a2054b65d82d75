// Scalar reductions over a whole 3-D grid (issue 13): the nest is ONE
// reduction over the flattened planes x rows x cols space, launched once
// per execution of the nest (calls=1 offloaded=1 for a function called
// once), not once per plane. Forms: NAS MG's norm2u3 (sum of squares and
// largest magnitude over the interior 1..n-2 of a VLA-typed 3-D grid), an
// exact int sum, a sum that reads the three loop indices, sqrt behind the
// errno check, 64-bit trip counts behind the wrap test. Exact data (small
// multiples of powers of two) compare exactly; a float sum of inexact data
// is compared with a double reference within n * eps * sum |x| (the
// reassociation licence's bound), and prints only whether it is within.
// RUN: %clang -O2 %s -lm -o %t.seq
// RUN: %clang-idiom -g %s -lidiomrt -lm -Rpass=idiom-offload -Rpass-missed=idiom-offload -o %t.idiom 2> %t.remarks
// RUN: FileCheck %s --check-prefix=REMARK < %t.remarks
// RUN: %t.seq > %t.expected
// RUN: env IDIOM_DEVICE=cpu IDIOM_COST=off IDIOM_MIN_TRIP=0 IDIOM_STATS=1 IDIOM_CACHE_DIR=off %t.idiom > %t.out 2> %t.stats
// RUN: diff %t.expected %t.out
// RUN: FileCheck %s --check-prefix=STATS < %t.stats
// RUN: env IDIOM_DEVICE=seq %t.idiom > %t.seqout
// RUN: diff %t.expected %t.seqout
#include <errno.h>
#include <float.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

// REMARK-DAG: reduction-3d.c:[[@LINE+7]]:3: remark: {{.*}}offloaded 3-D scalar reduction (scalar-reduction-3d) to OpenCL as {{.*}} with 2 accumulator(s): fadd fmax
// STATS-DAG: idiom-stats: reduction-3d.c:[[@LINE+6]] scalar-reduction-3d calls=1 offloaded=1
__attribute__((noinline)) static void norm2u3(void *or, int n1, int n2, int n3,
                                              double *rnm2, double *rnmu) {
  double (*r)[n2][n1] = (double (*)[n2][n1])or;
  double s = 0.0, mx = 0.0;
  int i1, i2, i3;
  for (i3 = 1; i3 < n3 - 1; i3++)
    for (i2 = 1; i2 < n2 - 1; i2++)
      for (i1 = 1; i1 < n1 - 1; i1++) {
        s = s + r[i3][i2][i1] * r[i3][i2][i1];
        double t = fabs(r[i3][i2][i1]);
        if (t > mx)
          mx = t;
      }
  *rnmu = mx;
  *rnm2 = sqrt(s / ((double)(n1 - 2) * (n2 - 2) * (n3 - 2)));
}

// REMARK-DAG: reduction-3d.c:[[@LINE+5]]:3: remark: {{.*}}offloaded 3-D scalar reduction (scalar-reduction-3d) to OpenCL
// STATS-DAG: idiom-stats: reduction-3d.c:[[@LINE+4]] scalar-reduction-3d calls=1 offloaded=1
__attribute__((noinline)) static long isum(int n, int m, int l,
                                           const int (*a)[m][l]) {
  long s = 0;
  for (int i = 0; i < n; i++)
    for (int j = 0; j < m; j++)
      for (int k = 0; k < l; k++)
        s += a[i][j][k];
  return s;
}

// The element reads the loop indices (joined iotas of the flattened space).
// REMARK-DAG: reduction-3d.c:[[@LINE+5]]:3: remark: {{.*}}offloaded 3-D scalar reduction (scalar-reduction-3d) to OpenCL
// STATS-DAG: idiom-stats: reduction-3d.c:[[@LINE+4]] scalar-reduction-3d calls=1 offloaded=1
__attribute__((noinline)) static long wsum(int n, int m, int l,
                                           const int (*a)[m][l]) {
  long s = 0;
  for (int i = 2; i < n; i++)
    for (int j = 0; j < m - 1; j++)
      for (int k = 1; k < l; k++)
        s += (long)a[i][j][k] * (7 * i - 3 * j + k);
  return s;
}

// sqrt, which may set errno: the errno check reduces over the same
// flattened space. The second call has a negative element: the loop runs.
// REMARK-DAG: reduction-3d.c:[[@LINE+5]]:3: remark: {{.*}}offloaded 3-D scalar reduction (scalar-reduction-3d) to OpenCL
// STATS-DAG: idiom-stats: reduction-3d.c:[[@LINE+4]] scalar-reduction-3d calls=2 offloaded=1
__attribute__((noinline)) static double rootsum(const double *u, int n, int m,
                                                int l) {
  double s = 0;
  for (int i = 0; i < n; i++)
    for (int j = 0; j < m; j++)
      for (int k = 0; k < l; k++)
        s += sqrt(u[(i * m + j) * l + k]);
  return s;
}

// 64-bit trip counts: n0 * n1 * n2 may wrap, so the call first tests it.
// REMARK-DAG: reduction-3d.c:[[@LINE+5]]:3: remark: {{.*}}offloaded 3-D scalar reduction (scalar-reduction-3d) to OpenCL
// STATS-DAG: idiom-stats: reduction-3d.c:[[@LINE+4]] scalar-reduction-3d calls=1 offloaded=1
__attribute__((noinline)) static long lsum(long n, long m, long l,
                                           const int *a) {
  long s = 0;
  for (long i = 0; i < n; i++)
    for (long j = 0; j < m; j++)
      for (long k = 0; k < l; k++)
        s += a[(i * m + j) * l + k] ^ (int)k;
  return s;
}

// Inexact float data: the sum is reassociated (within the licence's bound).
// REMARK-DAG: reduction-3d.c:[[@LINE+5]]:3: remark: {{.*}}offloaded 3-D scalar reduction (scalar-reduction-3d) to OpenCL
// STATS-DAG: idiom-stats: reduction-3d.c:[[@LINE+4]] scalar-reduction-3d calls=1 offloaded=1
__attribute__((noinline)) static float fsum(int n, int m, int l,
                                            const float (*a)[m][l]) {
  float s = 0;
  for (int i = 0; i < n; i++)
    for (int j = 0; j < m; j++)
      for (int k = 0; k < l; k++)
        s += a[i][j][k];
  return s;
}

int main(void) {
  volatile int vn = 40, vm = 50, vl = 60;
  int n = vn, m = vm, l = vl, total = n * m * l;
  double *u = malloc(sizeof(double) * total);
  int *a = malloc(sizeof(int) * total);
  float *f = malloc(sizeof(float) * total);
  unsigned seed = 12345;
  for (int k = 0; k < total; k++) {
    u[k] = ((k % 29) - 14) * 0.25;
    a[k] = k % 1000 - 300;
    seed = seed * 1103515245u + 12345u;
    f[k] = (float)((seed >> 8) & 0xffff) / 65536.0f + 0.1f;
  }
  double rnm2, rnmu;
  norm2u3(u, l, m, n, &rnm2, &rnmu);
  printf("norm2u3 %.17g %.17g\n", rnm2, rnmu);
  printf("isum %ld\n", isum(n, m, l, (const int(*)[m][l])a));
  printf("wsum %ld\n", wsum(n, m, l, (const int(*)[m][l])a));
  printf("lsum %ld\n", lsum(n, m, l, a));
  float fs = fsum(n, m, l, (const float(*)[m][l])f);
  double ref = 0, mag = 0;
  for (int k = 0; k < total; k++) {
    ref += f[k];
    mag += fabs(f[k]);
  }
  printf("fsum within %d\n", fabs(fs - ref) <= total * FLT_EPSILON * mag);
  for (int k = 0; k < total; k++)
    u[k] = (double)((k % 23) * (k % 23)) / 4;
  printf("rootsum %.17g\n", rootsum(u, n, m, l));
  u[total / 2] = -1;
  double r = rootsum(u, n, m, l);
  printf("rootsum %s %d\n", isnan(r) ? "nan" : "num", errno);
  free(u);
  free(a);
  free(f);
  return 0;
}
