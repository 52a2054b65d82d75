// The fused bicg nest (PolyBench's kernel_bicg: q = A p and s = A^T r in
// one nest) offloaded as a GEMV pair: loop fission into a GEMV and a GEMV^T
// program, run by one idiom_run_pair call, both or neither
// (docs/ARCHITECTURE.md, "GEMV pairs"). Positives: bicg as PolyBench writes
// it (q[i] = 0 in the nest) and an accumulating form (q[i] += ... with no
// initialisation, so that a first kernel's result that reached the host
// before the second declined would be counted twice by the original nest).
// Negatives: s passed as p (the runtime's overlap check over both kernels'
// ranges declines, the nest runs); both outputs in one array, apart
// (offloaded) and overlapping (declined); s read by the GEMV (refused at
// compile time: the products depend on each other); q read by the GEMV^T
// (no product of a matrix and a vector: not a gemv-pair); a third
// statement (no gemv-pair). Variant 0 sums each output in the loop's
// order, so the plugin build prints the sequential build's bits.
// RUN: %clang -O2 %s -o %t.seq
// RUN: %clang-idiom -g %s -lidiomrt -Rpass=idiom-offload -Rpass-missed=idiom-offload -Rpass-analysis=idiom-offload -o %t.idiom 2> %t.remarks
// RUN: FileCheck %s --check-prefix=REMARK < %t.remarks
// RUN: %t.seq > %t.expected
// RUN: env IDIOM_COST=off IDIOM_MIN_TRIP=1 IDIOM_DEVICE=cpu IDIOM_VARIANT=0 IDIOM_STATS=1 %t.idiom > %t.out 2> %t.stats
// RUN: diff %t.expected %t.out
// RUN: FileCheck %s --check-prefix=STATS < %t.stats
// The IDIOM_MIN_TRIP gate counts work (runtime/lib/workgate.c): with
// IDIOM_MIN_TRIP between the two kernels' output counts (q: N = 300, s:
// M = 200) both still run, each reading the 300 x 200 matrix (30250 words
// of 8 bytes); the gate no longer splits a pair that shares its matrix.
// A second kernel that declines after the first ran (the host as before
// the call, the nest runs) is idiomrt_test pair's (a build failure).
// RUN: env IDIOM_COST=off IDIOM_MIN_TRIP=250 IDIOM_DEVICE=cpu IDIOM_VARIANT=0 IDIOM_STATS=1 %t.idiom > %t.half 2> %t.half-stats
// RUN: diff %t.expected %t.half
// RUN: FileCheck %s --check-prefix=HALF < %t.half-stats
// The stitched code: one idiom_run_pair call with both descriptors, the
// first program's 5 arguments (matrix, vector, output, two sizes) then the
// second's 5.
// RUN: %clang-idiom %s -S -emit-llvm -o - | FileCheck %s --check-prefix=IR
#include <stdio.h>

#define N 300
#define M 200
static float A[N][M], s[M], q[N], p[M], r[N], u[N], w[N + M];

// REMARK-DAG: gemv-pair.c:[[@LINE+9]]:3: remark: offloaded GEMV pair (gemv-pair) to OpenCL as [[K:idiom_bicg_[0-9]+]]
// REMARK-DAG: gemv-pair.c:[[@LINE+8]]:3: remark: floating-point row sums may be reassociated
// STATS-DAG: idiom-stats: gemv-pair.c:[[@LINE+7]] gemv-pair calls=2 offloaded=1 {{.*}}fallbacks=1 {{.*}}variants=8
// STATS-DAG: idiom-stats: gemv-pair.c:[[@LINE+6]] gemv-pair calls=1 offloaded=1 {{.*}}fallbacks=0 {{.*}}variants=8
// IR: call i32 @idiom_run_pair(ptr nonnull @[[K:idiom_bicg_[0-9]+]].desc, ptr nonnull @[[K]]_pair.desc, ptr nonnull %{{[0-9]+}}, i32 5, i32 5, ptr
__attribute__((noinline)) void bicg(int m, int n, float A[N][M], float s[M],
                                    float q[N], float p[M], float r[N]) {
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

// REMARK-DAG: gemv-pair.c:[[@LINE+5]]:3: remark: offloaded GEMV pair (gemv-pair)
// STATS-DAG: idiom-stats: gemv-pair.c:[[@LINE+4]] gemv-pair calls=1 offloaded=1 {{.*}}fallbacks=0
// HALF-DAG: idiom-stats: gemv-pair.c:[[@LINE+3]] gemv-pair calls=1 offloaded=1 {{.*}}fallbacks=0
// HALF-DAG: idiom-stats: gemv-pair.c:[[@LINE+2]] gemv-pair calls=1 offloaded=1 {{.*}}fallbacks=0
__attribute__((noinline)) void bicg_acc(int m, int n, float *s, float *q) {
  for (int i = 0; i < n; i++)
    for (int j = 0; j < m; j++) {
      s[j] = s[j] + r[i] * A[i][j];
      q[i] = q[i] + A[i][j] * p[j];
    }
}

// Both outputs in one array: q = w, s = w + N (apart: offloaded), then
// s = w + 1 (overlapping q: the runtime declines, the nest runs).
// REMARK-DAG: gemv-pair.c:[[@LINE+4]]:3: remark: offloaded GEMV pair (gemv-pair)
// STATS-DAG: idiom-stats: gemv-pair.c:[[@LINE+3]] gemv-pair calls=2 offloaded=1 {{.*}}fallbacks=1 {{.*}}reasons="overlapping input/output ranges"
// STATS-DAG: idiom-stats: gemv-pair.c:[[@LINE+2]] gemv-pair calls=1 offloaded=1 {{.*}}fallbacks=0
__attribute__((noinline)) void one_array(int m, int n, float *q, float *s) {
  for (int i = 0; i < n; i++) {
    q[i] = 0;
    for (int j = 0; j < m; j++) {
      s[j] = s[j] + r[i] * A[i][j];
      q[i] = q[i] + A[i][j] * p[j];
    }
  }
}

// The GEMV reads s, which the GEMV^T updates in the same nest: the spec
// matches two products, the lifter refuses the fission.
// REMARK-DAG: gemv-pair.c:[[@LINE+2]]:3: remark: idiom gemv-pair not offloaded: cannot lift to FunIL: one GEMV of the pair reads the array the other one writes (the products depend on each other)
__attribute__((noinline)) void reads_s(int m, int n, float *s, float *q) {
  for (int i = 0; i < n; i++) {
    q[i] = 0;
    for (int j = 0; j < m; j++) {
      q[i] = q[i] + A[i][j] * s[j];
      s[j] = s[j] + r[i] * A[i][j];
    }
  }
}

// The GEMV^T reads q, which the GEMV writes in the same nest: not the
// product of a matrix and a vector (q[i] is no element of the matrix).
// REMARK-DAG: gemv-pair.c:[[@LINE+2]]:3: remark: loop is not an idiom (closest:
__attribute__((noinline)) void reads_q(int m, int n, float *s, float *q) {
  for (int i = 0; i < n; i++) {
    q[i] = 0;
    for (int j = 0; j < m; j++) {
      s[j] = s[j] + q[i] * A[i][j];
      q[i] = q[i] + A[i][j] * p[j];
    }
  }
}

// Three products in one nest: no gemv-pair.
// REMARK-NOT: gemv-pair.c:[[@LINE+2]]:3: remark: {{.*}}gemv-pair
__attribute__((noinline)) void three(int m, int n, float *s, float *q, float *t) {
  for (int i = 0; i < n; i++)
    for (int j = 0; j < m; j++) {
      s[j] = s[j] + r[i] * A[i][j];
      q[i] = q[i] + A[i][j] * p[j];
      t[i] = t[i] + A[i][j] * s[j];
    }
}

static double sum(const float *x, int n) {
  double c = 0;
  for (int k = 0; k < n; k++)
    c += (double)x[k] * (k % 7 + 1);
  return c;
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
  printf("bicg %a %a\n", sum(s, M), sum(q, N));
  bicg_acc(M, N, s, q);
  printf("acc %a %a\n", sum(s, M), sum(q, N));
  // s passed as p: the products overlap, the nest runs.
  bicg(M, N, A, s, q, s, r);
  printf("alias %a %a\n", sum(s, M), sum(q, N));
  one_array(M, N, w, w + N);
  printf("one_array %a\n", sum(w, N + M));
  one_array(M, N, w, w + 1);
  printf("overlap %a\n", sum(w, N + M));
  reads_s(M, N, s, q);
  printf("reads_s %a %a\n", sum(s, M), sum(q, N));
  reads_q(M, N, s, q);
  printf("reads_q %a %a\n", sum(s, M), sum(q, N));
  three(M, N, s, q, u);
  printf("three %a %a %a\n", sum(s, M), sum(q, N), sum(u, N));
  return 0;
}
