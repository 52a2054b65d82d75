// A device that lost is not probed while it is not started (runtime/
// lib/costmodel.c, step 5): the profile of an earlier run (rewritten by
// Inputs/profile_edit.py to say the device took 3 times the
// loop's time, measured by the last run, which it lost) seeds the class;
// the model keeps the loop on the host (`host-cost`, then the host hint),
// and the re-measurement of the losing device that is due after a few
// decisions neither counts toward a start-up (`host-prestart`) nor starts
// the device (device="none"). The seed is fresh (age 0), so it is not
// stale either (runtime/lib/stale.c; test/lit/run/stale-probe.c has an old
// one). Every run prints what the sequential build prints. The program:
// Inputs/probe_loop.c (its site at line 19).
// RUN: %clang -O2 %S/Inputs/probe_loop.c -o %t.seq
// RUN: %clang-idiom -g %S/Inputs/probe_loop.c -lidiomrt -o %t.idiom
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
// CHECK: idiom-stats: probe_loop.c:19 map calls=300 offloaded=0 device="none" {{.*}}decisions="host-cost x{{[0-9]+}}; host-hint x{{[0-9]+}}"
// CHECK-NOT: too little host time yet to start the device
