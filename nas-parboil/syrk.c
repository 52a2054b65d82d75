/*
 * syrk.c - symmetric rank-k updates and PolyBench's beta-scaled GEMM on
 * malloc'd row-major float matrices (n = 384, k = 320), written as
 * PolyBench writes them:
 *   gemm      for i { for j C[i][j] *= beta; for k for j C[i][j] +=
 *             alpha*A[i][k]*B[k][j]; }  (i-k-j with the row scaled first)
 *   syrk      C = alpha A A^T + beta C over the whole square (PolyBench 3.2)
 *   syrk_tri  the lower triangle j <= i with the row scaled first
 *             (PolyBench 4): a triangular GEMM (gemm-triangle), the
 *             elements above the diagonal untouched
 *   syrk_lo   the lower triangle j <= i in the i-j-k order (alpha*sum +
 *             beta*C): a triangular GEMM too
 *   syr2k     C = alpha A B^T + alpha B A^T + beta C over the square (two
 *             products in one sum: spec syr2k)
 *   syr2k_tri PolyBench 4's syr2k over the lower triangle (two products in
 *             one sum: spec syr2k-triangle)
 *
 * Loops carry a trailing marker comment on their `for` line:
 *   idiom: gemm | reduction  -- expected to be offloaded
 *   not-idiom: REASON        -- must stay sequential
 *   maybe: REASON            -- either is fine
 * Output: "n N" first, then "label value" lines (see compare.py); ".f32"
 * labels hold single-precision results.
 *
 * Every element of a GEMM is summed in the loop's order, on the device as on
 * the host, but the device fuses each multiply-add (llvm.fmuladd) that this
 * host rounds twice (the floating-point licence, docs/ARCHITECTURE.md "GEMMs
 * under the licence: accuracy": at most 2 gamma(K + 3) T per element, T the
 * sum of the magnitudes of its terms); in practice a few units in the last
 * place, within the default tolerance of compare.py (n = 320: 7.6e-5 relative),
 * like the checksums (reductions over a matrix), which are reassociated.
 * Built with -mllvm -idiom-fp-reassoc=false the matrices are the sequential
 * ones bit for bit.
 */
#include <stdio.h>
#include <stdlib.h>

#define N 384
#define K 320

/* Uniform values in [-1, 1) from a 31-bit LCG (deterministic, no rand()). */
static unsigned lcg_state = 7654321u;
static float next_uniform(void)
{
  lcg_state = lcg_state * 1103515245u + 12345u;
  return (float)((lcg_state >> 8) & 0xffffff) / 8388608.0f - 1.0f;
}

static float *new_matrix(int rows, int cols)
{
  float *m = malloc(sizeof(float) * (size_t)rows * cols);
  long i;
  if (!m) {
    fprintf(stderr, "out of memory\n");
    exit(1);
  }
  for (i = 0; i < (long)rows * cols; i++) /* not-idiom: recurrence (LCG state) */
    m[i] = next_uniform();
  return m;
}

/* PolyBench gemm: C = alpha A B + beta C, A n x k, B k x n. */
static void kernel_gemm(int n, int k, float alpha, float beta, float *c,
                        const float *a, const float *b)
{
  int i, j, p;
  for (i = 0; i < n; i++) { /* idiom: gemm (row of C scaled by beta, then i-k-j update) */
    for (j = 0; j < n; j++)
      c[i * n + j] *= beta;
    for (p = 0; p < k; p++)
      for (j = 0; j < n; j++)
        c[i * n + j] += alpha * a[i * k + p] * b[p * n + j];
  }
}

/* PolyBench 3.2 syrk: C = alpha A A^T + beta C over the square. */
static void kernel_syrk(int n, int k, float alpha, float beta, float *c,
                        const float *a)
{
  int i, j, p;
  for (i = 0; i < n; i++) /* idiom: gemm (B is A^T) */
    for (j = 0; j < n; j++) {
      float s = 0.0f;
      for (p = 0; p < k; p++)
        s += a[i * k + p] * a[j * k + p];
      c[i * n + j] = alpha * s + beta * c[i * n + j];
    }
}

/* PolyBench 4 syrk: the lower triangle j <= i. */
static void kernel_syrk_tri(int n, int k, float alpha, float beta, float *c,
                            const float *a)
{
  int i, j, p;
  for (i = 0; i < n; i++) { /* idiom: gemm (triangular SYRK, beta prologue, i-k-j) */
    for (j = 0; j <= i; j++)
      c[i * n + j] *= beta;
    for (p = 0; p < k; p++)
      for (j = 0; j <= i; j++)
        c[i * n + j] += alpha * a[i * k + p] * a[j * k + p];
  }
}

/* The lower triangle j <= i in the i-j-k order (BLAS SSYRK, uplo = 'L'). */
static void kernel_syrk_lo(int n, int k, float alpha, float beta, float *c,
                           const float *a)
{
  int i, j, p;
  for (i = 0; i < n; i++) /* idiom: gemm (triangular SYRK, i-j-k) */
    for (j = 0; j <= i; j++) {
      float s = 0.0f;
      for (p = 0; p < k; p++)
        s += a[i * k + p] * a[j * k + p];
      c[i * n + j] = alpha * s + beta * c[i * n + j];
    }
}

/* PolyBench 4 syr2k: the lower triangle, two products in one sum. */
static void kernel_syr2k_tri(int n, int k, float alpha, float beta, float *c,
                             const float *a, const float *b)
{
  int i, j, p;
  for (i = 0; i < n; i++) { /* idiom: gemm (triangular SYR2K, two products per step, beta prologue, i-k-j) */
    for (j = 0; j <= i; j++)
      c[i * n + j] *= beta;
    for (p = 0; p < k; p++)
      for (j = 0; j <= i; j++)
        c[i * n + j] += a[j * k + p] * alpha * b[i * k + p] +
                        b[j * k + p] * alpha * a[i * k + p];
  }
}

/* SYR2K over the square: two products in one sum. */
static void kernel_syr2k(int n, int k, float alpha, float beta, float *c,
                         const float *a, const float *b)
{
  int i, j, p;
  for (i = 0; i < n; i++) /* idiom: gemm (SYR2K, two products per step) */
    for (j = 0; j < n; j++) {
      float s = 0.0f;
      for (p = 0; p < k; p++)
        s += a[i * k + p] * b[j * k + p] + b[i * k + p] * a[j * k + p];
      c[i * n + j] = alpha * s + beta * c[i * n + j];
    }
}

static double checksum(const float *m, long len)
{
  double s = 0;
  long i;
  for (i = 0; i < len; i++) /* idiom: reduction (sum) */
    s += m[i];
  return s;
}

static void print_matrix(const char *name, const float *m, int rows, int cols)
{
  int q;
  printf("%s_sum.f32 %.10e\n", name, checksum(m, (long)rows * cols));
  for (q = 0; q < 6; q++) {
    int i = (q * 263 + 7) % rows, j = (q * 131 + 3) % cols;
    if (j > i) /* a point of the lower triangle */
      j = j % (i + 1);
    printf("%s_%d_%d.f32 %.10e\n", name, i, j, (double)m[i * cols + j]);
  }
}

int main(void)
{
  float *a = new_matrix(N, K), *b = new_matrix(K, N), *bt = new_matrix(N, K);
  float *c1 = new_matrix(N, N), *c2 = new_matrix(N, N);
  float *c3 = new_matrix(N, N), *c4 = new_matrix(N, N);
  float *c5 = new_matrix(N, N), *c6 = new_matrix(N, N);

  kernel_gemm(N, K, 1.5f, 1.2f, c1, a, b);
  kernel_syrk(N, K, 1.5f, 1.2f, c2, a);
  kernel_syrk_tri(N, K, 1.5f, 1.2f, c3, a);
  kernel_syr2k(N, K, 1.5f, 1.2f, c4, a, bt);
  kernel_syrk_lo(N, K, 0.5f, -0.8f, c5, bt);
  kernel_syr2k_tri(N, K, 1.5f, 1.2f, c6, a, bt);

  printf("n %d\n", K);
  print_matrix("gemm", c1, N, N);
  print_matrix("syrk", c2, N, N);
  print_matrix("syrk_tri", c3, N, N);
  print_matrix("syr2k", c4, N, N);
  print_matrix("syrk_lo", c5, N, N);
  print_matrix("syr2k_tri", c6, N, N);
  free(a); free(b); free(bt); free(c1); free(c2); free(c3); free(c4);
  free(c5); free(c6);
  return 0;
}
