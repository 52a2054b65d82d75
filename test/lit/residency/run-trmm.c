// TRMM inside a residency region (issue 13): the band program reads B
// through an IN buffer flagged IDIOM_ARG_SNAPSHOT over the array it writes;
// inside a region, where device copies of one host range may be shared, the
// runtime declines such a run ("snapshot input overlapping an output inside
// a residency region") and the original loop runs, on host data the region
// keeps coherent: the output is the sequential build's, bit for bit.
// RUN: %clang -O2 %s -o %t.seq
// RUN: %clang-idiom %s -Rpass=idiom-offload -lidiomrt -o %t.idiom 2> %t.remarks
// RUN: FileCheck %s --check-prefix=REMARK < %t.remarks
// RUN: %t.seq > %t.expected
// RUN: env IDIOM_COST=off IDIOM_MIN_TRIP=0 IDIOM_STATS=1 %t.idiom > %t.out 2> %t.stats
// RUN: diff %t.expected %t.out
// RUN: FileCheck %s --check-prefix=STATS < %t.stats
// STATS-DAG: idiom-stats: residency regions=1
// STATS-DAG: idiom-stats: run-trmm.c:[[@LINE+24]] trmm calls=5 offloaded=0 {{.*}}fallbacks=5 {{.*}}reasons="snapshot input overlapping an output inside a residency region" x5
#include <stdio.h>

#define M 40
#define N 48
static float A[M][M], B[M][N];

static unsigned long hash(void) {
  unsigned long h = 0;
  for (int i = 0; i < M; i++)
    for (int j = 0; j < N; j++) {
      unsigned u;
      __builtin_memcpy(&u, &B[i][j], sizeof u);
      h = h * 1000003u + u;
    }
  return h;
}

__attribute__((noinline)) static void steps(int n, float alpha) {
  // REMARK: run-trmm.c:[[@LINE+1]]:3: remark: residency region
  for (int t = 0; t < n; t++) {
    for (int i = 0; i < M; i++)
      for (int j = 0; j < N; j++)
        B[i][j] = B[i][j] * 0.5f + 0.25f;
    for (int i = 0; i < M; i++)
      for (int j = 0; j < N; j++) {
        for (int k = i + 1; k < M; k++)
          B[i][j] += A[k][i] * B[k][j];
        B[i][j] = alpha * B[i][j];
      }
  }
}

int main(void) {
  for (int i = 0; i < M; i++) {
    for (int k = 0; k < M; k++)
      A[i][k] = (float)((i * 7 + k * 3) % 11) / 44.0f;
    for (int j = 0; j < N; j++)
      B[i][j] = (float)((i * 3 + j) % 17) / 17.0f;
  }
  steps(5, 0.5f);
  printf("%lx %.9g %.9g\n", hash(), B[0][0], B[M - 1][N - 1]);
  return 0;
}
