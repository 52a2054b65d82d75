// The per-site profile (runtime/lib/profile.c): a run writes the host and
// device times of each call site and size class at exit; the next run of
// the same program seeds its cost model with them (the first calls of a
// class no longer explore the host) and, when the profile says the device
// saved more than a start-up and the IDIOM_* environment is the last run's,
// starts the device at program start. Every run prints what the sequential
// build prints. Negatives: another environment (no early start), a corrupt
// file (ignored), IDIOM_PROFILE=off (no profile at all).
// RUN: %clang -O2 %s -o %t.seq
// RUN: %clang-idiom -g %s -lidiomrt -o %t.idiom
// RUN: %t.seq > %t.expected
// RUN: rm -rf %t.prof %t.cache
//
// Run 1 writes the profile: host samples only (200 calls of ~20 us, and
// main's initialisation loop, never reach a start-up's worth of host time,
// so the device is never started): one line per site.
// RUN: env IDIOM_PROFILE=%t.prof IDIOM_COST=on IDIOM_DEVICE=cpu IDIOM_CACHE_DIR=%t.cache IDIOM_DEBUG=1 IDIOM_STATS=1 %t.idiom > %t.out1 2> %t.err1
// RUN: diff %t.expected %t.out1
// RUN: FileCheck --check-prefix=FIRST %s < %t.prof
// RUN: grep -q "host-explore" %t.err1
// FIRST: idiom-profile 3
// FIRST-NEXT: env {{[0-9a-f]+}}
// FIRST-NEXT: worthy {{[0-9]+}}
// FIRST-NEXT: wall {{[0-9]+}} 0
// FIRST-NEXT: site {{[0-9a-f]+}} 16 {{[0-9.e+-]+}} -1 0 -1 0 0 0 -1 profile.c:{{[0-9]+}}
// FIRST-NEXT: site {{[0-9a-f]+}} 16 {{[0-9.e+-]+}} -1 0 -1 0 0 0 -1 profile.c:{{[0-9]+}}
// FIRST-NEXT: check {{[0-9a-f]+}}
//
// Run 2, with a profile that says the device is 100 times faster: the
// device starts at program start and no call explores the host (whether a
// call then runs on the device is the cost model's business: here the
// launch alone costs more than the loop).
// RUN: python3 %S/Inputs/profile_edit.py fast %t.prof
// RUN: env IDIOM_PROFILE=%t.prof IDIOM_COST=on IDIOM_DEVICE=cpu IDIOM_CACHE_DIR=%t.cache IDIOM_DEBUG=1 IDIOM_STATS=1 %t.idiom > %t.out2 2> %t.err2
// RUN: diff %t.expected %t.out2
// RUN: FileCheck --check-prefix=EARLY %s < %t.err2
// RUN: not grep -q "host-explore" %t.err2
// The same profile in format 1 (before the second device's fields): read
// as before, with the same effect (the same path: IDIOM_PROFILE is part of
// the environment the early start compares).
// RUN: cp %t.prof %t.prof2
// RUN: python3 %S/Inputs/profile_edit.py fast %t.prof
// RUN: python3 %S/Inputs/profile_edit.py v1 %t.prof
// RUN: head -1 %t.prof | grep -q "idiom-profile 1"
// RUN: env IDIOM_PROFILE=%t.prof IDIOM_COST=on IDIOM_DEVICE=cpu IDIOM_CACHE_DIR=%t.cache IDIOM_DEBUG=1 IDIOM_STATS=1 %t.idiom > %t.out2b 2> %t.err2b
// RUN: diff %t.expected %t.out2b
// RUN: FileCheck --check-prefix=EARLY %s < %t.err2b
// RUN: not grep -q "host-explore" %t.err2b
// RUN: cp %t.prof2 %t.prof
// The same in format 2 (before the age, losses and load of a device time,
// runtime/lib/stale.c): read as before.
// RUN: python3 %S/Inputs/profile_edit.py fast %t.prof
// RUN: python3 %S/Inputs/profile_edit.py v2 %t.prof
// RUN: head -1 %t.prof | grep -q "idiom-profile 2"
// RUN: env IDIOM_PROFILE=%t.prof IDIOM_COST=on IDIOM_DEVICE=cpu IDIOM_CACHE_DIR=%t.cache IDIOM_DEBUG=1 IDIOM_STATS=1 %t.idiom > %t.out2c 2> %t.err2c
// RUN: diff %t.expected %t.out2c
// RUN: FileCheck --check-prefix=EARLY %s < %t.err2c
// RUN: not grep -q "host-explore" %t.err2c
// RUN: cp %t.prof2 %t.prof
// Run 2d: IDIOM_STATS unset and IDIOM_DEBUG=time instead of 1 (the
// diagnostics do not count in the environment compared): the device still
// starts at program start, as in run 2.
// RUN: python3 %S/Inputs/profile_edit.py fast %t.prof
// RUN: env IDIOM_PROFILE=%t.prof IDIOM_COST=on IDIOM_DEVICE=cpu IDIOM_CACHE_DIR=%t.cache IDIOM_DEBUG=time %t.idiom > %t.out2d 2> %t.err2d
// RUN: diff %t.expected %t.out2d
// RUN: FileCheck --check-prefix=EARLYTIME %s < %t.err2d
// RUN: not grep -q "host-explore\|idiom-stats" %t.err2d
// RUN: cp %t.prof2 %t.prof
// EARLYTIME: idiom: +{{[0-9.]+}} ms: profile: the last run saved {{[0-9.]+}} ms on the device: starting it at program start
// EARLY: idiom: profile: the last run saved {{[0-9.]+}} ms on the device: starting it at program start
// EARLY: idiom: profile: {{.*}}.prof: 2 site classes
// EARLY: idiom-stats: profile.c:{{[0-9]+}} map calls=200
#include <stdio.h>
#include <stdlib.h>

__attribute__((noinline)) static void scale(float *y, const float *x, long n,
                                            float a) {
  for (long i = 0; i < n; i++)
    y[i] = a * x[i] + 1.0f;
}

int main(void) {
  long n = 1L << 16;
  float *x = malloc(sizeof(float) * n), *y = malloc(sizeof(float) * n);
  for (long i = 0; i < n; i++)
    x[i] = (float)(i % 97);
  double sum = 0;
  for (int t = 0; t < 200; t++) {
    scale(y, x, n, (float)(t % 3));
    sum += y[t * 7];
  }
  printf("%.1f\n", sum);
  free(x);
  free(y);
  return 0;
}
//
// Run 3: another IDIOM_* environment than the one the last run ended with
// (IDIOM_TUNE=on changes nothing else): no early start.
// RUN: python3 %S/Inputs/profile_edit.py fast %t.prof
// RUN: env IDIOM_PROFILE=%t.prof IDIOM_COST=on IDIOM_DEVICE=cpu IDIOM_CACHE_DIR=%t.cache IDIOM_DEBUG=1 IDIOM_STATS=1 IDIOM_TUNE=on %t.idiom > %t.out3 2> %t.err3
// RUN: diff %t.expected %t.out3
// RUN: not grep -q "at program start" %t.err3
//
// Run 4: a corrupt profile is ignored (the host is explored again).
// RUN: python3 %S/Inputs/profile_edit.py fast %t.prof
// RUN: python3 %S/Inputs/profile_edit.py corrupt %t.prof
// RUN: env IDIOM_PROFILE=%t.prof IDIOM_COST=on IDIOM_DEVICE=cpu IDIOM_CACHE_DIR=%t.cache IDIOM_DEBUG=1 IDIOM_STATS=1 %t.idiom > %t.out4 2> %t.err4
// RUN: diff %t.expected %t.out4
// RUN: FileCheck --check-prefix=CORRUPT %s < %t.err4
// CORRUPT: idiom: profile: ignoring {{.*}}.prof: malformed or corrupt
// CORRUPT: host-explore
//
// Run 5: IDIOM_PROFILE=off: nothing read or written.
// RUN: rm -rf %t.cache5
// RUN: env IDIOM_PROFILE=off IDIOM_COST=on IDIOM_DEVICE=cpu IDIOM_CACHE_DIR=%t.cache5 IDIOM_DEBUG=1 %t.idiom > %t.out5 2> %t.err5
// RUN: diff %t.expected %t.out5
// RUN: not grep -q "idiom: profile:" %t.err5
// RUN: not ls %t.cache5/profile
//
// Run 6: no device time in the profile, but the last run had 1 s of host
// time the cost model wanted on the device: early start. Run 7: 10 ms (below
// two start-ups of at least 50 ms each): none.
// RUN: rm -rf %t.cache6 %t.prof6
// RUN: env IDIOM_PROFILE=%t.prof6 IDIOM_COST=on IDIOM_DEVICE=cpu IDIOM_CACHE_DIR=%t.cache6 IDIOM_DEBUG=1 IDIOM_STATS=1 %t.idiom > %t.out6 2> %t.err6
// RUN: python3 %S/Inputs/profile_edit.py worthy 1000 %t.prof6
// RUN: python3 %S/Inputs/profile_edit.py wall 60000 0 %t.prof6
// RUN: env IDIOM_PROFILE=%t.prof6 IDIOM_COST=on IDIOM_DEVICE=cpu IDIOM_CACHE_DIR=%t.cache6 IDIOM_DEBUG=1 IDIOM_STATS=1 %t.idiom > %t.out6 2> %t.err6
// RUN: diff %t.expected %t.out6
// RUN: FileCheck --check-prefix=WORTHY %s < %t.err6
// WORTHY: idiom: profile: the last run had 1000.0 ms of host time worth the device: starting it at program start
// RUN: python3 %S/Inputs/profile_edit.py worthy 10 %t.prof6
// RUN: env IDIOM_PROFILE=%t.prof6 IDIOM_COST=on IDIOM_DEVICE=cpu IDIOM_CACHE_DIR=%t.cache6 IDIOM_DEBUG=1 IDIOM_STATS=1 %t.idiom > %t.out7 2> %t.err7
// RUN: diff %t.expected %t.out7
// RUN: not grep -q "at program start" %t.err7
//
// Run 8 (startup.c's too_late): the same profile as run 2's (the device
// 100 times faster), but the last run ended 100 ms after its start and a
// build of its kernels took 5 s: no start at program start, and no call
// starts the device or asks for a build (each declines "kernels not
// built", its loop runs: test/lit/run/late-build.c), so exit has nothing
// to wait for. Run 9: the
// same with a build of 1 ms (a start-up, the calibrated or default
// 50-200 ms, is the least a build is taken to cost): no start either.
// Run 10: a last run of a minute: the device starts at program start.
// RUN: python3 %S/Inputs/profile_edit.py fast %t.prof
// RUN: python3 %S/Inputs/profile_edit.py wall 100 5000 %t.prof
// RUN: cp %t.prof %t.prof8
// RUN: env IDIOM_PROFILE=%t.prof IDIOM_COST=on IDIOM_DEVICE=cpu IDIOM_CACHE_DIR=%t.cache IDIOM_DEBUG=1 IDIOM_STATS=1 %t.idiom > %t.out8 2> %t.err8
// RUN: diff %t.expected %t.out8
// RUN: FileCheck --check-prefix=LATE %s < %t.err8
// RUN: not grep -q "starting it at program start" %t.err8
// RUN: not grep -q "loaded libOpenCL\|OpenCL: opened" %t.err8
// RUN: not grep -q "exit: waiting" %t.err8
// LATE: idiom: profile: the last run took 100.0 ms, less than a build (5000.0 ms): the device is not started early
// RUN: cp %t.prof8 %t.prof
// RUN: python3 %S/Inputs/profile_edit.py wall 100 0.001 %t.prof
// RUN: env IDIOM_PROFILE=%t.prof IDIOM_COST=on IDIOM_DEVICE=cpu IDIOM_CACHE_DIR=%t.cache IDIOM_DEBUG=1 IDIOM_STATS=1 %t.idiom > %t.out9 2> %t.err9
// RUN: diff %t.expected %t.out9
// RUN: grep -q "the device is not started early" %t.err9
// RUN: not grep -q "loaded libOpenCL\|OpenCL: opened" %t.err9
// RUN: cp %t.prof8 %t.prof
// RUN: python3 %S/Inputs/profile_edit.py wall 60000 5000 %t.prof
// RUN: env IDIOM_PROFILE=%t.prof IDIOM_COST=on IDIOM_DEVICE=cpu IDIOM_CACHE_DIR=%t.cache IDIOM_DEBUG=1 IDIOM_STATS=1 %t.idiom > %t.out10 2> %t.err10
// RUN: diff %t.expected %t.out10
// RUN: grep -q "starting it at program start" %t.err10
