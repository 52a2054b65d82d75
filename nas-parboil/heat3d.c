/*
 * heat3d.c - a 3-D 7-point heat time loop as legacy codes write it: int
 * counters and sizes, one flat array per time level indexed (i*n + j)*n + k,
 * the two levels swapped after every step, the solver a function of its
 * own; then the grid's total heat and a few points. The 3-deep nest is a
 * 3-D map, one launch over a 3-D NDRange a step, and the time loop is a
 * residency region. An 80^3 grid (78^3 = 474552 points a step), 30 steps.
 *
 * Loops carry a trailing marker comment on their `for` line:
 *   idiom: map | reduction  -- expected to be offloaded
 *   not-idiom: REASON       -- must stay sequential
 *   maybe: REASON           -- either is fine
 * Output: "n N" first, then "label value" lines (see compare.py).
 *
 * Each point is computed as in the loop, so the grids are the sequential
 * ones bit for bit; the total heat is a reassociated sum (compare.py's
 * default tolerance).
 */
#include <stdio.h>

#define N 80
#define STEPS 30

static double u0[N * N * N], u1[N * N * N];

/* Deterministic initial temperatures from a 31-bit LCG (no rand()). */
static unsigned lcg_state = 2718u;
static double next_uniform(void)
{
  lcg_state = lcg_state * 1103515245u + 12345u;
  return (double)((lcg_state >> 8) & 0xffffff) / 16777216.0;
}

/* STEPS explicit steps of du/dt = lap(u) with coefficient c; returns the
   grid that holds the last step. */
__attribute__((noinline)) static double *heat(int n, int steps, double c,
                                             double *a, double *b)
{
  int t, i, j, k;
  for (t = 0; t < steps; t++) {
    for (i = 1; i < n - 1; i++) /* idiom: map (3-D, one launch a step) */
      for (j = 1; j < n - 1; j++)
        for (k = 1; k < n - 1; k++)
          b[(i * n + j) * n + k] =
              a[(i * n + j) * n + k] +
              c * (a[((i - 1) * n + j) * n + k] + a[((i + 1) * n + j) * n + k] +
                   a[(i * n + j - 1) * n + k] + a[(i * n + j + 1) * n + k] +
                   a[(i * n + j) * n + k - 1] + a[(i * n + j) * n + k + 1] -
                   6.0 * a[(i * n + j) * n + k]);
    double *tmp = a;
    a = b;
    b = tmp;
  }
  return a;
}

int main(void)
{
  int q;
  for (q = 0; q < N * N * N; q++) { /* not-idiom: recurrence (LCG state) */
    u0[q] = next_uniform() < 0.01 ? 100.0 : 0.0;
    u1[q] = u0[q];
  }
  double *u = heat(N, STEPS, 0.125, u0, u1);
  double total = 0.0;
  for (q = 0; q < N * N * N; q++) /* idiom: reduction (total heat) */
    total += u[q];
  printf("n %d\n", N * N * N);
  printf("total %.10e\n", total);
  printf("centre %.10e\n", u[((N / 2) * N + N / 2) * N + N / 2]);
  printf("corner %.10e\n", u[(1 * N + 1) * N + 1]);
  printf("mid %.10e\n", u[((N / 3) * N + N / 2) * N + 2 * N / 3]);
  return 0;
}
