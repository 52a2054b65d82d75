// Translation validation: Z3 proves every lifted FunIL program equal to the
// LLVM slice it came from (element function, combine operator, identity).
// A hidden testing option corrupts the lifted text (first add -> sub, or
// mul -> add); validation must then refuse to offload.
// RUN: %clang-idiom -ffp-contract=off -c %s -o /dev/null -Rpass=idiom-offload 2>&1 | FileCheck %s --check-prefix=OK
// RUN: %clang-idiom -ffp-contract=off -fplugin=%plugin -mllvm -idiom-test-corrupt-lift -mllvm -idiom-z3-timeout=600000 -c %s -o /dev/null -Rpass=idiom-offload -Rpass-missed=idiom-offload 2>&1 | FileCheck %s --check-prefix=BAD

float dot(const float *x, const float *y, int n) {
  float s = 0;
  // OK: validation.c:[[@LINE+2]]:3: remark: offloaded scalar reduction
  // BAD: validation.c:[[@LINE+1]]:3: remark: idiom scalar-reduction not offloaded: translation validation failed: Z3 found inputs on which the lifted FunIL and the LLVM slice differ
  for (int i = 0; i < n; i++)
    s += x[i] * y[i];
  return s;
}

void axpy(double *y, const double *x, double a, int n) {
  // OK: validation.c:[[@LINE+2]]:3: remark: offloaded map
  // BAD: validation.c:[[@LINE+1]]:3: remark: idiom map not offloaded: translation validation failed: {{Z3 found inputs|equivalence .* not proven}}
  for (int i = 0; i < n; i++)
    y[i] = y[i] + a * x[i];
}

int maxi(const int *x, int n) {
  int m = -2147483647 - 1;
  // OK: validation.c:[[@LINE+2]]:3: remark: offloaded scalar reduction
  // BAD: validation.c:[[@LINE+1]]:3: remark: offloaded scalar reduction
  for (int i = 0; i < n; i++)
    m = x[i] > m ? x[i] : m;
  return m;
}
