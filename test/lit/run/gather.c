// Gathers in maps and reductions: y[i] = x[perm[i]], s += a[idx[i]],
// s += a[idx[i]] * b[i]. The range of the gathered array is known only at
// run time: the extent check computes the smallest and largest index first,
// the call moves only x[lo..hi], and the original loop runs when the range
// is negative (or empty, or beyond 2^28 elements). Outputs equal the
// sequential build's; IDIOM_STATS shows which calls ran on the device and
// which fell back. IDIOM_COST=off: every call is offloaded.
// RUN: %clang -O2 %s -o %t.seq
// RUN: %clang-idiom -g %s -lidiomrt -Rpass=idiom -Rpass-missed=idiom -o %t.idiom 2> %t.remarks
// RUN: FileCheck %s --check-prefix=REMARK < %t.remarks
// RUN: %t.seq > %t.expected
// RUN: env IDIOM_COST=off IDIOM_MIN_TRIP=0 IDIOM_STATS=1 IDIOM_CACHE_DIR=off %t.idiom > %t.out 2> %t.stats
// RUN: diff %t.expected %t.out
// RUN: FileCheck %s --check-prefix=STATS < %t.stats
// RUN: env IDIOM_DEVICE=seq %t.idiom > %t.seqout
// RUN: diff %t.expected %t.seqout
#include <stdio.h>
#include <stdlib.h>

#define N (1 << 16)
static int perm[N];
static float b[N];

// The second call has a negative index and falls back; the third writes
// into the gathered array itself (overlapping ranges: the runtime declines).
// REMARK-DAG: gather.c:[[@LINE+4]]:3: remark: {{.*}}offloaded map (map) to OpenCL
// STATS-DAG: idiom-stats: gather.c:[[@LINE+3]] map calls=3 offloaded=1 {{.*}}fallbacks=2 {{.*}}reasons={{.*}}"index range empty, negative or beyond the run-time extent limit" x1
// STATS-DAG: idiom-stats: gather.c:[[@LINE+2]] map-extent-check calls=3 offloaded=3
__attribute__((noinline)) static void permute(float *y, const float *x, const int *p, int n) {
  for (int i = 0; i < n; i++)
    y[i] = x[p[i]];
}

// REMARK-DAG: gather.c:[[@LINE+4]]:3: remark: {{.*}}offloaded scalar reduction (scalar-reduction) to OpenCL
// STATS-DAG: idiom-stats: gather.c:[[@LINE+3]] scalar-reduction calls=1 offloaded=1
__attribute__((noinline)) static long gather_sum(const int *a, const int *idx, int n) {
  long s = 0;
  for (int i = 0; i < n; i++)
    s += a[idx[i]];
  return s;
}

// REMARK-DAG: gather.c:[[@LINE+4]]:3: remark: {{.*}}offloaded scalar reduction (scalar-reduction) to OpenCL
// STATS-DAG: idiom-stats: gather.c:[[@LINE+3]] scalar-reduction calls=1 offloaded=1
__attribute__((noinline)) static long gather_dot(const int *a, const int *idx, const int *w, int n) {
  long s = 0;
  for (int i = 0; i < n; i++)
    s += (long)a[idx[i]] * w[i];
  return s;
}

// A gather through a shifted index, and a float dot product.
// REMARK-DAG: gather.c:[[@LINE+4]]:3: remark: {{.*}}offloaded scalar reduction (scalar-reduction) to OpenCL
// STATS-DAG: idiom-stats: gather.c:[[@LINE+3]] scalar-reduction calls=1 offloaded=1
__attribute__((noinline)) static float gather_fdot(const float *x, const int *idx, const float *w, int n, int sh) {
  float s = 0;
  for (int i = 0; i < n; i++)
    s += x[idx[i] >> sh] * w[i];
  return s;
}

// Not a gather: the loop writes the array it gathers from.
// REMARK-DAG: gather.c:[[@LINE+2]]:3: remark: loop is not an idiom
__attribute__((noinline)) static void in_place(float *y, const int *p, int n) {
  for (int i = 0; i < n; i++)
    y[i] = y[p[i]] + 1;
}

int main(void) {
  unsigned s = 4242;
  int *a = malloc((N + 16) * sizeof(int));
  for (int i = 0; i < N + 16; i++)
    a[i] = (int)(i * 2654435761u >> 7) - (1 << 23);
  for (int i = 0; i < N; i++) {
    s = s * 1103515245u + 12345u;
    perm[i] = 8 + (int)((s >> 9) % (N - 8)); // 8 .. N-1
    b[i] = (float)((s >> 5) % 64) * 0.5f;   // halves: sums exact in float
  }
  float *x = malloc((N + 16) * sizeof(float)), *y = malloc(N * sizeof(float));
  for (int i = 0; i < N + 16; i++)
    x[i] = (float)i * 0.25f;
  permute(y, x, perm, N);
  double c = 0;
  for (int i = 0; i < N; i++)
    c = c * 0.5 + y[i];
  printf("permute %.6f %.2f %.2f\n", c, y[0], y[N - 1]);

  perm[N / 3] = -3; // x[-3] lies inside the array, but the call falls back
  permute(y, x + 8, perm, N);
  c = 0;
  for (int i = 0; i < N; i++)
    c = c * 0.5 + y[i];
  printf("negative %.6f %.2f\n", c, y[N / 3]);
  perm[N / 3] = 8;

  // y overlaps x: the sequential loop reads values it wrote before.
  for (int i = 0; i < N; i++)
    perm[i] = i / 2;
  permute(x + 1, x, perm, N);
  c = 0;
  for (int i = 0; i < N; i++)
    c = c * 0.5 + x[i];
  printf("overlap %.6f\n", c);
  for (int i = 0; i < N; i++)
    perm[i] = (int)((i * 40503u) % N);

  printf("sum %ld\n", gather_sum(a, perm, N));
  printf("dot %ld\n", gather_dot(a + 3, perm, perm, N));
  for (int i = 0; i < N + 16; i++)
    x[i] = (float)(i % 16) * 0.5f;
  printf("fdot %.2f\n", gather_fdot(x, perm, b, N, 1));
  in_place(y, perm, N);
  printf("in_place %.2f\n", y[5]);
  free(a), free(x), free(y);
  return 0;
}
