// Residency regions over heap blocks: a block freed and allocated again
// (typically at the same address) between regions, and a block grown by
// realloc, must never meet a device copy of the old contents. The region is
// in a function over pointer arguments, so it is placed without knowing
// which objects the pointers reach.
// RUN: %clang -O2 %s -o %t.seq
// RUN: %clang-idiom %s -Rpass=idiom-offload -lidiomrt -o %t.idiom 2> %t.remarks
// RUN: FileCheck %s --check-prefix=REMARK < %t.remarks
// RUN: %t.seq > %t.expected
// RUN: env IDIOM_ZERO_COPY=off IDIOM_MIN_TRIP=0 IDIOM_STATS=1 %t.idiom > %t.out 2> %t.stats
// RUN: diff %t.expected %t.out
// Zero-copy on PoCL (runtime/lib/zerocopy.c): the same output, and the runs
// passed buffers over the program's memory.
// RUN: env IDIOM_COST=off IDIOM_MIN_TRIP=0 IDIOM_STATS=1 %t.idiom > %t.zc 2> %t.zcstats
// RUN: diff %t.expected %t.zc
// RUN: grep -q "idiom-stats: zero-copy args=[1-9]" %t.zcstats
// RUN: FileCheck %s --check-prefix=STATS < %t.stats
// REMARK: run-realloc.c:[[@LINE+10]]:3: remark: residency region
// STATS: idiom-stats: residency regions=4
#include <stdio.h>
#include <stdlib.h>

#define N 40000

__attribute__((noinline)) static long steps(int *y, const int *x, int n,
                                            int iters) {
  long acc = 0;
  for (int t = 0; t < iters; t++) {
    for (int i = 0; i < n; i++)
      y[i] = (y[i] + x[i]) & 65535;
    long s = 0;
    for (int i = 0; i < n; i++)
      s += y[i];
    acc ^= s;
  }
  return acc;
}

static long check(const int *y, int n) {
  long c = 0;
  for (int i = 0; i < n; i += 11)
    c = c * 31 + y[i];
  return c;
}

int main(void) {
  int *x = malloc(sizeof(int) * 2 * N);
  int *y = malloc(sizeof(int) * N);
  for (int i = 0; i < 2 * N; i++)
    x[i] = i % 23;
  for (int i = 0; i < N; i++)
    y[i] = i % 3;
  printf("%ld ", steps(y, x, N, 5));
  printf("%ld\n", check(y, N));
  free(y);
  int *z = malloc(sizeof(int) * N); // often the same address as y
  for (int i = 0; i < N; i++)
    z[i] = 7 * (i % 9);
  printf("%ld ", steps(z, x, N, 5));
  printf("%ld\n", check(z, N));
  z = realloc(z, sizeof(int) * 2 * N);
  for (int i = N; i < 2 * N; i++)
    z[i] = -(i % 31);
  printf("%ld ", steps(z, x, 2 * N, 5));
  printf("%ld\n", check(z, 2 * N));
  for (int i = 0; i < 2 * N; i += 2)
    z[i] = 1; // host writes between regions
  printf("%ld ", steps(z, x, 2 * N, 3));
  printf("%ld\n", check(z, 2 * N));
  free(z);
  free(x);
  return 0;
}
