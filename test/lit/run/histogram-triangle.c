// Upper-triangle all-pairs histograms (Parboil tpacf's DD and RR counts;
// issue #14): `for (i) for (j = i + 1; j < n; j++) hist[bin(x[i], x[j])]++`
// lifted as one histogram over the rectangle around the triangle, masked
// (NestInfo::Skew, HistogramLift::Mask). The offloaded build prints what the
// sequential build prints (integer counts, exact) for n = 0, 1, 2, 3, 5 and
// 1500, a start two rows further each row (j = 2 i + 1), a triangle that
// keeps the diagonal (j = i), a bin from a bisection search and one from a
// cast, and bins behind a pointer (run-time extent), which on one call
// overlap the keys: that call runs the original loop.
// IDIOM_COST=off: every call is offloaded.
// RUN: %clang -O2 %s -o %t.seq -lm
// RUN: %clang-idiom -g %s -lidiomrt -lm -Rpass=idiom-offload -o %t.idiom 2> %t.remarks
// RUN: FileCheck %s --check-prefix=REMARK < %t.remarks
// RUN: %t.seq > %t.expected
// RUN: env IDIOM_COST=off IDIOM_MIN_TRIP=0 IDIOM_STATS=1 IDIOM_CACHE_DIR=off %t.idiom > %t.out 2> %t.stats
// RUN: diff %t.expected %t.out
// RUN: FileCheck %s --check-prefix=STATS < %t.stats
// Variant 1: bins privatised in local memory.
// RUN: env IDIOM_COST=off IDIOM_MIN_TRIP=0 IDIOM_VARIANT=1 IDIOM_CACHE_DIR=off %t.idiom > %t.v1
// RUN: diff %t.expected %t.v1
// RUN: env IDIOM_DEVICE=seq %t.idiom > %t.seqout
// RUN: diff %t.expected %t.seqout
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#define N 1500
#define NB 20
static float px[N], py[N], pz[N];
static float binb[NB + 1];
static long hist[NB + 1];
static int cast_bins[64];

// tpacf's DD: the bin of each pair's dot product by a bisection search over
// descending edges. n = 0 skips the nest (no call); n = 1 has no pair (an
// empty rectangle: the runtime runs the loop).
// REMARK-DAG: histogram-triangle.c:[[@LINE+4]]:3: remark: offloaded histogram (histogram-triangle) to OpenCL as {{.*}} with operator add
// STATS-DAG: idiom-stats: histogram-triangle.c:[[@LINE+3]] histogram-triangle calls=6 offloaded=5 {{.*}}fallbacks=1 {{.*}}reasons="empty iteration space" x1
__attribute__((noinline)) void self_pairs(const float *x, const float *y, const float *z, int n) {
  int i, j;
  for (i = 0; i < n; i++) {
    for (j = i + 1; j < n; j++) {
      float dot = x[i] * x[j] + y[i] * y[j] + z[i] * z[j];
      int min = 0, max = NB;
      while (max > min + 1) {
        int k = (min + max) / 2;
        if (dot >= binb[k])
          max = k;
        else
          min = k;
      }
      hist[max]++;
    }
  }
}

// The diagonal kept (j = i) and a bin from a cast of the distance.
// REMARK-DAG: histogram-triangle.c:[[@LINE+3]]:3: remark: offloaded histogram (histogram-triangle) to OpenCL as {{.*}} with operator add
// STATS-DAG: idiom-stats: histogram-triangle.c:[[@LINE+2]] histogram-triangle calls=1 offloaded=1
__attribute__((noinline)) void with_diagonal(const float *x, int n) {
  for (int i = 0; i < n; i++)
    for (int j = i; j < n; j++)
      cast_bins[(int)(fabsf(x[i] - x[j]) * 31.0f) & 63] += 2;
}

// Each row starts two further on (j = 2 i + 1): Skew 2, the rows stop at
// the first empty one (i > n / 2).
// REMARK-DAG: histogram-triangle.c:[[@LINE+3]]:3: remark: offloaded histogram (histogram-triangle) to OpenCL as {{.*}} with operator add
// STATS-DAG: idiom-stats: histogram-triangle.c:[[@LINE+2]] histogram-triangle calls=1 offloaded=1
__attribute__((noinline)) void skew_two(const float *x, int n) {
  for (int i = 0; i < n; i++)
    for (int j = 2 * i + 1; j < n; j++)
      cast_bins[(int)((x[i] + x[j]) * 15.0f) & 63]++;
}

// Bins behind a pointer: the extent check finds the bins the triangle
// touches; bins that overlap the keys (the loop reads what it writes) run
// the original loop.
// REMARK-DAG: histogram-triangle.c:[[@LINE+3]]:3: remark: offloaded histogram (histogram-triangle) to OpenCL as {{.*}} with operator add
// STATS-DAG: idiom-stats: histogram-triangle.c:[[@LINE+2]] histogram-triangle calls=2 offloaded=1 {{.*}}fallbacks=1 {{.*}}reasons="overlapping input/output ranges" x1
__attribute__((noinline)) void runtime_bins(const long *key, int n, long *bins) {
  for (int i = 0; i < n; i++)
    for (int j = i + 1; j < n; j++)
      bins[(key[i] ^ key[j]) & 15] += 1;
}

static unsigned long long lcg = 12345;
static float rnd(void) {
  lcg = lcg * 6364136223846793005ULL + 1442695040888963407ULL;
  return (float)((lcg >> 33) & 0xffffff) / 16777216.0f;
}

int main(void) {
  for (int k = 0; k <= NB; k++)
    binb[k] = cosf(0.01f * powf(10.0f, 0.25f * k) * 3.14159265f / 180.0f * 40.0f);
  for (int i = 0; i < N; i++) {
    float u = 2.0f * rnd() - 1.0f, phi = 6.2831853f * rnd();
    if (i & 1) { // clustered: small angles are frequent
      u = 0.3f + 0.01f * rnd();
      phi = 1.0f + 0.01f * rnd();
    }
    float r = sqrtf(1.0f - u * u);
    px[i] = r * cosf(phi);
    py[i] = r * sinf(phi);
    pz[i] = u;
  }
  int sizes[] = {0, 1, 2, 3, 5, 64, N};
  for (int s = 0; s < 7; s++) {
    for (int k = 0; k <= NB; k++)
      hist[k] = s; // bins that start non-zero
    self_pairs(px, py, pz, sizes[s]);
    printf("n=%d:", sizes[s]);
    for (int k = 0; k <= NB; k++)
      printf(" %ld", hist[k]);
    printf("\n");
  }
  with_diagonal(pz, 700);
  skew_two(px, 901);
  for (int k = 0; k < 64; k++)
    printf("%d%c", cast_bins[k], k == 63 ? '\n' : ' ');
  long buf[64] = {0};
  for (int i = 0; i < 40; i++)
    buf[i] = (i * 7) % 13; // key[i] ^ key[j] in [0, 15]
  long bins[17] = {0};
  runtime_bins(buf, 40, bins);
  runtime_bins(buf, 40, buf + 30); // bins [30, 45] overlap the keys
  for (int k = 0; k < 17; k++)
    printf("%ld\n", bins[k]);
  for (int k = 0; k < 64; k++)
    printf("%ld%c", buf[k], k == 63 ? '\n' : ' ');
  return 0;
}
