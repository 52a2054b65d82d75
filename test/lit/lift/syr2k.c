// SYR2K (issue 13; specs syr2k and syr2k-triangle in gemm.idl): two
// products per step, each of an element indexed by {i, k} and one by
// {k, j}, lifted as the GEMM program whose rows zip A2 and whose columns zip
// B2 as their last component, STEP reading x: (T, T, T, T) in the loop's
// order of additions (docs/FunIL.md, "GEMM programs with two products").
// Positives: PolyBench 4's syr2k (lower triangle, i-k-j, beta prologue),
// the i-j-k order over the triangle, the square with two statements
// `C += ...; C += ...;` (two multiply-adds), and a difference of products
// (a negated load is a scaled load). Near misses: three products (the
// accumulator of the second multiply-add is no product), two elements of
// B with one of A, products of two rows i and two rows j (no element at
// {k, j} in the first product), the strict triangle j < i (the rows are
// column reductions, as for SYRK). Translation validation covers the
// second pair: -idiom-test-corrupt-lift changes the square's STEP (its
// first fmul) and the triangles' masks, and Z3 finds the difference.
// RUN: %clang -O2 -g -fno-vectorize -fno-unroll-loops -S -emit-llvm %s -o %t.ll
// RUN: %opt -passes='loop-simplify,lcssa,print<idiom>' -disable-output %t.ll | FileCheck %s
// RUN: %clang-idiom -c %s -o /dev/null -Rpass=idiom-offload -Rpass-missed=idiom-offload 2>&1 | FileCheck %s --check-prefix=REMARK
// RUN: %clang-idiom -fplugin=%plugin -mllvm -idiom-test-corrupt-lift -mllvm -idiom-z3-timeout=600000 -mllvm -idiom-z3-rlimit=200000000 -c %s -o /dev/null -Rpass=idiom-offload -Rpass-missed=idiom-offload 2>&1 | FileCheck %s --check-prefix=BAD
#define N 200
#define M 120
float A[N][M], B[N][M], C[N][N];

// CHECK-LABEL: Idioms in function 'syr2k_ikj':
// CHECK-NEXT: loop %{{[0-9]+}} at syr2k.c:[[@LINE+7]]: idiom syr2k-triangle (GEMM)
// CHECK-NEXT: FunIL:
// CHECK-NEXT: idiom idiom_syr2k_ikj_0(A: [f32], B: [f32], C: [f32], A2: [f32], B2: [f32], s0: f32, s1: f32) {
// CHECK-NEXT: store view(C, 0:i64, 200:i64, 200:i64, 1:i64, 200:i64) = map(\(r: ([f32]_120, [f32]_200, i64, [f32]_120)) => map(\(q: ([f32]_120, f32, i64, [f32]_120)) => select(icmp_slt(q.2, add(1:i64, mul(1:i64, r.2))), reduceSeq(\(acc: f32, x: (f32, f32, f32, f32)) => fadd(acc, fma(fmul(x.1, s0), x.0, fmul(fmul(x.3, s0), x.2))), fmul(q.1, s1), zip(r.0, q.0, r.3, q.3)), q.1), zip(view(B, 0:i64, 120:i64, 200:i64, 1:i64, 120:i64), r.1, iota(200:i64), view(B2, 0:i64, 120:i64, 200:i64, 1:i64, 120:i64))), zip(view(A, 0:i64, 120:i64, 200:i64, 1:i64, 120:i64), view(C, 0:i64, 200:i64, 200:i64, 1:i64, 200:i64), iota(200:i64), view(A2, 0:i64, 120:i64, 200:i64, 1:i64, 120:i64)));
// REMARK-DAG: syr2k.c:[[@LINE+3]]:3: remark: offloaded GEMM (syr2k-triangle) to OpenCL
// BAD-DAG: syr2k.c:[[@LINE+2]]:3: remark: idiom syr2k-triangle not offloaded: translation validation failed: Z3 found inputs on which the lifted FunIL and the LLVM slice differ (GEMM triangle mask)
void syr2k_ikj(float alpha, float beta) {
  for (int i = 0; i < N; i++) {
    for (int j = 0; j <= i; j++)
      C[i][j] *= beta;
    for (int k = 0; k < M; k++)
      for (int j = 0; j <= i; j++)
        C[i][j] += A[j][k] * alpha * B[i][k] + B[j][k] * alpha * A[i][k];
  }
}

// CHECK-LABEL: Idioms in function 'syr2k_ijk':
// CHECK-NEXT: loop %{{[0-9]+}} at syr2k.c:[[@LINE+6]]: idiom syr2k-triangle (GEMM)
// CHECK-NEXT: FunIL:
// CHECK-NEXT: idiom idiom_syr2k_ijk_0(A: [f32], B: [f32], C: [f32], A2: [f32], B2: [f32], s0: f32, s1: f32) {
// CHECK-NEXT: store {{.*}} => select(icmp_slt(q.2, add(1:i64, mul(1:i64, r.2))), fma(s0, reduceSeq(\(acc: f32, x: (f32, f32, f32, f32)) => fadd(acc, fma(x.0, x.1, fmul(x.2, x.3))), 0x0p+0:f32, zip(r.0, q.0, r.3, q.3)), fmul(q.1, s1)), q.1){{.*}}
// REMARK-DAG: syr2k.c:[[@LINE+2]]:3: remark: offloaded GEMM (syr2k-triangle) to OpenCL
void syr2k_ijk(float alpha, float beta) {
  for (int i = 0; i < N; i++)
    for (int j = 0; j <= i; j++) {
      float s = 0;
      for (int k = 0; k < M; k++)
        s += A[i][k] * B[j][k] + B[i][k] * A[j][k];
      C[i][j] = alpha * s + beta * C[i][j];
    }
}

// CHECK-LABEL: Idioms in function 'syr2k_square':
// CHECK-NEXT: loop %{{[0-9]+}} at syr2k.c:[[@LINE+7]]: idiom syr2k (GEMM)
// CHECK-NEXT: FunIL:
// CHECK-NEXT: idiom idiom_syr2k_square_0(A: [f32], B: [f32], C: [f32], A2: [f32], B2: [f32], s0: f32) {
// CHECK-NEXT: store view(C, 0:i64, 200:i64, 200:i64, 1:i64, 200:i64) = map(\(r: ([f32]_120, [f32]_200, [f32]_120)) => map(\(q: ([f32]_120, f32, [f32]_120)) => reduceSeq(\(acc: f32, x: (f32, f32, f32, f32)) => fma(fmul(x.2, s0), x.3, fma(fmul(x.0, s0), x.1, acc)), q.1, zip(r.0, q.0, r.2, q.2)), zip(view(B, {{.*}}), r.1, view(B2, {{.*}}))), zip(view(A, {{.*}}), view(C, {{.*}}), view(A2, {{.*}})));
// REMARK-DAG: syr2k.c:[[@LINE+3]]:3: remark: offloaded GEMM (syr2k) to OpenCL
// BAD-DAG: syr2k.c:[[@LINE+2]]:3: remark: idiom syr2k not offloaded: translation validation failed: Z3 found inputs on which the lifted FunIL and the LLVM slice differ (GEMM STEP, INIT or POST)
void syr2k_square(float alpha) {
  for (int i = 0; i < N; i++)
    for (int j = 0; j < N; j++)
      for (int k = 0; k < M; k++) {
        C[i][j] += alpha * A[i][k] * B[j][k];
        C[i][j] += alpha * B[i][k] * A[j][k];
      }
}

// CHECK-LABEL: Idioms in function 'three_products':
// CHECK-NOT: idiom syr2k
// CHECK: at syr2k.c:[[@LINE+3]]: no idiom (closest: syr2k-triangle): {{.*}}Mul(t, x2, y2): value is not a product x * y
// CHECK-NOT: idiom syr2k
void three_products(void) {
  for (int i = 0; i < N; i++)
    for (int j = 0; j <= i; j++) {
      float s = 0;
      for (int k = 0; k < M; k++)
        s += A[i][k] * B[j][k] + B[i][k] * A[j][k] + A[i][k] * A[j][k];
      C[i][j] = s;
    }
}

// CHECK-LABEL: Idioms in function 'shared_row':
// CHECK-NEXT: loop %{{[0-9]+}} at syr2k.c:[[@LINE+4]]: idiom syr2k-triangle (GEMM)
// CHECK-NEXT: not offloaded: cannot lift to FunIL: the GEMM update reads two elements of B per step but one of A (not two products)
// REMARK-DAG: syr2k.c:[[@LINE+2]]:3: remark: idiom syr2k-triangle not offloaded: cannot lift to FunIL: the GEMM update reads two elements of B per step but one of A
void shared_row(void) {
  for (int i = 0; i < N; i++)
    for (int j = 0; j <= i; j++) {
      float s = 0;
      for (int k = 0; k < M; k++)
        s += A[i][k] * B[j][k] + A[i][k] * A[j][k];
      C[i][j] = s;
    }
}

// CHECK-LABEL: Idioms in function 'same_rows':
// CHECK-NOT: idiom syr2k
// CHECK: at syr2k.c:[[@LINE+3]]: no idiom (closest: syr2k-triangle): {{.*}}MatrixIndex(b1, loop, k, j)
// CHECK-NOT: idiom syr2k
void same_rows(void) {
  for (int i = 0; i < N; i++)
    for (int j = 0; j <= i; j++) {
      float s = 0;
      for (int k = 0; k < M; k++)
        s += A[i][k] * B[i][k] + B[j][k] * A[j][k];
      C[i][j] = s;
    }
}

// CHECK-LABEL: Idioms in function 'strict':
// CHECK-NOT: idiom syr2k
// CHECK: at syr2k.c:[[@LINE+3]]: no idiom (closest: gemm): {{.*}}RectangularNest(loop, 3): trip count of the loop at depth 2 varies in the nest (not rectangular)
// CHECK-NOT: idiom syr2k
void strict(float alpha) {
  for (int i = 0; i < N; i++)
    for (int j = 0; j < i; j++)
      for (int k = 0; k < M; k++)
        C[i][j] += A[j][k] * alpha * B[i][k] + B[j][k] * alpha * A[i][k];
}

// CHECK-LABEL: Idioms in function 'difference':
// CHECK-NEXT: loop %{{[0-9]+}} at syr2k.c:[[@LINE+6]]: idiom syr2k-triangle (GEMM)
// CHECK-NEXT: FunIL:
// CHECK-NEXT: idiom idiom_difference_0(A: [f32], B: [f32], C: [f32], A2: [f32], B2: [f32]) {
// CHECK-NEXT: store {{.*}}reduceSeq(\(acc: f32, x: (f32, f32, f32, f32)) => fadd(acc, fma(x.0, x.1, fmul(x.3, fneg(x.2)))), 0x0p+0:f32, zip(r.0, q.0, r.3, q.3)){{.*}}
// REMARK-DAG: syr2k.c:[[@LINE+2]]:3: remark: offloaded GEMM (syr2k-triangle) to OpenCL
void difference(void) {
  for (int i = 0; i < N; i++)
    for (int j = 0; j <= i; j++) {
      float s = 0;
      for (int k = 0; k < M; k++)
        s += A[i][k] * B[j][k] - B[i][k] * A[j][k];
      C[i][j] = s;
    }
}
