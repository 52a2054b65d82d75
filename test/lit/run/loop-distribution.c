// Loop distribution (passes/LoopDistribution.h): Gram-Schmidt's j loop,
// whose body is a column dot product (part 1) then a column update (part 2),
// is split into "for j: part 1" and "for j: part 2"; part 1 is then a GEMV^T
// and part 2 a 2-D map, each offloaded once per k. The sum of part 1
// reaches part 2 in a register (-O2 forwards the stored r[k][j]): part 2
// reloads it from r[k][j], in its inner loop (which writes only a), so that
// part 2 is a perfect nest. The
// output equals the sequential build's within compare.py's tolerance (the
// dot products are reassociated). Negatives: part 2 writes the column that
// a later part 1 reads (a flow dependence between iterations); part 2 uses
// a sum that part 1 keeps in a register only (no store to reload it from).
// RUN: %clang -O2 %s -o %t.seq -lm
// RUN: %clang-idiom -g %s -lidiomrt -lm -Rpass=idiom-offload -Rpass-missed=idiom-offload -Rpass-analysis=idiom-offload -o %t.idiom 2> %t.remarks
// RUN: FileCheck %s --check-prefix=REMARK < %t.remarks
// RUN: %t.seq > %t.expected
// RUN: env IDIOM_COST=off IDIOM_MIN_TRIP=0 IDIOM_DEVICE=cpu IDIOM_STATS=1 IDIOM_CACHE_DIR=off %t.idiom > %t.out 2> %t.stats
// RUN: python3 %srcroot/nas-parboil/compare.py %t.expected %t.out
// RUN: FileCheck %s --check-prefix=STATS < %t.stats
// RUN: env IDIOM_DEVICE=seq %t.idiom > %t.seqout
// RUN: diff %t.expected %t.seqout

#include <stdio.h>

#define M 96
#define N 64
static double A[M][N], R[N][N], Q[M][N], B[M][N + 1], S[N][N], T[M][N];

// REMARK-DAG: loop-distribution.c:[[#@LINE+5]]:5: remark: loop distributed into 2 loops, one per part, behind a run-time check
// REMARK-DAG: loop-distribution.c:[[#@LINE+4]]:5: remark: offloaded GEMV (gemv)
// REMARK-DAG: loop-distribution.c:[[#@LINE+3]]:5: remark: offloaded 2-D map (map)
__attribute__((noinline)) static void gs(void) {
  for (int k = 0; k < N; k++)
    for (int j = k + 1; j < N; j++) {
      R[k][j] = 0.0;
      for (int i = 0; i < M; i++)
        R[k][j] += Q[i][k] * A[i][j];
      for (int i = 0; i < M; i++)
        A[i][j] = A[i][j] - Q[i][k] * R[k][j];
    }
}

// Part 2 writes column j + 1, which part 1 of iteration j + 1 reads.
// REMARK-DAG: loop-distribution.c:[[#@LINE+3]]:5: remark: loop not distributed into its parts: its iterations are not proven independent (loop-carried {{.*}} dependence
__attribute__((noinline)) static void forward(void) {
  for (int k = 0; k < N; k++)
    for (int j = k + 1; j < N; j++) {
      S[k][j] = 0.0;
      for (int i = 0; i < M; i++)
        S[k][j] += Q[i][k] * B[i][j];
      for (int i = 0; i < M; i++)
        B[i][j + 1] = B[i][j + 1] - Q[i][k] * S[k][j];
    }
}

// The sum is never stored: part 2 could not reload it.
// REMARK-DAG: loop-distribution.c:[[#@LINE+3]]:5: remark: loop not distributed into its parts: a value computed by part 1 (an inner loop's result or a load) is used by part 2 and cannot be reloaded there
__attribute__((noinline)) static void in_register(void) {
  for (int k = 0; k < N; k++)
    for (int j = k + 1; j < N; j++) {
      double s = 0.0;
      for (int i = 0; i < M; i++)
        s += Q[i][k] * T[i][j];
      for (int i = 0; i < M; i++)
        T[i][j] = T[i][j] - Q[i][k] * s;
    }
}

// STATS-DAG: loop-distribution.c:[[#]] gemv calls=63 offloaded=63
// STATS-DAG: loop-distribution.c:[[#]] map calls=63 offloaded=63

int main(void) {
  for (int i = 0; i < M; i++)
    for (int j = 0; j < N; j++) {
      A[i][j] = T[i][j] = (double)((i * 7 + j * 3) % 11) / 11.0;
      B[i][j] = (double)((i * 5 + j) % 13) / 13.0;
      Q[i][j] = (double)((i + 2 * j) % 5) / 40.0;
    }
  gs();
  forward();
  in_register();
  printf("n %d\n", M);
  for (int j = 0; j < N; j += 7)
    printf("r%d %.10e\na%d %.10e\ns%d %.10e\nt%d %.10e\n", j, R[j / 2][j],
           j, A[M - 1 - j][j], j, S[j / 2][j], j, T[j][j]);
  return 0;
}
