// The runtime leaves the caller's errno as it found it (idiomrt.h): the
// loops it replaces do not write errno, but OpenCL start-up, the loader and
// the program caches do (ENOENT, EEXIST). A program that sets errno, runs
// offloaded loops (the first one starts OpenCL and builds kernels) and then
// prints errno prints what its sequential build prints: on PoCL, with no
// OpenCL loader, and with the runtime declining.
// RUN: %clang -O2 %s -o %t.seq
// RUN: %clang-idiom %s -lidiomrt -o %t.idiom
// RUN: %t.seq > %t.expected
// RUN: rm -rf %t.cache
// RUN: env IDIOM_COST=off IDIOM_MIN_TRIP=0 IDIOM_STATS=1 IDIOM_CACHE_DIR=%t.cache %t.idiom > %t.out 2> %t.stats
// RUN: diff %t.expected %t.out
// RUN: FileCheck %s < %t.stats
// RUN: env IDIOM_CACHE_DIR=%t.cache %t.idiom > %t.out2
// RUN: diff %t.expected %t.out2
// RUN: env IDIOM_OPENCL_LIBRARY=/nonexistent/libOpenCL.so.1 %t.idiom > %t.out3
// RUN: diff %t.expected %t.out3
// RUN: env IDIOM_DEVICE=seq %t.idiom > %t.out4
// RUN: diff %t.expected %t.out4
// CHECK-DAG: idiom-stats: errno-preserved.c:scale map calls=2 offloaded=2
// CHECK-DAG: idiom-stats: errno-preserved.c:count scalar-reduction calls=2 offloaded=2
#include <errno.h>
#include <stdio.h>

#define N (1 << 20) // IDIOM_TUNE_MIN: the first run tunes and writes tuning files
static float x[N], y[N];

__attribute__((noinline)) static void scale(float a) {
  for (int i = 0; i < N; i++)
    y[i] = a * x[i];
}

__attribute__((noinline)) static long count(void) {
  long c = 0;
  for (int i = 0; i < N; i++)
    c += y[i] > 1.0f;
  return c;
}

int main(void) {
  // A recurrence (not offloaded): the first runtime call is the one below.
  float v = 0;
  for (int i = 0; i < N; i++) {
    v = v >= 1.98f ? 0 : v + 0.02f;
    x[i] = v;
  }
  errno = 0;
  scale(2.0f);
  printf("after the first map: errno %d\n", errno);
  errno = ERANGE;
  long c = count();
  printf("after the first reduction: errno %d (count %ld)\n", errno, c);
  errno = 12345;
  scale(3.0f);
  c = count();
  printf("after more runs: errno %d (count %ld)\n", errno, c);
  return 0;
}
