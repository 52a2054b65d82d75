/*
 * trmv_bench.c - a TRMV-heavy whole program for bench/trmv_pocl.sh
 * (constraints/specs/triangular.idl, `lifts trmv`; docs/FunIL.md "TRMV
 * programs"): on a row-major n x n double matrix A of run-time size, REPS
 * steps of
 *   y = tril(A) x        (lower, j <= i, through a sum)
 *   x = triu(A, 1) y + x (strict upper, j > i, in place into x's copy)
 * the two products a step as the loops are written in C (BLAS dtrmv's
 * shapes, not a library call):
 *   trmv.{seq,idiom} N REPS
 * prints "n N hash H ms T1 T2 ... total T": an FNV-1a hash of the bits of
 * the last x, the wall time of each step and of the whole loop in
 * milliseconds. Every element is summed in the loop's order, on the device
 * as on the host, so the hashes of the two builds agree.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

__attribute__((noinline)) static void trmv_lower(int n, const double *a,
                                                 const double *x, double *y)
{
  for (int i = 0; i < n; i++) {
    double s = 0;
    for (int j = 0; j <= i; j++)
      s += a[(long)i * n + j] * x[j];
    y[i] = s;
  }
}

__attribute__((noinline)) static void trmv_upper_acc(int n, const double *a,
                                                     const double *y,
                                                     double *x)
{
  for (int i = 0; i < n; i++)
    for (int j = i + 1; j < n; j++)
      x[i] += a[(long)i * n + j] * y[j];
}

static double now_ms(void)
{
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return t.tv_sec * 1e3 + t.tv_nsec * 1e-6;
}

int main(int argc, char **argv)
{
  if (argc < 3) {
    fprintf(stderr, "usage: %s N REPS\n", argv[0]);
    return 2;
  }
  int n = atoi(argv[1]), reps = atoi(argv[2]);
  double *a = malloc(sizeof(double) * (long)n * n);
  double *x = malloc(sizeof(double) * n), *y = malloc(sizeof(double) * n);
  double *ms = malloc(sizeof(double) * (reps > 0 ? reps : 1));
  if (!a || !x || !y || !ms)
    return 1;
  unsigned s = 12345u;
  for (long i = 0; i < (long)n * n; i++) {
    s = s * 1103515245u + 12345u;
    a[i] = ((double)((s >> 8) & 0xffff) / 32768.0 - 1.0) / n;
  }
  for (int i = 0; i < n; i++)
    x[i] = 1.0 + (double)(i % 17) / 17.0;
  double start = now_ms(), t = start;
  for (int r = 0; r < reps; r++) {
    trmv_lower(n, a, x, y);
    trmv_upper_acc(n, a, y, x);
    double t1 = now_ms();
    ms[r] = t1 - t;
    t = t1;
  }
  double total = now_ms() - start;
  unsigned long long h = 1469598103934665603ull;
  for (int i = 0; i < n; i++) {
    unsigned char b[sizeof(double)];
    memcpy(b, &x[i], sizeof b);
    for (unsigned k = 0; k < sizeof b; k++)
      h = (h ^ b[k]) * 1099511628211ull;
  }
  printf("n %d hash %016llx ms", n, h);
  for (int r = 0; r < reps; r++)
    printf(" %.3f", ms[r]);
  printf(" total %.3f\n", total);
  return 0;
}
