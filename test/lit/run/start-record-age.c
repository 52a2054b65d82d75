// The device's start-up record (runtime/lib/calibration.c) keeps the
// measured latency and bandwidth for 8 processes: a process whose record
// names its device and is younger takes them from it and writes it back
// with its own start-up and the age plus one, and does not measure them
// (7.7 ms on the H200, 133 ms on PoCL here, between the device's start and
// the first builds). Each run's profile says the device wins, and that
// the last run took a minute and wanted a minute on the device, so the
// device is started at program start, on the runtime's thread, which
// measures; 16 calls of about 40 ms each outlive its start-up. Run 1 (no record) measures: age 0. Run 2 takes the
// record: age 1, the same latency and bandwidth. Run 3, whose record says
// age 7, measures again: age 0. Run 4, whose record names another device,
// measures. Every run prints what the sequential build prints.
// RUN: %clang -O2 %s -o %t.seq
// RUN: %clang-idiom -g %s -lidiomrt -o %t.idiom
// RUN: %t.seq > %t.expected
// RUN: rm -rf %t.cache %t.prof
// RUN: env IDIOM_PROFILE=%t.prof IDIOM_CACHE_DIR=%t.cache %t.idiom > %t.out0
// RUN: diff %t.expected %t.out0
// RUN: rm -f %t.cache/startup-auto.txt
// RUN: python3 %S/Inputs/profile_edit.py fast %t.prof
// RUN: python3 %S/Inputs/profile_edit.py wall 60000 0 %t.prof
// RUN: python3 %S/Inputs/profile_edit.py worthy 60000 %t.prof
// RUN: python3 %S/Inputs/profile_edit.py fruitless 0 0 %t.prof
// RUN: env IDIOM_PROFILE=%t.prof IDIOM_CACHE_DIR=%t.cache IDIOM_DEBUG=1 %t.idiom > %t.out1 2> %t.err1
// RUN: diff %t.expected %t.out1
// RUN: grep -q "starting it at program start" %t.err1
// RUN: grep -q "cost model: latency .* GB/s, start-up" %t.err1
// RUN: not grep -q "the record's" %t.err1
// RUN: grep -q "^age 0$" %t.cache/startup-auto.txt
// RUN: grep "^lat_ns\|^bw_bps" %t.cache/startup-auto.txt > %t.measured
// RUN: python3 %S/Inputs/profile_edit.py fast %t.prof
// RUN: python3 %S/Inputs/profile_edit.py wall 60000 0 %t.prof
// RUN: python3 %S/Inputs/profile_edit.py worthy 60000 %t.prof
// RUN: python3 %S/Inputs/profile_edit.py fruitless 0 0 %t.prof
// RUN: env IDIOM_PROFILE=%t.prof IDIOM_CACHE_DIR=%t.cache IDIOM_DEBUG=1 %t.idiom > %t.out2 2> %t.err2
// RUN: diff %t.expected %t.out2
// RUN: grep -q "the record's, measured 1 processes ago" %t.err2
// RUN: grep -q "^age 1$" %t.cache/startup-auto.txt
// RUN: grep "^lat_ns\|^bw_bps" %t.cache/startup-auto.txt | diff %t.measured -
// RUN: python3 %S/Inputs/startup_record.py 100 %t.cache/startup-auto.txt --same-device --age 7
// RUN: python3 %S/Inputs/profile_edit.py fast %t.prof
// RUN: python3 %S/Inputs/profile_edit.py wall 60000 0 %t.prof
// RUN: python3 %S/Inputs/profile_edit.py worthy 60000 %t.prof
// RUN: python3 %S/Inputs/profile_edit.py fruitless 0 0 %t.prof
// RUN: env IDIOM_PROFILE=%t.prof IDIOM_CACHE_DIR=%t.cache IDIOM_DEBUG=1 %t.idiom > %t.out3 2> %t.err3
// RUN: diff %t.expected %t.out3
// RUN: grep -q "cost model: latency .* GB/s, start-up" %t.err3
// RUN: not grep -q "the record's" %t.err3
// RUN: grep -q "^age 0$" %t.cache/startup-auto.txt
// RUN: python3 %S/Inputs/startup_record.py 100 %t.cache/startup-auto.txt --age 1
// RUN: python3 %S/Inputs/profile_edit.py fast %t.prof
// RUN: python3 %S/Inputs/profile_edit.py wall 60000 0 %t.prof
// RUN: python3 %S/Inputs/profile_edit.py worthy 60000 %t.prof
// RUN: python3 %S/Inputs/profile_edit.py fruitless 0 0 %t.prof
// RUN: env IDIOM_PROFILE=%t.prof IDIOM_CACHE_DIR=%t.cache IDIOM_DEBUG=1 %t.idiom > %t.out4 2> %t.err4
// RUN: diff %t.expected %t.out4
// RUN: grep -q "cost model: latency .* GB/s, start-up" %t.err4
// RUN: not grep -q "the record's" %t.err4
// RUN: grep -q "^age 0$" %t.cache/startup-auto.txt
#define HEAVY_K 3000
#define STEPS 16
#define HEAVY_INIT_MS 0
#include "Inputs/heavy_map.h"
