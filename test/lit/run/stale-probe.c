// A losing device sample from an earlier run is measured again once it is
// stale (runtime/lib/stale.c): the profile (rewritten by
// Inputs/profile_edit.py to say the device took 3 times the loop's time,
// measured 1 run ago, a run that it lost) seeds the class; the model keeps
// the loop on the host, without host hints, until the host time spent on
// it pays for a start-up and three device runs at the seed's loss, then
// re-probes the device (`device-reprobe`): the device starts and runs the
// loop, and its own samples replace the seed. The profile then says the
// device was measured by the last run (age 0). The same seed measured by
// the last run (age 0) is test/lit/run/host-probe.c: no start. Every run
// prints what the sequential build prints. The program:
// Inputs/probe_loop.c (its site at line 19). 1500 calls (about 2.7 s of
// host loops): at 600 the calls after the re-probe (about 0.9 s) ended
// before PoCL's start-up and build under CI's load (offloaded=0).
// RUN: %clang -O2 %S/Inputs/probe_loop.c -o %t.seq
// RUN: %clang-idiom -g %S/Inputs/probe_loop.c -lidiomrt -o %t.idiom
// RUN: rm -rf %t.cache %t.prof
// RUN: %t.seq 10 > %t.expected10
// RUN: %t.seq 1500 > %t.expected1500
// The first run (10 calls: too little host time to start the device)
// writes the profile.
// RUN: env IDIOM_CACHE_DIR=%t.cache IDIOM_PROFILE=%t.prof %t.idiom 10 > %t.out1
// RUN: diff %t.expected10 %t.out1
// RUN: python3 %S/Inputs/profile_edit.py slow 3 %t.prof
// RUN: python3 %S/Inputs/profile_edit.py stale 1 1 -1 %t.prof
// RUN: grep -q " 1 1 -1 probe_loop.c:19" %t.prof
// RUN: env IDIOM_CACHE_DIR=%t.cache IDIOM_PROFILE=%t.prof IDIOM_STATS=1 IDIOM_DEBUG=1 %t.idiom 1500 > %t.out2 2> %t.err
// RUN: diff %t.expected1500 %t.out2
// RUN: FileCheck %s < %t.err
// RUN: FileCheck --check-prefix=PROF %s < %t.prof
// CHECK: probe_loop.c:19: size class 21: re-probing the device: its estimate ({{[0-9.]+}} us against the host's {{[0-9.]+}}) is 1 runs old and lost 1 runs in a row
// CHECK: loaded libOpenCL
// CHECK: idiom-stats: probe_loop.c:19 map calls=1500 offloaded={{[1-9][0-9]*}} {{.*}}device-reprobe x{{[1-9]}}
// PROF: idiom-profile 3
// PROF: site {{[0-9a-f]+}} 21 {{[0-9.e+-]+}} {{[0-9.e+-]+}} {{[1-9][0-9]*}} -1 0 0 {{[0-9]+}} {{-?[0-9]+}} probe_loop.c:19
