/*
 * syrk_bench.c - the symmetric rank-k update C = alpha A A^T + beta C of a
 * row-major n x k float matrix A into an n x n C, for bench/syrk_gpu.py:
 *   syrk.{seq,idiom} N K REPS [tri|square|syr2k]
 * tri (the default): the lower triangle j <= i in the i-j-k order, BLAS
 * SSYRK's work (a triangular GEMM, spec gemm-triangle: the kernel skips the
 * tiles above the diagonal; the elements there are untouched); square: the
 * whole square as PolyBench 3.2 writes syrk (a GEMM whose B is A^T); syr2k:
 * the rank-2k update C = alpha A B^T + alpha B A^T + beta C over the lower
 * triangle in the i-j-k order, BLAS SSYR2K's work (spec syr2k-triangle: two
 * products per step), B a second n x k matrix.
 * Runs the product REPS times on the same inputs (C reset before each) and
 * prints "n N k K hash H sum S": an FNV-1a hash of the bits of C and its
 * sum. Every element is summed in the loop's order, on the device as on the
 * host, so the hashes of the two builds agree.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void syrk_tri(int n, int k, float alpha, float beta, float *c,
                     const float *a)
{
  int i, j, p;
  for (i = 0; i < n; i++)
    for (j = 0; j <= i; j++) {
      float s = 0.0f;
      for (p = 0; p < k; p++)
        s += a[i * k + p] * a[j * k + p];
      c[i * n + j] = alpha * s + beta * c[i * n + j];
    }
}

static void syr2k_tri(int n, int k, float alpha, float beta, float *c,
                      const float *a, const float *b)
{
  int i, j, p;
  for (i = 0; i < n; i++)
    for (j = 0; j <= i; j++) {
      float s = 0.0f;
      for (p = 0; p < k; p++)
        s += a[i * k + p] * b[j * k + p] + b[i * k + p] * a[j * k + p];
      c[i * n + j] = alpha * s + beta * c[i * n + j];
    }
}

static void syrk(int n, int k, float alpha, float beta, float *c,
                 const float *a)
{
  int i, j, p;
  for (i = 0; i < n; i++)
    for (j = 0; j < n; j++) {
      float s = 0.0f;
      for (p = 0; p < k; p++)
        s += a[i * k + p] * a[j * k + p];
      c[i * n + j] = alpha * s + beta * c[i * n + j];
    }
}

int main(int argc, char **argv)
{
  int n = argc > 1 ? atoi(argv[1]) : 1024;
  int k = argc > 2 ? atoi(argv[2]) : n;
  int reps = argc > 3 ? atoi(argv[3]) : 5;
  const char *shape = argc > 4 ? argv[4] : "tri";
  int tri = strcmp(shape, "square") != 0, two = strcmp(shape, "syr2k") == 0;
  float *a = malloc(sizeof(float) * (size_t)n * k);
  float *b = malloc(sizeof(float) * (size_t)n * k);
  float *c = malloc(sizeof(float) * (size_t)n * n);
  float *c0 = malloc(sizeof(float) * (size_t)n * n);
  unsigned state = 12345u, h = 2166136261u;
  size_t i;
  double sum = 0;
  int r;
  if (n < 1 || k < 1 || reps < 1 || !a || !b || !c || !c0 ||
      (strcmp(shape, "tri") && strcmp(shape, "square") && !two)) {
    fprintf(stderr, "usage: %s N K REPS [tri|square|syr2k]\n", argv[0]);
    return 2;
  }
  for (i = 0; i < (size_t)n * k; i++) {
    state = state * 1103515245u + 12345u;
    a[i] = (float)((state >> 8) & 0xffff) / 65536.0f - 0.5f;
  }
  for (i = 0; i < (size_t)n * k; i++) {
    state = state * 1103515245u + 12345u;
    b[i] = (float)((state >> 8) & 0xffff) / 65536.0f - 0.5f;
  }
  for (i = 0; i < (size_t)n * n; i++) {
    state = state * 1103515245u + 12345u;
    c0[i] = (float)((state >> 8) & 0xffff) / 65536.0f - 0.5f;
  }
  for (r = 0; r < reps; r++) {
    memcpy(c, c0, sizeof(float) * (size_t)n * n);
    if (two)
      syr2k_tri(n, k, 1.5f, 0.5f, c, a, b);
    else if (tri)
      syrk_tri(n, k, 1.5f, 0.5f, c, a);
    else
      syrk(n, k, 1.5f, 0.5f, c, a);
  }
  for (i = 0; i < (size_t)n * n; i++) {
    unsigned bits;
    memcpy(&bits, &c[i], sizeof bits);
    h = (h ^ bits) * 16777619u;
    sum += c[i];
  }
  printf("%s n %d k %d hash %08x sum %.6e\n", shape, n, k, h, sum);
  free(a);
  free(b);
  free(c);
  free(c0);
  return 0;
}
