// The fused GEMV pair (docs/Rewrite.md, "Fused GEMV pair"; issue 13): under
// the floating-point licence the bicg nest gets a third kernel that reads
// the matrix once (each work-group a tile of rows, q by a local-memory tree,
// s by atomic partial sums per column and tile), run by one
// idiom_run_pair_fused call. Every fused variant K = 0 .. 5 forced with
// IDIOM_VARIANT (IDIOM_COST=off offloads every call) on m x n matrices of
// 1 x 1, 3 x 3, 1000 x 77 and 77 x 1000: ragged tiles (no tile of 8 .. 64
// rows divides 77 or 1000 rows), ragged column chunks (no work-group of 128
// or 256 divides 77 or 1000 columns) and both rectangles. The program
// compares every element of q and s with a reference computed in double by
// an optnone copy of the nest within the bound of a reassociated sum of L
// terms (the initial value of s counted), 2 gamma(L + 2) sum |t| + 2u |ref|,
// and prints "ok"; the sequential build prints the same. The stats show that
// the fused kernel ran with the forced variant on every call and the two
// kernels never ran. IDIOM_VARIANT=6 (beyond the fused variants) declines
// the fused kernel and runs the pair's two kernels, variant 6 each.
// Negative: with -idiom-fp-reassoc=false there is no fused kernel (a remark
// says why; the call is idiom_run_pair; the two in-order kernels run).
// RUN: %clang -O2 %s -o %t.seq
// RUN: %clang-idiom -fplugin=%plugin -mllvm -idiom-pair-fused=true -g %s -lidiomrt -Rpass-analysis=idiom-offload -o %t.idiom 2> %t.remarks
// RUN: FileCheck %s --check-prefix=REMARK < %t.remarks
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
// RUN: FileCheck %s --check-prefix=SPLIT < %t.s6
// The generated OpenCL: six variants, the shared-argument line (matrix and
// both sizes of the first against the second's), q by a tree, s by the
// compare-and-swap loop.
// RUN: %clang -O2 -g -fno-vectorize -fno-unroll-loops -S -emit-llvm %s -o %t.ll
// RUN: %opt -idiom-pair-fused=true -passes='loop-simplify,lcssa,print<idiom>' -disable-output %t.ll | FileCheck %s --check-prefix=CL
// RUN: %clang-idiom -fplugin=%plugin -mllvm -idiom-pair-fused=true %s -S -emit-llvm -o - | FileCheck %s --check-prefix=IR
// Licence off: no fused kernel.
// RUN: %clang-idiom -fplugin=%plugin -mllvm -idiom-pair-fused=true -mllvm -idiom-fp-reassoc=false -g %s -lidiomrt -Rpass-analysis=idiom-offload -o %t.exact 2> %t.exact-remarks
// RUN: FileCheck %s --check-prefix=EXACT-REMARK < %t.exact-remarks
// RUN: %clang-idiom -fplugin=%plugin -mllvm -idiom-pair-fused=true -mllvm -idiom-fp-reassoc=false %s -S -emit-llvm -o - | FileCheck %s --check-prefix=EXACT-IR
// RUN: env IDIOM_COST=off IDIOM_MIN_TRIP=1 IDIOM_DEVICE=cpu IDIOM_STATS=1 %t.exact > %t.e 2> %t.es
// RUN: diff %t.expected %t.e
// RUN: FileCheck %s --check-prefix=EXACT < %t.es
// CL: Fused pair OpenCL:
// CL: //@idiom-pair-same {{[0-9 ]+}}
// CL: //@idiom-variant 0 wg=256 ept=1/16: fused GEMV pair, work-group 256, 16 rows per work-group
// CL: __kernel __attribute__((reqd_work_group_size(256, 1, 1))) void idiom_bicg_{{[0-9]+}}_fused(
// CL: barrier(CLK_LOCAL_MEM_FENCE);
// CL: //@idiom-variant 5 wg=256 ept=1/4: fused GEMV pair, work-group 256, 64 rows per work-group
// CL-NOT: //@idiom-variant 6
// IR: call i32 @idiom_run_pair_fused(ptr nonnull @[[K:idiom_bicg_[0-9]+]].desc, ptr nonnull @[[K]]_pair.desc, ptr nonnull @[[K]]_fused.desc, ptr nonnull %{{[0-9]+}}, i32 {{[0-9]+}}, i32 {{[0-9]+}}, ptr
// EXACT-IR-NOT: idiom_run_pair_fused
// EXACT-IR: call i32 @idiom_run_pair(
// EXACT-IR-NOT: idiom_run_pair_fused
#include "Inputs/bicg_check.h"

// The fused kernel, every call, the forced variant; the two kernels never:
// CHECK-NOT: gemv-pair calls
// CHECK: idiom-stats: gemv-pair-fused.c:[[@LINE+10]] gemv-pair-fused calls=4 offloaded=4 {{.*}}variants=6 {{.*}}variant [[K]] tuned=forced
// CHECK-NOT: gemv-pair calls
// SPLIT-DAG: idiom-stats: gemv-pair-fused.c:[[@LINE+8]] gemv-pair-fused calls=4 offloaded=0 {{.*}}fallbacks=4
// SPLIT-DAG: idiom-stats: gemv-pair-fused.c:[[@LINE+7]] gemv-pair calls=4 offloaded=4 {{.*}}variants=8 {{.*}}variant 6 tuned=forced
// SPLIT-DAG: idiom-stats: gemv-pair-fused.c:[[@LINE+6]] gemv-pair calls=4 offloaded=4 {{.*}}variants=8 {{.*}}variant 6 tuned=forced
// REMARK: gemv-pair-fused.c:[[@LINE+5]]:3: remark: GEMV pair fused into one kernel that reads the matrix once
// EXACT-REMARK: gemv-pair-fused.c:[[@LINE+4]]:3: remark: GEMV pair not fused (two kernels, each reading the matrix): the fused pair reassociates both sums: not without the floating-point licence
// EXACT-COUNT-2: idiom-stats: gemv-pair-fused.c:[[@LINE+3]] gemv-pair calls=4 offloaded=4
// EXACT-NOT: gemv-pair-fused
__attribute__((noinline)) void bicg(int m, int n, const float *a, float *s, float *q) {
  for (int i = 0; i < m; i++) {
    q[i] = 0;
    for (int j = 0; j < n; j++) {
      s[j] = s[j] + fr[i] * a[i * n + j];
      q[i] = q[i] + a[i * n + j] * fp[j];
    }
  }
}

