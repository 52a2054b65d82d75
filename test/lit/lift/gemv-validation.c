// Translation validation of GEMV lifts (the GEMM program with one row): Z3
// proves STEP, INIT and POST equal to the LLVM slices. The hidden option
// -idiom-test-corrupt-lift turns the first add into a sub (or mul into add)
// of each lifted program; validation must then refuse the GEMV, in both
// loop orders. Z3 usually finds the counterexample within the 20 s limit;
// on a loaded machine it may run out of time, which refuses the lift too
// ("not proven"): either refusal passes, an offload fails.
// RUN: %clang-idiom -c %s -o /dev/null -Rpass=idiom-offload 2>&1 | FileCheck %s --check-prefix=OK
// RUN: %clang-idiom -fplugin=%plugin -mllvm -idiom-test-corrupt-lift -mllvm -idiom-z3-timeout=600000 -mllvm -idiom-z3-rlimit=200000000 -c %s -o /dev/null -Rpass=idiom-offload -Rpass-missed=idiom-offload 2>&1 | FileCheck %s --check-prefix=BAD
// RUN: %clang-idiom -ffp-contract=off -fplugin=%plugin -mllvm -idiom-test-corrupt-lift -mllvm -idiom-z3-timeout=600000 -mllvm -idiom-z3-rlimit=200000000 -c %s -o /dev/null -Rpass=idiom-offload -Rpass-missed=idiom-offload 2>&1 | FileCheck %s --check-prefix=BAD

// y = alpha*A*x + beta*y: the corruption hits POST.
void scaled(int m, int n, float alpha, const float *a, const float *x,
            float beta, float *y) {
  // OK: gemv-validation.c:[[@LINE+2]]:3: remark: offloaded GEMV (gemv)
  // BAD: gemv-validation.c:[[@LINE+1]]:3: remark: idiom gemv not offloaded: translation validation failed: {{Z3 found inputs on which the lifted FunIL and the LLVM slice differ \(GEMV STEP, INIT or POST\)|equivalence of the lifted GEMV and the LLVM slice not proven}}
  for (int i = 0; i < m; i++) {
    float s = 0;
    for (int j = 0; j < n; j++)
      s += a[i * n + j] * x[j];
    y[i] = alpha * s + beta * y[i];
  }
}

// Transposed, in place, s += alpha * A^T r: the corruption hits STEP (the
// scaling, as fmul(x.0, s0) turns into fadd; STEP is otherwise an fmuladd,
// which the testing hook does not touch).
void transposed(int m, int n, float alpha, const float *a, const float *r,
                float *s) {
  // OK: gemv-validation.c:[[@LINE+2]]:3: remark: offloaded GEMV (gemv)
  // BAD: gemv-validation.c:[[@LINE+1]]:3: remark: idiom gemv not offloaded: translation validation failed: {{Z3 found inputs on which the lifted FunIL and the LLVM slice differ \(GEMV STEP, INIT or POST\)|equivalence of the lifted GEMV and the LLVM slice not proven}}
  for (int i = 0; i < m; i++)
    for (int j = 0; j < n; j++)
      s[j] = s[j] + alpha * r[i] * a[i * n + j];
}
