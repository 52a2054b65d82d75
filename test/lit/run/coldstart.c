// Issue 12: exit never waits long on a kernel build. With the cost model on
// (the defaults), a profile that says the device wins (as after earlier
// runs: test/lit/run/profile.c's edit; the same IDIOM_* environment in
// both runs) starts the device at program start,
// and the 2-D stencil's calls ask the runtime thread to build its program
// (6 variants) while they run the loop. Every build from source is slowed
// to 3 s a variant by the test knob IDIOM_TEST_SLOW_BUILD_MS
// (runtime/lib/program_cache.c), and the cache directory is empty, so the
// program ends while its program builds. The build goes one variant per
// step (idiomrt_program_ensure_staged): exit waits for the variant in
// progress (3 s, plus PoCL's own build and binary: at most 7 s on this
// loaded 2-core machine), not for the rest of the whole program (18 s and
// more: exit waited 21 s before). The output is the sequential build's.
// 1200 sweeps (about 1.2 s on the host) outlive PoCL's start-up and
// calibration under load, so that a build is under way at exit (with 400,
// a loaded run ended at 0.39 s, before the build began).
// A wall-clock policy test: not in the hardened suite (test/lit/lit.cfg.py).
// UNSUPPORTED: hardened
// RUN: %clang -O2 %s -o %t.seq
// RUN: %clang-idiom -g %s -lidiomrt -o %t.idiom
// RUN: %t.seq > %t.expected
// RUN: rm -rf %t.cache %t.prof
// RUN: env IDIOM_PROFILE=%t.prof IDIOM_CACHE_DIR=%t.cache IDIOM_TEST_SLOW_BUILD_MS=3000 IDIOM_DEBUG=time %t.idiom > %t.out1 2> %t.log1
// RUN: diff %t.expected %t.out1
// RUN: python3 %S/Inputs/profile_edit.py fast %t.prof
// RUN: rm -rf %t.cache
// RUN: env IDIOM_PROFILE=%t.prof IDIOM_CACHE_DIR=%t.cache IDIOM_TEST_SLOW_BUILD_MS=3000 IDIOM_DEBUG=time %t.idiom > %t.out 2> %t.log
// RUN: diff %t.expected %t.out
// RUN: grep -q "starting it at program start" %t.log
// RUN: grep -q "background build stopped: process exiting" %t.log
// RUN: python3 %S/Inputs/exit_wait.py 7000 %t.log
#include <stdio.h>

#define N 1024
#define SWEEPS 1200

static float a[N][N], b[N][N];

int main(void) {
  for (int i = 0; i < N; ++i)
    for (int j = 0; j < N; ++j)
      a[i][j] = (float)((i * 7 + j * 3) % 11);
  for (int t = 0; t < SWEEPS; ++t) {
    for (int i = 1; i < N - 1; ++i)
      for (int j = 1; j < N - 1; ++j)
        b[i][j] = 0.2f * (a[i][j] + a[i - 1][j] + a[i + 1][j] + a[i][j - 1] +
                          a[i][j + 1]);
    for (int i = 1; i < N - 1; ++i)
      for (int j = 1; j < N - 1; ++j)
        a[i][j] = b[i][j];
  }
  double s = 0;
  for (int i = 0; i < N; ++i)
    for (int j = 0; j < N; ++j)
      s += a[i][j];
  printf("%.6e\n", s);
  return 0;
}
