// The lifted FunIL of GEMVs (`lifts gemv`): the GEMM program of
// docs/FunIL.md with one row (M = 1, the row stride 0). y's loop is the map
// (j, N), the other loop the sequential reduction (k, K) in the loop's
// order; the program's A is the vector x (indexed by k), B the matrix
// (indexed by j and k). Row form y = A x: the matrix view has the row
// stride along j; transposed form (PolyBench bicg/atax/mvt, y[j] +=
// A[i][j]*x[i], i outer): the matrix view has the unit stride along j, so
// neighbouring work-items read neighbouring elements.
// RUN: %clang -O2 -g -fno-vectorize -fno-unroll-loops -S -emit-llvm %s -o %t.ll
// RUN: %opt -passes='loop-simplify,lcssa,print<idiom>' -disable-output %t.ll | FileCheck %s
// RUN: %opt -idiom-builtin-specs=false -idiom-spec=%srcroot/constraints/specs/gemv.idl -passes='loop-simplify,lcssa,print<idiom>' -disable-output %t.ll | FileCheck %s --check-prefix=ONLY

// Row form, flat A, run-time sizes: a map over rows of a reduceSeq over j.
// CHECK-LABEL: Idioms in function 'rows':
// CHECK-NEXT: loop %{{[0-9]+}} at gemv.c:[[@LINE+9]]: idiom gemv (GEMV)
// CHECK-NEXT: FunIL:
// CHECK-NEXT: idiom idiom_rows_0(A: [f32], B: [f32], C: [f32], N: i64, K: i64) {
// CHECK-NEXT: store view(C, 0:i64, 0:i64, 1:i64, 1:i64, N) = map(\(r: ([f32]_K, [f32]_N)) => map(\(q: ([f32]_K, f32)) => reduceSeq(\(acc: f32, x: (f32, f32)) => fmuladd(x.1, x.0, acc), 0x0p+0:f32, zip(r.0, q.0)), zip(view(B, 0:i64, K, N, 1:i64, K), r.1)), zip(view(A, 0:i64, 0:i64, 1:i64, 1:i64, K), view(C, 0:i64, 0:i64, 1:i64, 1:i64, N)));
// CHECK-NEXT: }
// CHECK-NEXT: Lowered FunIL:
// CHECK: __kernel {{.*}}void idiom_rows_0(__global const float *A, __global const float *B, __global float *C, const long N, const long K, const long A_off, const long B_off, const long C_off)
// CHECK-NOT: not offloaded
void rows(int m, int n, const float *a, const float *x, float *y) {
  for (int i = 0; i < m; i++) {
    float sum = 0;
    for (int j = 0; j < n; j++)
      sum += a[i * n + j] * x[j];
    y[i] = sum;
  }
}

#define M 48
#define N 64
double GA[M][N], GX[N], GY[M];
// y = alpha*A*x + beta*y on 2-D global arrays, static sizes: POST reads
// the old element (q.1).
// CHECK-LABEL: Idioms in function 'scaled':
// CHECK-NEXT: loop %{{[0-9]+}} at gemv.c:[[@LINE+6]]: idiom gemv (GEMV)
// CHECK-NEXT: FunIL:
// CHECK-NEXT: idiom idiom_scaled_0(A: [f64], B: [f64], C: [f64], s0: f64, s1: f64) {
// CHECK-NEXT: store view(C, 0:i64, 0:i64, 1:i64, 1:i64, 48:i64) = map(\(r: ([f64]_64, [f64]_48)) => map(\(q: ([f64]_64, f64)) => {{.*}}reduceSeq(\(acc: f64, x: (f64, f64)) => fmuladd(x.1, x.0, acc), 0x0p+0:f64, zip(r.0, q.0)){{.*}}q.1{{.*}}, zip(view(B, 0:i64, 64:i64, 48:i64, 1:i64, 64:i64), r.1)), zip(view(A, 0:i64, 0:i64, 1:i64, 1:i64, 64:i64), view(C, 0:i64, 0:i64, 1:i64, 1:i64, 48:i64)));
// CHECK-NOT: not offloaded
void scaled(double alpha, double beta) {
  for (int i = 0; i < M; i++) {
    double sum = 0;
    for (int j = 0; j < N; j++)
      sum += GA[i][j] * GX[j];
    GY[i] = alpha * sum + beta * GY[i];
  }
}

// Transposed, in place, a VLA (PolyBench bicg's s = A^T r): a map over the
// columns j, each a reduceSeq over i in i order starting from the old s[j].
// CHECK-LABEL: Idioms in function 'transposed':
// CHECK-NEXT: loop %{{[0-9]+}} at gemv.c:[[@LINE+6]]: idiom gemv (GEMV)
// CHECK-NEXT: FunIL:
// CHECK-NEXT: idiom idiom_transposed_0(A: [f64], B: [f64], C: [f64], N: i64, K: i64) {
// CHECK-NEXT: store view(C, 0:i64, 0:i64, 1:i64, 1:i64, N) = map(\(r: ([f64]_K, [f64]_N)) => map(\(q: ([f64]_K, f64)) => reduceSeq(\(acc: f64, x: (f64, f64)) => fmuladd(x.0, x.1, acc), q.1, zip(r.0, q.0)), zip(view(B, 0:i64, 1:i64, N, N, K), r.1)), zip(view(A, 0:i64, 0:i64, 1:i64, 1:i64, K), view(C, 0:i64, 0:i64, 1:i64, 1:i64, N)));
// CHECK-NOT: not offloaded
void transposed(int m, int n, double A[m][n], const double *r, double *s) {
  for (int i = 0; i < m; i++)
    for (int j = 0; j < n; j++)
      s[j] = s[j] + r[i] * A[i][j];
}

// BLAS-like strides: y[i*incy] with a run-time incy must not repeat an
// element (|incy| >= 1 is a run-time condition), x[j*incx] any stride.
// CHECK-LABEL: Idioms in function 'strided':
// CHECK-NEXT: loop %{{[0-9]+}} at gemv.c:[[@LINE+7]]: idiom gemv (GEMV)
// CHECK-NEXT: FunIL:
// CHECK-NEXT: idiom idiom_strided_0(A: [f32], B: [f32], C: [f32], N: i64, K: i64, oA: i64, sAk: i64, oB: i64, sBj: i64, oC: i64, sCj: i64, s0: f32) {
// CHECK-NEXT: store view(C, oC, 0:i64, 1:i64, sCj, N) =
// CHECK-NOT: not offloaded
void strided(int m, int n, float alpha, const float *a, int lda, const float *x,
             int incx, float *y, int incy) {
  for (int i = 0; i < m; i++) {
    float sum = 0;
    for (int j = 0; j < n; j++)
      sum += a[i * lda + j] * x[j * incx];
    y[i * incy] = alpha * sum;
  }
}

// Negatives, each with the lifter's reason.
// y is also x: y[i] = sum_j A[i][j] * y[j] reads other elements of y.
// CHECK-LABEL: Idioms in function 'y_is_x':
// CHECK: not offloaded: cannot lift to FunIL: GEMV whose output y is also read at another index not offloaded (the matrix or x is the array y)
void y_is_x(int n, const float *a, float *y) {
  for (int i = 0; i < n; i++) {
    float sum = 0;
    for (int j = 0; j < n; j++)
      sum += a[i * n + j] * y[j];
    y[i] = sum;
  }
}

// Integer elements: GEMM programs are float or double.
// CHECK-LABEL: Idioms in function 'ints':
// CHECK: not offloaded: cannot lift to FunIL: GEMV with int elements not offloaded
void ints(int m, int n, const int *a, const int *x, int *y) {
  for (int i = 0; i < m; i++) {
    int sum = 0;
    for (int j = 0; j < n; j++)
      sum += a[i * n + j] * x[j];
    y[i] = sum;
  }
}

// Non-rectangular (triangular) bounds: not a gemv (RectangularNest; the
// reason is checked with gemv.idl alone, ONLY).
// CHECK-LABEL: Idioms in function 'triangular':
// CHECK-NOT: idiom gemv
// ONLY-LABEL: Idioms in function 'triangular':
// ONLY: at gemv.c:[[@LINE+2]]: no idiom (closest: gemv): {{.*}}gemv.idl:{{.*}}: RectangularNest(loop, 2): trip count of the loop at depth 2 varies in the nest (not rectangular)
void triangular(int n, const float *a, const float *x, float *y) {
  for (int i = 0; i < n; i++) {
    float sum = 0;
    for (int j = 0; j <= i; j++)
      sum += a[i * n + j] * x[j];
    y[i] = sum;
  }
}

// A loop-carried use of the output: y[i] starts from y[i-1] (not a gemv:
// the sum must start at 0 or at the element it writes).
// CHECK-LABEL: Idioms in function 'carried':
// CHECK-NOT: idiom gemv
// ONLY-LABEL: Idioms in function 'carried':
// ONLY: at gemv.c:[[@LINE+2]]: no idiom (closest: gemv): {{.*}}gemv.idl:{{.*}}: ZeroConstant(init): value is not zero
void carried(int n, const float *a, const float *x, float *y) {
  for (int i = 1; i < n; i++) {
    float sum = y[i - 1];
    for (int j = 0; j < n; j++)
      sum += a[i * n + j] * x[j];
    y[i] = sum;
  }
}
void end(void) {}

// PolyBench atax's tmp = A x: `tmp[i] = 0` before the inner loop, which
// GVN turns into a sum that starts from the stored 0 and a store of the
// running sum in the inner loop. INIT is the stored value; y is not read.
// CHECK-LABEL: Idioms in function 'init_store':
// CHECK-NEXT: loop %{{[0-9]+}} at gemv.c:[[@LINE+5]]: idiom gemv (GEMV)
// CHECK-NEXT: FunIL:
// CHECK-NEXT: idiom idiom_init_store_0(A: [f64], B: [f64], C: [f64], N: i64, K: i64) {
// CHECK-NEXT: store view(C, 0:i64, 0:i64, 1:i64, 1:i64, N) = map(\(r: ([f64]_K, [f64]_N)) => map(\(q: ([f64]_K, f64)) => reduceSeq(\(acc: f64, x: (f64, f64)) => fmuladd(x.1, x.0, acc), 0x0p+0:f64, zip(r.0, q.0)), zip(view(B, 0:i64, K, N, 1:i64, K), r.1)), zip(view(A, 0:i64, 0:i64, 1:i64, 1:i64, K), view(C, 0:i64, 0:i64, 1:i64, 1:i64, N)));
void init_store(int m, int n, double A[m][n], const double *x, double *tmp) {
  for (int i = 0; i < m; i++) {
    tmp[i] = 0.0;
    for (int j = 0; j < n; j++)
      tmp[i] = tmp[i] + A[i][j] * x[j];
  }
}

// An initialisation after the inner loop is not one: the element ends as 0.
// CHECK-LABEL: Idioms in function 'store_after':
// CHECK: not offloaded: cannot lift to FunIL: the GEMV nest has a second store that is not an initialisation of the output element before the innermost loop
void store_after(int m, int n, double A[m][n], const double *x, double *y) {
  for (int i = 0; i < m; i++) {
    for (int j = 0; j < n; j++)
      y[i] = y[i] + A[i][j] * x[j];
    y[i] = 0.0;
  }
}

// PolyBench bicg as written there: both products in one nest (two outputs).
// With the built-in specs it is a gemv-pair (constraints/specs/gemv-pair.idl,
// docs/ConstraintLanguage.md, "Lifting a GEMV pair"): two GEMV programs,
// q = A p (i's outputs, from 0) first, then s = A^T r in place (j's
// outputs, from the old s: q.1) named with "_pair"; with gemv.idl alone the
// near miss names the second output's access.
// CHECK-LABEL: Idioms in function 'bicg_fused':
// CHECK-NOT: idiom gemv{{ }}
// CHECK: idiom gemv-pair (GEMV pair)
// CHECK-NEXT: FunIL:
// CHECK-NEXT: idiom [[K:idiom_bicg_fused_[0-9]+]](A: [f64], B: [f64], C: [f64], N: i64, K: i64) {
// CHECK-NEXT: store view(C, 0:i64, 0:i64, 1:i64, 1:i64, N) = map({{.*}}reduceSeq(\(acc: f64, x: (f64, f64)) => fmuladd(x.1, x.0, acc), 0x0p+0:f64, zip(r.0, q.0)), zip(view(B, 0:i64, K, N, 1:i64, K), r.1)), {{.*}}
// CHECK: idiom [[K]]_pair(A: [f64], B: [f64], C: [f64], N: i64, K: i64) {
// CHECK-NEXT: store view(C, 0:i64, 0:i64, 1:i64, 1:i64, N) = map({{.*}}reduceSeq(\(acc: f64, x: (f64, f64)) => fmuladd(x.0, x.1, acc), q.1, zip(r.0, q.0)), zip(view(B, 0:i64, 1:i64, N, N, K), r.1)), {{.*}}
// CHECK: Second program's lowered FunIL:
// CHECK-NOT: idiom gemv{{ }}
// ONLY-LABEL: Idioms in function 'bicg_fused':
// ONLY: at gemv.c:[[@LINE+3]]: no idiom (closest: gemv): {{.*}}gemv.idl:{{.*}}: SameElement(m, st): memory operation does not access the output element
void bicg_fused(int m, int n, double A[m][n], const double *r, const double *p,
                double *s, double *q) {
  for (int i = 0; i < m; i++) {
    q[i] = 0.0;
    for (int j = 0; j < n; j++) {
      s[j] = s[j] + r[i] * A[i][j];
      q[i] = q[i] + A[i][j] * p[j];
    }
  }
}
