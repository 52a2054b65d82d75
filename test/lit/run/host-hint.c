// The per-site host hint on PoCL (idiomrt.h, idiom_host_hint): a map of
// 4096 floats called 3000 times (bench/policy_tiny.c) stays on the host
// under the cost model, and after each decision the stitched code runs
// the loop without calling the runtime for 64 calls, doubling up to 1024
// for host-floor decisions in a row: the runtime decides about 7 of them
// ("host-hint" counts the rest);
// every call is still counted. A second site whose size grows (4096
// elements, then 4 M with a host loop of milliseconds) is decided afresh
// at the larger size: forced onto the device by IDIOM_MIN_TRIP it offloads
// every large call, and under the model its small calls are hinted while
// its large ones reach the runtime. Every run prints what the sequential
// build prints. A host sample that a loaded machine inflated past the
// device floor (a preemption inside the measured loop) adds host-prestart
// decisions, without a hint, until the median of three outvotes it
// (test/runtime/test_hint.c, hint_check_decisions and case_hint_outlier):
// their count depends on the load, so the checks take any, and the reason
// of them anywhere in the reasons (listed in the order first given).
// RUN: %clang -O2 %s -o %t.seq
// RUN: %clang-idiom -g %s -lidiomrt -o %t.idiom
// RUN: %t.seq > %t.expected
// RUN: env IDIOM_STATS=1 %t.idiom > %t.out 2> %t.stats
// RUN: diff %t.expected %t.out
// RUN: FileCheck %s --check-prefix=AUTO < %t.stats
// RUN: FileCheck %s --check-prefix=GROW < %t.stats
// RUN: env IDIOM_MIN_TRIP=0 IDIOM_STATS=1 %t.idiom > %t.out2 2> %t.stats2
// RUN: diff %t.expected %t.out2
// RUN: FileCheck %s --check-prefix=FORCED < %t.stats2
// RUN: env IDIOM_DEVICE=seq IDIOM_STATS=1 %t.idiom > %t.out3 2> %t.stats3
// RUN: diff %t.expected %t.out3
#include <stdio.h>

#define N 4096
#define REPS 3000
#define BIG (1 << 22)

static float x[N], y[N];
static unsigned big[BIG];

__attribute__((noinline)) static void grow(unsigned *v, int n) {
  // Both size classes were decided by the runtime: one measuring call
  // each, and the second large call is one the device could win (not
  // started for so little host time).
  // GROW: idiom-stats: host-hint.c:[[@LINE+2]] map calls=130 offloaded=0 {{.*}}decisions="host-prestart x{{[1-9][0-9]*}}; host-explore x2; host-floor x{{[0-9]+}}; host-hint x{{[0-9]+}}"
  // FORCED-DAG: idiom-stats: host-hint.c:[[@LINE+1]] map calls=130 offloaded=130 {{.*}}decisions="device-forced x130"
  for (int i = 0; i < n; ++i) {
    unsigned u = v[i];
    u = u * 1664525u + 1013904223u;
    u ^= u >> 13;
    v[i] = u;
  }
}

static void init(void) {
  for (int i = 0; i < BIG; ++i) {
    big[i] = (unsigned)i * 2654435761u;
    if (i < N) {
      x[i] = (float)(i % 23) * 0.5f;
      y[i] = (float)(i % 7);
    }
  }
}

int main(void) {
  init();
  double s = 0;
  for (int r = 0; r < REPS; ++r) {
    // AUTO: idiom-stats: host-hint.c:[[@LINE+3]] map calls=3000 offloaded=0 {{.*}}decisions="{{(host-prestart x[0-9]+; )?}}host-explore x1; host-floor x[[FLOOR:[1-9][0-9]?]]; host-hint x[[HINT:[0-9]+]]"
    // AUTO-SAME: reasons="cost model: measuring the host loop" x1; {{(.* x[0-9]+; )?}}"cost model: transfers and launch exceed the host time" x[[FLOOR]]; {{(.* x[0-9]+; )?}}"cost model: host hint (idiom_run not called)" x[[HINT]]{{;| }}
    // FORCED-DAG: idiom-stats: host-hint.c:[[@LINE+1]] map calls=3000 offloaded=3000 {{.*}}decisions="device-forced x3000"
    for (int i = 0; i < N; ++i)
      y[i] = x[i] - 0.5f * y[i];
    s += y[(r * 7) % N];
  }
  // 128 small calls, then 2 large ones. (The loop reads big on the host:
  // a residency region that routes the reads; hints are given and followed
  // in it while it holds nothing on the device.)
  unsigned long sum = 0;
  for (int r = 0; r < 128; ++r) {
    grow(big, N);
    sum += big[r];
  }
  grow(big, BIG);
  grow(big, BIG);
  for (int i = 0; i < BIG; i += 4097)
    sum += big[i];
  printf("%.6f %lu\n", s, sum);
  return 0;
}
