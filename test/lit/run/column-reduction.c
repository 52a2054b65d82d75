// Column reductions (issue 13, constraints/specs/map-of-reductions.idl) end
// to end on PoCL at odd sizes: `for j: { out[j] = INIT; for i: acc = F(acc,
// ...); out[j] = G(acc); }`, j outer (PolyBench correlation/covariance), runs
// as one map over j of a sequential reduction over i in i's order, so every
// column is summed as the loop sums it: the results are the sequential
// build's bits (compared with diff, floats in hex; -idiom-fp-reassoc=false
// keeps the row-lanes variants out).
// Shapes: the mean with prologue and epilogue, the standard deviation (a
// term that is not a product, sqrt and a select in the epilogue), an int sum
// into the old element (no prologue), a running store with no epilogue, a
// column max (not a sum), a term that reads both induction variables, two
// accumulators with two outputs. The covariance's triangular j2 >= j1 nest
// runs as one column reduction per j1. An output overlapping the input (the
// runtime's overlap check) runs the original nest.
// RUN: %clang -O2 %s -lm -o %t.seq
// RUN: %clang-idiom -g -fplugin=%plugin -mllvm -idiom-fp-reassoc=false %s -lm -lidiomrt -Rpass=idiom-offload -Rpass-analysis=idiom-offload -Rpass-missed=idiom-offload -o %t.idiom 2> %t.remarks
// RUN: FileCheck %s --check-prefix=REMARK < %t.remarks
// RUN: %t.seq > %t.expected
// RUN: env IDIOM_COST=off IDIOM_MIN_TRIP=0 IDIOM_STATS=1 %t.idiom > %t.out 2> %t.stats
// RUN: diff %t.expected %t.out
// RUN: FileCheck %s --check-prefix=STATS < %t.stats
// RUN: env IDIOM_COST=off IDIOM_MIN_TRIP=0 IDIOM_DEVICE=seq %t.idiom > %t.seqout
// RUN: diff %t.expected %t.seqout
#include <math.h>
#include <stdio.h>

#define N 203
#define M 131

static double data[N][M], mean[M], stddev[M], cov[M][M], sum2[M], dmax[M];
static float fdata[N * M], fsum[M], wsum[M];
static int idata[N][M], isum[M];

// REMARK-DAG: column-reduction.c:[[@LINE+3]]:3: remark: offloaded column reduction (column-reduction)
// STATS-DAG: idiom-stats: column-reduction.c:[[@LINE+2]] column-reduction calls=1 offloaded=1
__attribute__((noinline)) static void col_mean(int n, int m, double fn) {
  for (int j = 0; j < m; j++) {
    mean[j] = 0.0;
    for (int i = 0; i < n; i++)
      mean[j] += data[i][j];
    mean[j] /= fn;
  }
}

// REMARK-DAG: column-reduction.c:[[@LINE+5]]:3: remark: offloaded column reduction (column-reduction)
// REMARK-DAG: column-reduction.c:[[@LINE+4]]:3: remark: calls sqrt, which may set errno
// STATS-DAG: idiom-stats: column-reduction.c:[[@LINE+3]] column-reduction calls=1 offloaded=1
__attribute__((noinline)) static void col_stddev(int n, int m, double fn) {
  const double eps = 0.1;
  for (int j = 0; j < m; j++) {
    stddev[j] = 0.0;
    for (int i = 0; i < n; i++)
      stddev[j] += (data[i][j] - mean[j]) * (data[i][j] - mean[j]);
    stddev[j] /= fn;
    stddev[j] = sqrt(stddev[j]);
    stddev[j] = stddev[j] <= eps ? 1.0 : stddev[j];
  }
}

// No prologue: the sum starts from the old element.
// REMARK-DAG: column-reduction.c:[[@LINE+3]]:3: remark: offloaded column reduction (column-reduction)
// STATS-DAG: idiom-stats: column-reduction.c:[[@LINE+2]] column-reduction calls=1 offloaded=1
__attribute__((noinline)) static void col_int(int n, int m) {
  for (int j = 0; j < m; j++)
    for (int i = 0; i < n; i++)
      isum[j] += idata[i][j] * (i + 1) - (idata[i][j] >> 3);
}

// A flat float matrix, a running store and no epilogue.
// REMARK-DAG: column-reduction.c:[[@LINE+3]]:3: remark: offloaded column reduction (column-reduction)
// STATS-DAG: idiom-stats: column-reduction.c:[[@LINE+2]] column-reduction calls=1 offloaded=1
__attribute__((noinline)) static void col_flat(int n, int m, const float *a) {
  for (int j = 0; j < m; j++) {
    fsum[j] = 1.0f;
    for (int i = 0; i < n; i++)
      fsum[j] = fsum[j] * 0.5f + a[i * m + j] * (float)j;
  }
}

// A column max: the term is not a sum.
// REMARK-DAG: column-reduction.c:[[@LINE+3]]:3: remark: offloaded column reduction (column-reduction)
// STATS-DAG: idiom-stats: column-reduction.c:[[@LINE+2]] column-reduction calls=1 offloaded=1
__attribute__((noinline)) static void col_max(int n, int m) {
  for (int j = 0; j < m; j++) {
    double mx = data[0][j];
    for (int i = 1; i < n; i++)
      mx = data[i][j] > mx ? data[i][j] : mx;
    dmax[j] = mx - mean[j];
  }
}

// Two accumulators, two outputs.
// REMARK-DAG: column-reduction.c:[[@LINE+3]]:3: remark: offloaded column reduction (column-reduction)
// STATS-DAG: idiom-stats: column-reduction.c:[[@LINE+2]] column-reduction calls=1 offloaded=1
__attribute__((noinline)) static void col_two(int n, int m, const float *a) {
  for (int j = 0; j < m; j++) {
    float s = 0.0f, w = 0.0f;
    for (int i = 0; i < n; i++) {
      s += a[i * m + j];
      w += a[i * m + j] * a[i * m + j];
    }
    fsum[j] = s;
    wsum[j] = w / (float)n;
  }
}

// PolyBench covariance: j2 starts at j1 and the epilogue also writes the
// mirrored cov[j2][j1], another element of cov for the same j2: refused
// (a limit: the two outputs of one array meet at cov[j1][j1]), the nest
// runs on the host.
// REMARK-DAG: column-reduction.c:[[@LINE+3]]:5: remark: loop is not an idiom (closest: column-reduction): matched but cannot be lifted with template 'column': two stores write different elements of the array of one base pointer in one column (out[j] and another element)
__attribute__((noinline)) static void covariance(int n, int m, double fn) {
  for (int j1 = 0; j1 < m; j1++)
    for (int j2 = j1; j2 < m; j2++) {
      cov[j1][j2] = 0.0;
      for (int i = 0; i < n; i++)
        cov[j1][j2] += (data[i][j1] - mean[j1]) * (data[i][j2] - mean[j2]);
      cov[j1][j2] /= (fn - 1.0);
      cov[j2][j1] = cov[j1][j2];
    }
}

// Output and input through pointers that overlap: the runtime's overlap
// check declines the call and the original nest runs (external linkage, so
// that the call's arguments do not reach the loop as constants).
// REMARK-DAG: column-reduction.c:[[@LINE+4]]:3: remark: offloaded column reduction (column-reduction)
// STATS-DAG: idiom-stats: column-reduction.c:[[@LINE+3]] column-reduction calls=1 offloaded=0
__attribute__((noinline)) void col_alias(int n, int m, float *out,
                                                const float *a) {
  for (int j = 0; j < m; j++) {
    out[j] = 0.0f;
    for (int i = 0; i < n; i++)
      out[j] += a[i * m + j];
  }
}

int main(void) {
  unsigned s = 12345;
#define RND() ((s = s * 1103515245u + 12345u) >> 8 & 0xffff)
  for (int i = 0; i < N; i++)
    for (int j = 0; j < M; j++) {
      data[i][j] = RND() / 65536.0 * (1 + j % 7);
      idata[i][j] = (int)RND() - 30000;
      fdata[i * M + j] = RND() / 65536.0f - 0.25f;
    }
  for (int j = 0; j < M; j++)
    isum[j] = j * 3;
  col_mean(N, M, (double)N);
  col_stddev(N, M, (double)N);
  col_int(N, M);
  col_flat(N, M, fdata);
  for (int j = 0; j < M; j++)
    printf("col %d %a %a %d %a\n", j, mean[j], stddev[j], isum[j], fsum[j]);
  col_max(N, M);
  col_two(N, M, fdata);
  for (int j = 0; j < M; j++)
    printf("two %d %a %a %a\n", j, dmax[j], fsum[j], wsum[j]);
  covariance(N, M, (double)N);
  for (int j = 0; j < M; j += 5)
    printf("cov %d %a %a\n", j, cov[j][j], cov[j][(j * 7) % M]);
  // out = fdata + 1: out[j] overlaps the rows read.
  col_alias(N - 1, M, fdata + 1, fdata);
  for (int j = 0; j < M; j += 7)
    printf("alias %d %a\n", j, fdata[1 + j]);
  return 0;
}
