// A privatised row-temporaries nest (NAS MG's psinv / resid shape, passes/
// RowTemporaries.h) inside a residency region: its unchanged copy, which
// runs on a decline and where the versioning check fails, syncs only the
// ranges it touches (passes/PartialSync.h, emitSyncOwnRanges), not the
// whole table, and the host still never reads a stale value nor loses a
// write. Adversarial, against the sequential build:
// - decline(): the row nest's work is below IDIOM_MIN_TRIP=2000, so every
//   call declines and the copy runs; its fill loop reads two elements of g
//   past the rows the privatised nest reads, which the next map keeps
//   device-newer; the map after it reads o on the device after the host's
//   writes.
// - check(): o overlaps what the fill loop reads (o = g + (n2 + 1) * n1),
//   so the versioning check fails on every step and the copy runs without
//   any idiom_run call: its own sync is the only one. The maps around it
//   keep g and o device-newer on every step. check_backwards(): the same
//   with the rows walked backwards (negative steps).
// With IDIOM_PARTIAL_SYNC=off (every host run syncs the whole table, as
// these copies did before) there are 57 whole-table syncs here.
// RUN: %clang -O2 %s -o %t.seq
// RUN: %clang-idiom %s -Rpass=idiom-offload -lidiomrt -o %t.idiom 2> %t.remarks
// RUN: FileCheck %s --check-prefix=REMARK < %t.remarks
// RUN: %t.seq > %t.expected
// RUN: env IDIOM_DEVICE=cpu IDIOM_COST=off IDIOM_ZERO_COPY=off IDIOM_MIN_TRIP=2000 IDIOM_STATS=1 %t.idiom > %t.out 2> %t.stats
// RUN: diff %t.expected %t.out
// RUN: FileCheck %s --check-prefix=STATS < %t.stats
// The whole-table sync of before (the runtime's A/B knob): the same output.
// RUN: env IDIOM_DEVICE=cpu IDIOM_COST=off IDIOM_ZERO_COPY=off IDIOM_MIN_TRIP=2000 IDIOM_PARTIAL_SYNC=off IDIOM_STATS=1 %t.idiom > %t.off 2> %t.offstats
// RUN: diff %t.expected %t.off
// RUN: FileCheck %s --check-prefix=OFF < %t.offstats
// The defaults, zero-copy and no device: the same output.
// RUN: env IDIOM_MIN_TRIP=2000 %t.idiom > %t.def
// RUN: diff %t.expected %t.def
// RUN: env IDIOM_DEVICE=seq %t.idiom > %t.seqout
// RUN: diff %t.expected %t.seqout
// REMARK-DAG: run-own-ranges.c:66:5: remark: offloaded 2-D map (map)
// REMARK-DAG: run-own-ranges.c:86:5: remark: offloaded 2-D map (map)
// REMARK-DAG: run-own-ranges.c:105:5: remark: offloaded 2-D map (map)
// REMARK-DAG: run-own-ranges.c:65:3: remark: residency region: the buffers of 3 offloaded idiom(s)
// REMARK-DAG: run-own-ranges.c:85:3: remark: residency region: the buffers of 3 offloaded idiom(s)
// REMARK-DAG: run-own-ranges.c:104:3: remark: residency region: the buffers of 3 offloaded idiom(s)
// The declined row nest: 20 declines; the checks' row nests: never called.
// STATS-DAG: run-own-ranges.c:66 map calls=20 offloaded=0 {{.*}}fallbacks=20
// STATS-DAG: run-own-ranges.c:86 map calls=0 offloaded=0
// STATS-DAG: run-own-ranges.c:105 map calls=0 offloaded=0
// No whole-table sync: every copy run synced its own ranges (the first
// decline finds the table empty: the row nest runs first in each step).
// STATS-DAG: idiom-stats: residency regions=3 {{.*}} syncs=0 {{.*}}
// STATS-DAG: idiom-stats: residency partial_syncs={{[1-9][0-9]*}} released={{[1-9][0-9]*}}
// OFF: idiom-stats: residency regions=3 {{.*}} syncs=57 {{.*}}
#include <stdio.h>

#define N1 16
#define N2 8
#define BIG 4096
#define HEAD ((N2 + 1) * N1)
static double g[BIG + HEAD], out[BIG], h[BIG];
static double buf[HEAD + BIG + 64], k[BIG];
static double buf2[HEAD + BIG + 64], k2[BIG];

// Row nest, then g's tail on the device (the elements the fill loop reads
// past the rows the privatised nest reads, g[HEAD] and g[HEAD + 1]), then a
// map that reads out on the device.
__attribute__((noinline)) void decline(int steps, int n1, int n2) {
  double t1[1026];
  for (int t = 0; t < steps; t++) {
    for (int i2 = 0; i2 < n2; i2++) {
      for (int i1 = 0; i1 < n1 + 2; i1++)
        t1[i1] = g[i2 * n1 + i1] + g[(i2 + 1) * n1 + i1];
      for (int i1 = 1; i1 < n1 - 1; i1++)
        out[i2 * n1 + i1] = out[i2 * n1 + i1] + t1[i1 - 1] + t1[i1 + 1];
    }
    for (int i = HEAD; i < BIG + HEAD; i++)
      g[i] = g[i] + 1.0;
    for (int i = 0; i < BIG; i++)
      h[i] = h[i] + out[i];
  }
}

// o overlaps the fill loop's reads of gg: the versioning check fails and
// the copy runs on every step, between two maps that leave gg and o
// device-newer.
__attribute__((noinline)) void check(int steps, double *gg, double *o, int n1,
                                     int n2) {
  double t1[1026];
  for (int t = 0; t < steps; t++) {
    for (int i2 = 0; i2 < n2; i2++) {
      for (int i1 = 0; i1 < n1 + 2; i1++)
        t1[i1] = gg[i2 * n1 + i1] + gg[(i2 + 1) * n1 + i1];
      for (int i1 = 1; i1 < n1 - 1; i1++)
        o[i2 * n1 + i1] = o[i2 * n1 + i1] + t1[i1 - 1] + t1[i1 + 1];
    }
    for (int i = 0; i < BIG; i++)
      gg[i] = gg[i] + 1.0;
    for (int i = 0; i < BIG; i++)
      k[i] = k[i] + o[i];
  }
}

// check() with the rows walked backwards: the hulls of recurrences with a
// negative step.
__attribute__((noinline)) void check_backwards(int steps, double *gg,
                                               double *o, int n1, int n2) {
  double t1[1026];
  for (int t = 0; t < steps; t++) {
    for (int i2 = n2 - 1; i2 >= 0; i2--) {
      for (int i1 = 0; i1 < n1 + 2; i1++)
        t1[i1] = gg[i2 * n1 + i1] + gg[(i2 + 1) * n1 + i1];
      for (int i1 = 1; i1 < n1 - 1; i1++)
        o[i2 * n1 + i1] = o[i2 * n1 + i1] + t1[i1 - 1] + t1[i1 + 1];
    }
    for (int i = 0; i < BIG; i++)
      gg[i] = gg[i] + 1.0;
    for (int i = 0; i < BIG; i++)
      k2[i] = k2[i] + o[i];
  }
}

int main(void) {
  for (int i = 0; i < BIG + HEAD; i++)
    g[i] = (double)(i % 7);
  for (int i = 0; i < HEAD + BIG + 64; i++) {
    buf[i] = (double)(i % 5);
    buf2[i] = (double)(i % 3);
  }
  decline(20, N1, N2);
  check(20, buf, buf + HEAD, N1, N2);
  check_backwards(20, buf2, buf2 + HEAD, N1, N2);
  double s = 0, sh = 0, sb = 0, sk = 0, sb2 = 0, sk2 = 0;
  for (int i = 0; i < BIG; i++) {
    s += out[i] * (i % 11 + 1);
    sh += h[i] * (i % 3 + 1);
    sk += k[i] * (i % 5 + 1);
    sk2 += k2[i] * (i % 7 + 1);
  }
  for (int i = 0; i < HEAD + BIG + 64; i++) {
    sb += buf[i] * (i % 13 + 1);
    sb2 += buf2[i] * (i % 17 + 1);
  }
  printf("%.1f %.1f %.1f %.1f %.1f %.1f %.1f %.1f\n", s, sh, g[HEAD],
         g[HEAD + 1], sb, sk, sb2, sk2);
  return 0;
}
