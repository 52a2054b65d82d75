// The lifted FunIL of GEMMs: the canonical program of docs/FunIL.md ("GEMM
// programs") for representative layouts. j is C's unit-stride loop, A the
// operand that shares C's other loop; everything else is in the offsets and
// strides of the views. llvm.fmuladd (clang's default -ffp-contract=on) is
// lifted as fma under the floating-point licence (the default; this host
// does not fuse it), as fmuladd with -idiom-fp-reassoc=false; with
// -ffp-contract=off STEP is fadd(acc, fmul(...)).
// RUN: %clang -O2 -g -fno-vectorize -fno-unroll-loops -S -emit-llvm %s -o %t.ll
// RUN: %opt -passes='loop-simplify,lcssa,print<idiom>' -disable-output %t.ll | FileCheck %s
// RUN: %opt -idiom-fp-reassoc=false -passes='loop-simplify,lcssa,print<idiom>' -disable-output %t.ll | FileCheck %s --check-prefix=EXACT
// RUN: %clang -O2 -g -fno-vectorize -fno-unroll-loops -ffp-contract=off -S -emit-llvm %s -o %t.off.ll
// RUN: %opt -passes='loop-simplify,lcssa,print<idiom>' -disable-output %t.off.ll | FileCheck %s --check-prefix=OFF

// Row-major, i-j-k, run-time sizes, C = alpha*A*B + beta*C.
// CHECK-LABEL: Idioms in function 'rm_ijk':
// CHECK-NEXT: loop %{{[0-9]+}} at gemm.c:[[@LINE+15]]: idiom gemm (GEMM)
// CHECK-NEXT: FunIL:
// CHECK-NEXT: idiom idiom_rm_ijk_0(A: [f32], B: [f32], C: [f32], M: i64, N: i64, K: i64, s0: f32, s1: f32) {
// CHECK-NEXT: store view(C, 0:i64, N, M, 1:i64, N) = map(\(r: ([f32]_K, [f32]_N)) => map(\(q: ([f32]_K, f32)) => fma(s0, reduceSeq(\(acc: f32, x: (f32, f32)) => fma(x.0, x.1, acc), 0x0p+0:f32, zip(r.0, q.0)), fmul(q.1, s1)), zip(view(B, 0:i64, 1:i64, N, N, K), r.1)), zip(view(A, 0:i64, K, M, 1:i64, K), view(C, 0:i64, N, M, 1:i64, N)));
// CHECK-NEXT: }
// CHECK-NEXT: Lowered FunIL:
// CHECK: __kernel {{.*}}void idiom_rm_ijk_0(__global const float *A, __global const float *B, __global float *C, const long M, const long N, const long K, const float s0, const float s1, const long A_off, const long B_off, const long C_off)
// EXACT-LABEL: Idioms in function 'rm_ijk':
// EXACT: store view(C, 0:i64, N, M, 1:i64, N) = map(\(r: ([f32]_K, [f32]_N)) => map(\(q: ([f32]_K, f32)) => fmuladd(s0, reduceSeq(\(acc: f32, x: (f32, f32)) => fmuladd(x.0, x.1, acc), 0x0p+0:f32, zip(r.0, q.0)), fmul(q.1, s1)), zip(view(B, 0:i64, 1:i64, N, N, K), r.1)), zip(view(A, 0:i64, K, M, 1:i64, K), view(C, 0:i64, N, M, 1:i64, N)));
// OFF-LABEL: Idioms in function 'rm_ijk':
// OFF: store view(C, 0:i64, N, M, 1:i64, N) = map(\(r: ([f32]_K, [f32]_N)) => map(\(q: ([f32]_K, f32)) => fadd(fmul(reduceSeq(\(acc: f32, x: (f32, f32)) => fadd(acc, fmul(x.0, x.1)), 0x0p+0:f32, zip(r.0, q.0)), s0), fmul(q.1, s1)), zip(view(B, 0:i64, 1:i64, N, N, K), r.1)), zip(view(A, 0:i64, K, M, 1:i64, K), view(C, 0:i64, N, M, 1:i64, N)));
// OFF-NEXT: }
// OFF-NEXT: Lowered FunIL:
void rm_ijk(int m, int n, int k, float alpha, const float *a, const float *b,
            float beta, float *c) {
  for (int i = 0; i < m; i++)
    for (int j = 0; j < n; j++) {
      float s = 0;
      for (int p = 0; p < k; p++)
        s += a[i * k + p] * b[p * n + j];
      c[i * n + j] = alpha * s + beta * c[i * n + j];
    }
}

// Parboil's column-major C = alpha*A*B^T + beta*C with leading dimensions:
// C's unit stride is along mm, so j is mm and the lifted A is the source's
// b (indexed by nn and i). Offsets are parameters because the signs of the
// int leading dimensions are unknown.
// CHECK-LABEL: Idioms in function 'parboil':
// CHECK-NEXT: loop %{{[0-9]+}} at gemm.c:[[@LINE+8]]: idiom gemm (GEMM)
// CHECK-NEXT: FunIL:
// CHECK-NEXT: idiom idiom_parboil_0(A: [f32], B: [f32], C: [f32], M: i64, N: i64, K: i64, oA: i64, sAk: i64, oB: i64, sBk: i64, oC: i64, sCi: i64, s0: f32, s1: f32) {
// CHECK-NEXT: store view(C, oC, sCi, M, 1:i64, N) = map(\(r: ([f32]_K, [f32]_N)) => map(\(q: ([f32]_K, f32)) => fma(q.1, s0, fmul(reduceSeq(\(acc: f32, x: (f32, f32)) => fma(x.1, x.0, acc), 0x0p+0:f32, zip(r.0, q.0)), s1)), zip(view(B, oB, 1:i64, N, sBk, K), r.1)), zip(view(A, oA, 1:i64, M, sAk, K), view(C, oC, sCi, M, 1:i64, N)));
// CHECK-NEXT: }
// CHECK-NEXT: Lowered FunIL:
void parboil(int m, int n, int k, float alpha, const float *a, int lda,
             const float *b, int ldb, float beta, float *c, int ldc) {
  for (int mm = 0; mm < m; ++mm)
    for (int nn = 0; nn < n; ++nn) {
      float s = 0.0f;
      for (int i = 0; i < k; ++i)
        s += a[mm + i * lda] * b[nn + i * ldb];
      c[mm + nn * ldc] = c[mm + nn * ldc] * beta + alpha * s;
    }
}

// Transposed B (stored N x K): B's rows are along j with stride K.
// CHECK-LABEL: Idioms in function 'tb':
// CHECK-NEXT: loop %{{[0-9]+}} at gemm.c:[[@LINE+7]]: idiom gemm (GEMM)
// CHECK-NEXT: FunIL:
// CHECK-NEXT: idiom idiom_tb_0(A: [f32], B: [f32], C: [f32], M: i64, N: i64, K: i64) {
// CHECK-NEXT: store view(C, 0:i64, N, M, 1:i64, N) = map(\(r: ([f32]_K, [f32]_N)) => map(\(q: ([f32]_K, f32)) => reduceSeq(\(acc: f32, x: (f32, f32)) => fma(x.0, x.1, acc), 0x0p+0:f32, zip(r.0, q.0)), zip(view(B, 0:i64, K, N, 1:i64, K), r.1)), zip(view(A, 0:i64, K, M, 1:i64, K), view(C, 0:i64, N, M, 1:i64, N)));
// OFF-LABEL: Idioms in function 'tb':
// OFF: reduceSeq(\(acc: f32, x: (f32, f32)) => fadd(acc, fmul(x.0, x.1)), 0x0p+0:f32, zip(r.0, q.0))
void tb(int m, int n, int k, const float *a, const float *b, float *c) {
  for (int i = 0; i < m; i++)
    for (int j = 0; j < n; j++) {
      float s = 0;
      for (int p = 0; p < k; p++)
        s += a[i * k + p] * b[j * k + p];
      c[i * n + j] = s;
    }
}

#define M 48
#define N 40
#define K 32
// i-k-j in place on 2-D double arrays, static sizes: INIT is the old C
// element, POST the sum itself.
// CHECK-LABEL: Idioms in function 'ikj_2d':
// CHECK-NEXT: loop %{{[0-9]+}} at gemm.c:[[@LINE+7]]: idiom gemm (GEMM)
// CHECK-NEXT: FunIL:
// CHECK-NEXT: idiom idiom_ikj_2d_0(A: [f64], B: [f64], C: [f64]) {
// CHECK-NEXT: store view(C, 0:i64, 40:i64, 48:i64, 1:i64, 40:i64) = map(\(r: ([f64]_32, [f64]_40)) => map(\(q: ([f64]_32, f64)) => reduceSeq(\(acc: f64, x: (f64, f64)) => fma(x.0, x.1, acc), q.1, zip(r.0, q.0)), zip(view(B, 0:i64, 1:i64, 40:i64, 40:i64, 32:i64), r.1)), zip(view(A, 0:i64, 32:i64, 48:i64, 1:i64, 32:i64), view(C, 0:i64, 40:i64, 48:i64, 1:i64, 40:i64)));
// OFF-LABEL: Idioms in function 'ikj_2d':
// OFF: reduceSeq(\(acc: f64, x: (f64, f64)) => fadd(acc, fmul(x.0, x.1)), q.1, zip(r.0, q.0))
void ikj_2d(double (*c)[N], double (*a)[K], double (*b)[N]) {
  for (int i = 0; i < M; i++)
    for (int p = 0; p < K; p++)
      for (int j = 0; j < N; j++)
        c[i][j] += a[i][p] * b[p][j];
}

// Column-major C on a flat global array (so the lifted j is the source i and
// the lifted A the source GB), alpha scaling an operand inside the product.
double GA[K * M], GB[N * K], GC[N * M];
// CHECK-LABEL: Idioms in function 'cm_alpha':
// CHECK-NEXT: loop %{{[0-9]+}} at gemm.c:[[@LINE+5]]: idiom gemm (GEMM)
// CHECK-NEXT: FunIL:
// CHECK-NEXT: idiom idiom_cm_alpha_0(A: [f64], B: [f64], C: [f64], s0: f64) {
// CHECK-NEXT: store view(C, 0:i64, 48:i64, 40:i64, 1:i64, 48:i64) = map(\(r: ([f64]_32, [f64]_48)) => map(\(q: ([f64]_32, f64)) => reduceSeq(\(acc: f64, x: (f64, f64)) => fma(fmul(x.1, s0), x.0, acc), q.1, zip(r.0, q.0)), zip(view(B, 0:i64, 1:i64, 48:i64, 48:i64, 32:i64), r.1)), zip(view(A, 0:i64, 32:i64, 40:i64, 1:i64, 32:i64), view(C, 0:i64, 48:i64, 40:i64, 1:i64, 48:i64)));
void cm_alpha(double alpha) {
  for (int i = 0; i < M; i++)
    for (int p = 0; p < K; p++)
      for (int j = 0; j < N; j++)
        GC[j * M + i] += alpha * GA[p * M + i] * GB[j * K + p];
}
