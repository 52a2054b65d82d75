// The profile's wall line (runtime/lib/profile.c: the last run's time from
// start to exit, and its longest single program build from source), which
// startup.c's too_late weighs against the run's expected end. A run whose
// programs came from the disk cache records 0, not the load's time nor half
// the last file's (5 s here), since the next run loads them too; a run
// that built nothing and loaded nothing halves the file's. Run A (cost
// model off: the call waits for the build) writes the binary; run B writes
// a profile; run C, told the device is fast (the same IDIOM_* environment),
// starts it at program start and loads the program. Outputs are the sequential build's.
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
// RUN: env IDIOM_PROFILE=%t.prof IDIOM_COST=on IDIOM_DEVICE=cpu IDIOM_CACHE_DIR=%t.cache IDIOM_DEBUG=1 %t.idiom > %t.outC 2> %t.errC
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

#define N (1 << 20)
static float x[N], y[N];

__attribute__((noinline)) void scale(float *restrict out,
                                     const float *restrict in, float a) {
  for (int i = 0; i < N; i++)
    out[i] = a * in[i] + 1.0f;
}

int main(void) {
  for (int i = 0; i < N; i++)
    x[i] = (float)(i % 97);
  for (int r = 0; r < 300; r++) /* long enough for the device to come */
    scale(y, x, 0.5f + (float)(r % 2));
  double s = 0;
  for (int i = 0; i < N; i++)
    s += y[i];
  printf("%.1f\n", s);
  return 0;
}
