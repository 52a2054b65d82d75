// Issue 14 benchmark: a conjugate-gradient solver whose hot loop is a CSR
// SpMV (after NAS CG), the whole iteration offloaded (SpMV, dot products,
// axpy maps) inside one residency region (docs/ARCHITECTURE.md,
// "Residency"). The matrix is the 5-point Laplacian of a G x G grid with a
// varying diagonal shift (symmetric, diagonally dominant), built at run time
// in CSR form. Usage: cg_csr [G] [iterations] (default 2048, 100). Prints
// the residual norms at a few iterations and a checksum of the solution;
// bench/cg_gpu.sh times the sequential build against the plugin's.
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

/// Conjugate gradient on A x = b from x = 0 for \p iters iterations; every
/// loop of an iteration is an idiom (the region's body). Returns sqrt(r.r).
static double cg(const int *rowptr, const int *col, const double *val,
                 const double *b, double *x, double *r, double *p, double *q,
                 long n, int iters, double *trace) {
  double rho = 0.0;
  for (long i = 0; i < n; i++) {
    x[i] = 0.0;
    r[i] = b[i];
    p[i] = b[i];
  }
  for (long i = 0; i < n; i++)
    rho += r[i] * r[i];
  for (int it = 0; it < iters; it++) {
    for (long i = 0; i < n; i++) {
      double s = 0.0;
      for (int k = rowptr[i]; k < rowptr[i + 1]; k++)
        s += val[k] * p[col[k]];
      q[i] = s;
    }
    double pq = 0.0;
    for (long i = 0; i < n; i++)
      pq += p[i] * q[i];
    double alpha = rho / pq;
    for (long i = 0; i < n; i++) {
      x[i] = x[i] + alpha * p[i];
      r[i] = r[i] - alpha * q[i];
    }
    double rho1 = 0.0;
    for (long i = 0; i < n; i++)
      rho1 += r[i] * r[i];
    double beta = rho1 / rho;
    rho = rho1;
    for (long i = 0; i < n; i++)
      p[i] = r[i] + beta * p[i];
    trace[it] = rho;
  }
  return sqrt(rho);
}

int main(int argc, char **argv) {
  long g = argc > 1 ? atol(argv[1]) : 2048;
  int iters = argc > 2 ? atoi(argv[2]) : 100;
  if (g < 2 || iters < 1)
    return 1;
  long n = g * g;
  int *rowptr = malloc(sizeof(int) * (n + 1));
  int *col = malloc(sizeof(int) * 5 * n);
  double *val = malloc(sizeof(double) * 5 * n);
  double *b = malloc(sizeof(double) * n), *x = malloc(sizeof(double) * n);
  double *r = malloc(sizeof(double) * n), *p = malloc(sizeof(double) * n);
  double *q = malloc(sizeof(double) * n);
  double *trace = malloc(sizeof(double) * iters);
  if (!rowptr || !col || !val || !b || !x || !r || !p || !q || !trace)
    return 1;
  int nz = 0;
  for (long i = 0; i < g; i++)
    for (long j = 0; j < g; j++) {
      long row = i * g + j;
      rowptr[row] = nz;
      long c[5] = {row - g, row - 1, row, row + 1, row + g};
      int ok[5] = {i > 0, j > 0, 1, j < g - 1, i < g - 1};
      for (int t = 0; t < 5; t++)
        if (ok[t]) {
          col[nz] = (int)c[t];
          val[nz++] = t == 2 ? 4.0 + 0.125 * (double)(row % 5) : -1.0;
        }
      b[row] = 1.0 + (double)((row * 7) % 11) * 0.1;
    }
  rowptr[n] = nz;
  double res = cg(rowptr, col, val, b, x, r, p, q, n, iters, trace);
  double sum = 0.0;
  for (long i = 0; i < n; i++)
    sum += x[i] * (double)(i % 3 + 1);
  printf("n %ld nonzeros %d iterations %d\n", n, nz, iters);
  for (int it = 0; it < iters; it += iters / 4 > 0 ? iters / 4 : 1)
    printf("rho[%d] %.6e\n", it, trace[it]);
  printf("residual %.6e checksum %.9e\n", res, sum);
  return 0;
}
