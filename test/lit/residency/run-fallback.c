// Fallbacks inside a residency region see current host memory: a map whose
// work is below IDIOM_MIN_TRIP in some iterations declines (the
// runtime copies the device-valid ranges its loop touches back first), and a float min
// reduction whose device result is 0 is recomputed by its original loop
// after a successful call (idiom_region_sync before the fallback loop). Both
// fallbacks read arrays that the previous idiom left valid only on the
// device.
// RUN: %clang -O2 %s -o %t.seq
// RUN: %clang-idiom %s -Rpass=idiom-offload -lidiomrt -o %t.idiom 2> %t.remarks
// RUN: FileCheck %s --check-prefix=REMARK < %t.remarks
// RUN: %t.seq > %t.expected
// RUN: env IDIOM_ZERO_COPY=off IDIOM_MIN_TRIP=2000 IDIOM_STATS=1 %t.idiom > %t.out 2> %t.stats
// RUN: diff %t.expected %t.out
// Zero-copy on PoCL (runtime/lib/zerocopy.c): the same output, and the runs
// passed buffers over the program's memory.
// RUN: env IDIOM_COST=off IDIOM_MIN_TRIP=0 IDIOM_STATS=1 %t.idiom > %t.zc 2> %t.zcstats
// RUN: diff %t.expected %t.zc
// RUN: grep -q "idiom-stats: zero-copy args=[1-9]" %t.zcstats
// RUN: FileCheck %s --check-prefix=STATS < %t.stats
// RUN: env IDIOM_DEVICE=seq %t.idiom > %t.out2
// RUN: diff %t.expected %t.out2
// REMARK: residency region: the buffers of 4 offloaded idiom(s)
// STATS: reasons="work below threshold" x4
// Each host run syncs only its own ranges (PartialSync.h): no whole-table
// sync, and the copies of the other arrays stay.
// STATS: idiom-stats: residency regions=1 {{.*}} syncs=0
// STATS: idiom-stats: residency partial_syncs={{[1-9][0-9]*}} released={{[1-9][0-9]*}}
#include <stdio.h>

#define N 20000
static int a[N], b[N];
static float v[N];

__attribute__((noinline)) static double run(int steps) {
  double acc = 0;
  for (int t = 0; t < steps; t++) {
    int n = (t % 5 + 1) * 1000; // 1000: declines with IDIOM_MIN_TRIP=2000
    for (int i = 0; i < n; i++)
      a[i] = a[i] + b[i];
    for (int i = 0; i < N; i++)
      v[i] = (float)(((a[i] + t) % 50) * (t % 2));
    float mn = 1e30f;
    for (int i = 0; i < N; i++)
      mn = v[i] < mn ? v[i] : mn;
    acc += mn;
    for (int i = 0; i < N; i++)
      b[i] = b[i] ^ (a[i] & 15);
  }
  return acc;
}

int main(void) {
  for (int i = 0; i < N; i++) {
    a[i] = i % 11;
    b[i] = i % 5;
    v[i] = 5.0f;
  }
  printf("%.1f\n", run(20));
  long c = 0;
  for (int i = 0; i < N; i += 7)
    c = c * 31 + a[i] + 3 * b[i] + (long)v[i];
  printf("%ld\n", c);
  return 0;
}
