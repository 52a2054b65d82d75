// Translation validation covers batched row products (passes/RowProducts.h):
// the GEMM lifted from the expanded nest (the fill loop cloned instruction
// for instruction into the loop over the flattened (r, q) rows) is proven
// against the LLVM slice of that nest, the sum kept in memory (the caller's
// temporary may alias the operands) or in a register (a local temporary).
// A lift corrupted on purpose (-idiom-test-corrupt-lift: the first add or
// mul of STEP or POST changed, here alpha's product and POST's 2 * acc) is
// refused before anything runs; the solver's limit is lifted as in
// gemm-validation.c. The corrupted run keeps the host's unfused
// multiply-add (-idiom-fp-reassoc=false): with the fused STEP of the
// licence Z3 finds no witness for the scaled product within the rlimit and the
// lift is refused as "not proven" instead (refused either way).
// RUN: %clang-idiom -c %s -o /dev/null -Rpass=idiom-offload 2>&1 | FileCheck %s --check-prefix=OK
// RUN: %clang-idiom -fplugin=%plugin -mllvm -idiom-fp-reassoc=false -mllvm -idiom-test-corrupt-lift -mllvm -idiom-z3-timeout=600000 -mllvm -idiom-z3-rlimit=200000000 -c %s -o /dev/null -Rpass=idiom-offload -Rpass-missed=idiom-offload 2>&1 | FileCheck %s --check-prefix=BAD

void doitgen(int nr, int nq, int np, double alpha, double A[nr][nq][np],
             double C4[np][np], double sum[np]) {
  // OK: row-products-validation.c:[[@LINE+2]]:3: remark: offloaded GEMM (gemm)
  // BAD: row-products-validation.c:[[@LINE+1]]:3: remark: idiom gemm not offloaded: translation validation failed: Z3 found inputs on which the lifted FunIL and the LLVM slice differ (GEMM STEP, INIT or POST)
  for (int r = 0; r < nr; r++)
    for (int q = 0; q < nq; q++) {
      for (int p = 0; p < np; p++) {
        sum[p] = 0.0;
        for (int s = 0; s < np; s++)
          sum[p] += alpha * A[r][q][s] * C4[s][p];
      }
      for (int p = 0; p < np; p++)
        A[r][q][p] = sum[p];
    }
}

void local(int nr, int nq, double A[nr][nq][64], double C4[64][64]) {
  double t[64];
  // OK: row-products-validation.c:[[@LINE+2]]:3: remark: offloaded GEMM (gemm)
  // BAD: row-products-validation.c:[[@LINE+1]]:3: remark: idiom gemm not offloaded: translation validation failed: Z3 found inputs on which the lifted FunIL and the LLVM slice differ (GEMM STEP, INIT or POST)
  for (int r = 0; r < nr; r++)
    for (int q = 0; q < nq; q++) {
      for (int p = 0; p < 64; p++) {
        double acc = 0.0;
        for (int s = 0; s < 64; s++)
          acc += A[r][q][s] * C4[s][p];
        t[p] = 2.0 * acc;
      }
      for (int p = 0; p < 64; p++)
        A[r][q][p] = t[p];
    }
}
