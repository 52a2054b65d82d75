// Loops whose induction variable steps by a loop-invariant value that is
// not a constant (`j += s`, `j += 2 * s`; issue 13, docs/ConstraintLanguage.md,
// "Blocked loops (FFT stages)"): a strided sum and a 2-D map over blocks
// of 2s that stores its indices (the IV read as a value: start + k * step),
// end to end on PoCL for several steps; the output is the sequential
// build's, bit for bit (the sums are integer, or exact in double).
// RUN: %clang -O2 %s -o %t.seq
// RUN: %clang-idiom %s -lidiomrt -Rpass=idiom-offload -o %t.idiom 2> %t.remarks
// RUN: FileCheck %s --check-prefix=REMARK < %t.remarks
// RUN: %t.seq > %t.expected
// RUN: env IDIOM_COST=off IDIOM_MIN_TRIP=0 IDIOM_STATS=1 IDIOM_CACHE_DIR=off %t.idiom > %t.out 2> %t.stats
// RUN: diff %t.expected %t.out
// RUN: FileCheck %s --check-prefix=STATS < %t.stats
#include <stdio.h>

#define N 100000

static double x[N];
static long y[2 * N]; // the last block may pass n by up to s - 1

// REMARK-DAG: symbolic-step.c:[[@LINE+4]]:3: remark: offloaded scalar reduction
__attribute__((noinline)) static double sumstep(const double *a, int n,
                                                int s) {
  double t = 0;
  for (int j = 0; j < n; j += s)
    t += a[j] * j;
  return t;
}

// REMARK-DAG: symbolic-step.c:[[@LINE+2]]:3: remark: offloaded 2-D map
__attribute__((noinline)) static void blockindex(long *a, int n, int s) {
  for (int j = 0; j < n; j += 2 * s)
    for (int k = 0; k < s; k++)
      a[j + k] = 3L * j + k;
}

int main(void) {
  for (int i = 0; i < N; i++)
    x[i] = (i % 13) * 0.25; // sums of multiples of 1/4 below 2^53: exact
  for (int s = 1; s < N; s = s * 3 + 1) {
    for (int i = 0; i < 2 * N; i++)
      y[i] = -1;
    blockindex(y, N, s);
    long h = 0;
    for (int i = 0; i < 2 * N; i++)
      h = h * 31 + y[i];
    printf("s %d sum %.17g hash %ld\n", s, sumstep(x, N, s), h);
  }
  return 0;
}

// The stitched code keeps short floating-point sums (below
// -idiom-fp-reorder-min terms) in the loop's order, before any runtime call;
// every call that reaches the runtime runs on the device.
// STATS-DAG: idiom-stats: symbolic-step.c:{{[a-z0-9]+}} scalar-reduction calls=[[C:[1-9][0-9]*]] offloaded=[[C]] {{.*}} fallbacks=0
// STATS-DAG: idiom-stats: symbolic-step.c:{{[a-z0-9]+}} map calls=11 offloaded=11 {{.*}} fallbacks=0
