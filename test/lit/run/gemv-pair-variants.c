// Every variant of a GEMV pair's two kernels on PoCL (docs/ARCHITECTURE.md,
// "GEMV pairs"): the fused bicg nest run with IDIOM_VARIANT forcing variant
// K of both kernels, K = 0 .. 7 (IDIOM_COST=off offloads every call), on m x
// n matrices of 1 x 1, 3 x 3, 1000 x 77 and 77 x 1000 (no work-group size
// divides 77 or 1000 outputs). Variants 0-3 sum each output in the loop's
// order; 4-7 are row lanes (the q = A p kernel: lanes along a row; the
// s = A^T r kernel: outputs in neighbouring work-items), which reassociate
// the sums under the licence. The program compares every element of q and
// s with a reference computed by an optnone copy of the nest in double
// (which the plugin does not see) within the bound of a reassociated sum of
// L terms (the initial value of s counted), 2 gamma(L + 2) sum |t| + 2u
// |ref|, and prints "ok"; the sequential build prints the same. The stats
// show that both kernels ran with the forced variant on every call.
// RUN: %clang -O2 %s -o %t.seq
// RUN: %clang-idiom -g %s -lidiomrt -o %t.idiom
// RUN: %t.seq > %t.expected
// RUN: env IDIOM_COST=off IDIOM_MIN_TRIP=1 IDIOM_DEVICE=cpu IDIOM_VARIANT=0 IDIOM_STATS=1 %t.idiom > %t.v0 2> %t.s0
// RUN: diff %t.expected %t.v0
// RUN: FileCheck %s -DK=0 < %t.s0
// RUN: env IDIOM_COST=off IDIOM_MIN_TRIP=1 IDIOM_DEVICE=cpu IDIOM_VARIANT=1 IDIOM_STATS=1 %t.idiom > %t.v1 2> %t.s1
// RUN: diff %t.expected %t.v1
// RUN: FileCheck %s -DK=1 < %t.s1
// RUN: env IDIOM_COST=off IDIOM_MIN_TRIP=1 IDIOM_DEVICE=cpu IDIOM_VARIANT=2 IDIOM_STATS=1 %t.idiom > %t.v2 2> %t.s2
// RUN: diff %t.expected %t.v2
// RUN: FileCheck %s -DK=2 < %t.s2
// RUN: env IDIOM_COST=off IDIOM_MIN_TRIP=1 IDIOM_DEVICE=cpu IDIOM_VARIANT=3 IDIOM_STATS=1 %t.idiom > %t.v3 2> %t.s3
// RUN: diff %t.expected %t.v3
// RUN: FileCheck %s -DK=3 < %t.s3
// RUN: env IDIOM_COST=off IDIOM_MIN_TRIP=1 IDIOM_DEVICE=cpu IDIOM_VARIANT=4 IDIOM_STATS=1 %t.idiom > %t.v4 2> %t.s4
// RUN: diff %t.expected %t.v4
// RUN: FileCheck %s -DK=4 < %t.s4
// RUN: env IDIOM_COST=off IDIOM_MIN_TRIP=1 IDIOM_DEVICE=cpu IDIOM_VARIANT=5 IDIOM_STATS=1 %t.idiom > %t.v5 2> %t.s5
// RUN: diff %t.expected %t.v5
// RUN: FileCheck %s -DK=5 < %t.s5
// RUN: env IDIOM_COST=off IDIOM_MIN_TRIP=1 IDIOM_DEVICE=cpu IDIOM_VARIANT=6 IDIOM_STATS=1 %t.idiom > %t.v6 2> %t.s6
// RUN: diff %t.expected %t.v6
// RUN: FileCheck %s -DK=6 < %t.s6
// RUN: env IDIOM_COST=off IDIOM_MIN_TRIP=1 IDIOM_DEVICE=cpu IDIOM_VARIANT=7 IDIOM_STATS=1 %t.idiom > %t.v7 2> %t.s7
// RUN: diff %t.expected %t.v7
// RUN: FileCheck %s -DK=7 < %t.s7
#include "Inputs/bicg_check.h"

// Both kernels, every call, the forced variant:
// CHECK-COUNT-2: idiom-stats: gemv-pair-variants.c:[[@LINE+2]] gemv-pair calls=4 offloaded=4 {{.*}}variants=8 {{.*}}variant [[K]] tuned=forced
__attribute__((noinline)) void bicg(int m, int n, const float *a, float *s, float *q) {
  for (int i = 0; i < m; i++) {
    q[i] = 0;
    for (int j = 0; j < n; j++) {
      s[j] = s[j] + fr[i] * a[i * n + j];
      q[i] = q[i] + a[i * n + j] * fp[j];
    }
  }
}

