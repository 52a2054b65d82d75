// A pipeline that meets a module with residency regions again (a link-time
// pipeline that loads the plugin too; here opt with idiom-offload) offloads
// nothing new in those functions: a new idiom inside an old region would
// keep its buffers on the device where the region's proof did not look.
// RUN: %clang-idiom -S -emit-llvm %s -o %t.ll
// RUN: %opt -passes='function(loop-simplify,lcssa,idiom-offload)' -pass-remarks-missed=idiom-offload -S %t.ll -o %t.2.ll 2> %t.remarks
// RUN: FileCheck %s < %t.2.ll
// RUN: FileCheck %s --check-prefix=MISSED < %t.remarks
// CHECK-LABEL: define {{.*}} @step(
// CHECK: call void @idiom_region_begin()
// CHECK-NOT: call void @idiom_region_begin()
// CHECK-LABEL: declare
// MISSED: remark: {{.*}}function already has residency regions from an earlier run of the plugin: nothing new is offloaded in it
#define N 100000
float x[N], y[N];
// Two maps in the time loop: a region, not one outer-loop accumulation (a
// chain of two loops with y[i] = a*x[i] + y[i] alone would be one).
void step(float a) {
  for (int t = 0; t < 100; t++) {
    for (int i = 0; i < N; i++)
      y[i] = a * x[i] + y[i];
    for (int i = 0; i < N; i++)
      x[i] = 0.5f * y[i];
  }
}
