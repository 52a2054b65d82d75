// A pending region (RegionSummaries.h: the loop calls a function defined
// after it, so it is decided at OptimizerLast) that fails there falls back
// to the regions its inner loops would have had on their own; one that
// forms drops them. outer_fails: the r loop calls late_poke, which turns
// out to store to y, a buffer of the t loop's maps: no region for the r
// loop, and the t loop is a region (without the fallback it was none).
// outer_forms: late_count touches no buffer, the r loop is the region and
// the t loop's fallback is removed. both_pending: the fallback t loop is
// itself pending (it calls late_scale, defined later too) and forms once
// the r loop fails. Then on PoCL against the sequential build: the same
// output, and 3 + 1 + 3 regions opened.
// RUN: %clang-idiom -fno-discard-value-names -S -emit-llvm -Rpass=idiom-offload -Rpass-missed=idiom-offload %s -o %t.ll 2> %t.remarks
// RUN: FileCheck %s < %t.ll
// RUN: FileCheck %s --check-prefix=REMARK < %t.remarks
// RUN: FileCheck %s --check-prefix=NOREMARK < %t.remarks
// RUN: FileCheck %s --check-prefix=GONE < %t.ll
// GONE-NOT: idiom.region.pending
// GONE-NOT: idiom.region.parent
// RUN: %clang -O2 %s -o %t.seq
// RUN: %clang-idiom %s -lidiomrt -o %t.idiom
// RUN: %t.seq > %t.expected
// RUN: env IDIOM_ZERO_COPY=off IDIOM_DEVICE=cpu IDIOM_COST=off IDIOM_STATS=1 %t.idiom > %t.out 2> %t.stats
// RUN: diff %t.expected %t.out
// RUN: FileCheck %s --check-prefix=STATS < %t.stats
// STATS: idiom-stats: residency regions=7 {{.*}}syncs=0
// RUN: env IDIOM_DEVICE=seq %t.idiom > %t.out2
// RUN: diff %t.expected %t.out2
#include <stdio.h>

#define N 100000
float x[N], y[N];
int counter;

__attribute__((noinline)) void late_poke(float *p, int t);
__attribute__((noinline)) void late_count(void);
__attribute__((noinline)) void late_scale(float *p, int n);

// CHECK-LABEL: define {{.*}} @outer_fails(
// CHECK-NOT: idiom_region_
// CHECK: {{^}}for.cond5.preheader.preheader:
// CHECK-NEXT: call void @idiom_region_begin()
// CHECK-NOT: idiom_region_begin
// CHECK: {{^}}for.cond.cleanup3.loopexit:
// CHECK-NEXT: call void @idiom_region_end()
// CHECK-NOT: idiom_region_begin
// CHECK: call void @late_poke(
// CHECK-NOT: idiom_region_begin
// CHECK: {{^}}}
__attribute__((noinline)) void outer_fails(int reps, int steps) {
  // REMARK-DAG: pending-fallback.c:[[@LINE+1]]:3: remark: no residency region: the loop or a function it calls stores to an idiom's buffer (y) outside the idiom
  for (int r = 0; r < reps; r++) {
    // REMARK-DAG: pending-fallback.c:[[@LINE+1]]:5: remark: residency region: the buffers of 2 offloaded idiom(s) stay on the device across the loop's iterations (copied back at its exits)
    for (int t = 0; t < steps; t++) {
      for (int i = 0; i < N; i++)
        y[i] = 2.0f * x[i] + y[i];
      for (int i = 0; i < N; i++)
        x[i] = 0.5f * y[i];
    }
    late_poke(y, r);
  }
}

// CHECK-LABEL: define {{.*}} @outer_forms(
// CHECK-NOT: idiom_region_
// CHECK: {{^}}for.cond1.preheader.lr.ph:
// CHECK: call void @idiom_region_begin()
// CHECK-NOT: idiom_region_begin
// CHECK: {{^}}for.cond.cleanup.loopexit:
// CHECK-NEXT: call void @idiom_region_end()
// CHECK-NOT: idiom_region_begin
// CHECK-NOT: idiom_region_end
// CHECK: {{^}}}
__attribute__((noinline)) void outer_forms(int reps, int steps) {
  // REMARK-DAG: pending-fallback.c:[[@LINE+1]]:3: remark: residency region: the buffers of the offloaded idioms of the loop and of 1 call(s) stay on the device
  for (int r = 0; r < reps; r++) {
    // NOREMARK-NOT: pending-fallback.c:[[@LINE+1]]:5: remark: {{(no )?}}residency region
    for (int t = 0; t < steps; t++) {
      for (int i = 0; i < N; i++)
        y[i] = 2.0f * x[i] + y[i];
      for (int i = 0; i < N; i++)
        x[i] = 0.5f * y[i];
    }
    late_count();
  }
}

// CHECK-LABEL: define {{.*}} @both_pending(
// CHECK-NOT: idiom_region_
// CHECK: {{^}}for.cond5.preheader.preheader:
// CHECK-NEXT: call void @idiom_region_begin()
// CHECK-NOT: idiom_region_begin
// CHECK: {{^}}for.cond.cleanup3.loopexit:
// CHECK-NEXT: call void @idiom_region_end()
// CHECK-NOT: idiom_region_begin
// CHECK: {{^}}}
__attribute__((noinline)) void both_pending(int reps, int steps) {
  // REMARK-DAG: pending-fallback.c:[[@LINE+1]]:3: remark: no residency region: the loop or a function it calls stores to an idiom's buffer (y) outside the idiom
  for (int r = 0; r < reps; r++) {
    // REMARK-DAG: pending-fallback.c:[[@LINE+1]]:5: remark: residency region: the buffers of 1 offloaded idiom(s) and of 1 call(s) stay on the device across the loop's iterations (copied back at its exits)
    for (int t = 0; t < steps; t++) {
      for (int i = 0; i < N; i++)
        y[i] = 2.0f * x[i] + y[i];
      late_scale(x, N);
    }
    late_poke(y, r);
  }
}

__attribute__((noinline)) void late_poke(float *p, int t) { p[t] = 0; }
__attribute__((noinline)) void late_count(void) { counter++; }
__attribute__((noinline)) void late_scale(float *p, int n) {
  for (int i = 0; i < n; i++)
    p[i] = p[i] * 0.5f;
}

static void report(const char *what) {
  double sx = 0, sy = 0;
  for (int i = 0; i < N; i++) {
    sx += x[i];
    sy += y[i] * (double)(i % 7);
  }
  printf("%s %.9e %.9e %.9e %.9e\n", what, sx, sy, (double)x[N - 1],
         (double)y[3]);
}

int main(void) {
  for (int i = 0; i < N; i++) {
    x[i] = (float)(i % 1000) * 0.001f;
    y[i] = 1.0f;
  }
  outer_fails(3, 4);
  report("fails");
  outer_forms(3, 2);
  report("forms");
  both_pending(3, 4);
  report("both");
  printf("counter %d\n", counter);
  return 0;
}
