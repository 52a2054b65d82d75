/*
 * gramschmidt.c - dot products in triangular nests, written as PolyBench 4
 * writes them, on double matrices:
 *   gramschmidt  QR by classical Gram-Schmidt of a 240 x 200 matrix: for each
 *                column k the norm, Q's column k, then for j = k+1 .. n-1
 *                R[k][j] = Q[:,k] . A[:,j] and A[:,j] -= Q[:,k] R[k][j]
 *                (the j loop is parallel: distributed into a GEMV^T from
 *                a run-time start, then the rank-1 update as a 2-D map)
 *   cholesky     A = L L^T in place, n 360: the row i of L by dot products
 *                A[i][j] -= A[i][k] * A[j][k] over k < j, sequential in j
 *                (iteration j reads the A[i][k], k < j, that earlier ones
 *                wrote: a triangular solve)
 *   lu           A = L U in place, n 300: the same triangular solve for L's
 *                row, then U's row (j >= i) as dot products over k < i (a
 *                GEMV for one i: lifted, one launch per row; with fewer
 *                outputs than the default IDIOM_MIN_TRIP, 4096, it runs on
 *                the device only with IDIOM_MIN_TRIP=0)
 * (-DM=.. -DN=.. -DNC=.. -DNL=.. for other sizes: bench/build_doit_carry.sh)
 *
 * Loops carry a trailing marker comment on their `for` line:
 *   idiom: ...        -- expected to be offloaded
 *   not-idiom: REASON -- must stay sequential
 *   maybe: REASON     -- either is fine
 * Output: "n N" first, then "label value" lines (see compare.py). The matrices
 * are diagonally dominant (well conditioned), so reassociated sums (the norms,
 * if offloaded) change later columns by a few units of roundoff per step;
 * n is the number of dot products a result depends on (rows times columns),
 * which bounds that growth generously.
 */
#include <math.h>
#include <stdio.h>

#ifndef M
#define M 240
#endif
#ifndef N
#define N 200
#endif
#ifndef NC
#define NC 360
#endif
#ifndef NL
#define NL 300
#endif

static double A[M][N], R[N][N], Q[M][N];
static double C[NC][NC];
static double L[NL][NL];

/* Uniform values in [-1, 1) from a 31-bit LCG (deterministic, no rand()). */
static unsigned lcg_state = 2718281u;
static double next_uniform(void)
{
  lcg_state = lcg_state * 1103515245u + 12345u;
  return (double)((lcg_state >> 8) & 0xffffff) / 8388608.0 - 1.0;
}

static void init(void)
{
  int i, j;
  for (i = 0; i < M; i++) /* not-idiom: recurrence (LCG state) */
    for (j = 0; j < N; j++)
      A[i][j] = next_uniform() + (i == j ? 8.0 : 0.0);
  /* C = B B^T + n I with B uniform: symmetric positive definite. */
  for (i = 0; i < NC; i++) /* not-idiom: recurrence (LCG state) */
    for (j = 0; j <= i; j++) {
      C[i][j] = next_uniform();
      C[j][i] = C[i][j];
    }
  for (i = 0; i < NC; i++) /* maybe: diagonal shift */
    C[i][i] += 2.0 * NC;
  for (i = 0; i < NL; i++) /* not-idiom: recurrence (LCG state) */
    for (j = 0; j < NL; j++)
      L[i][j] = next_uniform() + (i == j ? 2.0 * NL : 0.0);
}

/* PolyBench 4 gramschmidt. */
static void kernel_gramschmidt(int m, int n, double a[M][N], double r[N][N],
                               double q[M][N])
{
  int i, j, k;
  double nrm;
  for (k = 0; k < n; k++) { /* not-idiom: column k depends on every earlier one */
    nrm = 0.0;
    for (i = 0; i < m; i++) /* maybe: reduction (norm of column k) */
      nrm += a[i][k] * a[i][k];
    r[k][k] = sqrt(nrm);
    for (i = 0; i < m; i++) /* maybe: map (column k of Q) */
      q[i][k] = a[i][k] / r[k][k];
    for (j = k + 1; j < n; j++) { /* idiom: gemv and map (distributed: GEMV^T, then the rank-1 update) */
      r[k][j] = 0.0;
      for (i = 0; i < m; i++) /* maybe: reduction (dot product) */
        r[k][j] += q[i][k] * a[i][j];
      for (i = 0; i < m; i++) /* maybe: map (column update) */
        a[i][j] = a[i][j] - q[i][k] * r[k][j];
    }
  }
}

/* PolyBench 4 cholesky. */
static void kernel_cholesky(int n, double a[NC][NC])
{
  int i, j, k;
  for (i = 0; i < n; i++) { /* not-idiom: row i reads the rows before it */
    for (j = 0; j < i; j++) { /* not-idiom: reads A[i][k], k < j, written by earlier j */
      for (k = 0; k < j; k++) /* maybe: dot product (reduction) */
        a[i][j] -= a[i][k] * a[j][k];
      a[i][j] /= a[j][j];
    }
    for (k = 0; k < i; k++) /* maybe: reduction (squared norm of the row) */
      a[i][i] -= a[i][k] * a[i][k];
    a[i][i] = sqrt(a[i][i]);
  }
}

/* PolyBench 4 lu. */
static void kernel_lu(int n, double a[NL][NL])
{
  int i, j, k;
  for (i = 0; i < n; i++) { /* not-idiom: row i reads the rows before it */
    for (j = 0; j < i; j++) { /* not-idiom: reads A[i][k], k < j, written by earlier j */
      for (k = 0; k < j; k++) /* maybe: dot product (reduction) */
        a[i][j] -= a[i][k] * a[k][j];
      a[i][j] /= a[j][j];
    }
    for (j = i; j < n; j++) /* idiom: gemv (U's row from the rows above) */
      for (k = 0; k < i; k++)
        a[i][j] -= a[i][k] * a[k][j];
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

static void print_matrix(const char *name, const double *m, int rows, int cols)
{
  int k;
  printf("%s_sum %.10e\n", name, checksum(m, (long)rows * cols));
  for (k = 0; k < 6; k++) {
    int i = (k * 263 + 7) % rows, j = (k * 131 + 3) % cols;
    printf("%s_%d_%d %.10e\n", name, i, j, m[(long)i * cols + j]);
  }
}

int main(void)
{
  init();
  kernel_gramschmidt(M, N, A, R, Q);
  kernel_cholesky(NC, C);
  kernel_lu(NL, L);

  printf("n %d\n", M * N);
  print_matrix("gs_R", &R[0][0], N, N);
  print_matrix("gs_Q", &Q[0][0], M, N);
  print_matrix("gs_A", &A[0][0], M, N);
  print_matrix("cholesky", &C[0][0], NC, NC);
  print_matrix("lu", &L[0][0], NL, NL);
  return 0;
}
