// A permissive user spec (Inputs/loose-gemv.idl: any rectangular chain of
// two loops, `lifts gemv`) cannot make an unsound offload: the GEMM lifter
// re-derives the roles of a GEMV and refuses, with its reason, whatever is
// not y = POST(reduceSeq(STEP, INIT, x, a row or column of A), y). True
// GEMVs, in both loop orders, are lifted.
// RUN: %clang -O2 -g -fno-vectorize -fno-unroll-loops -S -emit-llvm %s -o %t.ll
// RUN: %opt -idiom-builtin-specs=false -idiom-spec=%S/Inputs/loose-gemv.idl -passes='loop-simplify,lcssa,print<idiom>' -disable-output %t.ll | FileCheck %s

// CHECK-LABEL: Idioms in function 'gemv':
// CHECK-NEXT: idiom loose-gemv (GEMV)
// CHECK-NEXT: FunIL:
// CHECK-NOT: not offloaded
// CHECK: OpenCL:
void gemv(int m, int n, const float *a, const float *x, float *y) {
  for (int i = 0; i < m; i++) {
    float s = 0;
    for (int j = 0; j < n; j++)
      s += a[i * n + j] * x[j];
    y[i] = s;
  }
}

// CHECK-LABEL: Idioms in function 'transposed':
// CHECK-NEXT: idiom loose-gemv (GEMV)
// CHECK-NEXT: FunIL:
// CHECK-NOT: not offloaded
// CHECK: OpenCL:
void transposed(int m, int n, const float *a, const float *r, float *s) {
  for (int i = 0; i < m; i++)
    for (int j = 0; j < n; j++)
      s[j] += a[i * n + j] * r[i];
}

// A 2-D map: the output is a matrix.
// CHECK-LABEL: Idioms in function 'scale2d':
// CHECK: not offloaded: cannot lift to FunIL: the GEMV output y is not a vector indexed by one loop of the nest
void scale2d(int m, int n, const float *a, float *c) {
  for (int i = 0; i < m; i++)
    for (int j = 0; j < n; j++)
      c[i * n + j] = 2.0f * a[i * n + j];
}

// PolyBench bicg fused: two outputs in one nest.
// CHECK-LABEL: Idioms in function 'bicg_fused':
// CHECK: not offloaded: cannot lift to FunIL: the GEMV nest has a second store that is not an initialisation of the output element before the innermost loop
void bicg_fused(int m, int n, const float *a, const float *r, const float *p,
                float *s, float *q) {
  for (int i = 0; i < m; i++) {
    q[i] = 0;
    for (int j = 0; j < n; j++) {
      s[j] += r[i] * a[i * n + j];
      q[i] += a[i * n + j] * p[j];
    }
  }
}

// A Gauss-Seidel-like sweep: row i reads elements that earlier rows wrote.
// CHECK-LABEL: Idioms in function 'sweep':
// CHECK: not offloaded: cannot lift to FunIL: GEMV whose output y is also read at another index not offloaded
void sweep(int n, const float *a, float *y) {
  for (int i = 0; i < n; i++)
    for (int j = 0; j < n; j++)
      y[i] += a[i * n + j] * y[j];
}

// The transposed form reading the vector it writes: s[j] += A[i][j] * s[i].
// CHECK-LABEL: Idioms in function 'transposed_self':
// CHECK: not offloaded: cannot lift to FunIL: GEMV whose output y is also read at another index not offloaded
void transposed_self(int n, const float *a, float *s) {
  for (int i = 0; i < n; i++)
    for (int j = 0; j < n; j++)
      s[j] += a[i * n + j] * s[i];
}

// No vector: squares of the matrix's elements summed along a row.
// CHECK-LABEL: Idioms in function 'row_squares':
// CHECK: not offloaded: cannot lift to FunIL: the GEMV update does not read both the matrix (indexed by both loops) and the vector x (indexed by the reduction's loop)
void row_squares(int m, int n, const float *a, float *y) {
  for (int i = 0; i < m; i++) {
    float s = 0;
    for (int j = 0; j < n; j++)
      s += a[i * n + j] * a[i * n + j];
    y[i] = s;
  }
}

// The output set after the inner loop: the element ends as 0, not the sum.
// CHECK-LABEL: Idioms in function 'reset_after':
// CHECK: not offloaded: cannot lift to FunIL: the GEMV nest has a second store that is not an initialisation of the output element before the innermost loop
void reset_after(int m, int n, const float *a, const float *x, float *y) {
  for (int i = 0; i < m; i++) {
    for (int j = 0; j < n; j++)
      y[i] += a[i * n + j] * x[j];
    y[i] = 0;
  }
}

// A store only under a condition.
// CHECK-LABEL: Idioms in function 'conditional':
// CHECK: store executes only under a condition
void conditional(int m, int n, const float *a, const float *x, float *y) {
  for (int i = 0; i < m; i++) {
    float s = 0;
    for (int j = 0; j < n; j++)
      s += a[i * n + j] * x[j];
    if (s > 0)
      y[i] = s;
  }
}
