/*
 * tpacf_dd.c - the DD count of Parboil tpacf at benchmark size: N points on
 * the unit sphere (half clustered, an LCG), each pair (i, j > i) binned by
 * a bisection search over the cosines of 21 descending bin edges; REPS
 * calls, each into fresh bins. The upper-triangle histogram is offloaded as
 * the masked rectangle around the triangle (docs/ConstraintLanguage.md,
 * "Triangular nests"). Prints the bins of the last call (64-bit counts,
 * exact: compare with the sequential build byte for byte).
 *   tpacf_dd [N] [REPS]            (default 16384 3)
 */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#define NB 20

static float binb[NB + 1];
static long dd[NB + 1];

static uint64_t lcg = 271828183ULL;
static double rnd(void) {
  lcg = (1220703125ULL * lcg) & ((1ULL << 46) - 1);
  return (double)lcg * (1.0 / 70368744177664.0);
}

__attribute__((noinline)) static void self_pairs(const float *x, const float *y,
                                                 const float *z, int n) {
  int i, j;
  for (i = 0; i < n; i++)
    for (j = i + 1; j < n; j++) {
      float dot = x[i] * x[j] + y[i] * y[j] + z[i] * z[j];
      int min = 0, max = NB;
      while (max > min + 1) {
        int k = (min + max) / 2;
        if (dot >= binb[k])
          max = k;
        else
          min = k;
      }
      dd[max]++;
    }
}

int main(int argc, char **argv) {
  int n = argc > 1 ? atoi(argv[1]) : 16384, reps = argc > 2 ? atoi(argv[2]) : 3;
  float *x = malloc(sizeof(float) * n), *y = malloc(sizeof(float) * n),
        *z = malloc(sizeof(float) * n);
  if (n < 1 || reps < 1 || !x || !y || !z)
    return 1;
  for (int k = 0; k <= NB; k++)
    binb[k] = (float)cos(0.01 * pow(10.0, 0.25 * k) * 3.141592653589793 / 180.0);
  for (int i = 0; i < n; i++) {
    double u = 2.0 * rnd() - 1.0, phi = 6.283185307179586 * rnd();
    if (i & 1) {
      int c = (int)(rnd() * 4.0);
      u = 0.2 * c - 0.3 + 0.001 * (rnd() - 0.5);
      phi = 1.5 * c + 0.001 * (rnd() - 0.5);
    }
    double r = sqrt(1.0 - u * u);
    x[i] = (float)(r * cos(phi));
    y[i] = (float)(r * sin(phi));
    z[i] = (float)u;
  }
  for (int r = 0; r < reps; r++) {
    for (int k = 0; k <= NB; k++)
      dd[k] = 0;
    self_pairs(x, y, z, n);
  }
  for (int k = 0; k <= NB; k++)
    printf("dd_%d %ld\n", k, dd[k]);
  free(x);
  free(y);
  free(z);
  return 0;
}
