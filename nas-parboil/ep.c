/*
 * ep.c - EP-like Monte-Carlo tally (after the NAS Parallel Benchmarks "EP"
 * kernel): uniform pairs from the NAS 46-bit multiplicative LCG, a tally of
 * the points inside the unit circle, Gaussian deviates by the Marsaglia polar
 * method and their sums, and the count of deviates per square annulus.
 *
 * Loops carry a trailing marker comment on their `for` line:
 *   idiom: reduction | map   -- expected to be offloaded
 *   not-idiom: REASON        -- must stay sequential (or be declined)
 * Output: "n N" first, then "label value" lines (see compare.py).
 */
#include <math.h>
#include <stdint.h>
#include <stdio.h>

#define NPAIRS (1L << 21)
#define NQ 10

double xs[NPAIRS];
double ys[NPAIRS];
double cum[NPAIRS];
long q[NQ];

/* randlc of NAS: x <- 5^13 * x mod 2^46, result x * 2^-46 in [0, 1). */
static uint64_t lcg_state = 271828183ULL;

static double lcg_next(void)
{
  lcg_state = (1220703125ULL * lcg_state) & ((1ULL << 46) - 1);
  return (double)lcg_state * (1.0 / 70368744177664.0);
}

/* Pairs uniform in [-1, 1)^2. The LCG state is carried from one iteration to
 * the next: a recurrence. */
static void gen_pairs(double *x, double *y, long n)
{
  long i;
  for (i = 0; i < n; i++) { /* not-idiom: recurrence (LCG state) */
    x[i] = 2.0 * lcg_next() - 1.0;
    y[i] = 2.0 * lcg_next() - 1.0;
  }
}

/* Two accumulators in one loop. */
static void sum_xy(const double *x, const double *y, long n, double *sx,
                   double *sy)
{
  double a = 0.0, b = 0.0;
  long i;
  for (i = 0; i < n; i++) { /* idiom: reduction (sum x, sum y) */
    a += x[i];
    b += y[i];
  }
  *sx = a;
  *sy = b;
}

static double sum_sq(const double *x, const double *y, long n)
{
  double s = 0.0;
  long i;
  for (i = 0; i < n; i++) /* idiom: reduction (sum of squares) */
    s += x[i] * x[i] + y[i] * y[i];
  return s;
}

static long count_inside(const double *x, const double *y, long n)
{
  long cnt = 0;
  long i;
  for (i = 0; i < n; i++) { /* idiom: reduction (conditional count) */
    if (x[i] * x[i] + y[i] * y[i] <= 1.0)
      cnt++;
  }
  return cnt;
}

/* Marsaglia polar method: three accumulators under one condition, with
 * log and sqrt in the body. */
static void gauss_sums(const double *x, const double *y, long n, double *gx,
                       double *gy, long *ng)
{
  double sx = 0.0, sy = 0.0;
  long cnt = 0;
  long i;
  for (i = 0; i < n; i++) { /* idiom: reduction (conditional, 3 acc.) */
    double t = x[i] * x[i] + y[i] * y[i];
    if (t <= 1.0 && t > 0.0) {
      double f = sqrt(-2.0 * log(t) / t);
      sx += x[i] * f;
      sy += y[i] * f;
      cnt++;
    }
  }
  *gx = sx;
  *gy = sy;
  *ng = cnt;
}

/* Count of deviates per square annulus l <= max(|X|,|Y|) < l+1: a histogram
 * (indirect increment), stays sequential. */
static void annulus_counts(const double *x, const double *y, long n, long *qq)
{
  long i;
  int l;
  for (l = 0; l < NQ; l++)
    qq[l] = 0;
  for (i = 0; i < n; i++) { /* not-idiom: histogram (indirect store) */
    double t = x[i] * x[i] + y[i] * y[i];
    if (t <= 1.0 && t > 0.0) {
      double f = sqrt(-2.0 * log(t) / t);
      double ax = fabs(x[i] * f), ay = fabs(y[i] * f);
      l = (int)(ax > ay ? ax : ay);
      if (l < NQ)
        qq[l]++;
    }
  }
}

/* Running sum: cum[i] depends on cum[i-1]. */
static void running_sum(double *c, const double *x, long n)
{
  long i;
  c[0] = x[0];
  for (i = 1; i < n; i++) /* not-idiom: recurrence (prefix sum) */
    c[i] = c[i - 1] + x[i];
}

/* First point closer to the origin than sqrt(r2); the loop exits early. */
static long first_near_origin(const double *x, const double *y, long n,
                              double r2)
{
  long i, found = -1;
  for (i = 0; i < n; i++) { /* not-idiom: early exit (break) */
    if (x[i] * x[i] + y[i] * y[i] < r2) {
      found = i;
      break;
    }
  }
  return found;
}

int main(void)
{
  long n = NPAIRS, inside, ng, l, near;
  double sx, sy, ssq, gx, gy;

  gen_pairs(xs, ys, n);
  sum_xy(xs, ys, n, &sx, &sy);
  ssq = sum_sq(xs, ys, n);
  inside = count_inside(xs, ys, n);
  gauss_sums(xs, ys, n, &gx, &gy, &ng);
  annulus_counts(xs, ys, n, q);
  running_sum(cum, xs, n);
  near = first_near_origin(xs, ys, n, 1.0e-5);

  printf("n %ld\n", n);
  printf("sum_x %.10e\n", sx);
  printf("sum_y %.10e\n", sy);
  printf("sum_sq %.10e\n", ssq);
  printf("inside %ld\n", inside);
  printf("pi_estimate %.10e\n", 4.0 * (double)inside / (double)n);
  printf("gauss_sx %.10e\n", gx);
  printf("gauss_sy %.10e\n", gy);
  printf("gauss_n %ld\n", ng);
  for (l = 0; l < NQ; l++)
    printf("q%ld %ld\n", l, q[l]);
  printf("cum_mid %.10e\n", cum[n / 2]);
  printf("cum_last %.10e\n", cum[n - 1]);
  printf("first_near_origin %ld\n", near);
  return 0;
}
