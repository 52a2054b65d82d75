// Residency regions (passes/ResidencyRegions.h): a time loop whose body only
// runs offloaded idioms gets idiom_region_begin in its preheader,
// idiom_region_end at the start of every exit block, and idiom_region_sync
// (or idiom_region_sync_args, PartialSync.h)
// in front of every fallback loop inside it.
// RUN: %clang-idiom -fno-discard-value-names -S -emit-llvm -Rpass=idiom-offload %s -o %t.ll 2> %t.remarks
// RUN: FileCheck %s < %t.ll
// RUN: FileCheck %s --check-prefix=REMARK < %t.remarks
// RUN: %clang-idiom -fplugin=%plugin -fno-discard-value-names -S -emit-llvm -mllvm -idiom-residency=false %s -o - | FileCheck %s --check-prefix=OFF

#define N 100000
float x[N], y[N];

// axpby and its norm, 100 times: the reduction's result is only a scalar.
// CHECK-LABEL: define {{.*}} @axpby_norm(
// CHECK: call void @idiom_region_begin()
// CHECK-NOT: idiom_run
// CHECK: idiom.call:
// The region's blocks come in any order: every fallback starts with a
// sync of the call's own ranges (its loop touches nothing else; also
// reached from the site's host hint, whose skip block fills the argument
// array first), and the one exit ends the region.
// CHECK-DAG: idiom.fallback:{{.*}}preds = %idiom.declined, %idiom.hint.skip{{$}}
// CHECK-DAG: call void @idiom_region_sync_args(ptr nonnull @idiom_axpby_norm_0.desc, ptr nonnull %idiom.args, i32 4)
// CHECK-DAG: idiom.fallback{{[0-9]+}}:{{.*}}preds = %idiom.done{{[0-9]+}}, %idiom.declined{{[0-9]+}}, %idiom.hint.skip{{[0-9]+}}{{$}}
// CHECK-DAG: call void @idiom_region_sync_args(ptr nonnull @idiom_axpby_norm_1.desc, ptr nonnull @idiom_axpby_norm_1.args, i32 1)
// CHECK-DAG: call void @idiom_region_end()
// CHECK: {{^}}}
// OFF-NOT: idiom_region_
float axpby_norm(float a, float b) {
  float s = 0;
  // REMARK: region-ir.c:[[@LINE+1]]:3: remark: residency region: the buffers of 2 offloaded idiom(s) stay on the device
  for (int t = 0; t < 100; t++) {
    for (int i = 0; i < N; i++)
      y[i] = a * x[i] + b * y[i];
    s = 0;
    for (int i = 0; i < N; i++)
      s += y[i];
  }
  return s;
}

// A convergence test leaves the loop early: both exits end the region.
// (A plain copy a[i] = b[i] would become a memcpy on the host: no region.)
// CHECK-LABEL: define {{.*}} @converge(
// CHECK: call void @idiom_region_begin()
// CHECK-COUNT-2: call void @idiom_region_end()
// CHECK: ret i32
long a[N], b[N];
int converge(int steps) {
  int t;
  // REMARK: region-ir.c:[[@LINE+1]]:3: remark: residency region: the buffers of 3 offloaded idiom(s)
  for (t = 0; t < steps; t++) {
    for (int i = 0; i < N; i++)
      b[i] = a[i] / 2;
    long d = 0;
    for (int i = 0; i < N; i++)
      d += b[i];
    if (d == 0)
      break;
    for (int i = 0; i < N; i++)
      a[i] = b[i] + t;
  }
  return t;
}

// Early exits through longjmp and exit(): the blocks that call them are
// exit blocks of the loop, and the region ends (everything is copied back)
// before the call.
// CHECK-LABEL: define {{.*}} @early_exits(
// CHECK: call void @idiom_region_begin()
// CHECK: call void @idiom_region_end()
// CHECK-NEXT: ret void
// CHECK: call void @idiom_region_end()
// CHECK-NEXT: tail call void @longjmp
// CHECK: call void @idiom_region_end()
// CHECK-NEXT: tail call void @exit
#include <setjmp.h>
#include <stdlib.h>
jmp_buf env;
void early_exits(float c, int k, int e) {
  // REMARK: region-ir.c:[[@LINE+1]]:3: remark: residency region: the buffers of 1 offloaded idiom(s)
  for (int t = 0; t < 100; t++) {
    for (int i = 0; i < N; i++)
      y[i] = c * x[i] + y[i];
    if (t == k)
      longjmp(env, 1);
    if (t == e)
      exit(3);
  }
}
