// GEMMs of a chain through temporaries (PolyBench 2mm and 3mm): the output
// element is initialised before the loop k (`tmp[i][j] = 0;`, `D[i][j] *=
// beta;`) and the sum starts from the value stored (GVN forwards it), or,
// where LLVM removed the initialising store, from the old element times beta.
// INIT is the initial value; C is read (q.1) only when INIT reads the old
// element. Near misses: an initialisation of another element, an
// initialisation that reads another element of the output.
// RUN: %clang -O2 -g -fno-vectorize -fno-unroll-loops -S -emit-llvm %s -o %t.ll
// RUN: %opt -passes='loop-simplify,lcssa,print<idiom>' -disable-output %t.ll | FileCheck %s
// RUN: %clang-idiom -c %s -o /dev/null -Rpass=idiom-offload -Rpass-missed=idiom-offload 2>&1 | FileCheck %s --check-prefix=REMARK
// RUN: %clang-idiom -fplugin=%plugin -mllvm -idiom-test-corrupt-lift -mllvm -idiom-z3-timeout=600000 -mllvm -idiom-z3-rlimit=200000000 -c %s -o /dev/null -Rpass=idiom-offload -Rpass-missed=idiom-offload 2>&1 | FileCheck %s --check-prefix=BAD
// Translation validation covers the lift: with -idiom-test-corrupt-lift (the
// first add of each lifted program a sub, or its mul an add: in init_beta
// INIT's fmul) Z3 finds where the program and the slice differ (as in
// gemm-validation.c, the refusing run lifts Z3's resource limit).

// 2mm's first product: tmp[i][j] = 0, then tmp[i][j] += alpha*A*B (the
// store stays in the loop k: tmp may alias A and B).
// CHECK-LABEL: Idioms in function 'init_zero':
// CHECK-NEXT: loop %{{[0-9]+}} at gemm-chain.c:[[@LINE+8]]: idiom gemm (GEMM)
// CHECK-NEXT: FunIL:
// CHECK-NEXT: idiom idiom_init_zero_0(A: [f32], B: [f32], C: [f32], M: i64, N: i64, K: i64, s0: f32) {
// CHECK-NEXT: store view(C, 0:i64, N, M, 1:i64, N) = map(\(r: ([f32]_K, [f32]_N)) => map(\(q: ([f32]_K, f32)) => reduceSeq(\(acc: f32, x: (f32, f32)) => fma(fmul(x.0, s0), x.1, acc), 0x0p+0:f32, zip(r.0, q.0)), zip(view(B, 0:i64, 1:i64, N, N, K), r.1)), zip(view(A, 0:i64, K, M, 1:i64, K), view(C, 0:i64, N, M, 1:i64, N)));
// REMARK-DAG: gemm-chain.c:[[@LINE+4]]:3: remark: offloaded GEMM (gemm) to OpenCL
// BAD: gemm-chain.c:[[@LINE+3]]:3: remark: idiom gemm not offloaded: translation validation failed: Z3 found inputs on which the lifted FunIL and the LLVM slice differ (GEMM STEP, INIT or POST)
void init_zero(int ni, int nj, int nk, float alpha, float *tmp, const float *a,
               const float *b) {
  for (int i = 0; i < ni; i++)
    for (int j = 0; j < nj; j++) {
      tmp[i * nj + j] = 0.0f;
      for (int k = 0; k < nk; ++k)
        tmp[i * nj + j] += alpha * a[i * nk + k] * b[k * nj + j];
    }
}

// 2mm's second product: D[i][j] *= beta, then D[i][j] += tmp*C. INIT reads
// the old element (q.1), so C is read.
// CHECK-LABEL: Idioms in function 'init_beta':
// CHECK-NEXT: loop %{{[0-9]+}} at gemm-chain.c:[[@LINE+8]]: idiom gemm (GEMM)
// CHECK-NEXT: FunIL:
// CHECK-NEXT: idiom idiom_init_beta_0(A: [f32], B: [f32], C: [f32], M: i64, N: i64, K: i64, s0: f32) {
// CHECK-NEXT: store view(C, 0:i64, N, M, 1:i64, N) = map(\(r: ([f32]_K, [f32]_N)) => map(\(q: ([f32]_K, f32)) => reduceSeq(\(acc: f32, x: (f32, f32)) => fma(x.0, x.1, acc), fmul(q.1, s0), zip(r.0, q.0)), zip(view(B, 0:i64, 1:i64, N, N, K), r.1)), zip(view(A, 0:i64, K, M, 1:i64, K), view(C, 0:i64, N, M, 1:i64, N)));
// REMARK-DAG: gemm-chain.c:[[@LINE+4]]:3: remark: offloaded GEMM (gemm) to OpenCL
// BAD: gemm-chain.c:[[@LINE+3]]:3: remark: idiom gemm not offloaded: translation validation failed: Z3 found inputs on which the lifted FunIL and the LLVM slice differ (GEMM STEP, INIT or POST)
void init_beta(int ni, int nl, int nj, float beta, float *d, const float *t,
               const float *c) {
  for (int i = 0; i < ni; i++)
    for (int j = 0; j < nl; j++) {
      d[i * nl + j] *= beta;
      for (int k = 0; k < nj; ++k)
        d[i * nl + j] += t[i * nj + k] * c[k * nl + j];
    }
}

// The same with restrict pointers and run-time sizes: LLVM keeps the sum in
// a register and stores it after the loop k, only when that loop runs (the
// initialising store holds the result otherwise). A store that runs only
// under the innermost loop's zero-trip guard is not accepted yet (a limit:
// docs/ARCHITECTURE.md); with constant sizes the initialising store goes and
// the sum starts from the old element times beta (nas-parboil/mm2.c).
// CHECK-LABEL: Idioms in function 'scaled_restrict':
// CHECK-NOT: idiom gemm
// REMARK-DAG: gemm-chain.c:[[@LINE+3]]:3: remark: loop is not an idiom (closest: gemm)
void scaled_restrict(int ni, int nl, int nj, float beta, float *restrict d,
                     const float *restrict t, const float *restrict c) {
  for (int i = 0; i < ni; i++)
    for (int j = 0; j < nl; j++) {
      d[i * nl + j] *= beta;
      for (int k = 0; k < nj; ++k)
        d[i * nl + j] += t[i * nj + k] * c[k * nl + j];
    }
}

// A constant initialisation other than zero (INIT is the constant).
// CHECK-LABEL: Idioms in function 'init_const':
// CHECK-NEXT: loop %{{[0-9]+}} at gemm-chain.c:[[@LINE+6]]: idiom gemm (GEMM)
// CHECK-NEXT: FunIL:
// CHECK-NEXT: idiom idiom_init_const_0(A: [f32], B: [f32], C: [f32], M: i64, N: i64, K: i64) {
// CHECK-NEXT: store view(C, 0:i64, M, M, 1:i64, N) = map(\(r: ([f32]_K, [f32]_N)) => map(\(q: ([f32]_K, f32)) => reduceSeq(\(acc: f32, x: (f32, f32)) => fma(x.0, x.1, acc), 0x1p-1:f32, zip(r.0, q.0)), zip(view(B, 0:i64, 1:i64, N, M, K), r.1)), zip(view(A, 0:i64, M, M, 1:i64, K), view(C, 0:i64, M, M, 1:i64, N)));
// REMARK-DAG: gemm-chain.c:[[@LINE+2]]:3: remark: offloaded GEMM (gemm) to OpenCL
void init_const(int n, float *e, const float *a, const float *b) {
  for (int i = 0; i < n; i++)
    for (int j = 0; j < n; j++) {
      e[i * n + j] = 0.5f;
      for (int k = 0; k < n; ++k)
        e[i * n + j] += a[i * n + k] * b[k * n + j];
    }
}

// Near miss: the initialisation writes another array than the update.
// CHECK-LABEL: Idioms in function 'init_other':
// CHECK-NOT: idiom gemm
// REMARK-DAG: gemm-chain.c:[[@LINE+2]]:3: remark: loop is not an idiom (closest: gemm): {{.*}}gemm.idl:{{[0-9:]+}}: SameElement(m, st): memory operation does not access the output element: store float 0.0{{.*}}
void init_other(int n, float *e, float *f, const float *a, const float *b) {
  for (int i = 0; i < n; i++)
    for (int j = 0; j < n; j++) {
      e[i * n + j] = 0.0f;
      for (int k = 0; k < n; ++k)
        f[i * n + j] += a[i * n + k] * b[k * n + j];
    }
}

// Near miss: the initialisation reads another element of the output (the
// first of its row), which earlier elements of the row have overwritten.
// CHECK-LABEL: Idioms in function 'init_reads_row':
// CHECK-NOT: idiom gemm
// REMARK-DAG: gemm-chain.c:[[@LINE+2]]:3: remark: loop is not an idiom (closest: gemm): {{.*}}gemm.idl:{{[0-9:]+}}: SameElement(m, st): {{.*}}
void init_reads_row(int n, float *d, const float *a, const float *b) {
  for (int i = 0; i < n; i++)
    for (int j = 0; j < n; j++) {
      d[i * n + j] = 0.5f * d[i * n];
      for (int k = 0; k < n; ++k)
        d[i * n + j] += a[i * n + k] * b[k * n + j];
    }
}
// CHECK-LABEL: Idioms in function 'end':
void end(void) {}
