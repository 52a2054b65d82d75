/*
 * trmm.c - PolyBench 4's trmm (B = alpha * A^T B with A unit lower
 * triangular, BLAS xTRMM side 'L', uplo 'L', transa 'T', diag 'U'), in
 * float and double, on malloc'd matrices (m = 320 rows, n = 384 columns),
 * written as PolyBench writes it:
 *   for (i < m) for (j < n) {
 *     for (k = i + 1; k < m; k++) B[i][j] += A[k][i] * B[k][j];
 *     B[i][j] = alpha * B[i][j];
 *   }
 * B is overwritten in place: row i reads the rows k > i that later
 * iterations overwrite (an anti dependence only), so the nest equals the
 * out-of-place product on the original B (spec trmm, offloaded with B read
 * from a snapshot: docs/ARCHITECTURE.md "TRMM"). A third kernel is BLAS's
 * left upper form without transposition (A[i][k]), whose rows are the same.
 *
 * Loops carry a trailing marker comment on their `for` line:
 *   idiom: KIND         -- expected to be offloaded
 *   not-idiom: REASON   -- must stay sequential
 *   maybe: REASON       -- either is fine
 * Output: "n N" first, then "label value" lines (see compare.py); ".f32"
 * labels hold single-precision results. Every element is summed in the
 * loop's order; the checksums are sums over the matrix (reassociated when
 * offloaded), within compare.py's default tolerance.
 */
#include <stdio.h>
#include <stdlib.h>

#define M 320
#define N 384

/* Uniform values in [-1, 1) from a 31-bit LCG (deterministic, no rand()). */
static unsigned lcg_state = 1234567u;
static double next_uniform(void)
{
  lcg_state = lcg_state * 1103515245u + 12345u;
  return (double)((lcg_state >> 8) & 0xffffff) / 8388608.0 - 1.0;
}

static void *xmalloc(size_t bytes)
{
  void *p = malloc(bytes);
  if (!p) {
    fprintf(stderr, "out of memory\n");
    exit(1);
  }
  return p;
}

/* PolyBench 4 trmm, float. */
static void kernel_trmm_f(float alpha, float A[M][M], float B[M][N])
{
  int i, j, k;
  for (i = 0; i < M; i++) /* idiom: trmm */
    for (j = 0; j < N; j++) {
      for (k = i + 1; k < M; k++)
        B[i][j] += A[k][i] * B[k][j];
      B[i][j] = alpha * B[i][j];
    }
}

/* PolyBench 4 trmm, double. */
static void kernel_trmm_d(double alpha, double A[M][M], double B[M][N])
{
  int i, j, k;
  for (i = 0; i < M; i++) /* idiom: trmm */
    for (j = 0; j < N; j++) {
      for (k = i + 1; k < M; k++)
        B[i][j] += A[k][i] * B[k][j];
      B[i][j] = alpha * B[i][j];
    }
}

/* BLAS's left upper form without transposition (B = alpha A B, A unit
   upper triangular): A[i][k], the rows read still those below row i. */
static void kernel_trmm_up(float alpha, float A[M][M], float B[M][N])
{
  int i, j, k;
  for (i = 0; i < M; i++) /* idiom: trmm */
    for (j = 0; j < N; j++) {
      for (k = i + 1; k < M; k++)
        B[i][j] += A[i][k] * B[k][j];
      B[i][j] = alpha * B[i][j];
    }
}

/* "name_sum" (a sum over the matrix) and six sampled elements, ".f32"
   labels for float results (widened to double for printing). */
static void print_matrix(const char *name, int f32, double B[M][N])
{
  const char *suffix = f32 ? ".f32" : "";
  double s = 0;
  int i, j, q;
  for (i = 0; i < M; i++) /* maybe: reduction (sum) */
    for (j = 0; j < N; j++)
      s += B[i][j];
  printf("%s_sum%s %.15e\n", name, suffix, s);
  for (q = 0; q < 6; q++) {
    i = (q * 263 + 7) % M;
    j = (q * 131 + 3) % N;
    printf("%s_%d_%d%s %.15e\n", name, i, j, suffix, B[i][j]);
  }
}

/* A float result widened to double (exact), to be printed. */
static void widen(float F[M][N], double D[M][N])
{
  int i, j;
  for (i = 0; i < M; i++) /* maybe: map (a copy) */
    for (j = 0; j < N; j++)
      D[i][j] = F[i][j];
}

int main(void)
{
  float (*af)[M] = xmalloc(sizeof(float) * M * M);
  float (*bf)[N] = xmalloc(sizeof(float) * M * N);
  float (*bu)[N] = xmalloc(sizeof(float) * M * N);
  double (*ad)[M] = xmalloc(sizeof(double) * M * M);
  double (*bd)[N] = xmalloc(sizeof(double) * M * N);
  double (*wide)[N] = xmalloc(sizeof(double) * M * N);
  int i, j;
  for (i = 0; i < M; i++) /* not-idiom: recurrence (LCG state) */
    for (j = 0; j < M; j++) {
      ad[i][j] = next_uniform() / 16.0;
      af[i][j] = (float)ad[i][j];
    }
  for (i = 0; i < M; i++) /* not-idiom: recurrence (LCG state) */
    for (j = 0; j < N; j++) {
      bd[i][j] = next_uniform();
      bf[i][j] = (float)bd[i][j];
      bu[i][j] = bf[i][j];
    }

  kernel_trmm_f(1.5f, af, bf);
  kernel_trmm_d(1.5, ad, bd);
  kernel_trmm_up(0.75f, af, bu);

  printf("n %d\n", M);
  widen(bf, wide);
  print_matrix("trmm", 1, wide);
  print_matrix("trmm_d", 0, bd);
  widen(bu, wide);
  print_matrix("trmm_up", 1, wide);
  free(af); free(bf); free(bu); free(ad); free(bd); free(wide);
  return 0;
}
