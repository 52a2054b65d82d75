// The fused GEMV pair reads the matrix once, through the first product's
// parameters (docs/Rewrite.md, "Fused GEMV pair"): it runs only when the
// arguments that make the two products' matrices the same elements are
// equal at run time (the `//@idiom-pair-same` line: the matrix pointer and
// range, the row count of one against the column count of the other).
// Here the two products read two matrix parameters, a and b: called with
// a == b the fused kernel runs; with a != b (the same shape) the runtime
// runs the pair's two kernels instead, each reading its own matrix; with
// b a different range of the same array (b = a + n: overlapping, but
// inputs may overlap) the two kernels run too. Small integer data: every
// sum is exact in float, so the plugin build prints the sequential build's
// bits in any order of summation. Sizes not multiples of any tile or
// work-group (m = 301 rows, n = 203 columns).
// RUN: %clang -O2 %s -o %t.seq
// RUN: %clang-idiom -fplugin=%plugin -mllvm -idiom-pair-fused=true -g %s -lidiomrt -o %t.idiom
// RUN: %t.seq > %t.expected
// RUN: env IDIOM_COST=off IDIOM_MIN_TRIP=1 IDIOM_DEVICE=cpu IDIOM_STATS=1 %t.idiom > %t.out 2> %t.stats
// RUN: diff %t.expected %t.out
// RUN: FileCheck %s < %t.stats
#include <stdio.h>

#define M 301
#define N 203
static float A[M * N + N], B[M * N], s[N], q[M], p[N], r[M];

// CHECK-DAG: idiom-stats: gemv-pair-fused-shared.c:[[@LINE+4]] gemv-pair-fused calls=1 offloaded=1 {{.*}}variant 0
// CHECK-DAG: idiom-stats: gemv-pair-fused-shared.c:[[@LINE+3]] gemv-pair calls=2 offloaded=2
// CHECK-DAG: idiom-stats: gemv-pair-fused-shared.c:[[@LINE+2]] gemv-pair calls=2 offloaded=2
__attribute__((noinline)) void bicg2(int m, int n, const float *a, const float *b, float *s, float *q) {
  for (int i = 0; i < m; i++) {
    q[i] = 0;
    for (int j = 0; j < n; j++) {
      s[j] = s[j] + r[i] * b[i * n + j];
      q[i] = q[i] + a[i * n + j] * p[j];
    }
  }
}

static void print(const char *what) {
  double hq = 0, hs = 0;
  for (int i = 0; i < M; i++)
    hq = hq * 1.0000001 + q[i];
  for (int j = 0; j < N; j++)
    hs = hs * 1.0000001 + s[j];
  printf("%s: q %.17g s %.17g q[7] %.9g s[5] %.9g\n", what, hq, hs, q[7], s[5]);
}

int main(void) {
  for (int k = 0; k < M * N + N; k++)
    A[k] = (float)(k % 7 - 3);
  for (int k = 0; k < M * N; k++)
    B[k] = (float)(k % 5 - 2);
  for (int j = 0; j < N; j++)
    p[j] = (float)(j % 3 - 1), s[j] = (float)(j % 4);
  for (int i = 0; i < M; i++)
    r[i] = (float)(i % 5 - 2);
  bicg2(M, N, A, A, s, q); // one matrix: fused
  print("same");
  bicg2(M, N, A, B, s, q); // two matrices: the two kernels
  print("different");
  bicg2(M, N, A, A + N, s, q); // another range of one array: the two kernels
  print("shifted");
  return 0;
}
