// Histograms whose bin is found by a bisection search over sorted bin
// boundaries (Parboil tpacf; issue #14): the search is lifted as FunIL's
// iterate over the interval (passes/lift/SearchLifting.h). The offloaded
// build prints what the sequential build prints, for ascending and
// descending boundaries, values below and above every boundary, on a
// boundary, NaN (every compare false, as in C), runs of equal boundaries,
// one bin and no bin (the search never runs), and bins that start non-zero.
// A search whose initial interval leaves [0, 2^30] runs the original loop,
// and so does one whose boundaries overlap the bins (run-time check).
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

#define N (1 << 14)
#define NB 20
static float pts[N];
static float asc[NB + 1], desc[NB + 1], dup[NB + 1];

// Ascending boundaries, (lo + hi) / 2, bins behind a pointer (their count
// is known at run time only: the extent check runs the search too). Of the
// four calls, the two with fewer than two bins fail the search's guard
// (hi > lo + 1 on the initial interval), which the stitched code tests
// before calling the runtime: they run the loop and are not counted.
// REMARK-DAG: histogram-search.c:[[@LINE+4]]:3: remark: offloaded histogram (histogram-search) to OpenCL as {{.*}} with operator add
// STATS-DAG: idiom-stats: histogram-search.c:[[@LINE+3]] histogram-search calls=2 offloaded=2
__attribute__((noinline)) static void count_asc(int *hist, const float *x, int n,
                                                const float *binb, int nbins) {
  for (int i = 0; i < n; i++) {
    float v = x[i];
    int lo = 0, hi = nbins;
    while (hi > lo + 1) {
      int k = (lo + hi) / 2;
      if (v < binb[k])
        hi = k;
      else
        lo = k;
    }
    hist[lo] += 1;
  }
}

// Descending boundaries as in tpacf (cosines of growing angles), the
// midpoint min + (max - min) / 2, a computed key, a global long array.
static long dhist[NB + 2];
// REMARK-DAG: histogram-search.c:[[@LINE+3]]:3: remark: offloaded histogram (histogram-search) to OpenCL as {{.*}} with operator add
// STATS-DAG: idiom-stats: histogram-search.c:[[@LINE+2]] histogram-search calls=1 offloaded=1
__attribute__((noinline)) static void count_desc(const float *x, int n, const float *binb) {
  for (int i = 0; i < n; i++) {
    float dot = x[i] * 0.5f + 0.25f;
    int min = 0, max = NB;
    while (max > min + 1) {
      int k = min + (max - min) / 2;
      if (dot >= binb[k])
        max = k;
      else
        min = k;
    }
    dhist[min]++;
  }
}

// The interval from parameters, the upper bound as the result, 64-bit
// bounds: [first, last] with first = -1 leaves the lemma's premise (the
// bounds in [0, 2^62]), so that call runs the original loop (tested
// before calling the runtime: one call counted).
// REMARK-DAG: histogram-search.c:[[@LINE+4]]:3: remark: offloaded histogram (histogram-search) to OpenCL as {{.*}} with operator add
// STATS-DAG: idiom-stats: histogram-search.c:[[@LINE+3]] histogram-search calls=1 offloaded=1
__attribute__((noinline)) static void count_range(unsigned *hist, const double *x, int n,
                                                  const double *binb, long first, long last) {
  for (int i = 0; i < n; i++) {
    long lo = first, hi = last;
    while (lo + 1 < hi) {
      long k = (lo + hi) >> 1;
      if (x[i] < binb[k])
        hi = k;
      else
        lo = k;
    }
    hist[hi - first]++;
  }
}

// Integer boundaries that are the bins themselves (the loop reads bins it
// has updated): the run-time overlap check declines the call and the loop
// runs; a call with separate boundaries runs on the device.
// REMARK-DAG: histogram-search.c:[[@LINE+4]]:3: remark: offloaded histogram (histogram-search) to OpenCL as {{.*}} with operator add
// STATS-DAG: idiom-stats: histogram-search.c:[[@LINE+3]] histogram-search calls=2 offloaded=1 {{.*}}fallbacks=1 {{.*}}reasons="overlapping input/output ranges" x1
__attribute__((noinline)) static void count_int(int *hist, const int *x, int n,
                                                const int *binb, int nbins) {
  for (int i = 0; i < n; i++) {
    int lo = 0, hi = nbins;
    while (hi > lo + 1) {
      int k = (lo + hi) / 2;
      if (x[i] < binb[k])
        hi = k;
      else
        lo = k;
    }
    hist[lo] += 1;
  }
}

int main(void) {
  srand(7);
  for (int i = 0; i < N; i++)
    pts[i] = (float)(rand() % 100000) / 100000.0f * 2.4f - 1.2f; // beyond both ends
  pts[5] = NAN;
  pts[77] = -NAN;
  for (int k = 0; k <= NB; k++) {
    asc[k] = -1.0f + 2.0f * k / NB;
    desc[k] = 1.0f - 2.0f * k / NB;
    dup[k] = (k / 4) * 0.4f - 1.0f; // runs of equal boundaries
  }
  for (int i = 0; i < 40; i++)
    pts[100 + i] = asc[i % (NB + 1)]; // exactly on a boundary
  int *h = calloc(NB + 1, sizeof(int));
  h[3] = 1000; // the bins' initial values are kept
  count_asc(h, pts, N, asc, NB);
  count_asc(h, pts, N, dup, NB);
  count_asc(h, pts, N, asc, 1); // one bin: the search never runs
  count_asc(h, pts, N, asc, 0); // no bin either
  for (int k = 0; k <= NB; k++)
    printf("asc %d %d\n", k, h[k]);
  count_desc(pts, N, desc);
  for (int k = 0; k < NB + 2; k++)
    printf("desc %d %ld\n", k, dhist[k]);
  double *xd = malloc(N * sizeof(double)), bd[NB + 2];
  for (int i = 0; i < N; i++)
    xd[i] = pts[i];
  for (int k = 0; k < NB + 2; k++)
    bd[k] = -1.1 + 0.1 * k;
  unsigned hr[NB + 3] = {0};
  count_range(hr, xd, N, bd + 1, 0, NB);      // offloaded
  count_range(hr + 1, xd, N, bd + 1, -1, NB); // reads bd[0]: runs the loop
  for (int k = 0; k < NB + 3; k++)
    printf("range %d %u\n", k, hr[k]);
  static int xi[N], hb[64], sep[64];
  for (int i = 0; i < N; i++)
    xi[i] = (i * 7919) % 200;
  for (int k = 0; k < 64; k++)
    hb[k] = sep[k] = 3 * k;
  count_int(hb, xi, N, hb, 64); // overlap: the loop
  count_int(sep, xi, N, hb, 64); // separate: the device
  for (int k = 0; k < 64; k++)
    printf("int %d %d %d\n", k, hb[k], sep[k]);
  free(xd);
  free(h);
  return 0;
}
