// Translation validation of a GEMV pair (docs/ConstraintLanguage.md,
// "Lifting a GEMV pair"): each of its two programs is validated against its
// own slices, as a GEMV is. The hidden option -idiom-test-corrupt-lift turns
// the first add into a sub (or mul into add) of each program. With fmuladd
// contraction (the default) the first program (q += A p: fmuladd only) is
// untouched and only the second (s += alpha r A^T: the scaling's fmul) is
// corrupted, so refusing the pair shows that the second program is
// validated; with -ffp-contract=off both are corrupted. Z3 usually finds
// the counterexample within the 20 s limit; a timeout refuses the lift too
// ("not proven"): either refusal passes, an offload fails.
// RUN: %clang-idiom -c %s -o /dev/null -Rpass=idiom-offload 2>&1 | FileCheck %s --check-prefix=OK
// RUN: %clang-idiom -fplugin=%plugin -mllvm -idiom-test-corrupt-lift -mllvm -idiom-z3-timeout=600000 -mllvm -idiom-z3-rlimit=200000000 -c %s -o /dev/null -Rpass=idiom-offload -Rpass-missed=idiom-offload 2>&1 | FileCheck %s --check-prefix=SECOND
// RUN: %clang-idiom -ffp-contract=off -fplugin=%plugin -mllvm -idiom-test-corrupt-lift -mllvm -idiom-z3-timeout=600000 -mllvm -idiom-z3-rlimit=200000000 -c %s -o /dev/null -Rpass=idiom-offload -Rpass-missed=idiom-offload 2>&1 | FileCheck %s --check-prefix=FIRST

// OK: gemv-pair-validation.c:[[@LINE+5]]:3: remark: offloaded GEMV pair (gemv-pair)
// SECOND: gemv-pair-validation.c:[[@LINE+4]]:3: remark: idiom gemv-pair not offloaded: translation validation failed: the second GEMV of the pair: {{Z3 found inputs on which the lifted FunIL and the LLVM slice differ \(GEMV STEP, INIT or POST\)|equivalence of the lifted GEMV and the LLVM slice not proven}}
// FIRST: gemv-pair-validation.c:[[@LINE+3]]:3: remark: idiom gemv-pair not offloaded: translation validation failed: the first GEMV of the pair: {{Z3 found inputs on which the lifted FunIL and the LLVM slice differ \(GEMV STEP, INIT or POST\)|equivalence of the lifted GEMV and the LLVM slice not proven}}
void bicg(int m, int n, float alpha, const float *a, const float *p,
          const float *r, float *s, float *q) {
  for (int i = 0; i < n; i++) {
    q[i] = 0;
    for (int j = 0; j < m; j++) {
      s[j] = s[j] + alpha * r[i] * a[i * m + j];
      q[i] = q[i] + a[i * m + j] * p[j];
    }
  }
}
