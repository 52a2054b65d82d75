// Issue 12 (runtime/lib/startup.c: too_late and first_is_load): a build the
// process is not expected to outlive is left out, unless it is a load from
// the disk cache, a few ms. A warm Jacobi 4096^2 x 150 on the H200 left its
// three loads out at 268 ms (its profile: the last run took 0.7 s, a build
// at least a start-up, 365 ms) and ran 11 more sweeps on the host, 0.33 s,
// before it loaded them. Here the profile says the last run took 20 s and
// so did its longest build (the device is started at program start, which
// a last run shorter than a build would not do; worthy: a minute), so a
// build begun at the device's start-up is expected to end after the
// process (the program takes 1-3 s). Run C finds the program in
// the disk cache (written by run A) and loads it; run D, the same with the
// cache's binaries removed, leaves the build out and its calls decline
// "kernels not built". Outputs are the sequential build's.
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
// RUN: env IDIOM_PROFILE=%t.prof IDIOM_CACHE_DIR=%t.cache IDIOM_DEBUG=1 %t.idiom > %t.outC 2> %t.errC
// RUN: diff %t.expected %t.outC
// RUN: grep -q "starting it at program start" %t.errC
// RUN: grep -q "loaded program from disk cache" %t.errC
// RUN: not grep -q "kernels not built" %t.errC
// RUN: not grep -q "build left out" %t.errC
// RUN: rm %t.cache/*.clbin
// RUN: python3 %S/Inputs/profile_edit.py fast %t.prof
// RUN: python3 %S/Inputs/profile_edit.py wall 20000 20000 %t.prof
// RUN: python3 %S/Inputs/profile_edit.py worthy 60000 %t.prof
// RUN: env IDIOM_PROFILE=%t.prof IDIOM_CACHE_DIR=%t.cache IDIOM_DEBUG=1 %t.idiom > %t.outD 2> %t.errD
// RUN: diff %t.expected %t.outD
// RUN: grep -q "starting it at program start" %t.errD
// RUN: grep -q "declined: kernels not built: the process is expected to end first" %t.errD
// RUN: not grep -q "loaded program from disk cache" %t.errD
#include <stdio.h>
#include <stdlib.h>

enum { N = 1 << 21, STEPS = 600 };
static float in[N], out[N];

/* the one site: an axpy-like map, called once per step */
__attribute__((noinline)) static void step(float a) {
  for (int i = 0; i < N; ++i)
    out[i] = a * in[i] - 0.5f;
}

int main(void) {
  unsigned r = 1; /* a recurrence: no idiom */
  for (int i = 0; i < N; ++i) {
    r = r * 1103515245u + 12345u;
    in[i] = (float)(r >> 24);
  }
  double acc = 0;
  for (int t = 0; t < STEPS; ++t) {
    step((float)(t % 7));
    acc += out[(t * 4099) % N];
  }
  printf("%.1f\n", acc);
  return 0;
}
