// Residency regions and code of another translation unit: results of a
// region are visible to the other unit's host code and idioms after it; a
// loop that calls into the other unit (host writes, idioms there) forms no
// region and stays correct; regions of both units run one after the other
// on the same arrays.
// RUN: %clang -O2 %s %S/Inputs/other-tu.c -o %t.seq
// RUN: %clang-idiom %s %S/Inputs/other-tu.c -Rpass=idiom-offload -Rpass-missed=idiom-offload -lidiomrt -o %t.idiom 2> %t.remarks
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
// REMARK-DAG: other-tu.c:23:3: remark: residency region
// STATS: idiom-stats: residency regions=41 reused={{[1-9][0-9]+}} syncs=0
#include <stdio.h>

#define N 30000
static int x[N], y[N];

long other_sum(const int *y, int n);
void other_scale(int *y, int n);
void other_bump(int *y, int n, int t);
long other_region(int *y, const int *x, int n, int steps);

static long check(void) {
  long c = 0;
  for (int i = 0; i < N; i += 13)
    c = c * 31 + y[i] + 7 * x[i];
  return c;
}

__attribute__((noinline)) static void region(int steps) {
  // REMARK-DAG: run-other-tu.c:[[@LINE+1]]:3: remark: residency region
  for (int t = 0; t < steps; t++) {
    for (int i = 0; i < N; i++)
      y[i] = (y[i] + x[i]) & 8191;
    for (int i = 0; i < N; i++)
      x[i] = (x[i] * 5 + 1) & 1023;
  }
}

__attribute__((noinline)) static void mixed(int steps) {
  // REMARK-DAG: run-other-tu.c:[[@LINE+1]]:3: remark: no residency region: the loop calls other_bump
  for (int t = 0; t < steps; t++) {
    for (int i = 0; i < N; i++)
      y[i] = (y[i] + x[i]) & 8191;
    other_bump(y, N, t);
    other_scale(x, N);
  }
}

int main(void) {
  for (int i = 0; i < N; i++) {
    x[i] = i % 17;
    y[i] = i % 5;
  }
  region(10);
  printf("%ld %ld\n", other_sum(y, N), check());
  mixed(10);
  printf("%ld %ld\n", other_sum(x, N), check());
  for (int r = 0; r < 20; r++) {
    region(3);
    printf("%ld\n", other_region(y, x, N, 2));
  }
  printf("%ld\n", check());
  return 0;
}
