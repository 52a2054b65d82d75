// GEMM shapes beyond the generated cross product (gemm_*.c): other loop
// orders, the in-place update with the load of C forwarded by GVN, a hoisted
// alpha*A[i][k], a sum that starts from C, operands in either order, integer
// elements. All must be detected at the outermost loop of the triple nest,
// and all but the integer one lifted (GEMM programs are float or double).
// RUN: %clang -O2 -g -fno-vectorize -fno-unroll-loops -S -emit-llvm %s -o %t.ll
// RUN: %opt -passes='loop-simplify,lcssa,print<idiom>' -disable-output %t.ll | FileCheck %s
// RUN: %clang -O2 -g -fno-vectorize -fno-unroll-loops -ffp-contract=off -S -emit-llvm %s -o %t.off.ll
// RUN: %opt -passes='loop-simplify,lcssa,print<idiom>' -disable-output %t.off.ll | FileCheck %s
// In the clang pipeline (no LCSSA) they are offloaded, with a remark:
// RUN: %clang-idiom -c %s -o /dev/null -Rpass=idiom-offload -Rpass-missed=idiom-offload 2>&1 | FileCheck %s --check-prefix=REMARK

#define N 64

// i-j-k with C updated in place: GVN forwards the load of c[i*n+j] into a
// phi of the k loop and leaves the store of the running sum in that loop.
// CHECK-LABEL: Idioms in function 'ijk_in_place':
// CHECK-NEXT: at shapes.c:[[@LINE+4]]: idiom gemm (GEMM)
// CHECK-NEXT: FunIL:
// CHECK-NOT: idiom gem
void ijk_in_place(int m, int n, int k, const float *a, const float *b, float *c) {
  for (int i = 0; i < m; i++)
    for (int j = 0; j < n; j++)
      for (int p = 0; p < k; p++)
        c[i * n + j] += a[i * k + p] * b[p * n + j];
}
// REMARK: shapes.c:[[@LINE-5]]:3: remark: offloaded GEMM (gemm) to OpenCL

// k outermost (outer-product form).
// CHECK-LABEL: Idioms in function 'kij':
// CHECK-NEXT: at shapes.c:[[@LINE+4]]: idiom gemm (GEMM)
// CHECK-NEXT: FunIL:
// CHECK-NOT: idiom gem
void kij(int m, int n, int k, const double *a, const double *b, double *c) {
  for (int p = 0; p < k; p++)
    for (int i = 0; i < m; i++)
      for (int j = 0; j < n; j++)
        c[i * n + j] += a[i * k + p] * b[p * n + j];
}

// j-i-k: the sum is over the innermost loop, C column by column.
// CHECK-LABEL: Idioms in function 'jik':
// CHECK-NEXT: at shapes.c:[[@LINE+4]]: idiom gemm (GEMM)
// CHECK-NEXT: FunIL:
// CHECK-NOT: idiom gem
void jik(float alpha, float beta, float (*a)[N], float (*b)[N], float (*c)[N]) {
  for (int j = 0; j < N; j++)
    for (int i = 0; i < N; i++) {
      float sum = 0;
      for (int p = 0; p < N; p++)
        sum += b[p][j] * a[i][p];
      c[i][j] = beta * c[i][j] + alpha * sum;
    }
}
// REMARK: shapes.c:[[@LINE-8]]:3: remark: offloaded GEMM (gemm) to OpenCL

// alpha*A[i][k] hoisted out of the j loop by hand.
float A[N][N], B[N][N], C[N][N];
// CHECK-LABEL: Idioms in function 'hoisted_alpha':
// CHECK-NEXT: at shapes.c:[[@LINE+4]]: idiom gemm (GEMM)
// CHECK-NEXT: FunIL:
// CHECK-NOT: idiom gem
void hoisted_alpha(float alpha) {
  for (int i = 0; i < N; i++)
    for (int p = 0; p < N; p++) {
      float t = alpha * A[i][p];
      for (int j = 0; j < N; j++)
        C[i][j] += t * B[p][j];
    }
}

// The sum starts from C[i][j] (C += A*B).
// CHECK-LABEL: Idioms in function 'sum_from_c':
// CHECK-NEXT: at shapes.c:[[@LINE+4]]: idiom gemm (GEMM)
// CHECK-NEXT: FunIL:
// CHECK-NOT: idiom gem
void sum_from_c(void) {
  for (int i = 0; i < N; i++)
    for (int j = 0; j < N; j++) {
      float sum = C[i][j];
      for (int p = 0; p < N; p++)
        sum += A[i][p] * B[p][j];
      C[i][j] = sum;
    }
}

// Integer elements (add and mul): detected, not lifted.
// CHECK-LABEL: Idioms in function 'int_gemm':
// CHECK-NEXT: at shapes.c:[[@LINE+5]]: idiom gemm (GEMM)
// CHECK-NEXT: not offloaded: cannot lift to FunIL: GEMM with int elements not offloaded
// CHECK-NOT: idiom gem
// REMARK: shapes.c:[[@LINE+2]]:3: remark: idiom gemm not offloaded: cannot lift to FunIL: GEMM with int elements not offloaded
void int_gemm(int n, const int *a, const int *b, int *c) {
  for (int i = 0; i < n; i++)
    for (int j = 0; j < n; j++) {
      int sum = 0;
      for (int p = 0; p < n; p++)
        sum += a[i * n + p] * b[p * n + j];
      c[i * n + j] = sum;
    }
}
