// Partial overlaps inside a residency region: a map that writes the
// interior a[1..N) of an array that another map reads whole (a device copy
// of a range inside a resident one, at a 4-byte offset, which no sub-buffer
// allows). Host reads and writes between calls outside the region (in main)
// must see every result. (Windows that straddle each other are in
// test/runtime/test_residency.c, resid_partial: the plugin does not offload
// an inner loop whose range moves with the outer one.)
// RUN: %clang -O2 %s -o %t.seq
// RUN: %clang-idiom %s -Rpass=idiom-offload -lidiomrt -o %t.idiom 2> %t.remarks
// RUN: FileCheck %s --check-prefix=REMARK < %t.remarks
// RUN: %t.seq > %t.expected
// RUN: env IDIOM_ZERO_COPY=off IDIOM_MIN_TRIP=0 IDIOM_STATS=1 %t.idiom > %t.out 2> %t.stats
// RUN: diff %t.expected %t.out
// Zero-copy on PoCL (runtime/lib/zerocopy.c): the same output, and the runs
// passed buffers over the program's memory.
// RUN: env IDIOM_COST=off IDIOM_MIN_TRIP=0 IDIOM_STATS=1 %t.idiom > %t.zc 2> %t.zcstats
// RUN: diff %t.expected %t.zc
// RUN: grep -q "idiom-stats: zero-copy args=[1-9]" %t.zcstats
// RUN: FileCheck %s --check-prefix=STATS < %t.stats
// STATS: idiom-stats: residency regions=2 reused={{[1-9][0-9]}}
#include <stdio.h>

#define N 50000
static int a[N + 1], b[N + 1];

static long check(const int *v, int n) {
  long s = 0;
  for (int i = 0; i < n; i += 7)
    s = s * 31 + v[i];
  return s;
}

__attribute__((noinline)) static void smooth(int steps) {
  // REMARK: run-overlap.c:[[@LINE+1]]:3: remark: residency region: the buffers of 2
  for (int t = 0; t < steps; t++) {
    for (int i = 0; i <= N; i++)
      b[i] = a[i] * 2 + (a[i] & 1);
    for (int i = 1; i < N; i++)
      a[i] = (b[i] * 3 + t) & 1023;
  }
}

int main(void) {
  for (int i = 0; i <= N; i++)
    a[i] = i % 19;
  smooth(10);
  printf("%ld %ld\n", check(a, N + 1), check(b, N + 1));
  a[0] = 5; // host writes between regions
  a[N] = 9;
  b[3] = a[4];
  smooth(7);
  printf("%ld %ld\n", check(a, N + 1), check(b, N + 1));
  return 0;
}
