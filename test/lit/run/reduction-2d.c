// Scalar reductions over a whole 2-D grid (issue 13): the nest is ONE
// reduction over the flattened rows x cols space, launched once per
// execution of the nest (calls=1 offloaded=1 per function called once), not
// once per row. Forms: a residual norm over a flattened array's interior
// (1..n-1 x 1..m-1), a VLA `a[i][j]` int sum, a `float (*a)[M]` sum of
// squares. The data are small multiples of powers of two, so every partial
// sum is exact in any order and outputs compare exactly.
// Negatives: a triangular nest (j < i) is not a 2-D reduction (precise
// missed remark; its inner loop stays a per-row reduction), and a nest whose
// inner loop also stores is not a pure reduction.
// RUN: %clang -O2 %s -lm -o %t.seq
// RUN: %clang-idiom -g %s -lidiomrt -lm -Rpass=idiom-offload -Rpass-missed=idiom-offload -o %t.idiom 2> %t.remarks
// RUN: FileCheck %s --check-prefix=REMARK < %t.remarks
// RUN: %t.seq > %t.expected
// RUN: env IDIOM_DEVICE=cpu IDIOM_COST=off IDIOM_MIN_TRIP=0 IDIOM_STATS=1 IDIOM_CACHE_DIR=off %t.idiom > %t.out 2> %t.stats
// RUN: diff %t.expected %t.out
// RUN: FileCheck %s --check-prefix=STATS < %t.stats
// RUN: FileCheck %s --check-prefix=NOSTATS < %t.stats
// RUN: env IDIOM_DEVICE=seq %t.idiom > %t.seqout
// RUN: diff %t.expected %t.seqout
#include <stdio.h>
#include <errno.h>
#include <math.h>
#include <stdlib.h>

// REMARK-DAG: reduction-2d.c:[[@LINE+5]]:3: remark: {{.*}}offloaded 2-D scalar reduction (scalar-reduction-2d) to OpenCL
// STATS-DAG: idiom-stats: reduction-2d.c:[[@LINE+4]] scalar-reduction-2d calls=1 offloaded=1
__attribute__((noinline)) static double resid(const double *u, const double *v,
                                              int n, int m) {
  double s = 0;
  for (int i = 1; i < n - 1; i++)
    for (int j = 1; j < m - 1; j++)
      s += (u[i * m + j] - v[i * m + j]) * (u[i * m + j] - v[i * m + j]);
  return s;
}

// REMARK-DAG: reduction-2d.c:[[@LINE+4]]:3: remark: {{.*}}offloaded 2-D scalar reduction (scalar-reduction-2d) to OpenCL
// STATS-DAG: idiom-stats: reduction-2d.c:[[@LINE+3]] scalar-reduction-2d calls=1 offloaded=1
__attribute__((noinline)) static long isum(int n, int m, const int (*a)[m]) {
  long s = 0;
  for (int i = 0; i < n; i++)
    for (int j = 0; j < m; j++)
      s += a[i][j];
  return s;
}

#define M 300
// REMARK-DAG: reduction-2d.c:[[@LINE+4]]:3: remark: {{.*}}offloaded 2-D scalar reduction (scalar-reduction-2d) to OpenCL
// STATS-DAG: idiom-stats: reduction-2d.c:[[@LINE+3]] scalar-reduction-2d calls=1 offloaded=1
__attribute__((noinline)) static float fsum2(int n, float (*a)[M]) {
  float s = 0;
  for (int i = 0; i < n; i++)
    for (int j = 0; j < M; j++)
      s += a[i][j] * a[i][j];
  return s;
}

// The element reads the loop indices themselves (their iteration counts
// come from joined iotas over the same flattened space).
// REMARK-DAG: reduction-2d.c:[[@LINE+4]]:3: remark: {{.*}}offloaded 2-D scalar reduction (scalar-reduction-2d) to OpenCL
// STATS-DAG: idiom-stats: reduction-2d.c:[[@LINE+3]] scalar-reduction-2d calls=1 offloaded=1
__attribute__((noinline)) static long wsum(int n, int m, const int (*a)[m]) {
  long s = 0;
  for (int i = 2; i < n; i++)
    for (int j = 0; j < m - 3; j++)
      s += (long)a[i][j] * (3 * i - j);
  return s;
}

// sqrt, which may set errno: the errno check is a reduction over the same
// flattened space (perfect squares: every root and partial sum is exact).
// The second call has a negative element: the check sends it to the loop.
// REMARK-DAG: reduction-2d.c:[[@LINE+4]]:3: remark: {{.*}}offloaded 2-D scalar reduction (scalar-reduction-2d) to OpenCL
// STATS-DAG: idiom-stats: reduction-2d.c:[[@LINE+3]] scalar-reduction-2d calls=2 offloaded=1
__attribute__((noinline)) static double rootsum(const double *u, int n, int m) {
  double s = 0;
  for (int i = 0; i < n; i++)
    for (int j = 0; j < m; j++)
      s += sqrt(u[i * m + j]);
  return s;
}

// 64-bit trip counts: n0 * n1 may wrap, so the call first tests
// n0 <= INT64_MAX / n1 (here it holds: one call, offloaded).
// REMARK-DAG: reduction-2d.c:[[@LINE+4]]:3: remark: {{.*}}offloaded 2-D scalar reduction (scalar-reduction-2d) to OpenCL
// STATS-DAG: idiom-stats: reduction-2d.c:[[@LINE+3]] scalar-reduction-2d calls=1 offloaded=1
__attribute__((noinline)) static long lsum(long n, long m, const int *a) {
  long s = 0;
  for (long i = 0; i < n; i++)
    for (long j = 0; j < m; j++)
      s += a[i * m + j] ^ (int)j;
  return s;
}

// Triangular: the outer loop is missed; the closest spec is triangular-dot
// (a triangular nest, but no dot product stored: no store at all); the
// inner loop stays as it is.
// REMARK-DAG: reduction-2d.c:[[@LINE+4]]:3: remark: loop is not an idiom (closest: triangular-dot)
// NOSTATS-NOT: idiom-stats: reduction-2d.c:[[@LINE+3]] scalar-reduction-2d
__attribute__((noinline)) static long tri(const int *a, int n) {
  long s = 0;
  for (int i = 0; i < n; i++)
    for (int j = 0; j < i; j++)
      s += a[i * n + j];
  return s;
}

// The inner loop also stores: not a reduction (and not a map, whose phis
// must all be induction variables, nor a column reduction: s is used after
// the nest).
// REMARK-DAG: reduction-2d.c:[[@LINE+4]]:3: remark: loop is not an idiom (closest: {{.*(phi is not an induction variable|a value computed in the loop is used after it)}}
// NOSTATS-NOT: idiom-stats: reduction-2d.c:[[@LINE+3]] scalar-reduction-2d
__attribute__((noinline)) static long storing(int *a, int *b, int n, int m) {
  long s = 0;
  for (int i = 0; i < n; i++)
    for (int j = 0; j < m; j++) {
      s += a[i * m + j];
      b[i * m + j] = 1;
    }
  return s;
}

// The interior of a VLA-typed 3-D grid (NAS MG's norm2u3 shape): the whole
// 3-deep nest is one 3-D reduction over the flattened planes x rows x cols
// space (run/reduction-3d.c), one launch, not one per plane (double
// squares of quarters: exact in any order).
// REMARK-DAG: reduction-2d.c:[[@LINE+5]]:3: remark: {{.*}}offloaded 3-D scalar reduction (scalar-reduction-3d) to OpenCL
// STATS-DAG: idiom-stats: reduction-2d.c:[[@LINE+4]] scalar-reduction-3d calls=1 offloaded=1
__attribute__((noinline)) static double norm3(int n3, int n2, int n1,
                                              double (*r)[n2][n1]) {
  double s = 0;
  for (int k = 1; k < n3 - 1; k++)
    for (int j = 1; j < n2 - 1; j++)
      for (int i = 1; i < n1 - 1; i++)
        s += r[k][j][i] * r[k][j][i];
  return s;
}

int main(void) {
  volatile int vn = 400, vm = 300;
  int n = vn, m = vm;
  double *u = malloc(sizeof(double) * n * m), *v = malloc(sizeof(double) * n * m);
  int *a = malloc(sizeof(int) * n * m), *b = malloc(sizeof(int) * n * m);
  float(*f)[M] = malloc(sizeof(float) * n * M);
  for (int k = 0; k < n * m; k++) {
    u[k] = (k % 17) * 0.25;
    v[k] = (k % 5) * 0.5;
    a[k] = k % 1000 - 300;
  }
  for (int k = 0; k < n * M; k++)
    ((float *)f)[k] = (k % 8) * 0.5f;
  printf("resid %.17g\n", resid(u, v, n, m));
  printf("isum %ld\n", isum(n, m, (const int(*)[m])a));
  printf("fsum2 %.9g\n", fsum2(n, f));
  printf("wsum %ld\n", wsum(n, m, (const int(*)[m])a));
  printf("lsum %ld\n", lsum(n, m, a));
  for (int k = 0; k < n * m; k++)
    u[k] = (double)((k % 23) * (k % 23)) / 4;
  printf("rootsum %.17g\n", rootsum(u, n, m));
  u[n * m / 2] = -1;
  double r = rootsum(u, n, m);
  printf("rootsum %s %d\n", isnan(r) ? "nan" : "num", errno);
  printf("norm3 %.17g\n", norm3(20, 30, n * m / 600, (double(*)[30][n * m / 600])v));
  printf("tri %ld\n", tri(a, n));
  printf("storing %ld %d\n", storing(a, b, n, m), b[n * m - 1]);
  free(u);
  free(v);
  free(a);
  free(b);
  free(f);
  return 0;
}
