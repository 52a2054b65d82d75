// Translation validation of GEMM lifts: Z3 proves STEP, INIT and POST of the
// lifted program equal to the LLVM slices (IEEE floating point). The hidden
// option -idiom-test-corrupt-lift turns the first add into a sub (or mul
// into add) of each lifted program; validation must then refuse the GEMM.
// Finding the counterexample over IEEE floats takes Z3 more than its default
// resource limit (the GEMM is then "not proven" and not offloaded either):
// the refusing runs raise it (-idiom-z3-rlimit=200000000, deterministic,
// unlike a wall-clock timeout under load). Under the
// floating-point licence (the default) llvm.fmuladd is lifted as fma and
// validated against the fused operation; a program with no add or mul has
// its first fma turned into an unfused fmuladd, which validation refuses as
// well. With -idiom-fp-reassoc=false the lift keeps the host's unfused
// fmuladd, and validation accepts that.
// RUN: %clang-idiom -c %s -o /dev/null -Rpass=idiom-offload 2>&1 | FileCheck %s --check-prefix=OK
// RUN: %clang-idiom -fplugin=%plugin -mllvm -idiom-fp-reassoc=false -c %s -o /dev/null -Rpass=idiom-offload 2>&1 | FileCheck %s --check-prefix=OK
// RUN: %clang-idiom -fplugin=%plugin -mllvm -idiom-test-corrupt-lift -mllvm -idiom-z3-timeout=600000 -mllvm -idiom-z3-rlimit=200000000 -c %s -o /dev/null -Rpass=idiom-offload -Rpass-missed=idiom-offload 2>&1 | FileCheck %s --check-prefix=BAD
// RUN: %clang-idiom -ffp-contract=off -fplugin=%plugin -mllvm -idiom-test-corrupt-lift -mllvm -idiom-z3-timeout=600000 -mllvm -idiom-z3-rlimit=200000000 -c %s -o /dev/null -Rpass=idiom-offload -Rpass-missed=idiom-offload 2>&1 | FileCheck %s --check-prefix=BADOFF

// The corruption hits POST: fma(s0, reduceSeq(...), fsub(...)) or, with
// -ffp-contract=off, fsub(fmul(reduceSeq(...), s0), fmul(q.1, s1)).
void scaled(int m, int n, int k, float alpha, const float *a, const float *b,
            float beta, float *c) {
  // OK: gemm-validation.c:[[@LINE+3]]:3: remark: offloaded GEMM (gemm)
  // BAD: gemm-validation.c:[[@LINE+2]]:3: remark: idiom gemm not offloaded: translation validation failed: Z3 found inputs on which the lifted FunIL and the LLVM slice differ (GEMM STEP, INIT or POST)
  // BADOFF: gemm-validation.c:[[@LINE+1]]:3: remark: idiom gemm not offloaded: translation validation failed: Z3 found inputs on which the lifted FunIL and the LLVM slice differ (GEMM STEP, INIT or POST)
  for (int i = 0; i < m; i++)
    for (int j = 0; j < n; j++) {
      float s = 0;
      for (int p = 0; p < k; p++)
        s += a[i * k + p] * b[p * n + j];
      c[i * n + j] = alpha * s + beta * c[i * n + j];
    }
}

// The corruption hits STEP: fma(fadd(x.0, s0), x.1, acc) or
// fsub(acc, ...) with -ffp-contract=off.
void in_place(int m, int n, int k, float alpha, const float *a,
              const float *b, float *c) {
  // OK: gemm-validation.c:[[@LINE+3]]:3: remark: offloaded GEMM (gemm)
  // BAD: gemm-validation.c:[[@LINE+2]]:3: remark: idiom gemm not offloaded: translation validation failed: {{Z3 found inputs|equivalence .* not proven}}
  // BADOFF: gemm-validation.c:[[@LINE+1]]:3: remark: idiom gemm not offloaded: translation validation failed: {{Z3 found inputs|equivalence .* not proven}}
  for (int i = 0; i < m; i++)
    for (int p = 0; p < k; p++)
      for (int j = 0; j < n; j++)
        c[i * n + j] += alpha * a[i * k + p] * b[p * n + j];
}

// With fmuladd and nothing else there is no add or mul to corrupt: the
// fused STEP fma(x.0, x.1, acc) becomes fmuladd(x.0, x.1, acc), which rounds
// the product, and validation (against the fused slice) refuses it.
void plain(int n, const float *a, const float *b, float *c) {
  // OK: gemm-validation.c:[[@LINE+3]]:3: remark: offloaded GEMM (gemm)
  // BAD: gemm-validation.c:[[@LINE+2]]:3: remark: idiom gemm not offloaded: translation validation failed: Z3 found inputs on which the lifted FunIL and the LLVM slice differ (GEMM STEP, INIT or POST)
  // BADOFF: gemm-validation.c:[[@LINE+1]]:3: remark: idiom gemm not offloaded: translation validation failed: Z3 found inputs
  for (int i = 0; i < n; i++)
    for (int j = 0; j < n; j++) {
      float s = 0;
      for (int p = 0; p < n; p++)
        s += a[i * n + p] * b[p * n + j];
      c[i * n + j] = s;
    }
}
