// Issue 12 (runtime/lib/startup.c: too_late and entry_late): a build the
// process is not expected to outlive is left out, unless it is a load from
// the disk cache, a few ms. A warm Jacobi 4096^2 x 150 on the H200 left its
// three loads out at 268 ms (its profile: the last run took 0.7 s, a build
// at least a start-up, 365 ms) and ran 11 more sweeps on the host, 0.33 s,
// before it loaded them. Here the profile says the last run took 20 s and
// so did its longest build, so a build begun at the device's start-up is
// expected to end after the process (which takes 1-4 s); the device is
// started at program start (worthy: a minute; fruitless reset), and the
// site's device time is a hundredth of its host time (fast), so its first
// calls want the device while it starts. Run C finds the program in the
// disk cache (written by run A): the calls made while the device starts
// decline "device starting" and queue the site, not "kernels not built",
// and the program is loaded. Run D, the same with the cache's binaries
// removed, queues the site while the device starts as well, but the
// runtime thread leaves its build out, and the later calls decline
// "kernels not built". Outputs are the sequential build's.
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
// RUN: python3 %S/Inputs/profile_edit.py wall 20000 20000 %t.prof
// RUN: python3 %S/Inputs/profile_edit.py worthy 60000 %t.prof
// RUN: python3 %S/Inputs/profile_edit.py fruitless 0 0 %t.prof
// RUN: env IDIOM_PROFILE=%t.prof IDIOM_CACHE_DIR=%t.cache IDIOM_DEBUG=1 %t.idiom > %t.outC 2> %t.errC
// RUN: diff %t.expected %t.outC
// RUN: grep -q "starting it at program start" %t.errC
// RUN: grep -q "declined: device starting" %t.errC
// RUN: grep -q "loaded program from disk cache" %t.errC
// RUN: not grep -q "kernels not built" %t.errC
// RUN: not grep -q "build left out" %t.errC
// RUN: rm %t.cache/*.clbin
// RUN: python3 %S/Inputs/profile_edit.py fast %t.prof
// RUN: python3 %S/Inputs/profile_edit.py wall 20000 20000 %t.prof
// RUN: python3 %S/Inputs/profile_edit.py worthy 60000 %t.prof
// RUN: python3 %S/Inputs/profile_edit.py fruitless 0 0 %t.prof
// RUN: env IDIOM_PROFILE=%t.prof IDIOM_CACHE_DIR=%t.cache IDIOM_DEBUG=1 %t.idiom > %t.outD 2> %t.errD
// RUN: diff %t.expected %t.outD
// RUN: grep -q "starting it at program start" %t.errD
// RUN: grep -q "build left out: the process is expected to end" %t.errD
// RUN: grep -q "declined: kernels not built: the process is expected to end first" %t.errD
// RUN: not grep -q "loaded program from disk cache" %t.errD
#define HEAVY_K 2000
#define STEPS 100
#define HEAVY_INIT_MS 0
#include "Inputs/heavy_map.h"
