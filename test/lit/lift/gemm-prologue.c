// PolyBench gemm: the i-k-j GEMM preceded, in the same loop i, by a loop
// that scales the row of C by beta (`for (j) C[i][j] *= beta;`: the chain's
// prologue, NestInfo::Prologue). The prologue's store is INIT (beta times
// the old element, q.1), the in-place update STEP, k summed in order.
// Near misses (the spec names the prologue's access that is not the output
// element): a prologue over another number of columns (j < nj + 1: an
// off-by-one), a prologue of another row, a prologue that also writes
// another array, an inner-product (i-j-k) GEMM after a prologue (the sum
// starts from the element the prologue scaled: GVN cannot forward it).
// RUN: %clang -O2 -g -fno-vectorize -fno-unroll-loops -S -emit-llvm %s -o %t.ll
// RUN: %opt -passes='loop-simplify,lcssa,print<idiom>' -disable-output %t.ll | FileCheck %s
// RUN: %clang-idiom -c %s -o /dev/null -Rpass=idiom-offload -Rpass-missed=idiom-offload 2>&1 | FileCheck %s --check-prefix=REMARK
// RUN: %clang-idiom -fplugin=%plugin -mllvm -idiom-test-corrupt-lift -mllvm -idiom-z3-timeout=600000 -mllvm -idiom-z3-rlimit=200000000 -c %s -o /dev/null -Rpass=idiom-offload -Rpass-missed=idiom-offload 2>&1 | FileCheck %s --check-prefix=BAD
// Translation validation covers the lift: with -idiom-test-corrupt-lift
// (gemm-validation.c) Z3 finds where the program and the slices differ.

// CHECK-LABEL: Idioms in function 'polybench_gemm':
// CHECK-NEXT: loop %{{[0-9]+}} at gemm-prologue.c:[[@LINE+8]]: idiom gemm (GEMM)
// CHECK-NEXT: FunIL:
// CHECK-NEXT: idiom idiom_polybench_gemm_0(A: [f32], B: [f32], C: [f32], M: i64, N: i64, K: i64, s0: f32, s1: f32) {
// CHECK-NEXT: store view(C, 0:i64, N, M, 1:i64, N) = map(\(r: ([f32]_K, [f32]_N)) => map(\(q: ([f32]_K, f32)) => reduceSeq(\(acc: f32, x: (f32, f32)) => fma(fmul(x.0, s0), x.1, acc), fmul(q.1, s1), zip(r.0, q.0)), zip(view(B, 0:i64, 1:i64, N, N, K), r.1)), zip(view(A, 0:i64, K, M, 1:i64, K), view(C, 0:i64, N, M, 1:i64, N)));
// REMARK-DAG: gemm-prologue.c:[[@LINE+4]]:3: remark: offloaded GEMM (gemm) to OpenCL
// BAD: gemm-prologue.c:[[@LINE+3]]:3: remark: idiom gemm not offloaded: translation validation failed: Z3 found inputs on which the lifted FunIL and the LLVM slice differ (GEMM STEP, INIT or POST)
void polybench_gemm(int ni, int nj, int nk, float alpha, float beta, float *C,
                    const float *A, const float *B) {
  for (int i = 0; i < ni; i++) {
    for (int j = 0; j < nj; j++)
      C[i * nj + j] *= beta;
    for (int k = 0; k < nk; k++)
      for (int j = 0; j < nj; j++)
        C[i * nj + j] += alpha * A[i * nk + k] * B[k * nj + j];
  }
}

// Off by one: the prologue scales one element more than the update writes
// (j < nj + 1), the first element of the next row.
// CHECK-LABEL: Idioms in function 'off_by_one':
// CHECK-NOT: idiom gemm
// REMARK-DAG: gemm-prologue.c:[[@LINE+3]]:3: remark: loop is not an idiom (closest: gemm): {{.*}}SameElement(m, st): memory operation does not access the output element
void off_by_one(int ni, int nj, int nk, float alpha, float beta, float *C,
                const float *A, const float *B) {
  for (int i = 0; i < ni; i++) {
    for (int j = 0; j < nj + 1; j++)
      C[i * nj + j] *= beta;
    for (int k = 0; k < nk; k++)
      for (int j = 0; j < nj; j++)
        C[i * nj + j] += alpha * A[i * nk + k] * B[k * nj + j];
  }
}

// The prologue scales the next row, which the update writes only on the
// next iteration of i.
// CHECK-LABEL: Idioms in function 'next_row':
// CHECK-NOT: idiom gemm
// REMARK-DAG: gemm-prologue.c:[[@LINE+3]]:3: remark: loop is not an idiom (closest: gemm): {{.*}}SameElement(m, st): memory operation does not access the output element
void next_row(int ni, int nj, int nk, float beta, float *C, const float *A,
              const float *B) {
  for (int i = 0; i < ni; i++) {
    for (int j = 0; j < nj; j++)
      C[(i + 1) * nj + j] *= beta;
    for (int k = 0; k < nk; k++)
      for (int j = 0; j < nj; j++)
        C[i * nj + j] += A[i * nk + k] * B[k * nj + j];
  }
}

// The prologue also writes another array.
// CHECK-LABEL: Idioms in function 'two_stores':
// CHECK-NOT: idiom gemm
// REMARK-DAG: gemm-prologue.c:[[@LINE+3]]:3: remark: loop is not an idiom (closest: gemm): {{.*}}SameElement(m, st): memory operation does not access the output element
void two_stores(int ni, int nj, int nk, float beta, float *C, float *D,
                const float *A, const float *B) {
  for (int i = 0; i < ni; i++) {
    for (int j = 0; j < nj; j++) {
      C[i * nj + j] *= beta;
      D[i * nj + j] = 1.0f;
    }
    for (int k = 0; k < nk; k++)
      for (int j = 0; j < nj; j++)
        C[i * nj + j] += A[i * nk + k] * B[k * nj + j];
  }
}

// A prologue before an i-j-k GEMM (a sum over k): not one idiom; the
// offload pass distributes the i loop (passes/LoopDistribution.h) into the
// prologue, a 2-D map, and the GEMM (run/loop-distribution.c runs it).
// CHECK-LABEL: Idioms in function 'prologue_ijk':
// CHECK-NOT: idiom gemm
// REMARK-DAG: gemm-prologue.c:[[@LINE+4]]:3: remark: offloaded 2-D map (map)
// REMARK-DAG: gemm-prologue.c:[[@LINE+3]]:3: remark: offloaded GEMM (gemm)
void prologue_ijk(int ni, int nj, int nk, float beta, float *C, const float *A,
                  const float *B) {
  for (int i = 0; i < ni; i++) {
    for (int j = 0; j < nj; j++)
      C[i * nj + j] *= beta;
    for (int j = 0; j < nj; j++) {
      float s = C[i * nj + j];
      for (int k = 0; k < nk; k++)
        s += A[i * nk + k] * B[k * nj + j];
      C[i * nj + j] = s;
    }
  }
}
// A prologue before a single loop is not a chain (prologues only head chains
// of three, GEMM-like nests): y is scaled on every iteration of i, so this is
// not y = beta y + A^T x.
// CHECK-LABEL: Idioms in function 'gemv_prologue':
// CHECK-NOT: idiom gem
// REMARK-DAG: gemm-prologue.c:[[@LINE+3]]:3: remark: loop is not an idiom (closest: {{[a-z0-9-]+}}): {{.*}}
void gemv_prologue(int n, float beta, float *y, const float *A,
                   const float *x) {
  for (int i = 0; i < n; i++) {
    for (int j = 0; j < n; j++)
      y[j] *= beta;
    for (int j = 0; j < n; j++)
      y[j] += A[i * n + j] * x[i];
  }
}
// CHECK-LABEL: Idioms in function 'end':
void end(void) {}
