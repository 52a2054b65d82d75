// A detect-only user idiom (no FunIL template): reported as detected, and
// the loop is left alone (no runtime call).
// RUN: %clang-idiom -fplugin=%plugin -mllvm -idiom-spec=%S/Inputs/argmax.idl -c %s -o /dev/null -Rpass-missed=idiom-offload 2>&1 | FileCheck %s
// RUN: %clang-idiom -fplugin=%plugin -mllvm -idiom-spec=%S/Inputs/argmax.idl -S -emit-llvm %s -o - | FileCheck %s --check-prefix=IR

int argmax(const float *x, int n) {
  float m = x[0];
  int idx = 0;
  // CHECK: argmax.c:[[@LINE+1]]:3: remark: detected idiom argmax (its spec names no FunIL template)
  for (int i = 1; i < n; i++)
    if (x[i] > m) {
      m = x[i];
      idx = i;
    }
  return idx;
}
// IR-NOT: idiom_run
