// The offload runs exactly once per module in every pipeline: at
// VectorizerStart in normal builds and in the full-LTO pre-link, at
// OptimizerLast in the ThinLTO pre-link (which has no VectorizerStart), not
// at -O0. A pipeline that meets an offloaded module again (here opt with
// idiom-offload) leaves the fallback loops alone (loop metadata
// idiom.fallback).
// RUN: %clang-idiom -S -emit-llvm %s -o %t.ll
// RUN: FileCheck %s --check-prefix=ONCE < %t.ll
// RUN: %clang-idiom -flto -S -emit-llvm %s -o - | FileCheck %s --check-prefix=ONCE
// RUN: %clang-idiom -flto=thin -S -emit-llvm %s -o - | FileCheck %s --check-prefix=ONCE
// RUN: %opt -passes='function(loop-simplify,lcssa,idiom-offload)' -S %t.ll | FileCheck %s --check-prefix=ONCE
// RUN: %clang-idiom -O0 -S -emit-llvm %s -o - | FileCheck %s --check-prefix=NONE
// RUN: %clang-idiom -O0 -flto=thin -S -emit-llvm %s -o - | FileCheck %s --check-prefix=NONE

// ONCE-LABEL: define {{.*}} @isum(
// ONCE: call {{.*}} @idiom_run(
// ONCE-NOT: @idiom_run(
long isum(const int *x, int n) {
  long s = 0;
  for (int i = 0; i < n; i++)
    s += x[i];
  return s;
}

// ONCE-LABEL: define {{.*}} @add(
// ONCE: call {{.*}} @idiom_run(
// ONCE-NOT: call {{.*}}@idiom_run(
// ONCE-DAG: !"idiom.offload.ran"
// ONCE-DAG: !"idiom.fallback"
void add(int *z, const int *x, const int *y, int n) {
  for (int i = 0; i < n; i++)
    z[i] = x[i] + 3 * y[i];
}

// NONE-NOT: idiom_run
