/*
 * mc.c - Monte-Carlo estimates with sqrt and log in the loop bodies, as
 * legacy codes write them (clang's default -fmath-errno: the calls keep
 * errno, so they are offloaded behind a device check of their arguments,
 * docs/ARCHITECTURE.md "Correctness contract"): a quarter-circle area and an
 * exponential mean from 2^20 uniforms, radii, a tally by bin, a count; then
 * the same on a batch with one bad sample (negative), whose sqrt and log set
 * errno on the host, so every loop that reads it runs sequentially and the
 * printed errno is the sequential one.
 *
 * Loops carry a trailing marker comment on their `for` line:
 *   idiom: reduction | map | histogram   -- expected to be offloaded
 *   not-idiom: REASON                    -- must stay sequential
 * Output: "n N" first, then "label value" lines (see compare.py).
 */
#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>

#define N (1L << 20)
#define NB 64

double u[N];
double r[N];
int bins[NB];

static uint64_t lcg_state = 314159265ULL;

/* Uniforms in (0, 1) from the NAS 46-bit LCG: a recurrence. */
static void gen_uniform(double *x, long n)
{
  long i;
  for (i = 0; i < n; i++) { /* not-idiom: recurrence (LCG state) */
    lcg_state = (1220703125ULL * lcg_state) & ((1ULL << 46) - 1);
    x[i] = ((double)lcg_state + 0.5) * (1.0 / 70368744177664.0);
  }
}

/* Quarter circle (pi / 4) and the mean of -log(u) (1): two sums, sqrt and
 * log. */
static void mc_sums(const double *x, long n, double *area, double *mean)
{
  double s = 0.0, l = 0.0;
  long i;
  for (i = 0; i < n; i++) { /* idiom: reduction (sqrt, log; errno check) */
    s += sqrt(1.0 - x[i] * x[i]);
    l += log(x[i]);
  }
  *area = s;
  *mean = -l;
}

/* Radius of a point on the circle's chord: a map of sqrt. */
static void radii(double *out, const double *x, long n)
{
  long i;
  for (i = 0; i < n; i++) /* idiom: map (sqrt; errno check) */
    out[i] = sqrt(x[i] * (2.0 - x[i]));
}

/* Tally by bin of sqrt(u): a histogram. */
static void tally(const double *x, long n)
{
  long i;
  for (i = 0; i < n; i++) /* idiom: histogram (sqrt; errno check) */
    bins[(int)(sqrt(x[i]) * NB) & (NB - 1)]++;
}

/* Points whose sqrt is below a half: an exact count. */
static long count_small(const double *x, long n)
{
  long c = 0;
  long i;
  for (i = 0; i < n; i++) /* idiom: reduction (count; errno check) */
    c += sqrt(x[i]) < 0.5;
  return c;
}

static void batch(const char *tag)
{
  double area, mean, rs = 0.0;
  long i, chk = 0, small;
  int b, e_sums, e_radii, e_tally, e_count;
  for (b = 0; b < NB; b++)
    bins[b] = 0;
  errno = 0;
  mc_sums(u, N, &area, &mean);
  e_sums = errno;
  errno = 0;
  radii(r, u, N);
  e_radii = errno;
  errno = 0;
  tally(u, N);
  e_tally = errno;
  errno = 0;
  small = count_small(u, N);
  e_count = errno;
  for (i = 0; i < N; i++) /* idiom: reduction (conditional sum) */
    if (!isnan(r[i]))
      rs += r[i];
  for (b = 0; b < NB; b++)
    chk += (long)(b + 1) * bins[b];
  printf("%s.pi %.10e\n", tag, 4.0 * area / N);
  printf("%s.mean %.10e\n", tag, mean / N);
  printf("%s.radii %.10e\n", tag, rs);
  printf("%s.bins %ld\n", tag, chk);
  printf("%s.bin0 %d\n", tag, bins[0]);
  printf("%s.small %ld\n", tag, small);
  printf("%s.errno %d %d %d %d\n", tag, e_sums, e_radii, e_tally, e_count);
}

int main(void)
{
  printf("n %ld\n", N);
  gen_uniform(u, N);
  batch("clean");
  gen_uniform(u, N);
  u[N / 3] = -0.25; /* a bad sample: sqrt and log set EDOM on the host */
  batch("bad");
  return 0;
}
