// The runtime's IDIOM_MIN_TRIP gate counts work, not outputs
// (runtime/lib/workgate.c, issue 12): Gram-Schmidt's GEMV^T at PolyBench's
// LARGE size (R[k][j] = Q[:,k] . A[:,j] for j = k+1 .. 1199: 1199 outputs,
// each a 1000-term dot product over a column) runs on the device under the
// default IDIOM_MIN_TRIP (4096); before, its 1199 outputs were "trip count
// below threshold" and it never left the host. Negatives: a 30 x 40 GEMV^T
// (29 outputs; its strided ranges span 2360 doubles: the gate counts a
// range's span) stays below the gate, and IDIOM_MIN_TRIP above the wide
// one's work (A's and Q's ranges: 2.4M doubles) declines it too. With the
// cost model on, the wide site reaches the model (its first call measures
// the host loop) and the small one stops at the gate. Variant 0 sums each
// output in the loop's order (untimed: below IDIOM_TUNE_MIN), so every
// build prints the sequential build's bits.
// RUN: %clang -O2 %s -o %t.seq
// RUN: %clang-idiom -g %s -lidiomrt -Rpass=idiom-offload -o %t.idiom 2> %t.remarks
// RUN: FileCheck %s --check-prefix=REMARK < %t.remarks
// RUN: %t.seq > %t.expected
// RUN: env IDIOM_DEVICE=cpu IDIOM_STATS=1 %t.idiom > %t.out 2> %t.stats
// RUN: diff %t.expected %t.out
// RUN: FileCheck %s --check-prefix=STATS < %t.stats
// RUN: env IDIOM_DEVICE=cpu IDIOM_MIN_TRIP=5000000 IDIOM_STATS=1 %t.idiom > %t.high 2> %t.high-stats
// RUN: diff %t.expected %t.high
// RUN: FileCheck %s --check-prefix=HIGH < %t.high-stats
// RUN: env IDIOM_DEVICE=cpu IDIOM_COST=on IDIOM_CACHE_DIR=off IDIOM_STATS=1 %t.idiom > %t.model 2> %t.model-stats
// RUN: diff %t.expected %t.model
// RUN: FileCheck %s --check-prefix=MODEL < %t.model-stats
#include <stdio.h>

#define M 1000
#define N 1200
#define SM 30
#define SN 40

static double A[M][N], Q[M][N], R[N][N];
static double SA[SM][SN], SQ[SM][SN], SR[SN][SN];

// The distributed j loop's first part, as PolyBench gramschmidt writes it.
// REMARK-DAG: workgate-gemvt.c:[[@LINE+5]]:3: remark: offloaded
// STATS-DAG: idiom-stats: workgate-gemvt.c:[[@LINE+4]] column-reduction calls=3 offloaded=3 {{.*}}fallbacks=0
// HIGH-DAG: idiom-stats: workgate-gemvt.c:[[@LINE+3]] column-reduction calls=3 offloaded=0 {{.*}}reasons="work below threshold" x3
// MODEL-DAG: idiom-stats: workgate-gemvt.c:[[@LINE+2]] column-reduction calls=3 {{.*}}reasons="{{.*}}cost model: measuring the host loop
__attribute__((noinline)) void gemvt(int m, int n, int k) {
  for (int j = k + 1; j < n; j++) {
    R[k][j] = 0.0;
    for (int i = 0; i < m; i++)
      R[k][j] += Q[i][k] * A[i][j];
  }
}

// STATS-DAG: idiom-stats: workgate-gemvt.c:[[@LINE+4]] column-reduction calls=1 offloaded=0 {{.*}}fallbacks=1 {{.*}}reasons="work below threshold"
// HIGH-DAG: idiom-stats: workgate-gemvt.c:[[@LINE+3]] column-reduction calls=1 offloaded=0 {{.*}}reasons="work below threshold"
// MODEL-DAG: idiom-stats: workgate-gemvt.c:[[@LINE+2]] column-reduction calls=1 offloaded=0 {{.*}}reasons="work below threshold"
__attribute__((noinline)) void gemvt_small(int m, int n, int k) {
  for (int j = k + 1; j < n; j++) {
    SR[k][j] = 0.0;
    for (int i = 0; i < m; i++)
      SR[k][j] += SQ[i][k] * SA[i][j];
  }
}

static unsigned Seed = 2718281u;
static double rnd(void) {
  Seed = Seed * 1103515245u + 12345u;
  return (double)((Seed >> 8) & 0xffffff) / 8388608.0 - 1.0;
}

int main(void) {
  for (int i = 0; i < M; i++)
    for (int j = 0; j < N; j++) {
      A[i][j] = rnd();
      Q[i][j] = rnd();
    }
  for (int i = 0; i < SM; i++)
    for (int j = 0; j < SN; j++) {
      SA[i][j] = rnd();
      SQ[i][j] = rnd();
    }
  for (int k = 0; k < 3; k++)
    gemvt(M, N, k);
  gemvt_small(SM, SN, 0);
  for (int k = 0; k < 3; k++)
    for (int j = k + 1; j < N; j += 97)
      printf("R %d %d %a\n", k, j, R[k][j]);
  for (int j = 1; j < SN; j += 7)
    printf("SR %d %a\n", j, SR[0][j]);
  return 0;
}
