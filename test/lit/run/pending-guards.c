// Both sides of the guards in front of the runtime calls around fallback
// loops (passes/PendingGuards.h, idiom_pending_work in idiomrt.h), against
// the sequential build and a build without the guards:
//  - word 0 (the default: the tiny map stays on the host, no OpenCL is
//    loaded): the outputs are equal, the decisions of the guarded build
//    are those of the unguarded one (IDIOM_STATS), and its host
//    measurements end (host_ms, host-floor decisions after the first);
//  - word nonzero (every call on the device inside the time loop's
//    residency region): the host read of y[r % N] goes through
//    idiom_region_load and sees the device's values; the same with a
//    decline every third call (work below IDIOM_MIN_TRIP in those: the
//    fallback loop runs after idiom_region_sync).
// RUN: %clang -O2 %s -o %t.seq
// RUN: %clang-idiom %s -lidiomrt -o %t.idiom
// RUN: %clang-idiom -fplugin=%plugin -mllvm -idiom-pending-guards=false %s -lidiomrt -o %t.plain
// RUN: %t.seq > %t.expected
// RUN: env IDIOM_STATS=1 %t.idiom > %t.out 2> %t.stats
// RUN: diff %t.expected %t.out
// RUN: env IDIOM_STATS=1 %t.plain > %t.out.plain 2> %t.stats.plain
// RUN: diff %t.expected %t.out.plain
// RUN: grep -o 'decisions="[^"]*"' %t.stats > %t.dec
// RUN: grep -o 'decisions="[^"]*"' %t.stats.plain > %t.dec.plain
// RUN: diff %t.dec %t.dec.plain
// RUN: FileCheck %s --check-prefix=HOST < %t.stats
// RUN: env IDIOM_ZERO_COPY=off IDIOM_COST=off IDIOM_MIN_TRIP=0 IDIOM_STATS=1 %t.idiom > %t.dev 2> %t.devstats
// RUN: diff %t.expected %t.dev
// RUN: FileCheck %s --check-prefix=DEV < %t.devstats
// RUN: env IDIOM_ZERO_COPY=off IDIOM_COST=off IDIOM_MIN_TRIP=3000 IDIOM_STATS=1 %t.idiom 3 > %t.mixed 2> %t.mixedstats
// RUN: %t.seq 3 > %t.expected3
// RUN: diff %t.expected3 %t.mixed
// RUN: FileCheck %s --check-prefix=MIXED < %t.mixedstats
// HOST: pending-guards.c:main {{.*}}decisions="host-explore x1; host-floor x{{[0-9]+}}; host-hint x{{[0-9]+}}" host_ms=
// DEV: pending-guards.c:main {{.*}}offloaded=300
// DEV: idiom-stats: residency regions=1 {{.*}}host_loads={{[1-9]}}
// MIXED: pending-guards.c:main {{.*}}offloaded=200
// MIXED: reasons="work below threshold" x100
// The declined calls' fallbacks sync their own ranges (PartialSync.h).
// MIXED: idiom-stats: residency regions=1
// MIXED: idiom-stats: residency partial_syncs={{[1-9][0-9]*}}
#include <stdio.h>
#include <stdlib.h>
#define N 4096
#define REPS 300
static float x[N], y[N];
int main(int argc, char **argv) {
  /* with an argument k: every k-th call maps N / 2 elements only, below
     IDIOM_MIN_TRIP=3000 (declined: its fallback loop runs in the region) */
  int k = argc > 1 ? atoi(argv[1]) : 0;
  for (int i = 0; i < N; ++i) {
    x[i] = (float)(i % 17);
    y[i] = (float)(i % 5);
  }
  double s = 0;
  for (int r = 0; r < REPS; ++r) {
    int n = k && r % k == 0 ? N / 2 : N;
    for (int i = 0; i < n; ++i)
      y[i] = 0.5f * x[i] + y[i] * 0.25f;
    s += y[r % N];
  }
  printf("%.6f\n", s);
  return 0;
}
