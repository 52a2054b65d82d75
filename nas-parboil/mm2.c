/*
 * mm2.c - chains of matrix products through temporaries, written as
 * PolyBench writes 2mm and 3mm, on malloc'd row-major float matrices passed
 * as pointers (so every product initialises its output element before the
 * loop k, and LLVM keeps that store: the arrays may alias):
 *   2mm: tmp = alpha A B;  D = beta D + tmp C  (D[i][j] *= beta; then
 *        D[i][j] += tmp[i][k] * C[k][j])
 *   3mm: E = A B;  F = C D;  G = E F          (E[i][j] = 0; then +=)
 * with five different sizes (a mix-up of any two shows), and a product that
 * reads the matrix it writes at another index, which must stay sequential.
 *
 * Loops carry a trailing marker comment on their `for` line:
 *   idiom: gemm | map | reduction  -- expected to be offloaded
 *   not-idiom: REASON              -- must stay sequential
 *   maybe: REASON                  -- either is fine
 * Output: "n N" first, then "label value" lines (see compare.py); ".f32"
 * labels hold single-precision results.
 *
 * Every element of a GEMM is summed in the loop's order, on the device as on
 * the host, but the device fuses each multiply-add (llvm.fmuladd) that this
 * host rounds twice (the floating-point licence, docs/ARCHITECTURE.md "GEMMs
 * under the licence: accuracy": at most 2 gamma(K + 3) T per element, T the
 * sum of the magnitudes of its terms); in practice a few units in the last
 * place, within the default tolerance of compare.py (n = 176: 4.2e-5 relative),
 * like the checksums (reductions over a matrix), which are reassociated.
 * Built with -mllvm -idiom-fp-reassoc=false the matrices are the sequential
 * ones bit for bit.
 */
#include <stdio.h>
#include <stdlib.h>

#define NI 144
#define NJ 160
#define NK 176
#define NL 152
#define NM 168

/* Uniform values in [-1, 1) from a 31-bit LCG (deterministic, no rand()). */
static unsigned lcg_state = 1234567u;
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

/* PolyBench 2mm: tmp = alpha A B; D = beta D + tmp C. */
static void kernel_2mm(int ni, int nj, int nk, int nl, float alpha, float beta,
                       float *tmp, const float *a, const float *b,
                       const float *c, float *d)
{
  int i, j, k;
  for (i = 0; i < ni; i++) /* idiom: gemm (tmp[i][j] = 0, then += alpha A B) */
    for (j = 0; j < nj; j++) {
      tmp[i * nj + j] = 0.0f;
      for (k = 0; k < nk; ++k)
        tmp[i * nj + j] += alpha * a[i * nk + k] * b[k * nj + j];
    }
  for (i = 0; i < ni; i++) /* idiom: gemm (D[i][j] *= beta, then += tmp C) */
    for (j = 0; j < nl; j++) {
      d[i * nl + j] *= beta;
      for (k = 0; k < nj; ++k)
        d[i * nl + j] += tmp[i * nj + k] * c[k * nl + j];
    }
}

/* PolyBench 3mm: E = A B; F = C D; G = E F. */
static void kernel_3mm(int ni, int nj, int nk, int nl, int nm, float *e,
                       const float *a, const float *b, float *f,
                       const float *c, const float *d, float *g)
{
  int i, j, k;
  for (i = 0; i < ni; i++) /* idiom: gemm (E = A B) */
    for (j = 0; j < nj; j++) {
      e[i * nj + j] = 0.0f;
      for (k = 0; k < nk; ++k)
        e[i * nj + j] += a[i * nk + k] * b[k * nj + j];
    }
  for (i = 0; i < nj; i++) /* idiom: gemm (F = C D) */
    for (j = 0; j < nl; j++) {
      f[i * nl + j] = 0.0f;
      for (k = 0; k < nm; ++k)
        f[i * nl + j] += c[i * nm + k] * d[k * nl + j];
    }
  for (i = 0; i < ni; i++) /* idiom: gemm (G = E F, both products of this chain) */
    for (j = 0; j < nl; j++) {
      g[i * nl + j] = 0.0f;
      for (k = 0; k < nj; ++k)
        g[i * nl + j] += e[i * nj + k] * f[k * nl + j];
    }
}

/* A product that reads the matrix it writes: row i of w reads w[i][k] for
   k < j already updated in this row, so the elements are not independent. */
static void self_product(int n, float *w, const float *b)
{
  int i, j, k;
  for (i = 0; i < n; i++) /* not-idiom: w read at another index (elements depend on earlier ones) */
    for (j = 0; j < n; j++) {
      w[i * n + j] = 0.5f;
      for (k = 0; k < n; ++k)
        w[i * n + j] += 1e-3f * w[i * n + k] * b[k * n + j];
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
  int k;
  printf("%s_sum.f32 %.10e\n", name, checksum(m, (long)rows * cols));
  for (k = 0; k < 6; k++) {
    int i = (k * 263 + 7) % rows, j = (k * 131 + 3) % cols;
    printf("%s_%d_%d.f32 %.10e\n", name, i, j, (double)m[i * cols + j]);
  }
}

int main(void)
{
  float *a = new_matrix(NI, NK), *b = new_matrix(NK, NJ);
  float *c2 = new_matrix(NJ, NL), *d2 = new_matrix(NI, NL);
  float *tmp = new_matrix(NI, NJ);
  float *c3 = new_matrix(NJ, NM), *d3 = new_matrix(NM, NL);
  float *e = new_matrix(NI, NJ), *f = new_matrix(NJ, NL);
  float *g = new_matrix(NI, NL);
  float *w = new_matrix(NM, NM), *wb = new_matrix(NM, NM);

  kernel_2mm(NI, NJ, NK, NL, 1.5f, 1.2f, tmp, a, b, c2, d2);
  kernel_3mm(NI, NJ, NK, NL, NM, e, a, b, f, c3, d3, g);
  self_product(NM, w, wb);

  printf("n %d\n", NK);
  print_matrix("2mm_tmp", tmp, NI, NJ);
  print_matrix("2mm_d", d2, NI, NL);
  print_matrix("3mm_e", e, NI, NJ);
  print_matrix("3mm_f", f, NJ, NL);
  print_matrix("3mm_g", g, NI, NL);
  print_matrix("self_w", w, NM, NM);
  free(a); free(b); free(c2); free(d2); free(tmp); free(c3); free(d3);
  free(e); free(f); free(g); free(w); free(wb);
  return 0;
}
