/*
 * doitgen.c - PolyBench doitgen (multi-resolution analysis kernel, MADNESS):
 * A[r][q][.] = A[r][q][.] x C4 for every (r, q), written as PolyBench 4
 * writes it, a GEMV per (r, q) into a private temporary sum[] that is then
 * copied back into the row it read:
 *   for (r) for (q) { for (p) { sum[p] = 0; for (s) sum[p] += A[r][q][s] *
 *   C4[s][p]; } for (p) A[r][q][p] = sum[p]; }
 * on double arrays A[NR][NQ][NP] and C4[NP][NP] (NR 40, NQ 48, NP 128;
 * -DNR=.. -DNQ=.. -DNP=.. for others: bench/build_doit_carry.sh), then
 * the same with the temporary a local array of the kernel (dead after the
 * nest), and a variant that copies each row's product into the next row
 * (reads a row an earlier (r, q) wrote: sequential).
 *
 * The whole (r, q) nest is one batched product (NR*NQ x NP) x (NP x NP)
 * through a temporary (issue #13): the plugin expands the temporary into
 * one row per (r, q) behind run-time checks and offloads the nest as one
 * GEMM over the flattened rows, copied back into A's rows, the temporary
 * left holding the last row's product (passes/RowProducts.h). The chain
 * stays a GEMV per row (its rows depend on each other).
 *
 * Loops carry a trailing marker comment on their `for` line:
 *   idiom: gemm | gemv | reduction  -- expected to be offloaded
 *   not-idiom: REASON        -- must stay sequential
 *   maybe: REASON            -- either is fine
 * Output: "n N" first, then "label value" lines (see compare.py).
 *
 * Every element of a product is summed in the loop's order, on the device as
 * on the host, so the arrays are the sequential ones up to the rounding of
 * a multiply-add the device may fuse (the source's fmuladd allows it), and
 * the checksums (reductions over an array) are reassociated: both within
 * the default tolerance of compare.py.
 */
#include <stdio.h>

#ifndef NR
#define NR 40
#endif
#ifndef NQ
#define NQ 48
#endif
#ifndef NP
#define NP 128
#endif

static double A[NR][NQ][NP], A2[NR][NQ][NP], A3[NR][NQ][NP];
static double C4[NP][NP];
static double sum[NP];

/* PolyBench's initialisation (deterministic). */
static void init(void)
{
  int r, q, p, s;
  for (r = 0; r < NR; r++) /* maybe: 3-D map (initialisation) */
    for (q = 0; q < NQ; q++)
      for (p = 0; p < NP; p++) {
        A[r][q][p] = (double)((r * q + p) % NP) / NP;
        A2[r][q][p] = A[r][q][p];
        A3[r][q][p] = A[r][q][p];
      }
  for (p = 0; p < NP; p++) /* maybe: 2-D map (initialisation) */
    for (s = 0; s < NP; s++)
      C4[p][s] = (double)(p * s % NP) / NP;
}

/* PolyBench 4 doitgen: sum[] is the caller's array (live after the nest:
   it holds the last row's product). */
static void kernel_doitgen(int nr, int nq, int np, double a[nr][nq][np],
                           double c4[np][np], double sm[np])
{
  int r, q, p, s;
  for (r = 0; r < nr; r++) /* idiom: gemm (all (r, q) rows x C4, batched) */
    for (q = 0; q < nq; q++) {
      for (p = 0; p < np; p++) { /* maybe: GEMV per (r, q) (inside the batch) */
        sm[p] = 0.0;
        for (s = 0; s < np; s++)
          sm[p] += a[r][q][s] * c4[s][p];
      }
      for (p = 0; p < np; p++) /* maybe: copy back (map) */
        a[r][q][p] = sm[p];
    }
}

/* The same with the temporary a local array: dead after the nest. */
static void kernel_doitgen_local(int nr, int nq, double a[][NQ][NP],
                                 double c4[NP][NP])
{
  double t[NP];
  int r, q, p, s;
  for (r = 0; r < nr; r++) /* idiom: gemm (all (r, q) rows x C4, batched) */
    for (q = 0; q < nq; q++) {
      for (p = 0; p < NP; p++) { /* maybe: GEMV per (r, q) (inside the batch) */
        t[p] = 0.0;
        for (s = 0; s < NP; s++)
          t[p] += a[r][q][s] * c4[s][p];
      }
      for (p = 0; p < NP; p++) /* maybe: copy back (map) */
        a[r][q][p] = t[p];
    }
}

/* Each row's product goes into the next row, which a later (r, q) reads:
   the rows form a chain (sequential as a whole). */
static void kernel_doitgen_chain(int nq, double a[NQ][NP], double c4[NP][NP])
{
  double t[NP];
  int q, p, s;
  for (q = 0; q + 1 < nq; q++) { /* not-idiom: row q+1 is read after it is written */
    for (p = 0; p < NP; p++) { /* maybe: one GEMV per row */
      t[p] = 0.0;
      for (s = 0; s < NP; s++)
        t[p] += a[q][s] * c4[s][p];
    }
    for (p = 0; p < NP; p++) /* maybe: copy (map) */
      a[q + 1][p] = t[p];
  }
}

static double checksum(const double *m, long len)
{
  double s = 0;
  long i;
  for (i = 0; i < len; i++) /* idiom: reduction (sum) */
    s += m[i];
  return s;
}

static void print_array(const char *name, const double *m, long len)
{
  int k;
  printf("%s_sum %.10e\n", name, checksum(m, len));
  for (k = 0; k < 6; k++) {
    long at = ((long)k * 104729 + 17) % len;
    printf("%s_%ld %.10e\n", name, at, m[at]);
  }
}

int main(void)
{
  init();
  kernel_doitgen(NR, NQ, NP, A, C4, sum);
  kernel_doitgen_local(NR, NQ, A2, C4);
  kernel_doitgen_chain(NQ, A3[0], C4);

  printf("n %d\n", NR * NQ * NP);
  print_array("doitgen", &A[0][0][0], (long)NR * NQ * NP);
  print_array("sum", sum, NP);
  print_array("doitgen_local", &A2[0][0][0], (long)NR * NQ * NP);
  print_array("doitgen_chain", &A3[0][0][0], (long)NQ * NP);
  return 0;
}
