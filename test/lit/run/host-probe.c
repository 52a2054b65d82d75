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
//
// The seed is 3 times the first run's host time, and the second run's host
// time decides: under load (a 2-core CI machine running other tests) the
// two runs' host times differ up to tenfold, so that the re-measurement
// never comes due in 300 calls (the test would pass untested) or the seed
// wins. Inputs/probe_attempts.py repeats the two runs (up to 6 times) until
// an attempt tests the rule (the device due and not started, says
// IDIOM_DEBUG; or a device decision), and fails when none did.
// RUN: %clang -O2 %S/Inputs/probe_loop.c -o %t.seq
// RUN: %clang-idiom -g %S/Inputs/probe_loop.c -lidiomrt -o %t.idiom
// RUN: %t.seq 10 > %t.expected10
// RUN: %t.seq 300 > %t.expected300
// RUN: python3 %S/Inputs/probe_attempts.py %t.idiom %t.expected10 %t.expected300 300 %t.dir > %t.err
// RUN: FileCheck %s < %t.err
// CHECK-NOT: too little host time yet to start the device
// CHECK-NOT: loaded libOpenCL
// CHECK: probe_loop.c:19: size class 21: the device lost and is due to be measured again, but is not started: the loop runs
// CHECK-NOT: too little host time yet to start the device
// CHECK-NOT: loaded libOpenCL
// CHECK: idiom-stats: probe_loop.c:19 map calls=300 offloaded=0 device="none" {{.*}}decisions="host-cost x{{[0-9]+}}; host-hint x{{[0-9]+}}"
