// An in-place map in a time loop on PoCL with zero-copy (runtime/lib/
// zerocopy.c, "failure"; runtime/README.md "Zero-copy on host-unified
// devices"). Applying the update twice to an element changes the output, so
// a failed run that left some elements updated would show. The first process
// would tune a larger map (its variants run in place: the INOUT range is
// copied aside then); this one is below IDIOM_TUNE_MIN (variant 0, untimed),
// and no process copies anything aside (the kernels wait for the gate).
// Every build prints what the sequential build prints, including when every run fails before its gate opens (the kernels
// never run, the original loop runs on the program's bytes) and when every
// run fails after its kernels with IDIOM_ZERO_COPY_BACKUP=always (the copy
// is put back first).
// RUN: %clang -O2 %s -o %t.seq
// RUN: %clang-idiom %s -lidiomrt -o %t.idiom
// RUN: %t.seq > %t.expected
// RUN: rm -rf %t.cache
// RUN: env IDIOM_CACHE_DIR=%t.cache IDIOM_COST=off IDIOM_MIN_TRIP=0 IDIOM_STATS=1 %t.idiom > %t.out1 2> %t.stats1
// RUN: diff %t.expected %t.out1
// RUN: env IDIOM_CACHE_DIR=%t.cache IDIOM_COST=off IDIOM_MIN_TRIP=0 IDIOM_STATS=1 %t.idiom > %t.out2 2> %t.stats2
// RUN: diff %t.expected %t.out2
// RUN: FileCheck %s --check-prefix=GATED < %t.stats2
// RUN: env IDIOM_CACHE_DIR=%t.cache IDIOM_COST=off IDIOM_MIN_TRIP=0 IDIOM_STATS=1 IDIOM_ZERO_COPY_TEST_FAIL=enqueued %t.idiom > %t.out3 2> %t.stats3
// RUN: diff %t.expected %t.out3
// RUN: FileCheck %s --check-prefix=FAILGATED < %t.stats3
// RUN: env IDIOM_CACHE_DIR=%t.cache IDIOM_COST=off IDIOM_MIN_TRIP=0 IDIOM_STATS=1 IDIOM_ZERO_COPY_TEST_FAIL=1 IDIOM_ZERO_COPY_BACKUP=always %t.idiom > %t.out4 2> %t.stats4
// RUN: diff %t.expected %t.out4
// RUN: FileCheck %s --check-prefix=FAILBACKUP < %t.stats4
#include <stdio.h>
#include <stdlib.h>

#define N 65536

__attribute__((noinline)) static void step(const int *x, int *y) {
  for (int i = 0; i < N; i++)
    y[i] = (3 * y[i] + x[i]) % 1000003;
}

int main(void) {
  int *x = malloc(N * sizeof(int)), *y = malloc(N * sizeof(int));
  if (!x || !y)
    return 1;
  for (int i = 0; i < N; i++) {
    x[i] = i % 977;
    y[i] = i % 13;
  }
  for (int t = 0; t < 20; t++)
    step(x, y);
  long s = 0;
  for (int i = 0; i < N; i++)
    s += y[i] * (long)(i % 7 + 1);
  printf("%d %d %ld\n", y[0], y[N / 3], s);
  free(x);
  free(y);
  return 0;
}
// GATED: run-zerocopy-inplace.c:step map calls=20 offloaded=20 {{.*}}fallbacks=0
// GATED: idiom-stats: zero-copy args={{[1-9][0-9]*}} copied_args=0 backup_bytes=0
// FAILGATED: run-zerocopy-inplace.c:step map calls=20 offloaded=0 {{.*}}fallbacks=20
// FAILGATED-SAME: TEST_FAIL=enqueued
// A variant that failed is not chosen again: the later runs of the failing
// processes time the others (with the copy aside), so only the output tells
// there; runtime.zc.zc_fail_gated checks a gated failure copies nothing.
// FAILBACKUP: run-zerocopy-inplace.c:step map calls=20 offloaded=0 {{.*}}fallbacks=20
// FAILBACKUP: backup_bytes={{[1-9]}}
