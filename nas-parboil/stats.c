/*
 * stats.c - one-pass and two-pass descriptive statistics over doubles, ints
 * and unsigned ints: min, max (ternaries, if statements, fmin/fmax), sum,
 * sum of squares, mean, variance, integer sums, bitwise and/or/xor
 * reductions, and a product of (1 + tiny) factors.
 *
 * Loops carry a trailing marker comment on their `for` line:
 *   idiom: reduction | map   -- expected to be offloaded
 *   maybe: REASON            -- may or may not be offloaded; must be right
 *   not-idiom: REASON        -- must stay sequential (or be declined)
 * Output: "n N" first, then "label value" lines (see compare.py).
 */
#include <math.h>
#include <stdint.h>
#include <stdio.h>

#define N (1 << 22)

double v[N];
double pm[N];
int iv[N];
unsigned int uv[N];

long visits; /* updated by visit(): a side effect */

static uint64_t lcg_state = 88172645463325252ULL;

/* 64-bit LCG (Knuth's MMIX constants); the high bits are used. */
static uint64_t lcg64(void)
{
  lcg_state = lcg_state * 6364136223846793005ULL + 1442695040888963407ULL;
  return lcg_state;
}

static void gen(double *dv, int *di, unsigned *du, int n)
{
  int i;
  for (i = 0; i < n; i++) { /* not-idiom: recurrence (LCG state) */
    uint64_t r = lcg64();
    dv[i] = 10.0 + 4.0 * ((double)(r >> 11) * (1.0 / 9007199254740992.0));
    di[i] = (int)((lcg64() >> 33) % 2000001u) - 1000000;
    du[i] = (unsigned)(lcg64() >> 32);
  }
  /* Planted bits so the and/or reductions are not trivially 0 / ~0. */
  for (i = 0; i < n; i++) /* idiom: map (bitwise, index-free) */
    du[i] = (du[i] & 0x00ffff00u) | 0xf000000fu;
  du[n / 3] &= ~0x80000000u;
  du[n - 5] |= 0x0e000000u;
  du[7] &= ~0x00000001u;
}

static void minmax_d(const double *a, int n, double *mn, double *mx)
{
  double lo = a[0], hi = a[0];
  int i;
  for (i = 1; i < n; i++) { /* idiom: reduction (min ternary, max if) */
    lo = a[i] < lo ? a[i] : lo;
    if (a[i] > hi)
      hi = a[i];
  }
  *mn = lo;
  *mx = hi;
}

static double range_fminmax(const double *a, int n)
{
  double lo = INFINITY, hi = -INFINITY;
  int i;
  for (i = 0; i < n; i++) { /* idiom: reduction (fmin, fmax) */
    lo = fmin(lo, a[i]);
    hi = fmax(hi, a[i]);
  }
  return hi - lo;
}

static void minmax_i(const int *a, int n, int *mn, int *mx)
{
  int lo = 2147483647, hi = -2147483647 - 1;
  int i;
  for (i = 0; i < n; i++) { /* idiom: reduction (int min/max) */
    if (a[i] < lo)
      lo = a[i];
    hi = a[i] > hi ? a[i] : hi;
  }
  *mn = lo;
  *mx = hi;
}

static void sums_d(const double *a, int n, double *s, double *s2)
{
  double t = 0.0, t2 = 0.0;
  int i;
  for (i = 0; i < n; i++) { /* idiom: reduction (sum, sum of squares) */
    t += a[i];
    t2 += a[i] * a[i];
  }
  *s = t;
  *s2 = t2;
}

/* Second pass of the two-pass variance: uses a loop-invariant scalar. */
static double sum_dev2(const double *a, int n, double mean)
{
  double t = 0.0;
  int i;
  for (i = 0; i < n; i++) { /* idiom: reduction (sum of squared deviations) */
    double dv = a[i] - mean;
    t += dv * dv;
  }
  return t;
}

static long isum(const int *a, int n)
{
  long s = 0;
  int i;
  for (i = 0; i < n; i++) /* idiom: reduction (int -> long sum) */
    s += a[i];
  return s;
}

static long count_pos(const int *a, int n)
{
  long c = 0;
  int i;
  for (i = 0; i < n; i++) /* idiom: reduction (conditional count) */
    if (a[i] > 0)
      c++;
  return c;
}

static void bits(const unsigned *a, int n, unsigned *band, unsigned *bor,
                 unsigned *bxor)
{
  unsigned x1 = 0xffffffffu, x2 = 0u, x3 = 0u;
  int i;
  for (i = 0; i < n; i++) { /* idiom: reduction (and, or, xor) */
    x1 &= a[i];
    x2 |= a[i];
    x3 ^= a[i];
  }
  *band = x1;
  *bor = x2;
  *bxor = x3;
}

static unsigned usum(const unsigned *a, int n)
{
  unsigned s = 0u;
  int i;
  for (i = 0; i < n; i++) /* idiom: reduction (unsigned sum, wraps) */
    s += a[i];
  return s;
}

static double prod_tiny(const double *a, int n)
{
  double p = 1.0;
  int i;
  for (i = 0; i < n; i++) /* idiom: reduction (product) */
    p *= 1.0 + (a[i] - 12.0) * 1.0e-7;
  return p;
}

/* Index of the largest element: two coupled accumulators. */
static int argmax(const double *a, int n)
{
  double best = a[0];
  int bi = 0, i;
  for (i = 1; i < n; i++) { /* maybe: argmax (coupled accumulators) */
    if (a[i] > best) {
      best = a[i];
      bi = i;
    }
  }
  return bi;
}

/* Running maximum: pm[i] depends on pm[i-1]. */
static void prefix_max(double *out, const double *a, int n)
{
  int i;
  out[0] = a[0];
  for (i = 1; i < n; i++) /* not-idiom: recurrence (prefix max) */
    out[i] = a[i] > out[i - 1] ? a[i] : out[i - 1];
}

/* Linear search with break. */
static int find_first(const int *a, int n, int lo, int hi)
{
  int i, at = -1;
  for (i = 0; i < n; i++) { /* not-idiom: early exit (break) */
    if (a[i] >= lo && a[i] <= hi) {
      at = i;
      break;
    }
  }
  return at;
}

__attribute__((noinline)) static int visit(int x)
{
  visits++;
  return x & 1;
}

static long count_odd_visited(const int *a, int n)
{
  long c = 0;
  int i;
  for (i = 0; i < n; i++) /* not-idiom: side effect (call) */
    c += visit(a[i]);
  return c;
}

int main(void)
{
  int n = N, imn, imx;
  double mn, mx, s, s2, mean, var1, var2;
  unsigned band, bor, bxor;

  gen(v, iv, uv, n);
  printf("n %d\n", n);

  minmax_d(v, n, &mn, &mx);
  printf("dmin %.10e\n", mn);
  printf("dmax %.10e\n", mx);
  printf("drange %.10e\n", range_fminmax(v, n));
  sums_d(v, n, &s, &s2);
  mean = s / n;
  var1 = s2 / n - mean * mean;
  var2 = sum_dev2(v, n, mean) / n;
  printf("dsum %.10e\n", s);
  printf("dsumsq %.10e\n", s2);
  printf("mean %.10e\n", mean);
  printf("var_onepass %.10e\n", var1);
  printf("var_twopass %.10e\n", var2);
  printf("prod_tiny %.10e\n", prod_tiny(v, n));
  printf("argmax %d\n", argmax(v, n));

  minmax_i(iv, n, &imn, &imx);
  printf("imin %d\n", imn);
  printf("imax %d\n", imx);
  printf("isum %ld\n", isum(iv, n));
  printf("ipos %ld\n", count_pos(iv, n));

  bits(uv, n, &band, &bor, &bxor);
  printf("uand %u\n", band);
  printf("uor %u\n", bor);
  printf("uxor %u\n", bxor);
  printf("usum %u\n", usum(uv, n));

  /* Negatives. */
  prefix_max(pm, v, n);
  printf("prefix_max_mid %.10e\n", pm[n / 2]);
  printf("prefix_max_10 %.10e\n", pm[10]);
  printf("find_first %d\n", find_first(iv, n, 999990, 999999));
  printf("odd_visited %ld\n", count_odd_visited(iv, n));
  printf("visits %ld\n", visits);
  return 0;
}
