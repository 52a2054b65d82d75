// Two matrix-vector products fused in one nest (PolyBench bicg's kernel):
// detected as gemv-pair (constraints/specs/gemv-pair.idl) and offloaded as
// two GEMV kernels of one call (test/lit/run/gemv-pair.c runs them).
// Negatives: one GEMV stays a gemv (offloaded); a
// GEMV next to a store that is not a second product (a map of the same
// matrix) is no gemv-pair; nor are two stores of one sum (y[i] = sum;
// z[i] = sum: detect/gemv/negative.c and detect/gemm/negative.c, "extra_store").
// The sequential and plugin builds print the same.
// RUN: %clang-idiom -g %s -lidiomrt -Rpass=idiom-offload -Rpass-missed=idiom-offload -o %t.idiom 2> %t.remarks
// RUN: FileCheck %s < %t.remarks
// RUN: %clang -O2 %s -o %t.seq
// RUN: %t.seq > %t.expected
// RUN: env IDIOM_COST=off IDIOM_MIN_TRIP=1 IDIOM_DEVICE=cpu %t.idiom > %t.out
// RUN: diff %t.expected %t.out
#include <stdio.h>

#define N 70
#define M 45
float A[N][M], s[M], q[N], p[M], r[N], B[N][M];

// PolyBench's kernel_bicg: the arrays are parameters (so q[i] stays in
// memory: it may alias s).
// CHECK-DAG: pair.c:[[@LINE+5]]:3: remark: offloaded GEMV pair (gemv-pair) to OpenCL
__attribute__((noinline)) void bicg(int m, int n, float A[N][M], float s[M], float q[N],
                                    float p[M], float r[N]) {
  for (int i = 0; i < m; i++)
    s[i] = 0;
  for (int i = 0; i < n; i++) {
    q[i] = 0;
    for (int j = 0; j < m; j++) {
      s[j] = s[j] + r[i] * A[i][j];
      q[i] = q[i] + A[i][j] * p[j];
    }
  }
}

// CHECK-DAG: pair.c:[[@LINE+3]]:3: remark: offloaded GEMV (gemv)
// CHECK-NOT: pair.c:[[@LINE+2]]:3: remark: {{.*}}gemv-pair
__attribute__((noinline)) void one(int n, int m) {
  for (int i = 0; i < n; i++)
    for (int j = 0; j < m; j++)
      s[j] = s[j] + r[i] * A[i][j];
}

// A product and a scaled copy of the matrix: one store is no product.
// CHECK-NOT: pair.c:[[@LINE+2]]:3: remark: {{.*}}gemv-pair
__attribute__((noinline)) void product_and_map(int n, int m) {
  for (int i = 0; i < n; i++)
    for (int j = 0; j < m; j++) {
      s[j] = s[j] + r[i] * A[i][j];
      B[i][j] = 2 * A[i][j];
    }
}

int main(void) {
  for (int i = 0; i < N; i++)
    for (int j = 0; j < M; j++)
      A[i][j] = (float)((i * 7 + j * 3) % 17) / 16 - 0.5f;
  for (int j = 0; j < M; j++)
    p[j] = (float)(j % 5) / 4;
  for (int i = 0; i < N; i++)
    r[i] = (float)(i % 9) / 8;
  bicg(M, N, A, s, q, p, r);
  double cs = 0, cq = 0;
  for (int j = 0; j < M; j++)
    cs += s[j];
  for (int i = 0; i < N; i++)
    cq += q[i];
  printf("bicg %a %a\n", cs, cq);
  one(N, M);
  product_and_map(N, M);
  cs = 0;
  for (int j = 0; j < M; j++)
    cs += s[j];
  printf("after %a %a\n", cs, (double)B[N - 1][M - 1]);
  return 0;
}
