// Histograms whose bins are behind a pointer (malloc'd, or a pointer into a
// larger array), so that their count is known only at run time: an extent
// check computes the smallest and largest bin index first, the call moves
// only those bins, and the original loop runs when the range is empty,
// negative or beyond 2^24 bins. The offloaded build prints what the
// sequential build prints; IDIOM_STATS shows which calls ran on the device
// and which fell back, and why. The bins start non-zero (the kernel adds
// into the existing bins). IDIOM_COST=off: every call is offloaded.
// RUN: %clang -O2 %s -o %t.seq
// RUN: %clang-idiom -g %s -lidiomrt -Rpass=idiom -Rpass-analysis=idiom -o %t.idiom 2> %t.remarks
// RUN: FileCheck %s --check-prefix=REMARK < %t.remarks
// RUN: %t.seq > %t.expected
// RUN: env IDIOM_COST=off IDIOM_MIN_TRIP=0 IDIOM_STATS=1 IDIOM_CACHE_DIR=off %t.idiom > %t.out 2> %t.stats
// RUN: diff %t.expected %t.out
// RUN: FileCheck %s --check-prefix=STATS < %t.stats
// Variant 1 of every histogram: bins privatised in local memory when they
// fit (4096 ints), else counted into the global bins by the same kernel.
// RUN: env IDIOM_COST=off IDIOM_MIN_TRIP=0 IDIOM_VARIANT=1 IDIOM_STATS=1 IDIOM_CACHE_DIR=off %t.idiom > %t.v1 2> %t.v1stats
// RUN: diff %t.expected %t.v1
// RUN: FileCheck %s --check-prefix=V1 < %t.v1stats
// RUN: env IDIOM_DEVICE=seq %t.idiom > %t.seqout
// RUN: diff %t.expected %t.seqout
#include <stdio.h>
#include <stdlib.h>

#define N (1 << 16)
static int key[N];
static unsigned ukey[N];

// REMARK-DAG: histogram-runtime-bins.c:[[@LINE+6]]:3: remark: {{.*}}offloaded histogram ({{histogram|histogram-runtime-bins}}) to OpenCL as {{.*}} with operator add
// REMARK-DAG: histogram-runtime-bins.c:[[@LINE+5]]:3: remark: the range of an indirect index is known only at run time: a device check
// Called twice; the second call has a negative key and falls back.
// STATS-DAG: idiom-stats: histogram-runtime-bins.c:[[@LINE+3]] histogram-runtime-bins calls=2 offloaded=1 {{.*}}fallbacks=1 {{.*}}reasons="index range empty, negative or beyond the run-time extent limit" x1
// STATS-DAG: idiom-stats: histogram-runtime-bins.c:[[@LINE+2]] histogram-runtime-bins-extent-check calls=2 offloaded=2
__attribute__((noinline)) static void count_keys(int *count, const int *k, int n) {
  for (int i = 0; i < n; i++)
    count[k[i]]++;
}

// Integer sort's bucket count: key >> shift.
// REMARK-DAG: histogram-runtime-bins.c:[[@LINE+5]]:3: remark: {{.*}}offloaded histogram ({{histogram|histogram-runtime-bins}}) to OpenCL as {{.*}} with operator add
// Called with 1024 and with 16384 buckets (beyond the local capacity).
// STATS-DAG: idiom-stats: histogram-runtime-bins.c:[[@LINE+3]] {{histogram|histogram-runtime-bins}} calls=2 offloaded=2
// V1-DAG: idiom-stats: histogram-runtime-bins.c:[[@LINE+2]] {{histogram|histogram-runtime-bins}} calls=2 offloaded=2 {{.*}}fallbacks=0
__attribute__((noinline)) static void count_shifted(int *count, const unsigned *k, int n, int shift) {
  for (int i = 0; i < n; i++)
    count[k[i] >> shift]++;
}

// A guarded update: only the keys below the limit are counted (and only
// they count for the range: the others may lie far outside the bins).
// The second call has no key below its limit: the range is empty.
// REMARK-DAG: histogram-runtime-bins.c:[[@LINE+3]]:3: remark: {{.*}}offloaded histogram ({{histogram|histogram-runtime-bins}}) to OpenCL as {{.*}} with operator add
// STATS-DAG: idiom-stats: histogram-runtime-bins.c:[[@LINE+2]] histogram-runtime-bins calls=2 offloaded=1 {{.*}}fallbacks=1 {{.*}}reasons="index range empty, negative or beyond the run-time extent limit" x1
__attribute__((noinline)) static void count_below(long *count, const int *k, int n, int limit) {
  for (int i = 0; i < n; i++)
    if (k[i] < limit)
      count[k[i]] += 3;
}

// Saturating unsigned char bins (Parboil histo's update) behind a pointer.
// The third call's range spans more than 2^24 bins and falls back.
// REMARK-DAG: histogram-runtime-bins.c:[[@LINE+3]]:3: remark: {{.*}}offloaded histogram ({{histogram|histogram-runtime-bins}}) to OpenCL as {{.*}} with operator uadd.sat
// STATS-DAG: idiom-stats: histogram-runtime-bins.c:[[@LINE+2]] histogram-runtime-bins calls=3 offloaded=2 {{.*}}fallbacks=1 {{.*}}reasons="index range empty, negative or beyond the run-time extent limit" x1
__attribute__((noinline)) static void saturate(unsigned char *h, const int *k, int n) {
  for (int i = 0; i < n; i++)
    if (h[k[i]] < 255)
      h[k[i]]++;
}

static long checksum_int(const int *c, int n) {
  long s = 0;
  for (int b = 0; b < n; b++)
    s = s * 31 + c[b] + b;
  return s;
}

int main(void) {
  unsigned s = 777;
  for (int i = 0; i < N; i++) {
    s = s * 1103515245u + 12345u;
    key[i] = 100 + (int)((s >> 8) % 3000); // bins 100..3099 of 4000
    ukey[i] = s;
  }
  int *count = malloc(4000 * sizeof(int));
  for (int b = 0; b < 4000; b++)
    count[b] = b * 3 - 7; // not zero: the kernel adds into the bins
  count_keys(count, key, N);
  printf("keys %ld [99]=%d [100]=%d [3099]=%d [3100]=%d\n", checksum_int(count, 4000),
         count[99], count[100], count[3099], count[3100]);

  // A negative key: bins[-1] is inside the array here, but the call falls
  // back (the original loop runs) before anything is written.
  int *big = calloc(5000, sizeof(int));
  key[N / 2] = -1;
  count_keys(big + 8, key, N);
  key[N / 2] = 100;
  printf("negative %ld [7]=%d\n", checksum_int(big, 5000), big[7]);

  int *buckets = calloc(1 << 10, sizeof(int));
  count_shifted(buckets, ukey, N, 22);
  printf("shifted %ld\n", checksum_int(buckets, 1 << 10));
  int *many = calloc(1 << 14, sizeof(int));
  count_shifted(many, ukey, N, 18);
  printf("shifted %ld\n", checksum_int(many, 1 << 14));

  long *wide = malloc(3200 * sizeof(long));
  for (int b = 0; b < 3200; b++)
    wide[b] = b;
  count_below(wide, key, N, 2000);
  long w = 0;
  for (int b = 0; b < 3200; b++)
    w = w * 7 + wide[b];
  printf("below %ld [1999]=%ld [2000]=%ld\n", w, wide[1999], wide[2000]);
  // No key below the limit: the range is empty, the loop runs (and does
  // nothing).
  count_below(wide, key, N, 50);

  unsigned char *h = malloc(3101);
  for (int b = 0; b < 3101; b++)
    h[b] = (unsigned char)(b % 256);
  saturate(h, key, N);
  saturate(h + 1, key, N); // an odd start: the range is widened to words
  long hs = 0;
  for (int b = 0; b < 3101; b++)
    hs = hs * 3 + h[b];
  printf("saturated %ld [100]=%d [101]=%d [3100]=%d\n", hs, h[100], h[101], h[3100]);

  // A range beyond 2^24 bins falls back.
  unsigned char *huge = calloc((1 << 24) + 201, 1);
  key[7] = (1 << 24) + 200;
  saturate(huge, key, N);
  key[7] = 100;
  printf("huge [100]=%d [16777416]=%d\n", huge[100], huge[(1 << 24) + 200]);
  free(count), free(big), free(buckets), free(many), free(wide), free(h), free(huge);
  return 0;
}

