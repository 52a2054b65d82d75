// Issue 12, "a program that never profits from the device pays no more than
// noise" (runtime/lib/fruitless.c): a program whose device start-ups serve
// no run (here: every build takes ten minutes more, IDIOM_TEST_SLOW_BUILD_MS,
// so no call ever finds its kernels) stops starting the device after two
// such starts in a row, for 2, 4, ... runs: the profile's `fruitless STARTS
// HELD` line counts them. Before, every run started it (nas-parboil/gemv.c
// on PoCL: OpenCL's start-up and three builds in every run, 0.31-0.38 s of
// CPU time against the sequential build's 0.23 s). Each run's profile is
// edited to say that the last run lasted a minute and had a minute of host
// time worth the device, so that each run starts the device at program
// start unless it is held (test/lit/run/profile.c, run 6). Every run prints
// what the sequential build prints.
// The program is test/lit/run/profile.c's (a map called 200 times).
// A wall-clock policy test: not in the hardened suite (test/lit/lit.cfg.py).
// UNSUPPORTED: hardened
// RUN: %clang -O2 %S/profile.c -o %t.seq
// RUN: %clang-idiom -g %S/profile.c -lidiomrt -o %t.idiom
// RUN: %t.seq > %t.expected
// RUN: rm -rf %t.prof %t.cache
// RUN: env IDIOM_PROFILE=%t.prof IDIOM_COST=on IDIOM_DEVICE=cpu IDIOM_CACHE_DIR=%t.cache IDIOM_DEBUG=1 IDIOM_TEST_SLOW_BUILD_MS=600000 %t.idiom > %t.out1 2> %t.err1
// RUN: diff %t.expected %t.out1
// A run that did not start the device writes no fruitless line.
// RUN: not grep -q "^fruitless" %t.prof
//
// Runs 2 and 3 start the device, which runs nothing: fruitless 1 0, 2 0.
// RUN: python3 %S/Inputs/profile_edit.py worthy 60000 %t.prof
// RUN: python3 %S/Inputs/profile_edit.py wall 60000 0 %t.prof
// RUN: env IDIOM_PROFILE=%t.prof IDIOM_COST=on IDIOM_DEVICE=cpu IDIOM_CACHE_DIR=%t.cache IDIOM_DEBUG=1 IDIOM_TEST_SLOW_BUILD_MS=600000 %t.idiom > %t.out2 2> %t.err2
// RUN: diff %t.expected %t.out2
// RUN: grep -q "starting it at program start" %t.err2
// RUN: grep -q "^fruitless 1 0$" %t.prof
// RUN: python3 %S/Inputs/profile_edit.py worthy 60000 %t.prof
// RUN: python3 %S/Inputs/profile_edit.py wall 60000 0 %t.prof
// RUN: env IDIOM_PROFILE=%t.prof IDIOM_COST=on IDIOM_DEVICE=cpu IDIOM_CACHE_DIR=%t.cache IDIOM_DEBUG=1 IDIOM_TEST_SLOW_BUILD_MS=600000 %t.idiom > %t.out3 2> %t.err3
// RUN: diff %t.expected %t.out3
// RUN: grep -q "starting it at program start" %t.err3
// RUN: grep -q "^fruitless 2 0$" %t.prof
//
// Runs 4 and 5 are held: no start-up, no OpenCL, no wait at exit.
// RUN: python3 %S/Inputs/profile_edit.py worthy 60000 %t.prof
// RUN: python3 %S/Inputs/profile_edit.py wall 60000 0 %t.prof
// RUN: env IDIOM_PROFILE=%t.prof IDIOM_COST=on IDIOM_DEVICE=cpu IDIOM_CACHE_DIR=%t.cache IDIOM_DEBUG=1 IDIOM_TEST_SLOW_BUILD_MS=600000 %t.idiom > %t.out4 2> %t.err4
// RUN: diff %t.expected %t.out4
// RUN: FileCheck --check-prefix=HELD1 %s < %t.err4
// RUN: not grep -q "starting it at program start" %t.err4
// RUN: not grep -q "loaded libOpenCL\|OpenCL: opened" %t.err4
// RUN: not grep -q "exit: waiting" %t.err4
// RUN: grep -q "^fruitless 2 1$" %t.prof
// HELD1: idiom: profile: the device's last 2 start-ups in a row saved less than a start-up: not started in this run (held 1 of 2)
// RUN: python3 %S/Inputs/profile_edit.py worthy 60000 %t.prof
// RUN: python3 %S/Inputs/profile_edit.py wall 60000 0 %t.prof
// RUN: env IDIOM_PROFILE=%t.prof IDIOM_COST=on IDIOM_DEVICE=cpu IDIOM_CACHE_DIR=%t.cache IDIOM_DEBUG=1 IDIOM_TEST_SLOW_BUILD_MS=600000 %t.idiom > %t.out5 2> %t.err5
// RUN: diff %t.expected %t.out5
// RUN: grep -q "held 2 of 2" %t.err5
// RUN: not grep -q "starting it at program start" %t.err5
// RUN: grep -q "^fruitless 2 2$" %t.prof
//
// Negatives. Run 6: the hold is over, the device starts again (a third
// fruitless start: the next hold is 4 runs).
// RUN: python3 %S/Inputs/profile_edit.py worthy 60000 %t.prof
// RUN: python3 %S/Inputs/profile_edit.py wall 60000 0 %t.prof
// RUN: env IDIOM_PROFILE=%t.prof IDIOM_COST=on IDIOM_DEVICE=cpu IDIOM_CACHE_DIR=%t.cache IDIOM_DEBUG=1 IDIOM_TEST_SLOW_BUILD_MS=600000 %t.idiom > %t.out6 2> %t.err6
// RUN: diff %t.expected %t.out6
// RUN: grep -q "starting it at program start" %t.err6
// RUN: not grep -q "not started in this run" %t.err6
// RUN: grep -q "^fruitless 3 0$" %t.prof
// Run 7: one fruitless start alone holds nothing (a GPU's first run builds
// the binaries that its second loads in time).
// RUN: python3 %S/Inputs/profile_edit.py worthy 60000 %t.prof
// RUN: python3 %S/Inputs/profile_edit.py wall 60000 0 %t.prof
// RUN: python3 %S/Inputs/profile_edit.py fruitless 1 0 %t.prof
// RUN: env IDIOM_PROFILE=%t.prof IDIOM_COST=on IDIOM_DEVICE=cpu IDIOM_CACHE_DIR=%t.cache IDIOM_DEBUG=1 IDIOM_TEST_SLOW_BUILD_MS=600000 %t.idiom > %t.out7 2> %t.err7
// RUN: diff %t.expected %t.out7
// RUN: grep -q "starting it at program start" %t.err7
// RUN: grep -q "^fruitless 2 0$" %t.prof
// Run 8: another IDIOM_* environment than the profile's: no hold (and no
// early start: test/lit/run/profile.c, run 3); the calls do not start the
// device either here (their host time stays below a start-up).
// RUN: python3 %S/Inputs/profile_edit.py worthy 60000 %t.prof
// RUN: python3 %S/Inputs/profile_edit.py wall 60000 0 %t.prof
// RUN: env IDIOM_PROFILE=%t.prof IDIOM_COST=on IDIOM_DEVICE=cpu IDIOM_CACHE_DIR=%t.cache IDIOM_DEBUG=1 IDIOM_TEST_SLOW_BUILD_MS=600000 IDIOM_TUNE=on %t.idiom > %t.out8 2> %t.err8
// RUN: diff %t.expected %t.out8
// RUN: not grep -q "not started in this run" %t.err8
