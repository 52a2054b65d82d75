// GEMV and transposed GEMV: y = alpha*A*x + beta*y as an inner product per
// element of y (A or A^T: the layout does not matter), or with y updated in
// place in the inner loop; flat and 2-D arrays, float and double, fmuladd
// and fmul+fadd. Each is detected at the outer loop, and its inner loop is
// not reported on its own.
// RUN: %clang -O2 -g -fno-vectorize -fno-unroll-loops -S -emit-llvm %s -o %t.ll
// RUN: %opt -passes='loop-simplify,lcssa,print<idiom>' -disable-output %t.ll | FileCheck %s
// RUN: %clang -O2 -g -fno-vectorize -fno-unroll-loops -ffp-contract=off -S -emit-llvm %s -o %t.off.ll
// RUN: not grep -q 'llvm.fmuladd' %t.off.ll
// RUN: %opt -passes='loop-simplify,lcssa,print<idiom>' -disable-output %t.off.ll | FileCheck %s

#define N 64
#define M 48

// y = A*x, flat row-major A, dynamic sizes.
// CHECK-LABEL: Idioms in function 'gemv_flat':
// CHECK-NEXT: loop %{{[0-9]+}} at gemv.c:[[@LINE+3]]: idiom gemv (GEMV)
// CHECK-NOT: loop
void gemv_flat(int m, int n, const float *a, const float *x, float *y) {
  for (int i = 0; i < m; i++) {
    float sum = 0;
    for (int j = 0; j < n; j++)
      sum += a[i * n + j] * x[j];
    y[i] = sum;
  }
}

double GA[M][N], GX[N], GY[M];
// y = alpha*A*x + beta*y on global 2-D arrays, static sizes.
// CHECK-LABEL: Idioms in function 'gemv_global_scaled':
// CHECK-NEXT: loop %{{[0-9]+}} at gemv.c:[[@LINE+3]]: idiom gemv (GEMV)
// CHECK-NOT: loop
void gemv_global_scaled(double alpha, double beta) {
  for (int i = 0; i < M; i++) {
    double sum = 0;
    for (int j = 0; j < N; j++)
      sum += GA[i][j] * GX[j];
    GY[i] = alpha * sum + beta * GY[i];
  }
}

// y = alpha*A*x with A a pointer to rows of a 2-D array.
// CHECK-LABEL: Idioms in function 'gemv_2d_arg':
// CHECK-NEXT: loop %{{[0-9]+}} at gemv.c:[[@LINE+3]]: idiom gemv (GEMV)
// CHECK-NOT: loop
void gemv_2d_arg(int m, int n, double alpha, const double (*a)[N], const double *x, double *y) {
  for (int i = 0; i < m; i++) {
    double sum = 0;
    for (int j = 0; j < n; j++)
      sum += a[i][j] * x[j];
    y[i] = alpha * sum;
  }
}

// BLAS-like: leading dimension lda and a strided x.
// CHECK-LABEL: Idioms in function 'gemv_strided_x':
// CHECK-NEXT: loop %{{[0-9]+}} at gemv.c:[[@LINE+3]]: idiom gemv (GEMV)
// CHECK-NOT: loop
void gemv_strided_x(int m, int n, int incx, float alpha, float beta, const float *a, int lda, const float *x, float *y) {
  for (int i = 0; i < m; i++) {
    float sum = 0;
    for (int j = 0; j < n; j++)
      sum += a[i * lda + j] * x[j * incx];
    y[i] = alpha * sum + beta * y[i];
  }
}

// y[i] += ... in the inner loop: GVN forwards the load of y[i] to a phi
// and leaves the store of the running sum in the inner loop.
// CHECK-LABEL: Idioms in function 'gemv_inplace_rows':
// CHECK-NEXT: loop %{{[0-9]+}} at gemv.c:[[@LINE+3]]: idiom gemv (GEMV)
// CHECK-NOT: loop
void gemv_inplace_rows(int m, int n, const float *a, const float *x, float *y) {
  for (int i = 0; i < m; i++)
    for (int j = 0; j < n; j++)
      y[i] += a[i * n + j] * x[j];
}

float HA[M][N], HX[N], HY[M];
// The same on globals: LICM moves y[i] out of the inner loop.
// CHECK-LABEL: Idioms in function 'gemv_inplace_rows_global':
// CHECK-NEXT: loop %{{[0-9]+}} at gemv.c:[[@LINE+3]]: idiom gemv (GEMV)
// CHECK-NOT: loop
void gemv_inplace_rows_global(void) {
  for (int i = 0; i < M; i++)
    for (int j = 0; j < N; j++)
      HY[i] += HA[i][j] * HX[j];
}

// Transposed, in place: y[j] += alpha*A[i][j]*x[i].
// CHECK-LABEL: Idioms in function 'gemv_t_inplace':
// CHECK-NEXT: loop %{{[0-9]+}} at gemv.c:[[@LINE+3]]: idiom gemv (GEMV)
// CHECK-NOT: loop
void gemv_t_inplace(int m, int n, float alpha, const float *a, const float *x, float *y) {
  for (int i = 0; i < m; i++)
    for (int j = 0; j < n; j++)
      y[j] += alpha * a[i * n + j] * x[i];
}

double TA[M][N], TX[M], TY[N];
// Transposed, in place, on globals (x[i] is hoisted out of the j loop).
// CHECK-LABEL: Idioms in function 'gemv_t_inplace_global':
// CHECK-NEXT: loop %{{[0-9]+}} at gemv.c:[[@LINE+3]]: idiom gemv (GEMV)
// CHECK-NOT: loop
void gemv_t_inplace_global(void) {
  for (int i = 0; i < M; i++)
    for (int j = 0; j < N; j++)
      TY[j] += TA[i][j] * TX[i];
}

// Transposed as an inner product over a column: sum += A[j][i]*x[j].
// CHECK-LABEL: Idioms in function 'gemv_t_sum':
// CHECK-NEXT: loop %{{[0-9]+}} at gemv.c:[[@LINE+3]]: idiom gemv (GEMV)
// CHECK-NOT: loop
void gemv_t_sum(int m, int n, const double (*a)[N], const double *x, double *y) {
  for (int i = 0; i < n; i++) {
    double sum = 0;
    for (int j = 0; j < m; j++)
      sum += a[j][i] * x[j];
    y[i] = sum;
  }
}

// Transposed, flat, operands in the other order, y = A^T*x + beta*y.
// CHECK-LABEL: Idioms in function 'gemv_t_sum_flat':
// CHECK-NEXT: loop %{{[0-9]+}} at gemv.c:[[@LINE+3]]: idiom gemv (GEMV)
// CHECK-NOT: loop
void gemv_t_sum_flat(int m, int n, float beta, const float *a, const float *x, float *y) {
  for (int i = 0; i < n; i++) {
    float sum = 0;
    for (int j = 0; j < m; j++)
      sum += x[j] * a[j * n + i];
    y[i] = sum + beta * y[i];
  }
}
