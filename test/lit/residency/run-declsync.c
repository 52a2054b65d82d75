// Host runs inside a residency region sync only their own ranges
// (idiom_region_sync_args, runtime/lib/resid_sync.c), against the
// sequential build. Adversarial: the small loop, which declines below
// IDIOM_MIN_TRIP=2000, writes a window of a that device copies hold only
// partly (inside the copy of one half, or across the two halves' copies)
// and reads c, which the device wrote last; the next maps read a and c on
// the device and must see the host's writes, and b, which no host loop
// touches, stays on the device all along. Integer data: every build prints
// exactly what the sequential build prints.
// RUN: %clang -O2 %s -o %t.seq
// RUN: %clang-idiom -Rpass=idiom-offload %s -lidiomrt -o %t.idiom 2> %t.remarks
// RUN: FileCheck %s --check-prefix=REMARK < %t.remarks
// RUN: %t.seq > %t.expected
// RUN: env IDIOM_ZERO_COPY=off IDIOM_COST=off IDIOM_MIN_TRIP=2000 IDIOM_STATS=1 %t.idiom > %t.out 2> %t.stats
// RUN: diff %t.expected %t.out
// RUN: FileCheck %s --check-prefix=STATS < %t.stats
// The cost model's own choices (default settings) and zero-copy.
// RUN: env IDIOM_STATS=1 %t.idiom > %t.cost 2> %t.coststats
// RUN: diff %t.expected %t.cost
// RUN: env IDIOM_COST=off IDIOM_MIN_TRIP=2000 %t.idiom > %t.zc
// RUN: diff %t.expected %t.zc
// RUN: env IDIOM_DEVICE=seq %t.idiom > %t.seqout
// RUN: diff %t.expected %t.seqout
// REMARK: residency region: the buffers of 5 offloaded idiom(s)
// STATS: reasons="work below threshold" x20
// The site's first decline syncs the whole table (the runtime learns from
// the fallback's idiom_region_sync_args that the site syncs its own
// ranges); the 19 others only their ranges, releasing a's copies.
// STATS: idiom-stats: residency regions=1 {{.*}} syncs=1
// STATS: idiom-stats: residency partial_syncs=19 released={{[1-9][0-9]*}}
#include <stdio.h>

#define N 40000
#define H (N / 2)
static int a[N], b[N], c[N];

__attribute__((noinline)) static long run(int steps) {
  long acc = 0;
  for (int t = 0; t < steps; t++) {
    for (int i = 0; i < H; i++)
      a[i] = a[i] + b[i];
    for (int i = H; i < N; i++)
      a[i] = a[i] - b[i];
    // Inside the first half's copy on even steps, across both on odd ones.
    int off = t % 2 ? H - 8 : 100 + 37 * t;
    int m = 16 + t % 7;
    for (int i = 0; i < m; i++)
      a[off + i] = a[off + i] * 3 + c[i];
    for (int i = 0; i < N; i++)
      c[i] = (a[i] ^ b[i]) & 1023;
    for (int i = 0; i < N; i++)
      b[i] = b[i] + (c[i] & 7);
    acc += c[t] + c[H - 4 + t % 8];
  }
  return acc;
}

int main(void) {
  for (int i = 0; i < N; i++) {
    a[i] = i % 97;
    b[i] = i % 13;
    c[i] = i % 5;
  }
  printf("%ld\n", run(20));
  long s = 0;
  for (int i = 0; i < N; i++)
    s = s * 31 + a[i] + 7 * b[i] + 13 * c[i];
  printf("%ld\n", s);
  return 0;
}
