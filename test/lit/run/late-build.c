// Issue 12, "a program that never profits from the device pays no more than
// noise" (runtime/lib/startup.c's too_late; helper exitstall): a program of
// one-shot heavy loops whose profile says it ends 100 ms after its start,
// while a build of its kernels takes 60 s (the profile's wall line), neither
// starts the device nor asks for a build: its calls, which the cost model
// would send to the device once their host time reaches a start-up, decline
// "kernels not built: the process is expected to end first" and run their
// loops, and exit has no build to wait for (nas-parboil/syrk.c's exit
// waited 1.3-3.8 s for one before, 7-28 s with the binary for the disk
// cache). The output is the sequential build's. Control: the same run with
// the profile saying the last run took a minute, and wanted a minute of
// host time on the device, starts the device (at program start: the
// threshold of a start at a call depends on the last run's worthy time, and
// this program's is near it, so a control through the calls was flaky).
// The negative run's profile says the last run had no host time worth the
// device, so its calls reach the start threshold after one start-up of
// host time (costmodel.c's start_threshold_ns): with the first run's worthy
// time there, the threshold was 1.125 times it, which a faster second run
// never reached (it failed in the clean-clone CI so). 1000 calls of about
// 1 ms each pass that threshold on a machine several times faster than ours.
// A start-up record of a device with 1 us of latency and 1 TB/s (and the
// default 200 ms start-up) makes each call's host time beat the device's
// floor on any machine: without it, a host whose 4M-float scale took less
// than the default floor's transfers kept the loop on the host for that
// ("transfers and launch exceed the host time"; this microVM, 2026-11-29).
// The build is a minute long because a run that outlives the last one's
// wall time expects to live as long again (startup.c's too_late): with 5 s,
// a loaded run of its 1000 calls passed 5 s and started the device.
// A wall-clock policy test: not in the hardened suite (test/lit/lit.cfg.py).
// UNSUPPORTED: hardened
// RUN: %clang -O2 %s -o %t.seq
// RUN: %clang-idiom -g %s -lidiomrt -o %t.idiom
// RUN: %t.seq > %t.expected
// RUN: rm -rf %t.cache %t.prof
// RUN: env IDIOM_PROFILE=%t.prof IDIOM_CACHE_DIR=%t.cache IDIOM_TEST_HOST=prestart IDIOM_DEBUG=1 %t.idiom > %t.out1 2> %t.err1
// RUN: diff %t.expected %t.out1
// RUN: python3 %S/Inputs/profile_edit.py wall 100 60000 %t.prof
// RUN: python3 %S/Inputs/profile_edit.py worthy 0 %t.prof
// RUN: mkdir -p %t.cache
// RUN: python3 %S/Inputs/startup_record.py 200 %t.cache/startup-auto.txt --lat-ns 1000 --bw-bps 1000000000000
// RUN: env IDIOM_PROFILE=%t.prof IDIOM_CACHE_DIR=%t.cache IDIOM_DEBUG=1 %t.idiom > %t.out2 2> %t.err2
// RUN: diff %t.expected %t.out2
// RUN: FileCheck %s < %t.err2
// RUN: not grep -q "loaded libOpenCL\|OpenCL: opened" %t.err2
// RUN: not grep -q "exit: waiting" %t.err2
// CHECK: declined: kernels not built: the process is expected to end first
// RUN: python3 %S/Inputs/profile_edit.py wall 60000 5000 %t.prof
// RUN: python3 %S/Inputs/profile_edit.py worthy 60000 %t.prof
// RUN: env IDIOM_PROFILE=%t.prof IDIOM_CACHE_DIR=%t.cache IDIOM_DEBUG=1 %t.idiom > %t.out3 2> %t.err3
// RUN: diff %t.expected %t.out3
// RUN: grep -q "loaded libOpenCL" %t.err3
// RUN: not grep -q "kernels not built" %t.err3
#include <stdio.h>
#include <stdlib.h>

#define N (1L << 22)

__attribute__((noinline)) static void scale(float *y, const float *x, long n,
                                            float a) {
  for (long i = 0; i < n; i++)
    y[i] = a * x[i] + 1.0f;
}

int main(void) {
  float *x = malloc(sizeof(float) * N), *y = malloc(sizeof(float) * N);
  for (long i = 0; i < N; i++)
    x[i] = (float)(i % 97);
  double sum = 0;
  for (int t = 0; t < 1000; t++) {
    scale(y, x, N, (float)(t % 5));
    sum += y[(t * 7919) % N];
  }
  printf("%.1f\n", sum);
  free(x);
  free(y);
  return 0;
}
