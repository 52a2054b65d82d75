// Issue 12 benchmark: a 2-D Jacobi time loop over flattened double arrays,
// as legacy codes write it: a 5-point stencil from u into v, the copy of v
// back into u (LoopIdiomRecognize makes it a memcpy, which the plugin
// routes through idiom_region_memmove), and the residual, a sum of
// squared differences. Usage: jacobi2d [N] [sweeps] (default 4096, 150).
// Prints the residual of the last sweep and a checksum of u;
// bench/jacobi_gpu.sh times the sequential build against the plugin's.
// The OpenMP pragmas are the hand-parallel reference of
// bench/run_cpukern_pocl.sh (clang -fopenmp); other builds ignore them.
#include <stdio.h>
#include <stdlib.h>

__attribute__((noinline)) static double sweep(double *u, double *v, long n,
                                              int sweeps) {
  double res = 0;
  for (int t = 0; t < sweeps; t++) {
#pragma omp parallel for
    for (long i = 1; i < n - 1; i++)
      for (long j = 1; j < n - 1; j++)
        v[i * n + j] = 0.25 * (u[(i - 1) * n + j] + u[(i + 1) * n + j] +
                               u[i * n + j - 1] + u[i * n + j + 1]);
    res = 0;
#pragma omp parallel for reduction(+ : res)
    for (long k = 0; k < n * n; k++)
      res += (v[k] - u[k]) * (v[k] - u[k]);
#pragma omp parallel for
    for (long k = 0; k < n * n; k++)
      u[k] = v[k];
  }
  return res;
}

int main(int argc, char **argv) {
  long n = argc > 1 ? atol(argv[1]) : 4096;
  int sweeps = argc > 2 ? atoi(argv[2]) : 150;
  double *u = malloc(sizeof(double) * n * n), *v = malloc(sizeof(double) * n * n);
  if (!u || !v || n < 3)
    return 1;
  for (long k = 0; k < n * n; k++)
    u[k] = v[k] = 0;
  for (long j = 0; j < n; j++)
    u[j] = v[j] = 1.0; // a hot top edge
  double res = sweep(u, v, n, sweeps);
  double c = 0;
  for (long k = 0; k < n * n; k += 4099)
    c += u[k];
  printf("residual %.6e checksum %.6e\n", res, c);
  free(u);
  free(v);
  return 0;
}
