// Issue 12 (runtime/lib/startup.c: expected_ready_ns): a call that comes
// while the device starts waits for it when its loop is at least 4 times
// the start-up still expected plus the site's build, and a first build that
// is a load from the disk cache counts as none. Counted as a build (at
// least a start-up), it kept a warm Jacobi 4096^2 x 150's stencil (36 ms on
// the host) from waiting 0.4 ms for the H200. Here the start-up record says
// 30 ms, which counts as the runtime's floor of 50 ms (the real PoCL
// start-up is longer), the program's initialisation takes 25 ms, and the
// site's loop about 200 ms: its first call, about 25 ms before the start-up
// is expected to end, waits (at most half its loop).
// Run C's profile says its last run built nothing from source (its disk
// cache served every program): the call waits. Run D's says the last run's
// longest build took 20 s: the call does not wait, it declines "device
// starting" (a later call may wait for the load, once the device is up and
// the program is known to be in the disk cache). Outputs are the sequential
// build's.
// A wall-clock policy test: not in the hardened suite (test/lit/lit.cfg.py).
// UNSUPPORTED: hardened
// RUN: %clang -O2 %s -o %t.seq
// RUN: %clang-idiom -g %s -lidiomrt -o %t.idiom
// RUN: %t.seq > %t.expected
// RUN: rm -rf %t.cache %t.prof
// RUN: env IDIOM_COST=off IDIOM_DEVICE=cpu IDIOM_CACHE_DIR=%t.cache %t.idiom > %t.outA
// RUN: diff %t.expected %t.outA
// RUN: ls %t.cache/*.clbin
// RUN: env IDIOM_PROFILE=%t.prof IDIOM_CACHE_DIR=%t.cache %t.idiom > %t.outB
// RUN: diff %t.expected %t.outB
// RUN: python3 %S/Inputs/profile_edit.py fast %t.prof
// RUN: python3 %S/Inputs/profile_edit.py wall 60000 0 %t.prof
// RUN: python3 %S/Inputs/profile_edit.py worthy 60000 %t.prof
// RUN: python3 %S/Inputs/profile_edit.py fruitless 0 0 %t.prof
// RUN: python3 %S/Inputs/startup_record.py 30 %t.cache/startup-auto.txt
// RUN: env IDIOM_PROFILE=%t.prof IDIOM_CACHE_DIR=%t.cache IDIOM_DEBUG=1 %t.idiom > %t.outC 2> %t.errC
// RUN: diff %t.expected %t.outC
// RUN: grep -q "starting it at program start" %t.errC
// RUN: grep -m1 -E "heavy_map.h:[0-9]+: (declined|waited)" %t.errC | grep -q "waited .* ms for the device"
// RUN: python3 %S/Inputs/profile_edit.py fast %t.prof
// RUN: python3 %S/Inputs/profile_edit.py wall 60000 20000 %t.prof
// RUN: python3 %S/Inputs/profile_edit.py worthy 60000 %t.prof
// RUN: python3 %S/Inputs/profile_edit.py fruitless 0 0 %t.prof
// RUN: python3 %S/Inputs/startup_record.py 30 %t.cache/startup-auto.txt
// RUN: env IDIOM_PROFILE=%t.prof IDIOM_CACHE_DIR=%t.cache IDIOM_DEBUG=1 %t.idiom > %t.outD 2> %t.errD
// RUN: diff %t.expected %t.outD
// RUN: grep -q "starting it at program start" %t.errD
// RUN: grep -m1 -E "heavy_map.h:[0-9]+: (declined|waited)" %t.errD | grep -q "declined: device starting"
#define HEAVY_K 12000
#define STEPS 2
#define HEAVY_INIT_MS 25
#include "Inputs/heavy_map.h"
