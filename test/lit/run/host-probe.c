// A device that lost is not probed while it is not started (runtime/
// lib/costmodel.c, step 5): the profile of an earlier run (rewritten by
// Inputs/profile_edit.py to say the device took 3 times the
// loop's time) seeds the class; the model keeps the loop on the host
// (`host-cost`, then the host hint), and the re-measurement of the losing
// device that is due after a few decisions neither counts toward a
// start-up (`host-prestart`) nor starts the device (device="none"). Every
// run prints what the sequential build prints.
// RUN: %clang -O2 %s -o %t.seq
// RUN: %clang-idiom -g %s -lidiomrt -o %t.idiom
// RUN: rm -rf %t.cache %t.prof
// RUN: %t.seq 10 > %t.expected10
// RUN: %t.seq 300 > %t.expected300
// The first run (10 calls: too little host time to start the device)
// writes the profile.
// RUN: env IDIOM_CACHE_DIR=%t.cache IDIOM_PROFILE=%t.prof %t.idiom 10 > %t.out1
// RUN: diff %t.expected10 %t.out1
// RUN: python3 %S/Inputs/profile_edit.py slow 3 %t.prof
// RUN: env IDIOM_CACHE_DIR=%t.cache IDIOM_PROFILE=%t.prof IDIOM_STATS=1 %t.idiom 300 > %t.out2 2> %t.stats
// RUN: diff %t.expected300 %t.out2
// RUN: FileCheck %s < %t.stats
#include <stdio.h>
#include <stdlib.h>

#define N (1 << 21)
static float a[N], b[N];

int main(int argc, char **argv) {
  int reps = argc > 1 ? atoi(argv[1]) : 10;
  for (int i = 0; i < N; ++i) {
    a[i] = (float)(i % 29);
    b[i] = (float)(i % 3) + 0.5f;
  }
  double s = 0;
  for (int r = 0; r < reps; ++r) {
    // (Four divisions an element: the loop's time is well above the
    // device's static floor, so the model compares it with the device's.)
    // CHECK: idiom-stats: host-probe.c:[[@LINE+2]] map calls=300 offloaded=0 device="none" {{.*}}decisions="host-cost x{{[0-9]+}}; host-hint x{{[0-9]+}}"
    // CHECK-NOT: too little host time yet to start the device
    for (int i = 0; i < N; ++i)
      b[i] = a[i] / (1.0f + b[i]) + a[i] / (2.0f + b[i]) +
             a[i] / (3.0f + b[i]) + a[i] / (4.0f + b[i]);
    s += b[(r * 13) % N];
  }
  printf("%.3f\n", s);
  return 0;
}
