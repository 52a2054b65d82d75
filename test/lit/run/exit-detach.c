// Issue 12: a GPU driver's teardown (about 110 ms at every exit on the
// H200, in the kernel when the last reference to its device files and to
// the address space goes) runs after the process has exited, in a detached
// process that keeps those files (runtime/lib/exit_detach.c). PoCL opens no
// device file, so IDIOM_TEST_DETACH_OPEN opens one as a driver would, and
// IDIOM_EXIT_DETACH=1 asks for the detach on a CPU device (by default only
// a GPU's).
// (a) Inputs/detach_check.py: the output is the sequential build's, the
//     program's stdout ends when it exits (not 6 s later, when the
//     detached process does, IDIOM_TEST_DETACH_HOLD_MS), and after the exit
//     the detached process runs and holds the device file.
// (b) A CPU device by default, and (c) IDIOM_EXIT_DETACH=0: no detached
//     process.
// A wall-clock policy test: not in the hardened suite (test/lit/lit.cfg.py).
// UNSUPPORTED: hardened
// RUN: %clang -O2 %s -o %t.seq
// RUN: %clang-idiom %s -lidiomrt -o %t.idiom
// RUN: %t.seq > %t.expected
// RUN: env IDIOM_DEVICE=cpu IDIOM_PROFILE=off IDIOM_EXIT_DETACH=1 IDIOM_TEST_DETACH_OPEN=/dev/zero IDIOM_TEST_DETACH_HOLD_MS=6000 IDIOM_DEBUG=1 python3 %S/Inputs/detach_check.py %t.expected /dev/zero %t.idiom
// RUN: env IDIOM_DEVICE=cpu IDIOM_PROFILE=off IDIOM_TEST_DETACH_OPEN=/dev/zero IDIOM_DEBUG=1 %t.idiom > %t.out2 2> %t.log2
// RUN: diff %t.expected %t.out2
// RUN: FileCheck --check-prefix=RAN %s < %t.log2
// RUN: not grep -q "character-device\|stay open" %t.log2
// RUN: env IDIOM_DEVICE=cpu IDIOM_PROFILE=off IDIOM_EXIT_DETACH=0 IDIOM_TEST_DETACH_OPEN=/dev/zero IDIOM_DEBUG=1 %t.idiom > %t.out3 2> %t.log3
// RUN: diff %t.expected %t.out3
// RUN: FileCheck --check-prefix=RAN %s < %t.log3
// RUN: not grep -q "character-device\|stay open" %t.log3
// RAN: device: {{.*}}CPU
#include <stdio.h>

#define N (1 << 20)
static float a[N], b[N];

int main(void) {
  for (int i = 0; i < N; ++i)
    a[i] = (float)(i % 7);
  for (int t = 0; t < 20; ++t)
    for (int i = 0; i < N; ++i)
      b[i] = a[i] * 2.0f + (float)t;
  double s = 0;
  for (int i = 0; i < N; i += 1024)
    s += b[i];
  printf("%.1f\n", s);
  return 0;
}
