// -idiom-detect-only (idiom-cc --idiom-no-offload): idioms are found,
// lifted and reported, but no code changes: no runtime call, no descriptor.
// RUN: %clang-idiom -fplugin=%plugin -mllvm -idiom-detect-only -c %s -S -emit-llvm -o %t.ll -Rpass=idiom-offload -Rpass-analysis=idiom-offload 2> %t.remarks
// RUN: FileCheck %s < %t.remarks
// RUN: FileCheck %s --check-prefix=IR < %t.ll
// The same loops without the option are offloaded (the test can fail).
// RUN: %clang-idiom -c %s -S -emit-llvm -o - | FileCheck %s --check-prefix=OFF

// CHECK: detect-only.c:[[@LINE+3]]:3: remark: offloadable map (map), not offloaded (-idiom-detect-only)
// CHECK-NOT: remark: offloaded
void scale(float *restrict o, const float *restrict x, float a, int n) {
  for (int i = 0; i < n; i++)
    o[i] = a * x[i];
}

// CHECK: detect-only.c:[[@LINE+4]]:3: remark: offloadable scalar reduction
// CHECK-NOT: remark: offloaded
int sum(const int *x, int n) {
  int s = 0;
  for (int i = 0; i < n; i++)
    s += x[i];
  return s;
}

// IR-NOT: idiom_run
// IR-NOT: .desc
// OFF: call {{.*}}@idiom_run
