// Run-time extents inside a residency region: a time loop whose body is a
// histogram into malloc'd bins and a gather map (both with an extent check
// that runs first) and a map that writes the gathered array. The region
// forms (the checks only read the idioms' buffers), the buffers stay on the
// device across the iterations, and the output is the sequential build's,
// also when a later iteration's bin index is negative (key - t): those
// iterations' histograms fall back (the region syncs before the loop runs)
// and the other idioms stay on the device.
// RUN: %clang -O2 %s -o %t.seq
// RUN: %clang-idiom %s -lidiomrt -Rpass=idiom -o %t.idiom 2> %t.remarks
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
// RUN: env IDIOM_DEVICE=seq %t.idiom > %t.out3
// RUN: diff %t.expected %t.out3
#include <stdio.h>
#include <stdlib.h>

#define N (1 << 16)
int key[N], perm[N];
float x[N], y[N];

// REMARK: run-runtime-extents.c:[[@LINE+7]]:3: remark: residency region: the buffers of 3 offloaded idiom(s) stay on the device
// STATS-DAG: idiom-stats: run-runtime-extents.c:[[@LINE+7]] histogram-runtime-bins calls=6 offloaded=4 {{.*}}fallbacks=2
// STATS-DAG: idiom-stats: run-runtime-extents.c:[[@LINE+6]] histogram-runtime-bins-extent-check calls=6 offloaded=6
// STATS-DAG: idiom-stats: run-runtime-extents.c:[[@LINE+7]] map calls=6 offloaded=6
// STATS-DAG: idiom-stats: run-runtime-extents.c:[[@LINE+6]] map-extent-check calls=6 offloaded=6
// STATS-DAG: idiom-stats: residency regions=1 reused={{[1-9][0-9]*}}
__attribute__((noinline)) static void steps(int *bins, int it) {
  for (int t = 0; t < it; t++) {
    for (int i = 0; i < N; i++)
      bins[key[i] - t] += 1; // t = 4, 5: bins[-1], bins[-2] (inside the array)
    for (int i = 0; i < N; i++)
      y[i] = x[perm[i]] * 2.0f;
    for (int i = 0; i < N; i++)
      x[i] = y[i] * 0.5f + 1.0f;
  }
}

int main(void) {
  unsigned s = 9;
  for (int i = 0; i < N; i++) {
    s = s * 1103515245u + 12345u;
    key[i] = 3 + (s >> 8) % 997;
    perm[i] = (s >> 4) % N;
    x[i] = (float)(i % 7);
  }
  int *bins = calloc(1004, sizeof(int));
  steps(bins + 4, 6);
  long c = 0;
  for (int b = 0; b < 1004; b++)
    c = c * 3 + bins[b];
  double d = 0;
  for (int i = 0; i < N; i++)
    d = d * 0.5 + x[i];
  printf("%ld %.6f %d\n", c, d, bins[3]);
  return 0;
}
