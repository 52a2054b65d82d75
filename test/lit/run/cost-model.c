// The runtime's cost model (issue 12) on PoCL. With the default settings a
// map of 4096 floats launched once per iteration of an outer loop (a
// microsecond of host work per call) stays on the host: its first call is
// measured, then the device's floor (latency + bytes / bandwidth) exceeds
// the measured host time on every later call, and no launch is made. A
// larger map that the device could win but whose calls take milliseconds
// in all does not start the device (too little host time to pay for a
// start-up). IDIOM_MIN_TRIP=0 or IDIOM_DEVICE=cpu still
// force every call onto the device. Every run prints what the sequential
// build prints.
// RUN: %clang -O2 %s -o %t.seq
// RUN: %clang-idiom -g %s -lidiomrt -o %t.idiom
// RUN: %t.seq > %t.expected
// RUN: env IDIOM_STATS=1 %t.idiom > %t.out 2> %t.stats
// RUN: diff %t.expected %t.out
// RUN: FileCheck %s --check-prefix=AUTO < %t.stats
// RUN: env IDIOM_MIN_TRIP=0 IDIOM_STATS=1 %t.idiom > %t.out2 2> %t.stats2
// RUN: diff %t.expected %t.out2
// RUN: FileCheck %s --check-prefix=FORCED < %t.stats2
// RUN: env IDIOM_DEVICE=cpu IDIOM_STATS=1 %t.idiom > %t.out3 2> %t.stats3
// RUN: diff %t.expected %t.out3
// RUN: FileCheck %s --check-prefix=FORCED < %t.stats3
// RUN: env IDIOM_COST=off IDIOM_STATS=1 %t.idiom > %t.out4 2> %t.stats4
// RUN: diff %t.expected %t.out4
// RUN: FileCheck %s --check-prefix=FORCED < %t.stats4
#include <stdio.h>

#define N 4096
#define REPS 2000
#define BIG (1 << 22)

static float x[N], y[N];
static unsigned big[BIG];

int main(int argc, char **argv) {
  (void)argv;
  for (int i = 0; i < N; ++i) {
    x[i] = (float)(i % 17);
    y[i] = (float)(i % 5);
  }
  for (int i = 0; i < BIG; ++i)
    big[i] = (unsigned)i * 2654435761u;
  double s = 0;
  for (int r = 0; r < REPS; ++r) {
    // AUTO: idiom-stats: cost-model.c:[[@LINE+3]] map calls=2000 offloaded=0 {{.*}}decisions="{{.*}}host-explore x1; host-floor x{{[0-9]+}}; host-hint x{{[0-9]+}}"
    // AUTO-SAME: reasons="cost model: measuring the host loop" x1; "cost model: transfers and launch exceed the host time" x{{[0-9]+}}; "cost model: host hint (idiom_run not called)" x{{[0-9]+}}
    // FORCED-DAG: idiom-stats: cost-model.c:[[@LINE+1]] map calls=2000 offloaded=2000 {{.*}}decisions="device-forced x2000"
    for (int i = 0; i < N; ++i)
      y[i] = 0.5f * x[i] + y[i] * 0.25f;
    s += y[r % N];
  }
  // Milliseconds of integer work per call over 16 MiB, more than the
  // device's optimistic floor, but together less than a device start-up
  // costs: the device is never started.
  int calls = 3 + (argc > 100);
  unsigned long sum = 0;
  for (int r = 0; r < calls; ++r) {
    // AUTO: idiom-stats: cost-model.c:[[@LINE+2]] map calls=3 offloaded=0 device="none" {{.*}}decisions="host-prestart x2; host-explore x1"
    // FORCED-DAG: idiom-stats: cost-model.c:[[@LINE+1]] map calls=3 offloaded=3 {{.*}}decisions="device-forced x3"
    for (int i = 0; i < BIG; ++i) {
      unsigned v = big[i];
      v = v * 1664525u + 1013904223u;
      v ^= v >> 13;
      v = v * 1664525u + 1013904223u;
      v ^= v >> 7;
      big[i] = v;
    }
    sum += big[r * 1000];
  }
  printf("%.6f %lu\n", s, sum);
  return 0;
}
