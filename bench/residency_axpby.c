// Issue 12 benchmark: a repeated axpby + norm over N floats, the time loop
// whose body is only offloaded idioms (a residency region, docs/
// ARCHITECTURE.md "Residency"). Usage: residency_axpby [log2 N] [iterations]
// (default 2^24, 200). Prints the accumulated norms; bench/residency_gpu.sh
// times the sequential build against the plugin's with and without the
// region and with and without pinned staging. The OpenMP pragmas are the
// hand-parallel reference of bench/run_cpukern_pocl.sh (clang -fopenmp);
// other builds ignore them.
#include <stdio.h>
#include <stdlib.h>

__attribute__((noinline)) static double run(float *x, float *y, long n,
                                            int iters) {
  double total = 0;
  for (int t = 0; t < iters; t++) {
#pragma omp parallel for
    for (long i = 0; i < n; i++)
      y[i] = 0.5f * x[i] + 0.25f * y[i];
    float s = 0;
#pragma omp parallel for reduction(+ : s)
    for (long i = 0; i < n; i++)
      s += y[i];
    total += s;
  }
  return total;
}

int main(int argc, char **argv) {
  int lg = argc > 1 ? atoi(argv[1]) : 24;
  int iters = argc > 2 ? atoi(argv[2]) : 200;
  long n = 1L << lg;
  float *x = malloc(sizeof(float) * n), *y = malloc(sizeof(float) * n);
  if (!x || !y)
    return 1;
  for (long i = 0; i < n; i++) {
    x[i] = (float)(i % 1000) * 1e-3f;
    y[i] = 1.0f;
  }
  double total = run(x, y, n, iters);
  printf("%.4e %.4e\n", total, (double)y[n / 3]);
  free(x);
  free(y);
  return 0;
}
