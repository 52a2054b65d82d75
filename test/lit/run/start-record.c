// The device's start-up record (IDIOM_CACHE_DIR/startup-<device>.txt,
// runtime/lib/calibration.c) is read at program start only when its
// content can start the device early (runtime/lib/profile.c's constructor,
// helper "fixedcost"): when the profile's last run saved less on the
// device than the least start-up (50 ms) and had less than two of worthy
// host time, no record can make that enough, and the record is read by the
// first call whose decision needs it. IDIOM_DEBUG shows the order: the
// profile's line is printed at the first call, the record's when it is
// read. Before, a run whose profile had any worthy time read the record
// (and the address-space limit) at program start. Every run prints what
// the sequential build prints.
// RUN: %clang -O2 %s -o %t.seq
// RUN: %clang-idiom -g %s -lidiomrt -o %t.idiom
// RUN: %t.seq > %t.expected
// RUN: rm -rf %t.prof %t.cache && mkdir -p %t.cache
// RUN: python3 %S/Inputs/startup_record.py 60000 %t.cache/startup-cpu.txt
// RUN: env IDIOM_PROFILE=%t.prof IDIOM_COST=on IDIOM_DEVICE=cpu IDIOM_CACHE_DIR=%t.cache IDIOM_DEBUG=1 %t.idiom > %t.out1 2> %t.err1
// RUN: diff %t.expected %t.out1
//
// 10 ms of worthy host time (below two of the least start-up): the record
// is read after the profile's line, by a call.
// RUN: python3 %S/Inputs/profile_edit.py worthy 10 %t.prof
// RUN: env IDIOM_PROFILE=%t.prof IDIOM_COST=on IDIOM_DEVICE=cpu IDIOM_CACHE_DIR=%t.cache IDIOM_DEBUG=1 %t.idiom > %t.out2 2> %t.err2
// RUN: diff %t.expected %t.out2
// RUN: FileCheck --check-prefix=LATER %s < %t.err2
// LATER: idiom: profile: {{.*}}.prof: 2 site classes
// LATER: idiom: cost model: {{.*}}startup-cpu.txt: latency 20.0 us, 10.00 GB/s, start-up 60000 ms
// RUN: not grep -q "at program start" %t.err2
//
// The negative: 1 s of worthy host time, which a record of a short
// start-up would make enough: the record is read at program start, before
// the profile's line (its 60 s start-up is not paid by 1 s: no start).
// RUN: python3 %S/Inputs/profile_edit.py worthy 1000 %t.prof
// RUN: env IDIOM_PROFILE=%t.prof IDIOM_COST=on IDIOM_DEVICE=cpu IDIOM_CACHE_DIR=%t.cache IDIOM_DEBUG=1 %t.idiom > %t.out3 2> %t.err3
// RUN: diff %t.expected %t.out3
// RUN: FileCheck --check-prefix=START %s < %t.err3
// START: idiom: cost model: {{.*}}startup-cpu.txt: latency 20.0 us, 10.00 GB/s, start-up 60000 ms
// START: idiom: profile: {{.*}}.prof: 2 site classes
// RUN: not grep -q "at program start" %t.err3
#include <stdio.h>

#define N 4096
static float x[N], y[N];

int main(void) {
  for (int i = 0; i < N; ++i) {
    x[i] = (float)(i % 17);
    y[i] = (float)(i % 5);
  }
  double s = 0;
  for (int r = 0; r < 200; ++r) {
    for (int i = 0; i < N; ++i)
      y[i] = 0.5f * x[i] + y[i] * 0.25f;
    s += y[r];
  }
  printf("%f\n", s);
  return 0;
}
