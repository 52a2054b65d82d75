// Issue 13 benchmark: a 3-D 7-point heat time loop written the legacy way
// (int counters and sizes, flattened (i*n + j)*n + k indices, the two
// buffers swapped every step). The plugin offloads the 3-deep nest as one
// 3-D map, one launch over a 3-D NDRange a step, and the time loop is a
// residency region (docs/ARCHITECTURE.md, "3-D maps"). With the third
// argument 1 the same update runs with the loops swapped (`for k, for j,
// for i`: the outermost loop walks the unit stride, as in Parboil's
// reference stencil); the lift puts that loop innermost. The solver is its
// own function, as in most legacy codes: inlined into main, where n is
// checked once far above the nest, the loop guards that bound n are out of
// ScalarEvolution's reach and the nest is not proven free of dependences
// (a missed remark).
// Usage: heat3d [n] [steps] [swapped] (default 256, 100, 0). Prints a
// checksum; bench/heat3d_gpu.sh times the sequential build against the
// plugin's and reports the kernels' bandwidth against the device's copy
// bandwidth.
#include <stdio.h>
#include <stdlib.h>

/* The 7-point update of point (i, j, k) of b from a; k is the unit stride.
   The indices are written as legacy codes write them, (i*n + j - 1)*n + k:
   the arguments are pasted unparenthesised on purpose, because
   (i*n + (j - 1)) is an int addition that loses its no-overflow flag at -O2
   and is then no longer an affine address (a missed remark). */
#define AT(x, i, j, k) x[(i * n + j) * n + k]
#define UPDATE(i, j, k)                                                        \
  AT(b, i, j, k) = AT(a, i, j, k) +                                            \
                   0.1 * (AT(a, (i - 1), j, k) + AT(a, (i + 1), j, k) +        \
                          AT(a, i, j - 1, k) + AT(a, i, j + 1, k) +            \
                          AT(a, i, j, k - 1) + AT(a, i, j, k + 1) -            \
                          6.0 * AT(a, i, j, k))

__attribute__((noinline)) static void heat(int n, int steps, double *a,
                                          double *b) {
  for (int t = 0; t < steps; t++) {
    for (int i = 1; i < n - 1; i++)
      for (int j = 1; j < n - 1; j++)
        for (int k = 1; k < n - 1; k++)
          UPDATE(i, j, k);
    double *tmp = a;
    a = b;
    b = tmp;
  }
}

__attribute__((noinline)) static void heat_swapped(int n, int steps, double *a,
                                                  double *b) {
  for (int t = 0; t < steps; t++) {
    for (int k = 1; k < n - 1; k++)
      for (int j = 1; j < n - 1; j++)
        for (int i = 1; i < n - 1; i++)
          UPDATE(i, j, k);
    double *tmp = a;
    a = b;
    b = tmp;
  }
}

int main(int argc, char **argv) {
  int n = argc > 1 ? atoi(argv[1]) : 256;
  int steps = argc > 2 ? atoi(argv[2]) : 100;
  if (n < 3 || steps < 0)
    return 1;
  size_t m = (size_t)n * n * n;
  double *a = malloc(sizeof(double) * m), *b = malloc(sizeof(double) * m);
  if (!a || !b)
    return 1;
  for (size_t q = 0; q < m; q++)
    a[q] = b[q] = (double)(q % 13) * 0.5;
  if (argc > 3 && atoi(argv[3]))
    heat_swapped(n, steps, a, b);
  else
    heat(n, steps, a, b);
  double *r = steps % 2 ? b : a;
  double c = 0;
  for (size_t q = 0; q < m; q += 7)
    c += r[q];
  printf("n %d steps %d checksum %.12e centre %.12e\n", n, steps, c,
         r[((size_t)(n / 2) * n + n / 2) * n + n / 2]);
  free(a);
  free(b);
  return 0;
}
