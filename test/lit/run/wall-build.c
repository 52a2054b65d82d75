// The profile's wall line (runtime/lib/profile.c: the last run's time from
// start to exit, and its longest single program build from source), which
// startup.c's too_late weighs against the run's expected end. A run whose
// programs came from the disk cache records 0, not the load's time nor half
// the last file's (5 s here), since the next run loads them too; a run
// that built nothing and loaded nothing halves the file's. Run A (cost
// model off: the call waits for the build) writes the binary; run B writes
// a profile; run C, told the device is fast (the same IDIOM_* environment),
// starts it at program start and loads the program (WAIT_DEVICE: the
// program calls the site until a call ran on the device, at most 20 s). Outputs are the sequential build's.
// A wall-clock policy test: not in the hardened suite (test/lit/lit.cfg.py).
// UNSUPPORTED: hardened
// RUN: %clang -O2 %s -o %t.seq
// RUN: %clang-idiom %s -lidiomrt -o %t.idiom
// RUN: %t.seq > %t.expected
// RUN: rm -rf %t.prof %t.cache
// RUN: env IDIOM_COST=off IDIOM_DEVICE=cpu IDIOM_CACHE_DIR=%t.cache %t.idiom > %t.outA
// RUN: diff %t.expected %t.outA
// RUN: env IDIOM_PROFILE=%t.prof IDIOM_COST=on IDIOM_DEVICE=cpu IDIOM_CACHE_DIR=%t.cache IDIOM_DEBUG=1 %t.idiom > %t.outB 2> %t.errB
// RUN: diff %t.expected %t.outB
// RUN: python3 %S/Inputs/profile_edit.py fast %t.prof
// RUN: python3 %S/Inputs/profile_edit.py wall 60000 5000 %t.prof
// RUN: env WAIT_DEVICE=1 IDIOM_PROFILE=%t.prof IDIOM_COST=on IDIOM_DEVICE=cpu IDIOM_CACHE_DIR=%t.cache IDIOM_DEBUG=1 %t.idiom > %t.outC 2> %t.errC
// RUN: diff %t.expected %t.outC
// RUN: grep -q "starting it at program start" %t.errC
// RUN: grep -q "loaded program from disk cache" %t.errC
// RUN: not grep -q "built program from source" %t.errC
// RUN: grep -q "^wall [0-9]* 0$" %t.prof
// RUN: python3 %S/Inputs/profile_edit.py wall 60000 5000 %t.prof
// RUN: env IDIOM_PROFILE=%t.prof IDIOM_COST=on IDIOM_DEVICE=cpu IDIOM_CACHE_DIR=%t.cache IDIOM_TEST_HOST=floor %t.idiom > %t.outD
// RUN: diff %t.expected %t.outD
// RUN: grep -q "^wall [0-9]* 2500000000$" %t.prof
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#define N (1 << 20)
static float x[N], y[N];

/* The runtime's (weak: absent from the sequential build). */
int idiom_last_variant(void) __attribute__((weak));

__attribute__((noinline)) void scale(float *restrict out,
                                     const float *restrict in, float a) {
  for (int i = 0; i < N; i++)
    out[i] = a * in[i] + 1.0f;
}

static int ran_on_device(void) {
  return idiom_last_variant && idiom_last_variant() >= 0;
}

int main(void) {
  for (int i = 0; i < N; i++)
    x[i] = (float)(i % 97);
  int wait = getenv("WAIT_DEVICE") != NULL;
  time_t t0 = time(NULL);
  for (int r = 0; r < 300 || (wait && !ran_on_device() &&
                              time(NULL) - t0 < 20); r++)
    scale(y, x, 0.5f + (float)(r % 2));
  scale(y, x, 0.5f);
  double s = 0;
  for (int i = 0; i < N; i++)
    s += y[i];
  printf("%.1f\n", s);
  return 0;
}
