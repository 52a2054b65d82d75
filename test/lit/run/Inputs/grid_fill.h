// Shared by the run tests on grids in one array (shared-grid.c,
// mg-interp.c): a deterministic fill and a print whose summary is exact on
// every build (a recurrence, not a reduction).
#include <stdio.h>

static void fill(double *g, long n, unsigned seed) {
  for (long i = 0; i < n; i++) {
    seed = seed * 1103515245u + 12345u;
    g[i] = (double)(seed >> 8) / 16777216.0 - 0.5;
  }
}

static void print(const char *what, const double *g, long n) {
  double s = 0.0;
  for (long i = 0; i < n; i++)
    s = 0.5 * s + g[i];
  printf("%s %.17g %.17g %.17g\n", what, s, g[n / 3], g[n - 1]);
}
