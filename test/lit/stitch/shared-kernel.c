// One kernel per source loop (passes/KernelSharing.h): a static function
// whose loop is inlined into three callers is lifted three times but
// lowered and generated once. The module has one OpenCL source string and
// three stitched calls; without debug locations each caller's copy has its
// own descriptor (its location names the caller), all three pointing at the
// one kernel; with -g the copies have one source location and share one
// descriptor too. Each copy runs correctly on the device.
//
// RUN: %clang-idiom -S -emit-llvm %s -o %t.ll
// RUN: FileCheck %s --check-prefix=IR < %t.ll
// RUN: grep -c '^@idiom_.*\.source = ' %t.ll | FileCheck %s --check-prefix=TWO
// RUN: grep -c '^@idiom_.*\.desc\(\.[0-9]*\)\? = ' %t.ll | FileCheck %s --check-prefix=FOUR
// RUN: %clang-idiom -g -S -emit-llvm %s -o %t.g.ll
// RUN: FileCheck %s --check-prefix=IRG < %t.g.ll
// RUN: grep -c '^@idiom_.*\.source = ' %t.g.ll | FileCheck %s --check-prefix=TWO
// RUN: grep -c '^@idiom_.*\.desc\(\.[0-9]*\)\? = ' %t.g.ll | FileCheck %s --check-prefix=TWO
// RUN: %clang-idiom -c %s -o /dev/null -Rpass=idiom-offload -Rpass-analysis=idiom-offload 2>&1 | FileCheck %s --check-prefix=REMARK
// RUN: %clang -O2 %s -o %t.seq
// RUN: %clang-idiom %s -lidiomrt -o %t.idiom
// RUN: %t.seq > %t.expected
// RUN: env IDIOM_MIN_TRIP=1 IDIOM_STATS=1 %t.idiom > %t.out 2> %t.stats
// RUN: diff %t.expected %t.out
// RUN: FileCheck %s --check-prefix=STATS < %t.stats
// RUN: %clang-idiom -g %s -lidiomrt -o %t.g.idiom
// RUN: env IDIOM_MIN_TRIP=1 IDIOM_STATS=1 %t.g.idiom > %t.g.out 2> %t.g.stats
// RUN: diff %t.expected %t.g.out
// RUN: FileCheck %s --check-prefix=STATSG < %t.g.stats
#include <stdio.h>

static void scale(double *y, const double *x, long n, double k) {
  for (long i = 0; i < n; i++)
    y[i] = k * x[i] + 1.0;
}

__attribute__((noinline)) void first(double *y, const double *x, long n,
                                   double k) {
  scale(y, x, n, k);
}
__attribute__((noinline)) void second(double *y, const double *x, long n,
                                   double k) {
  scale(y, x, n, k);
}
__attribute__((noinline)) void third(double *y, const double *x, long n,
                                   double k) {
  scale(y, x, n, k);
}

// Two kernel texts in the module: the shared one and main's own map.
// TWO: {{^}}2{{$}}
// FOUR: {{^}}4{{$}}
// Without -g, one descriptor per caller (its location names the caller),
// each pointing at the one kernel, named after the first copy.
// IR-DAG: @idiom_first_0.source = private unnamed_addr constant {{.*}}__kernel void idiom_first_0(
// IR-DAG: @idiom_first_0.desc = private constant {{.*}} ptr @idiom_first_0.name, ptr [[L1:@[^,]+]], ptr {{@[^,]+}}, ptr @idiom_first_0.source,
// IR-DAG: @[[D2:idiom_first_0.desc.[0-9]+]] = private constant {{.*}} ptr @idiom_first_0.name, ptr [[L2:@[^,]+]], ptr {{@[^,]+}}, ptr @idiom_first_0.source,
// IR-DAG: @[[D3:idiom_first_0.desc.[0-9]+]] = private constant {{.*}} ptr @idiom_first_0.name, ptr [[L3:@[^,]+]], ptr {{@[^,]+}}, ptr @idiom_first_0.source,
// IR-DAG: [[L1]] = {{.*}} c"shared-kernel.c:first\00"
// IR-DAG: [[L2]] = {{.*}} c"shared-kernel.c:second\00"
// IR-DAG: [[L3]] = {{.*}} c"shared-kernel.c:third\00"
// IR-LABEL: define {{.*}} @first(
// IR: call i32 @idiom_run(ptr {{.*}}@idiom_first_0.desc,
// IR-LABEL: define {{.*}} @second(
// IR: call i32 @idiom_run(ptr {{.*}}@[[D2]],
// IR-LABEL: define {{.*}} @third(
// IR: call i32 @idiom_run(ptr {{.*}}@[[D3]],

// With -g the three copies are one source loop: one descriptor.
// IRG-LABEL: define {{.*}} @first(
// IRG: call i32 @idiom_run(ptr {{.*}}@idiom_first_0.desc,
// IRG-LABEL: define {{.*}} @second(
// IRG: call i32 @idiom_run(ptr {{.*}}@idiom_first_0.desc,
// IRG-LABEL: define {{.*}} @third(
// IRG: call i32 @idiom_run(ptr {{.*}}@idiom_first_0.desc,

// One remark per source loop and outcome (passes/OffloadRemarks.h): the
// offload of the three copies, and the sharing of the second and third.
// REMARK: shared-kernel.c:[[LOOP:[0-9]+]]:3: remark: offloaded map (map) to OpenCL as idiom_first_0 (3 inlined copies) [-Rpass=idiom-offload]
// REMARK: shared-kernel.c:[[LOOP]]:3: remark: kernel idiom_first_0 shared: the loop lifts to the same FunIL as an earlier offloaded loop (and shares its runtime descriptor) (2 inlined copies) [-Rpass-analysis=idiom-offload]
// REMARK-NOT: shared-kernel.c:[[LOOP]]:3

// STATS-DAG: idiom-stats: shared-kernel.c:first map calls=1 offloaded=1
// STATS-DAG: idiom-stats: shared-kernel.c:second map calls=1 offloaded=1
// STATS-DAG: idiom-stats: shared-kernel.c:third map calls=1 offloaded=1
// STATSG: idiom-stats: shared-kernel.c:{{[0-9]+}} map calls=3 offloaded=3

int main(void) {
  static double x[3000], y[3000];
  for (long i = 0; i < 3000; i++)
    x[i] = (double)(i % 17) - 8.0;
  first(y, x, 1000, 2.0);
  second(y + 1000, x + 1000, 1000, 3.0);
  third(y + 2000, x + 2000, 1000, -0.5);
  double s = 0;
  for (long i = 0; i < 3000; i++)
    s += y[i] * (double)(i % 5 + 1);
  printf("%.6f %.6f %.6f %.6f\n", y[0], y[1500], y[2999], s);
  return 0;
}
