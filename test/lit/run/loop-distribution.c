// Loop distribution (passes/LoopDistribution.h): Gram-Schmidt's j loop,
// whose body is a column dot product (part 1) then a column update (part 2),
// is split into "for j: part 1" and "for j: part 2"; part 1 is then a GEMV^T
// and part 2 a 2-D map, each offloaded once per k. The sum of part 1
// reaches part 2 in a register (-O2 forwards the stored r[k][j]): part 2
// reloads it from r[k][j], in its inner loop (which writes only a), so that
// part 2 is a perfect nest. The
// output equals the sequential build's within compare.py's tolerance (the
// dot products are reassociated). The parts in the other order (a column
// scaled, then its dot product) are distributed too. Negatives: part 2
// writes the column that a later part 1 reads (a flow dependence between
// iterations); part 2 uses a sum that part 1 keeps in a register only (no
// store to reload it from); arrays passed as pointers that overlap at run
// time (the check in front of the loop fails: the unchanged loop runs, so
// the distributed loops' calls count the call with distinct arrays only).
// Translation validation covers each distributed part: a corrupted lift of
// either is not offloaded (BAD).
// RUN: %clang -O2 %s -o %t.seq -lm
// RUN: %clang-idiom -g %s -lidiomrt -lm -Rpass=idiom-offload -Rpass-missed=idiom-offload -Rpass-analysis=idiom-offload -o %t.idiom 2> %t.remarks
// RUN: FileCheck %s --check-prefix=REMARK < %t.remarks
// RUN: %t.seq > %t.expected
// RUN: env IDIOM_COST=off IDIOM_MIN_TRIP=0 IDIOM_DEVICE=cpu IDIOM_STATS=1 IDIOM_CACHE_DIR=off %t.idiom > %t.out 2> %t.stats
// RUN: python3 %srcroot/nas-parboil/compare.py %t.expected %t.out
// RUN: FileCheck %s --check-prefix=STATS < %t.stats
// RUN: env IDIOM_DEVICE=seq %t.idiom > %t.seqout
// RUN: diff %t.expected %t.seqout
// RUN: %clang-idiom -g -ffp-contract=off -fplugin=%plugin -mllvm -idiom-test-corrupt-lift -c %s -o /dev/null -Rpass=idiom-offload -Rpass-missed=idiom-offload 2>&1 | FileCheck %s --check-prefix=BAD

#include <stdio.h>

#define M 96
#define N 64
static double A[M][N], R[N][N], Q[M][N], B[M][N + 1], S[N][N], T[M][N];
static double C[M][N], U[N][N], P[M + N][N], P2[M + N][N];
static double D[M][N], V[N], W[N];
static float FA[37 * 29], FB[29 * 41], FC[37 * 41];

// REMARK-DAG: loop-distribution.c:[[#@LINE+7]]:5: remark: loop distributed into 2 loops, one per part, behind a run-time check
// REMARK-DAG: loop-distribution.c:[[#@LINE+6]]:5: remark: offloaded GEMV (gemv)
// REMARK-DAG: loop-distribution.c:[[#@LINE+5]]:5: remark: offloaded 2-D map (map)
// BAD-DAG: loop-distribution.c:[[#@LINE+4]]:5: remark: idiom map not offloaded: translation validation failed
// BAD-DAG: loop-distribution.c:[[#@LINE+3]]:5: remark: idiom gemv not offloaded: translation validation failed
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

// The parts in the other order: part 2 reads the column part 1 of the same
// iteration scaled.
// REMARK-DAG: loop-distribution.c:[[#@LINE+5]]:5: remark: loop distributed into 2 loops, one per part, behind a run-time check
// REMARK-DAG: loop-distribution.c:[[#@LINE+4]]:5: remark: offloaded GEMV (gemv)
// REMARK-DAG: loop-distribution.c:[[#@LINE+3]]:5: remark: offloaded 2-D map (map)
__attribute__((noinline)) static void swapped(void) {
  for (int k = 0; k < N; k++)
    for (int j = k + 1; j < N; j++) {
      for (int i = 0; i < M; i++)
        C[i][j] = C[i][j] * 0.5;
      U[k][j] = 0.0;
      for (int i = 0; i < M; i++)
        U[k][j] += Q[i][k] * C[i][j];
    }
}

// Three parts: a dot product, the update that reloads it, the updated
// column's squared norm.
// REMARK-DAG: loop-distribution.c:[[#@LINE+5]]:3: remark: loop distributed into 3 loops, one per part, behind a run-time check
// REMARK-DAG: loop-distribution.c:[[#@LINE+4]]:3: remark: offloaded GEMV (gemv)
// REMARK-DAG: loop-distribution.c:[[#@LINE+3]]:3: remark: offloaded 2-D map (map)
// REMARK-DAG: loop-distribution.c:[[#@LINE+2]]:3: remark: offloaded column reduction (column-reduction)
__attribute__((noinline)) static void three(void) {
  for (int j = 0; j < N; j++) {
    V[j] = 0.0;
    for (int i = 0; i < M; i++)
      V[j] += Q[i][1] * D[i][j];
    for (int i = 0; i < M; i++)
      D[i][j] = D[i][j] - Q[i][1] * V[j];
    W[j] = 0.0;
    for (int i = 0; i < M; i++)
      W[j] += D[i][j] * D[i][j];
  }
}

// Symbolic sizes, flat indexing (test/lit/lift/gemm-prologue.c's
// prologue_ijk): the prologue that scales row i of c, then row i of a
// GEMM: a 2-D map and a GEMM.
// REMARK-DAG: loop-distribution.c:[[#@LINE+5]]:3: remark: loop distributed into 2 loops, one per part, behind a run-time check
// REMARK-DAG: loop-distribution.c:[[#@LINE+4]]:3: remark: offloaded GEMM (gemm)
__attribute__((noinline)) static void prologue(int ni, int nj, int nk, float beta,
                                               float *c, const float *a,
                                               const float *b) {
  for (int i = 0; i < ni; i++) {
    for (int j = 0; j < nj; j++)
      c[i * nj + j] *= beta;
    for (int j = 0; j < nj; j++) {
      float s = c[i * nj + j];
      for (int k = 0; k < nk; k++)
        s += a[i * nk + k] * b[k * nj + j];
      c[i * nj + j] = s;
    }
  }
}

// Through pointers that may overlap: a run-time check in front of the loop.
// REMARK-DAG: loop-distribution.c:[[#@LINE+9]]:5: remark: loop distributed into 2 loops, one per part, behind a run-time check
// REMARK-DAG: loop-distribution.c:[[#@LINE+8]]:5: remark: offloaded GEMV (gemv)
// REMARK-DAG: loop-distribution.c:[[#@LINE+7]]:5: remark: offloaded 2-D map (map)
// Called twice, once with overlapping arrays: each part runs 63 times.
// STATS-DAG: loop-distribution.c:[[#@LINE+5]] gemv calls=63 offloaded=63
// STATS-DAG: loop-distribution.c:[[#@LINE+4]] map calls=63 offloaded=63
__attribute__((noinline)) static void gsp(double (*a)[N], double (*r)[N],
                                          double (*q)[N]) {
  for (int k = 0; k < N; k++)
    for (int j = k + 1; j < N; j++) {
      r[k][j] = 0.0;
      for (int i = 0; i < M; i++)
        r[k][j] += q[i][k] * a[i][j];
      for (int i = 0; i < M; i++)
        a[i][j] = a[i][j] - q[i][k] * r[k][j];
    }
}

// BAD-NOT: offloaded GEMV
// BAD-NOT: offloaded 2-D map
// STATS-DAG: loop-distribution.c:[[#]] gemv calls=63 offloaded=63
// STATS-DAG: loop-distribution.c:[[#]] map calls=63 offloaded=63

int main(void) {
  for (int i = 0; i < M; i++)
    for (int j = 0; j < N; j++) {
      A[i][j] = T[i][j] = (double)((i * 7 + j * 3) % 11) / 11.0;
      B[i][j] = (double)((i * 5 + j) % 13) / 13.0;
      Q[i][j] = (double)((i + 2 * j) % 5) / 40.0;
      C[i][j] = (double)((i * 3 + j * 5) % 7) / 7.0;
      P[i][j] = P2[i][j] = D[i][j] = A[i][j];
    }
  gs();
  forward();
  in_register();
  swapped();
  three();
  for (int i = 0; i < 37 * 29; i++)
    FA[i] = (float)(i % 9) / 9.0f;
  for (int i = 0; i < 29 * 41; i++)
    FB[i] = (float)(i % 7) / 7.0f;
  for (int i = 0; i < 37 * 41; i++)
    FC[i] = (float)(i % 5);
  prologue(37, 41, 29, 0.5f, FC, FA, FB);
  // Distinct arrays, then r inside a (rows 8 to N + 7 of a): every k overlaps.
  gsp(P, &P[M], Q);
  gsp(P2, &P2[8], Q);
  printf("n %d\n", M);
  for (int j = 0; j < N; j += 7)
    printf("r%d %.10e\na%d %.10e\ns%d %.10e\nt%d %.10e\nu%d %.10e\n"
           "c%d %.10e\np%d %.10e %.10e\nq%d %.10e %.10e\n",
           j, R[j / 2][j], j, A[M - 1 - j][j], j, S[j / 2][j], j, T[j][j], j,
           U[j / 2][j], j, C[M - 1 - j][j], j, P[j][j], P[M + j / 2][j], j,
           P2[j][j], P2[8 + j / 2][j]);
  for (int i = 0; i < 37 * 41; i += 97)
    printf("fc%d.f32 %.10e\n", i, (double)FC[i]);
  for (int j = 0; j < N; j += 5)
    printf("v%d %.10e\nw%d %.10e\nd%d %.10e\n", j, V[j], j, W[j], j,
           D[M - 1 - j][j]);
  return 0;
}
