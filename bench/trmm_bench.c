/*
 * trmm_bench.c - PolyBench 4's trmm (B = alpha (B + A^T B) over the band
 * k > i, in place; spec trmm, docs/ARCHITECTURE.md "TRMM") on row-major
 * m x m and m x n float matrices of run-time size, for bench/trmm_pocl.sh:
 *   trmm.{seq,idiom} M N REPS
 * Runs the product REPS times, B restored from a copy before each (not
 * timed), and prints "m M n N hash H ms T1 T2 ...": an FNV-1a hash of the
 * bits of the last B and the wall time of each product in milliseconds.
 * With a fourth argument `chain` (bench/trmm_region_pocl.sh) the products
 * are applied one after the other to the same B (B := alpha A^T-band B,
 * REPS times, a time loop with nothing but the product in it: a residency
 * region in the plugin build), and "total T" follows: the wall time of the
 * whole loop, the copy back at the region's end included.
 * With a fourth argument `lower` (FORM=lower bench/trmm_pocl.sh) the
 * product is the lower form whose rows run down (B = alpha (B + strictly-
 * lower(A) B), `for (i = m - 1; i > 0; i--) ... for (k = 0; k < i; k++)`,
 * long indices; docs/FunIL.md "TRMM programs"), restored before each.
 * Every element is summed in the loop's order, on the device as on the
 * host, so the hashes of the two builds agree.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

__attribute__((noinline)) static void trmm(int m, int n, float alpha,
                                           float A[m][m], float B[m][n])
{
  for (int i = 0; i < m; i++)
    for (int j = 0; j < n; j++) {
      for (int k = i + 1; k < m; k++)
        B[i][j] += A[k][i] * B[k][j];
      B[i][j] = alpha * B[i][j];
    }
}

__attribute__((noinline)) static void trmm_lower(long m, long n, float alpha,
                                                 float A[m][m], float B[m][n])
{
  for (long i = m - 1; i > 0; i--)
    for (long j = 0; j < n; j++) {
      for (long k = 0; k < i; k++)
        B[i][j] += A[i][k] * B[k][j];
      B[i][j] = alpha * B[i][j];
    }
}

static double now_ms(void)
{
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return t.tv_sec * 1e3 + t.tv_nsec * 1e-6;
}

int main(int argc, char **argv)
{
  if (argc < 4) {
    fprintf(stderr, "usage: %s M N REPS [chain|lower]\n", argv[0]);
    return 2;
  }
  int m = atoi(argv[1]), n = atoi(argv[2]), reps = atoi(argv[3]);
  int chain = argc > 4 && !strcmp(argv[4], "chain");
  int lower = argc > 4 && !strcmp(argv[4], "lower");
  float *a = malloc(sizeof(float) * m * m), *b = malloc(sizeof(float) * m * n);
  float *b0 = malloc(sizeof(float) * m * n);
  if (!a || !b || !b0)
    return 1;
  unsigned s = 12345u;
  for (long i = 0; i < (long)m * m; i++) {
    s = s * 1103515245u + 12345u;
    a[i] = (float)((s >> 8) & 0xffff) / 65536.0f / (float)m;
  }
  for (long i = 0; i < (long)m * n; i++) {
    s = s * 1103515245u + 12345u;
    b0[i] = (float)((s >> 8) & 0xffff) / 32768.0f - 1.0f;
  }
  printf("m %d n %d", m, n);
  double *ms = malloc(sizeof(double) * (reps > 0 ? reps : 1));
  double total = 0;
  if (chain) {
    memcpy(b, b0, sizeof(float) * m * n);
    double t = now_ms(), start = t;
    for (int r = 0; r < reps; r++) {
      trmm(m, n, 1.5f, (float(*)[m])a, (float(*)[n])b);
      double t1 = now_ms();
      ms[r] = t1 - t;
      t = t1;
    }
    total = now_ms() - start;
  } else {
    for (int r = 0; r < reps; r++) {
      memcpy(b, b0, sizeof(float) * m * n);
      double t0 = now_ms();
      if (lower)
        trmm_lower(m, n, 1.5f, (float(*)[m])a, (float(*)[n])b);
      else
        trmm(m, n, 1.5f, (float(*)[m])a, (float(*)[n])b);
      ms[r] = now_ms() - t0;
    }
  }
  unsigned long h = 1469598103934665603ul;
  const unsigned char *p = (const unsigned char *)b;
  for (long i = 0; i < (long)sizeof(float) * m * n; i++)
    h = (h ^ p[i]) * 1099511628211ul;
  printf(" hash %lx ms", h);
  for (int r = 0; r < reps; r++)
    printf(" %.3f", ms[r]);
  if (chain)
    printf(" total %.3f", total);
  printf("\n");
  return 0;
}
