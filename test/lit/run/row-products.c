// Per-row products through a temporary, batched, end to end on PoCL
// (passes/RowProducts.h): PolyBench doitgen at odd sizes (NR 5, NQ 7, NP
// 11) as one GEMM over the 35 flattened rows, written back into A's rows,
// and the temporary sum[] (the caller's, printed after the call) holding
// the last row's product as the loop leaves it; then the form with
// constant sizes and a local temporary (NR 5, NQ 7, 67). Run-time checks: a C4
// that lies inside A and a sum[] that lies inside A make the unchanged nest
// run (no runtime call: the stats count only the two disjoint calls), as do
// calls with no element per row (np 0) or no rows (nq 0). The
// offloaded build prints what the sequential build prints within the GEMM
// tolerance, 1e-12 absolute on values below 12 (11 products of terms in
// [-1, 1], summed in the loop's order on both sides: only a fused
// multiply-add on the device may differ in the last bits; below 130 in
// the second call and 67 in the last: still 1e-12); the build with
// IDIOM_DEVICE=seq (the expanded nest on the host) prints it exactly.
// RUN: %clang -O2 %s -o %t.seq
// RUN: %clang-idiom -g %s -lidiomrt -Rpass=idiom-offload -o %t.idiom 2> %t.remarks
// RUN: FileCheck %s --check-prefix=REMARK < %t.remarks
// RUN: %t.seq > %t.expected
// RUN: env IDIOM_COST=off IDIOM_MIN_TRIP=0 IDIOM_STATS=1 IDIOM_CACHE_DIR=off %t.idiom > %t.out 2> %t.stats
// RUN: python3 %S/Inputs/tolcompare.py %t.expected %t.out
// RUN: FileCheck %s --check-prefix=STATS < %t.stats
// RUN: env IDIOM_DEVICE=seq %t.idiom > %t.seqout
// RUN: diff %t.expected %t.seqout
#include <stdio.h>

#define NR 5
#define NQ 7
#define NP 11

static double A[NR][NQ][NP], C4[NP][NP], sum[NP];
static double B[NR][NQ][NP];
#define NS 67
static double F[NR][NQ][NS], C5[NS][NS];

static double val(int i, int salt) {
  return (double)(((i * 7919 + salt * 104729) % 2001) - 1000) / 1000.0;
}

static void fill(double *x, int n, int salt) {
  for (int i = 0; i < n; i++)
    x[i] = val(i, salt);
}

// REMARK: row-products.c:[[@LINE+5]]:3: remark: offloaded GEMM (gemm)
// STATS: idiom-stats: row-products.c:[[@LINE+4]] gemm calls=2 offloaded=2 device=
__attribute__((noinline)) void doitgen(int nr, int nq, int np,
                                       double a[nr][nq][np],
                                       double c4[np][np], double sm[np]) {
  for (int r = 0; r < nr; r++)
    for (int q = 0; q < nq; q++) {
      for (int p = 0; p < np; p++) {
        sm[p] = 0.0;
        for (int s = 0; s < np; s++)
          sm[p] += a[r][q][s] * c4[s][p];
      }
      for (int p = 0; p < np; p++)
        a[r][q][p] = sm[p];
    }
}

// Constant sizes (NS 67: an inner loop -O2 does not unroll), a local
// temporary: the address A[r][q][s] flattens, r and q alone do not.
// REMARK: row-products.c:[[@LINE+4]]:3: remark: offloaded GEMM (gemm)
// STATS: idiom-stats: row-products.c:[[@LINE+3]] gemm calls=1 offloaded=1 device=
__attribute__((noinline)) void fixed(int nr, double a[][NQ][NS], double c4[NS][NS]) {
  double t[NS];
  for (int r = 0; r < nr; r++)
    for (int q = 0; q < NQ; q++) {
      for (int p = 0; p < NS; p++) {
        double acc = 0.0;
        for (int s = 0; s < NS; s++)
          acc += a[r][q][s] * c4[s][p];
        t[p] = acc;
      }
      for (int p = 0; p < NS; p++)
        a[r][q][p] = t[p];
    }
}

static void print(const char *name, const double *x, int n) {
  printf("tol %s 1e-12\n", name);
  for (int i = 0; i < n; i++)
    printf("%s %d %.17g\n", name, i, x[i]);
}

int main(void) {
  fill(&A[0][0][0], NR * NQ * NP, 1);
  fill(&C4[0][0], NP * NP, 2);
  fill(sum, NP, 3);
  doitgen(NR, NQ, NP, A, C4, sum);
  print("doitgen", &A[0][0][0], NR * NQ * NP);
  print("sum", sum, NP);

  // Twice in a row on the result: the second call reads what the first
  // wrote back.
  doitgen(NR, NQ, NP, A, C4, sum);
  print("again", &A[0][0][0], NR * NQ * NP);
  print("sum_again", sum, NP);

  // C4 inside A (its first 11 rows): the unchanged nest runs.
  fill(&B[0][0][0], NR * NQ * NP, 4);
  doitgen(NR, NQ, NP, B, (double (*)[NP])&B[0][0][0], sum);
  print("c4_in_a", &B[0][0][0], NR * NQ * NP);
  print("sum_c4_in_a", sum, NP);

  // sum[] inside A (the last row): the unchanged nest runs.
  fill(&B[0][0][0], NR * NQ * NP, 5);
  doitgen(NR, NQ, NP, B, C4, &B[NR - 1][NQ - 1][0]);
  print("sum_in_a", &B[0][0][0], NR * NQ * NP);

  // Empty rows and no rows: the guards that -O2 leaves in the row loops
  // (np > 0, nq > 0) fail the check, the unchanged nest runs (and does
  // nothing); sum[] keeps its values.
  fill(sum, NP, 8);
  doitgen(NR, NQ, 0, A, C4, sum);
  doitgen(NR, 0, NP, A, C4, sum);
  print("empty", &A[0][0][0], NR * NQ * NP);
  print("sum_empty", sum, NP);

  fill(&F[0][0][0], NR * NQ * NS, 6);
  fill(&C5[0][0], NS * NS, 7);
  fixed(NR, F, C5);
  print("fixed", &F[0][0][0], NR * NQ * NS);
  return 0;
}
