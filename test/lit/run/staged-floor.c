// The cost model's device floor (runtime/lib/costmodel.c) takes copies
// that the pinned staging slots carry at their measured rate, the start-up
// record's stage_bps (runtime/lib/calibration.c), not at the pageable rate
// of bw_bps. Built without residency regions (whose buffers move once:
// run/csr-region-floor.c), a map over 1 Mi floats (8 MiB moved, about a millisecond on
// the host) runs 40 times. With a record of 100 MB/s pageable, the floor
// (80 ms) exceeds the host time at every call: "transfers and launch
// exceed the host time". With the same record and a staged 1 TB/s, under
// IDIOM_STAGING=on (PoCL's copies staged), the floor is below the host
// time: no call is refused for it. Negatives: IDIOM_STAGING=off and a
// record without stage_bps refuse as before. A run whose device runs
// stage writes of two chunks or more (IDIOM_DEVICE=cpu, 64 KiB chunks)
// writes its staged rate into the record that names its device at exit,
// the other lines kept; a run that stages nothing leaves the record as it
// was. Every run prints what the sequential build prints.
// RUN: %clang -O2 %s -o %t.seq
// RUN: %clang-idiom -fplugin=%plugin -mllvm -idiom-residency=false -g %s -lidiomrt -o %t.idiom
// RUN: %t.seq > %t.expected
// RUN: rm -rf %t.cache && mkdir -p %t.cache
// RUN: python3 %S/Inputs/startup_record.py 100 %t.cache/startup-auto.txt --lat-ns 10000 --bw-bps 100000000
// RUN: env IDIOM_CACHE_DIR=%t.cache IDIOM_PROFILE=off IDIOM_STAGING=on IDIOM_STATS=1 %t.idiom > %t.out0 2> %t.err0
// RUN: diff %t.expected %t.out0
// RUN: grep -q "transfers and launch exceed the host time" %t.err0
// RUN: python3 %S/Inputs/startup_record.py 100 %t.cache/startup-auto.txt --lat-ns 10000 --bw-bps 100000000 --stage-bps 1000000000000
// RUN: cp %t.cache/startup-auto.txt %t.record
// RUN: env IDIOM_CACHE_DIR=%t.cache IDIOM_PROFILE=off IDIOM_STAGING=on IDIOM_STATS=1 %t.idiom > %t.out1 2> %t.err1
// RUN: diff %t.expected %t.out1
// RUN: grep -q "staged-floor.c:[0-9]* map calls=40" %t.err1
// RUN: not grep -q "transfers and launch exceed the host time" %t.err1
// RUN: diff %t.record %t.cache/startup-auto.txt
// RUN: env IDIOM_CACHE_DIR=%t.cache IDIOM_PROFILE=off IDIOM_STAGING=off IDIOM_STATS=1 %t.idiom > %t.out2 2> %t.err2
// RUN: diff %t.expected %t.out2
// RUN: grep -q "transfers and launch exceed the host time" %t.err2
// RUN: rm -rf %t.cache2 && mkdir -p %t.cache2
// RUN: env IDIOM_CACHE_DIR=%t.cache2 IDIOM_PROFILE=off IDIOM_DEVICE=cpu IDIOM_DEBUG=1 %t.idiom > %t.out3 2> %t.err3
// RUN: diff %t.expected %t.out3
// RUN: not grep -q "staged host-to-device" %t.err3
// RUN: python3 %S/Inputs/startup_record.py 100 %t.cache2/startup-cpu.txt --device-log %t.err3
// RUN: cp %t.cache2/startup-cpu.txt %t.record2
// RUN: env IDIOM_CACHE_DIR=%t.cache2 IDIOM_PROFILE=off IDIOM_DEVICE=cpu IDIOM_STAGING=off IDIOM_DEBUG=1 %t.idiom > %t.out4 2> %t.err4
// RUN: diff %t.expected %t.out4
// RUN: diff %t.record2 %t.cache2/startup-cpu.txt
// RUN: env IDIOM_CACHE_DIR=%t.cache2 IDIOM_PROFILE=off IDIOM_DEVICE=cpu IDIOM_STAGING=on IDIOM_STAGING_CHUNK=65536 IDIOM_DEBUG=1 %t.idiom > %t.out5 2> %t.err5
// RUN: diff %t.expected %t.out5
// RUN: grep -q "cost model: staged host-to-device .* GB/s" %t.err5
// RUN: grep -q "^stage_bps [1-9][0-9]*$" %t.cache2/startup-cpu.txt
// RUN: grep "^device\|^lat_ns\|^bw_bps\|^start_ms" %t.cache2/startup-cpu.txt > %t.kept
// RUN: grep "^device\|^lat_ns\|^bw_bps\|^start_ms" %t.record2 | diff - %t.kept
// RUN: env IDIOM_CACHE_DIR=%t.cache2 IDIOM_PROFILE=off IDIOM_DEVICE=cpu IDIOM_DEBUG=1 %t.idiom > %t.out6 2> %t.err6
// RUN: diff %t.expected %t.out6
// RUN: grep -q "^stage_bps [1-9][0-9]*$" %t.cache2/startup-cpu.txt
#include <stdio.h>

#define N (1 << 20)
#define REPS 40

static float x[N], y[N];

int main(void) {
  for (int i = 0; i < N; ++i) {
    x[i] = (float)(i % 17);
    y[i] = (float)(i % 5);
  }
  double s = 0;
  for (int r = 0; r < REPS; ++r) {
    for (int i = 0; i < N; ++i)
      y[i] = 0.5f * x[i] + y[i] * 0.25f;
    s += y[(r * 7919) % N];
  }
  printf("%.6f\n", s);
  return 0;
}
