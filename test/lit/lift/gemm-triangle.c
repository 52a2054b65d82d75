// Triangular GEMM variants (issue 13; spec gemm-triangle, TriangularNest over
// a chain of three loops): SYRK over the lower triangle j <= i in the i-j-k
// order and in PolyBench's i-k-j order with its beta prologue, a triangle of
// slope 2 (j <= 2 i), and a store C[j][i] that writes the upper triangle
// (the triangle then runs along the program's rows). The lifted program is
// the GEMM program whose maps zip their indices and whose element keeps
// q.1 outside the triangle (docs/FunIL.md, "Triangular GEMM programs");
// the tiled kernel skips work-groups above the triangle. Near misses: the
// strict triangle j < i (its first row is empty), an upper triangle whose
// start moves (j = i .. n), a triangle driven by a middle loop, a
// triangle on the reduction's loop k (TRMM-like), PolyBench trmm.
// RUN: %clang -O2 -g -fno-vectorize -fno-unroll-loops -S -emit-llvm %s -o %t.ll
// RUN: %opt -passes='loop-simplify,lcssa,print<idiom>' -disable-output %t.ll | FileCheck %s
// RUN: %clang-idiom -c %s -o /dev/null -Rpass=idiom-offload -Rpass-missed=idiom-offload 2>&1 | FileCheck %s --check-prefix=REMARK
// RUN: %clang-idiom -fplugin=%plugin -mllvm -idiom-test-corrupt-lift -mllvm -idiom-z3-timeout=600000 -mllvm -idiom-z3-rlimit=200000000 -c %s -o /dev/null -Rpass=idiom-offload -Rpass-missed=idiom-offload 2>&1 | FileCheck %s --check-prefix=BAD
// Translation validation covers the mask: -idiom-test-corrupt-lift turns
// its add into a sub, and Z3 finds where mask and loop differ.
#define N 200
#define M 120
float A[N][M], C[N][N], T[N][N];

// CHECK-LABEL: Idioms in function 'syrk_ijk':
// CHECK-NEXT: loop %{{[0-9]+}} at gemm-triangle.c:[[@LINE+9]]: idiom gemm-triangle (GEMM)
// CHECK-NEXT: FunIL:
// CHECK-NEXT: idiom idiom_syrk_ijk_0(A: [f32], B: [f32], C: [f32], s0: f32, s1: f32) {
// CHECK-NEXT: store view(C, 0:i64, 200:i64, 200:i64, 1:i64, 200:i64) = map(\(r: ([f32]_120, [f32]_200, i64)) => map(\(q: ([f32]_120, f32, i64)) => select(icmp_slt(q.2, add(1:i64, mul(1:i64, r.2))), fma(s0, reduceSeq(\(acc: f32, x: (f32, f32)) => fma(x.0, x.1, acc), 0x0p+0:f32, zip(r.0, q.0)), fmul(q.1, s1)), q.1), zip(view(B, 0:i64, 120:i64, 200:i64, 1:i64, 120:i64), r.1, iota(200:i64))), zip(view(A, 0:i64, 120:i64, 200:i64, 1:i64, 120:i64), view(C, 0:i64, 200:i64, 200:i64, 1:i64, 200:i64), iota(200:i64)));
// CHECK: const long kt = ((tj) < 1L + 1L * (ti + 127)) ? K : 0L;
// CHECK: if ((j0) < 1L + 1L * (i0)) {
// REMARK-DAG: gemm-triangle.c:[[@LINE+3]]:3: remark: offloaded GEMM (gemm-triangle) to OpenCL
// BAD-DAG: gemm-triangle.c:[[@LINE+2]]:3: remark: idiom gemm-triangle not offloaded: translation validation failed: Z3 found inputs on which the lifted FunIL and the LLVM slice differ (GEMM triangle mask)
void syrk_ijk(float alpha, float beta) {
  for (int i = 0; i < N; i++)
    for (int j = 0; j <= i; j++) {
      float s = 0;
      for (int k = 0; k < M; k++)
        s += A[i][k] * A[j][k];
      C[i][j] = alpha * s + beta * C[i][j];
    }
}

// CHECK-LABEL: Idioms in function 'syrk_ikj':
// CHECK-NEXT: loop %{{[0-9]+}} at gemm-triangle.c:[[@LINE+6]]: idiom gemm-triangle (GEMM)
// CHECK-NEXT: FunIL:
// CHECK-NEXT: idiom idiom_syrk_ikj_0(A: [f32], B: [f32], C: [f32], s0: f32, s1: f32) {
// CHECK-NEXT: store {{.*}} => select(icmp_slt(q.2, add(1:i64, mul(1:i64, r.2))), reduceSeq(\(acc: f32, x: (f32, f32)) => fma(fmul(x.0, s0), x.1, acc), fmul(q.1, s1), zip(r.0, q.0)), q.1){{.*}}
// REMARK-DAG: gemm-triangle.c:[[@LINE+2]]:3: remark: offloaded GEMM (gemm-triangle) to OpenCL
void syrk_ikj(float alpha, float beta) {
  for (int i = 0; i < N; i++) {
    for (int j = 0; j <= i; j++)
      C[i][j] *= beta;
    for (int k = 0; k < M; k++)
      for (int j = 0; j <= i; j++)
        C[i][j] += alpha * A[i][k] * A[j][k];
  }
}

// CHECK-LABEL: Idioms in function 'double_slope':
// CHECK-NEXT: loop %{{[0-9]+}} at gemm-triangle.c:[[@LINE+5]]: idiom gemm-triangle (GEMM)
// CHECK-NEXT: FunIL:
// CHECK-NEXT: idiom idiom_double_slope_0(A: [f32], B: [f32], C: [f32]) {
// CHECK-NEXT: store view(C, 0:i64, 200:i64, 100:i64, 1:i64, 199:i64) = {{.*}}select(icmp_slt(q.2, add(1:i64, mul(2:i64, r.2))), {{.*}}
void double_slope(void) {
  for (int i = 0; i < N / 2; i++)
    for (int j = 0; j <= 2 * i; j++) {
      float s = 0;
      for (int k = 0; k < M; k++)
        s += A[i][k] * A[j][k];
      C[i][j] = s;
    }
}

// C[j][i]: rows are j (the triangle's loop), columns i.
// CHECK-LABEL: Idioms in function 'transposed_store':
// CHECK-NEXT: loop %{{[0-9]+}} at gemm-triangle.c:[[@LINE+5]]: idiom gemm-triangle (GEMM)
// CHECK-NEXT: FunIL:
// CHECK-NEXT: idiom idiom_transposed_store_0(A: [f32], B: [f32], C: [f32]) {
// CHECK-NEXT: store {{.*}}select(icmp_slt(r.2, add(1:i64, mul(1:i64, q.2))), {{.*}}
void transposed_store(void) {
  for (int i = 0; i < N; i++)
    for (int j = 0; j <= i; j++) {
      float s = 0;
      for (int k = 0; k < M; k++)
        s += A[i][k] * A[j][k];
      C[j][i] = s;
    }
}

// CHECK-LABEL: Idioms in function 'strict_lower':
// CHECK-NOT: idiom gemm
// CHECK: at gemm-triangle.c:[[@LINE+3]]: no idiom (closest: {{gemm|gemm-triangle}}): {{.*}}varies in the nest
// CHECK-NOT: idiom gemm
void strict_lower(void) {
  for (int i = 0; i < N; i++)
    for (int j = 0; j < i; j++) {
      float s = 0;
      for (int k = 0; k < M; k++)
        s += A[i][k] * A[j][k];
      C[i][j] = s;
    }
}

// CHECK-LABEL: Idioms in function 'upper':
// CHECK-NOT: idiom gemm
// CHECK: at gemm-triangle.c:[[@LINE+3]]: no idiom (closest: {{gemm|gemm-triangle}}): {{.*}}varies in the nest
// CHECK-NOT: idiom gemm
void upper(void) {
  for (int i = 0; i < N; i++)
    for (int j = i; j < N; j++) {
      float s = 0;
      for (int k = 0; k < M; k++)
        s += A[i][k] * A[j][k];
      C[i][j] = s;
    }
}

// The count of j grows with k, the middle loop: not a triangle of the chain.
// CHECK-LABEL: Idioms in function 'bound_not_outer':
// CHECK-NOT: idiom gemm
// CHECK: at gemm-triangle.c:[[@LINE+3]]: no idiom (closest: gemm): {{.*}}RectangularNest(loop, 3): trip count of the loop at depth 3 varies in the nest (not rectangular)
// CHECK-NOT: idiom gemm
void bound_not_outer(void) {
  for (int k = 0; k < M; k++)
    for (int i = 0; i < N; i++)
      for (int j = 0; j <= i; j++)
        C[i][j] += A[i][k] * A[j][k];
}

// CHECK-LABEL: Idioms in function 'triangle_on_k':
// CHECK: idiom gemm-triangle (GEMM)
// CHECK-NEXT: not offloaded: cannot lift to FunIL: the GEMM nest is triangular in the reduction's loop k (a TRMM-like product whose sum runs over a triangle) or its triangle is driven by k; only a triangle of the output C (SYRK's j <= i) is lifted
// REMARK-DAG: gemm-triangle.c:[[@LINE+2]]:3: remark: idiom gemm-triangle not offloaded: cannot lift to FunIL: the GEMM nest is triangular in the reduction's loop k
void triangle_on_k(void) {
  for (int i = 0; i < N; i++)
    for (int j = 0; j < N; j++) {
      float s = 0;
      for (int k = 0; k <= i; k++)
        s += T[i][k] * T[k][j];
      C[i][j] = s;
    }
}

// PolyBench trmm: k starts at i + 1 and B (here T) is read below row i;
// not a GEMM, lifted by the spec trmm (test/lit/lift/trmm.c).
// CHECK-LABEL: Idioms in function 'trmm':
// CHECK-NOT: idiom gemm
// CHECK: at gemm-triangle.c:[[@LINE+3]]: idiom trmm (TRMM)
// CHECK-NOT: idiom gemm
void trmm(float alpha) {
  for (int i = 0; i < N; i++)
    for (int j = 0; j < N; j++) {
      for (int k = i + 1; k < N; k++)
        T[i][j] += C[k][i] * T[k][j];
      T[i][j] = alpha * T[i][j];
    }
}
