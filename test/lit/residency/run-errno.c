// An errno-checked map inside a residency region: the check reads x where
// the previous idiom left it valid only on the device; when it finds a
// negative argument, the stitched code runs the original loop after
// idiom_region_sync, which copies x back first, so the host's sqrt sees the
// current values and sets errno as the sequential build does.
// RUN: %clang -O2 %s -lm -o %t.seq
// RUN: %clang-idiom %s -Rpass=idiom-offload -lm -lidiomrt -o %t.idiom 2> %t.remarks
// RUN: FileCheck %s --check-prefix=REMARK < %t.remarks
// RUN: %t.seq > %t.expected
// RUN: env IDIOM_ZERO_COPY=off IDIOM_COST=off IDIOM_MIN_TRIP=0 IDIOM_STATS=1 %t.idiom > %t.out 2> %t.stats
// RUN: diff %t.expected %t.out
// Zero-copy on PoCL (runtime/lib/zerocopy.c): the same output, and the runs
// passed buffers over the program's memory.
// RUN: env IDIOM_COST=off IDIOM_MIN_TRIP=0 IDIOM_STATS=1 %t.idiom > %t.zc 2> %t.zcstats
// RUN: diff %t.expected %t.zc
// RUN: grep -q "idiom-stats: zero-copy args=[1-9]" %t.zcstats
// RUN: FileCheck %s --check-prefix=STATS < %t.stats
// REMARK: residency region: the buffers of 2 offloaded idiom(s)
// STATS-DAG: reasons="a libm argument would set errno" x1
// STATS-DAG: idiom-stats: residency regions=2 {{.*}} syncs={{[1-9]}}
#include <errno.h>
#include <math.h>
#include <stdio.h>

#define N 20000
static double x[N], y[N];

__attribute__((noinline)) static void run(int steps) {
  for (int t = 0; t < steps; t++) {
    double d = t == 6 ? 0.95 : -0.01; // step 6 makes x[i] < 0 for small i
    for (int i = 0; i < N; i++)
      y[i] = sqrt(x[i]);
    for (int i = 0; i < N; i++)
      x[i] = y[i] - d;
  }
}

int main(void) {
  for (int i = 0; i < N; i++)
    x[i] = (double)i / N;
  errno = 0;
  run(7);
  int e7 = errno;
  run(3);
  double s = 0;
  int nans = 0;
  for (int i = 0; i < N; i++) {
    if (isnan(x[i]))
      nans++;
    else
      s += x[i];
  }
  printf("errno after 7 steps %d, after 10 %d, sum %.9g, nans %d\n", e7, errno, s, nans);
  return 0;
}
