// GEMMs that are not offloaded, each with its reason in the -Rpass-missed
// remark: integer elements (GEMM programs are float or double), an output
// that is also read at another index (here as A), and a k loop with an
// access that is not affine (rejected by the spec already).
// RUN: %clang-idiom -c %s -o /dev/null -Rpass=idiom-offload -Rpass-missed=idiom-offload 2>&1 | FileCheck %s
// RUN: %clang-idiom -c %s -o /dev/null -Rpass=idiom-offload 2>&1 | FileCheck %s --check-prefix=NONE
// NONE-NOT: remark: offloaded GEMM
#define N 64

void int_gemm(int n, const int *a, const int *b, int *c) {
  // CHECK: gemm-negative.c:[[@LINE+1]]:3: remark: idiom gemm not offloaded: cannot lift to FunIL: GEMM with int elements not offloaded (GEMM programs are float or double)
  for (int i = 0; i < n; i++)
    for (int j = 0; j < n; j++) {
      int s = 0;
      for (int p = 0; p < n; p++)
        s += a[i * n + p] * b[p * n + j];
      c[i * n + j] = s;
    }
}

// C[i][j] += C[i][k] * B[k][j]: C is also A.
void c_is_a(float (*c)[N], float (*b)[N]) {
  // CHECK: gemm-negative.c:[[@LINE+1]]:3: remark: idiom gemm not offloaded: cannot lift to FunIL: GEMM whose output C is also read at another index not offloaded (A or B is the array C)
  for (int i = 0; i < N; i++)
    for (int k = 0; k < N; k++)
      for (int j = 0; j < N; j++)
        c[i][j] += c[i][k] * b[k][j];
}

// The same in i-j-k order with a flat C and run-time sizes.
void c_is_a_ijk(int n, float *c, const float *b) {
  // CHECK: gemm-negative.c:[[@LINE+1]]:3: remark: idiom gemm not offloaded: cannot lift to FunIL: GEMM whose output C is also read at another index not offloaded (A or B is the array C)
  for (int i = 0; i < n; i++)
    for (int j = 0; j < n; j++) {
      float s = 0;
      for (int k = 0; k < n; k++)
        s += c[i * n + k] * b[k * n + j];
      c[i * n + j] = s;
    }
}

// a[i*n + k*k]: not affine in k.
void nonaffine(int n, const float *a, const float *b, float *c) {
  // CHECK: gemm-negative.c:[[@LINE+1]]:3: remark: loop is not an idiom (closest: gemm): {{.*}}gemm.idl:{{.*}}: MatrixIndex(b, loop, k, j): address is not affine in the loop
  for (int i = 0; i < n; i++)
    for (int j = 0; j < n; j++) {
      float s = 0;
      for (int k = 0; k < n; k++)
        s += a[i * n + k * k] * b[k * n + j];
      c[i * n + j] = s;
    }
}
