// Host loads and stores of idiom buffers inside a residency region, routed
// through idiom_region_load/store (RegionHostAccess.h), against the
// sequential build: a host read after a device write sees the new value
// (y[t * 7 % n]); a host write before a device read is seen by the device
// (x[...], read by the next iteration's map; a column of g, read by the next
// 2-D map); a host loop over a range that straddles the end of the map's
// device copy of y (elements inside and outside it, and later maps over a
// longer range grow the copy); a strided column of g read and written
// (rectangle copies) whose row 0 lies outside the 2-D map's range; and
// fallbacks inside the region (IDIOM_MIN_TRIP=2000: the map over n = 1024
// elements declines every third iteration). Integer data: every build
// prints exactly what the sequential build prints.
// RUN: %clang -O2 %s -o %t.seq
// RUN: %clang-idiom -Rpass=idiom-offload %s -lidiomrt -o %t.idiom 2> %t.remarks
// RUN: FileCheck %s --check-prefix=REMARK < %t.remarks
// RUN: %t.seq > %t.expected
// RUN: env IDIOM_ZERO_COPY=off IDIOM_COST=off IDIOM_MIN_TRIP=2000 IDIOM_STATS=1 %t.idiom > %t.out 2> %t.stats
// RUN: diff %t.expected %t.out
// RUN: FileCheck %s --check-prefix=STATS < %t.stats
// RUN: env IDIOM_ZERO_COPY=off IDIOM_COST=off IDIOM_MIN_TRIP=0 IDIOM_STATS=1 %t.idiom > %t.out0 2> %t.stats0
// RUN: diff %t.expected %t.out0
// RUN: FileCheck %s --check-prefix=STATS0 < %t.stats0
// RUN: env IDIOM_COST=off IDIOM_MIN_TRIP=0 %t.idiom > %t.zc
// RUN: diff %t.expected %t.zc
// RUN: env IDIOM_DEVICE=seq %t.idiom > %t.seqout
// RUN: diff %t.expected %t.seqout
// STATS: reasons="work below threshold"
// STATS: idiom-stats: residency regions=1 {{.*}} syncs=0 {{.*}} host_loads={{[1-9][0-9]*}} host_stores={{[1-9][0-9]*}}
// STATS: idiom-stats: residency partial_syncs={{[1-9][0-9]*}}
// STATS0: idiom-stats: residency regions=1 {{.*}} syncs=0 {{.*}} host_loads={{[1-9][0-9]*}} host_stores={{[1-9][0-9]*}}
#include <stdio.h>

#define N 4096
#define R 64
#define C 64
static int x[N], y[N];
static int g[R][C];

__attribute__((noinline)) static long run(int steps) {
  long acc = 0;
  // REMARK: run-host-access.c:[[@LINE+1]]:3: remark: residency region: the buffers of 2 offloaded idiom(s) stay on the device across the loop's iterations (copied back at its exits); {{[0-9]+}} host load(s)/store(s) of their buffers routed through the runtime
  for (int t = 0; t < steps; t++) {
    int n = (t % 3 + 1) * 1024;
    for (int i = 0; i < n; i++)
      y[i] = x[i] * 3 + t;
    acc += y[t * 7 % n];
    x[(t * 13) % N] = t * 5 + 1;
    for (int i = n - 3; i < n + 3; i++)
      y[i] += i;
    for (int i = 1; i < R; i++)
      for (int j = 0; j < C; j++)
        g[i][j] = g[i][j] / 2 + y[i * C + j];
    long col = 0;
    for (int i = 0; i < R; i++)
      col += g[i][t % C];
    for (int i = 0; i < R; i++)
      g[i][(t + 1) % C] = (int)(col % 1000) + i;
    acc = acc * 31 % 1000000007 + col;
  }
  return acc;
}

int main(void) {
  for (int i = 0; i < N; i++)
    x[i] = i % 17;
  for (int i = 0; i < R; i++)
    for (int j = 0; j < C; j++)
      g[i][j] = i * j % 23;
  printf("%ld\n", run(30));
  long c = 0;
  for (int i = 0; i < N; i++)
    c = (c * 31 + x[i] + 3 * y[i]) % 1000000007;
  for (int i = 0; i < R; i++)
    for (int j = 0; j < C; j++)
      c = (c * 31 + g[i][j]) % 1000000007;
  printf("%ld\n", c);
  return 0;
}
