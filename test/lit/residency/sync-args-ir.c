// The sync before a fallback loop inside a residency region
// (passes/PartialSync.h): idiom_region_sync_args with the call's own
// argument array where the fallback nest touches only the call's ranges,
// else the whole-table idiom_region_sync; none outside regions.
// RUN: %clang-idiom -fno-discard-value-names -S -emit-llvm %s -o %t.ll
// RUN: FileCheck %s < %t.ll
// RUN: %clang-idiom -fplugin=%plugin -fno-discard-value-names -S -emit-llvm -mllvm -idiom-residency=false %s -o - | FileCheck %s --check-prefix=OFF
// OFF-NOT: idiom_region_sync
#include <math.h>

#define N 100000
float x[N], y[N];

// The host hint's skip block reaches the loop without the call's block: it
// fills the argument array (the template, then the scalars a and b) before
// the fallback's sync reads it.
// CHECK-LABEL: define {{.*}} @axpby(
// CHECK: idiom.hint.skip:
// CHECK: call void @llvm.memcpy.p0.p0.i64(ptr {{.*}}%idiom.args, ptr {{.*}}@idiom_axpby_0.args, i64 160
// CHECK-COUNT-2: store float
// CHECK-NEXT: br label %idiom.fallback
// CHECK: idiom.fallback:{{.*}}preds = %idiom.declined, %idiom.hint.skip{{$}}
// CHECK-NOT: call void @idiom_region_sync()
// CHECK: call void @idiom_region_sync_args(ptr nonnull @idiom_axpby_0.desc, ptr nonnull %idiom.args, i32 5)
// CHECK: {{^}}}
void axpby(int steps, float a, float b) {
  for (int t = 0; t < steps; t++)
    for (int i = 0; i < N; i++)
      y[i] = a * x[i] + b * y[i];
}

// The guards' failure reaches the loop with ranges that were not checked:
// the array is null on that edge (a full sync at run time), and so is the
// descriptor (where the other edges fold away, no kernel source is kept
// alive by the sync).
// CHECK-LABEL: define {{.*}} @grid(
// CHECK: idiom.fallback:{{.*}}preds = %idiom.declined, %idiom.hint.skip, %[[GUARD:[a-z0-9.]+]]{{$}}
// CHECK-DAG: %idiom.sync.desc = phi ptr [ @idiom_grid_1.desc, %idiom.declined ], [ @idiom_grid_1.desc, %idiom.hint.skip ], [ null, %[[GUARD]] ]
// CHECK-DAG: %idiom.sync.args = phi ptr [ %idiom.args, %idiom.declined ], [ %idiom.args, %idiom.hint.skip ], [ null, %[[GUARD]] ]
// CHECK: call void @idiom_region_sync_args(ptr %idiom.sync.desc, ptr %idiom.sync.args, i32 4)
// CHECK: {{^}}}
void grid(int steps, int n, int m, float *g, const float *h) {
  for (int t = 0; t < steps; t++)
    for (int i = 0; i < n; i++)
      for (int j = 0; j < m; j++)
        g[i * m + j] = g[i * m + j] + h[i * m + j];
}

// A fallback nest that calls sqrt (which may write errno: not a pure
// call) may touch more than the call's ranges: the whole-table sync; the
// next loop's is its own.
// CHECK-LABEL: define {{.*}} @roots(
// CHECK: call void @idiom_region_begin()
// CHECK-DAG: call void @idiom_region_sync()
// CHECK-DAG: call void @idiom_region_sync_args(ptr nonnull @idiom_roots_3.desc,
// CHECK: {{^}}}
void roots(int steps) {
  for (int t = 0; t < steps; t++) {
    for (int i = 0; i < N; i++)
      y[i] = sqrtf(x[i]) + y[i];
    for (int i = 0; i < N; i++)
      x[i] = x[i] + 1.0f;
  }
}

// Not a region, nor a function a caller's region may call (it passes an
// idiom's buffer to a function of another unit): no sync at all.
// CHECK-LABEL: define {{.*}} @poke(
// CHECK-NOT: idiom_region_sync
// CHECK: {{^}}}
void ext(float *);
void poke(float a) {
  for (int i = 0; i < N; i++)
    y[i] = a * x[i];
  ext(y);
}
