// Two devices (issue 12 item 4) with the test knob IDIOM_TEST_SECOND_CPU,
// which opens PoCL's CPU device a second time as the second device. A time
// loop runs in a residency region (its copies stay on the primary device,
// dirty); after the region, runs alternate between the two devices
// (IDIOM_TEST_SECOND_CPU=alternate, cost model off), the one on the second
// device reading what the region left in y; the host reads between them.
// The output equals the sequential build's, with copies and with zero-copy.
// RUN: %clang -O2 %s -o %t.seq
// RUN: %clang-idiom %s -lidiomrt -o %t.idiom
// RUN: %t.seq > %t.expected
// RUN: env IDIOM_TEST_SECOND_CPU=alternate IDIOM_ZERO_COPY=off IDIOM_COST=off IDIOM_MIN_TRIP=0 IDIOM_STATS=1 %t.idiom > %t.out 2> %t.stats
// RUN: diff %t.expected %t.out
// RUN: FileCheck %s < %t.stats
// RUN: env IDIOM_TEST_SECOND_CPU=alternate IDIOM_COST=off IDIOM_MIN_TRIP=0 IDIOM_STATS=1 %t.idiom > %t.zc 2> %t.zcstats
// RUN: diff %t.expected %t.zc
// RUN: FileCheck %s < %t.zcstats
// Runs alternating inside the region too (a test mode only): an entry of
// the other device is an overlap, copied back when dirty and dropped.
// RUN: env IDIOM_TEST_SECOND_CPU=regions IDIOM_ZERO_COPY=off IDIOM_COST=off IDIOM_MIN_TRIP=0 IDIOM_STATS=1 %t.idiom > %t.mixed 2> %t.mixedstats
// RUN: diff %t.expected %t.mixed
// RUN: FileCheck %s < %t.mixedstats
// RUN: env IDIOM_TEST_SECOND_CPU=regions IDIOM_COST=off IDIOM_MIN_TRIP=0 %t.idiom > %t.mixedzc
// RUN: diff %t.expected %t.mixedzc
// The cost model with the second device (these loops are too small for
// either device here: the model keeps them on the host; the model's
// three-way path is tested in runtime.twodev_explore):
// RUN: env IDIOM_TEST_SECOND_CPU=1 IDIOM_PROFILE=off %t.idiom > %t.cost
// RUN: diff %t.expected %t.cost
// A second device that fails to open: the runs sent to it decline and the
// original loop runs; the output is the same.
// RUN: env IDIOM_TEST_SECOND_CPU=fail IDIOM_COST=off IDIOM_MIN_TRIP=0 IDIOM_STATS=1 %t.idiom > %t.fail 2> %t.failstats
// RUN: diff %t.expected %t.fail
// RUN: FileCheck %s --check-prefix=FAIL < %t.failstats
#include <stdio.h>

#define N 65536
static int x[N], y[N], z[N];

__attribute__((noinline)) static long sweep(int steps) {
  long total = 0;
  for (int t = 0; t < steps; t++) {
    for (int i = 0; i < N; i++)
      y[i] = x[i] + y[i] % 1000;
    long s = 0;
    for (int i = 0; i < N; i++)
      s += y[i];
    total += s;
  }
  return total;
}

__attribute__((noinline)) static void mix(int k) {
  for (int i = 0; i < N; i++)
    z[i] = y[i] * k + z[i] % 7;
}

int main(void) {
  for (int i = 0; i < N; i++) {
    x[i] = i % 13;
    y[i] = i % 7;
    z[i] = i % 5;
  }
  for (int r = 0; r < 3; r++) {
    printf("%d %ld\n", r, sweep(20));
    for (int k = 1; k <= 4; k++) {
      mix(k);
      long c = 0;
      for (int i = 0; i < N; i += 97)
        c = c * 31 + z[i] + y[i];
      printf("%d %d %ld\n", r, k, c);
    }
  }
  return 0;
}
// CHECK-DAG: idiom-stats: residency regions=3
// CHECK-DAG: idiom-stats: second-device="
// FAIL: run-twodev.c:mix map calls=12 offloaded=6 {{.*}}"IDIOM_TEST_SECOND_CPU=fail" x6
// FAIL-NOT: second-device=
