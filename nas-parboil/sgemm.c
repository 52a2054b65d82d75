/*
 * sgemm.c - Parboil-style SGEMM: C = alpha * A * B^T + beta * C on
 * column-major matrices with leading dimensions (Parboil's sgemm benchmark
 * computes this product; its CPU reference is the naive triple loop below),
 * with deterministic inputs and checksums of C.
 *
 * Loops carry a trailing marker comment on their `for` line:
 *   idiom: gemm | map | reduction  -- expected to be offloaded
 * Output: "n K" first, then "label value" lines (see compare.py); ".f32"
 * labels hold single-precision results.
 *
 * Tolerance (the GEMM rule of the offload contract): the device may evaluate
 * llvm.fmuladd fused where the host does not, so an element of C may differ
 * by |d| <= 1e-4 * K * max|a| * max|b| * |alpha| (+ the beta term's
 * rounding); here |a|, |b| <= 1, alpha = 1.5, K = 289: 0.043, taken as 0.05.
 *   # tol c_*.f32 0 0.05
 * The sums over all M*N elements: the per-element differences are a few
 * units in the last place in practice (a build with -mfma, which fuses like
 * the device may, moves csum by 3e-4 and cabs by 3e-10 relative); the
 * bounds allow 1e-4 relative for the sum of |c| and 1.0 absolute for the
 * signed sums (of magnitude 2e3).
 *   # tol cabs.f32 1e-4
 *   # tol csum.f32 0 1
 *   # tol cwsum.f32 0 1
 */
#include <stdio.h>

#define M 391
#define N 327
#define K 289
#define LDA (M + 5)  /* A is M x K, column-major, padded */
#define LDB N        /* B is N x K, column-major (B^T is used) */
#define LDC (M + 3)  /* C is M x N, column-major, padded */

static float A[LDA * K];
static float B[LDB * K];
static float C[LDC * N];

/* Parboil's reference sgemm ('N', 'T'): C = alpha * A * B^T + beta * C. */
static void basic_sgemm(int m, int n, int k, float alpha, const float *a,
                        int lda, const float *b, int ldb, float beta, float *c,
                        int ldc)
{
  int mm, nn, i;
  for (mm = 0; mm < m; ++mm) { /* idiom: gemm (column-major, B^T, alpha/beta, leading dimensions) */
    for (nn = 0; nn < n; ++nn) {
      float s = 0.0f;
      for (i = 0; i < k; ++i) {
        float x = a[mm + i * lda];
        float y = b[nn + i * ldb];
        s += x * y;
      }
      c[mm + nn * ldc] = c[mm + nn * ldc] * beta + alpha * s;
    }
  }
}

/* Uniform values in [-1, 1) from a 31-bit LCG (deterministic, no rand()). */
static unsigned lcg_state = 12345u;
static float next_uniform(void)
{
  lcg_state = lcg_state * 1103515245u + 12345u;
  return (float)((lcg_state >> 8) & 0xffffff) / 8388608.0f - 1.0f;
}

static void fill(float *x, int len)
{
  int i;
  for (i = 0; i < len; i++) /* not-idiom: recurrence (LCG state) */
    x[i] = next_uniform();
}

int main(void)
{
  int i, j;
  double sum = 0, asum = 0, wsum = 0;
  fill(A, LDA * K);
  fill(B, LDB * K);
  fill(C, LDC * N);
  basic_sgemm(M, N, K, 1.5f, A, LDA, B, LDB, -0.5f, C, LDC);

  printf("n %d\n", K);
  printf("m %d\n", M);
  printf("n_cols %d\n", N);
  for (j = 0; j < N; j++)
    for (i = 0; i < M; i++) {
      double v = C[i + j * LDC];
      sum += v;
      asum += v < 0 ? -v : v;
      wsum += ((i * 7 + j * 13) % 5 - 2) * v;
    }
  printf("csum.f32 %.10e\n", sum);
  printf("cabs.f32 %.10e\n", asum);
  printf("cwsum.f32 %.10e\n", wsum);
  /* Corners, the padding rows (unchanged) and a spread of samples. */
  printf("c_0_0.f32 %.10e\n", C[0]);
  printf("c_last_0.f32 %.10e\n", C[M - 1]);
  printf("c_0_last.f32 %.10e\n", C[(N - 1) * LDC]);
  printf("c_last_last.f32 %.10e\n", C[M - 1 + (N - 1) * LDC]);
  printf("c_pad_0.f32 %.10e\n", C[M]);
  printf("c_pad_last.f32 %.10e\n", C[M + 2 + (N - 1) * LDC]);
  for (i = 0; i < 16; i++) {
    int r = (i * 97 + 11) % M, col = (i * 61 + 5) % N;
    printf("c_s%d.f32 %.10e\n", i, C[r + col * LDC]);
  }
  return 0;
}
