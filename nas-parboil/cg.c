/*
 * cg.c - CG-like kernel (after the NAS Parallel Benchmarks "CG"): a few
 * conjugate-gradient iterations on a symmetric, diagonally dominant
 * tridiagonal matrix A = tridiag(e, d[i], e), with the matrix-vector product
 * written as a three-point stencil map, dot products, norms and axpy maps.
 *
 * Loops carry a trailing marker comment on their `for` line:
 *   idiom: reduction | map   -- expected to be offloaded
 *   not-idiom: REASON        -- must stay sequential (or be declined)
 * Output: "n N" first, then "label value" lines (see compare.py).
 */
#include <math.h>
#include <stdint.h>
#include <stdio.h>

#define N (1 << 20)
#define NITER 8

double d[N];
double b[N];
double x[N];
double r[N];
double p[N];
double q[N];
double w[N];

static const double offdiag = -1.0;

long monitor_calls; /* updated by monitor(): a side effect */

static uint32_t lcg_state = 12345u;

static double lcg_unit(void)
{
  lcg_state = lcg_state * 1664525u + 1013904223u;
  return (double)(lcg_state >> 8) * (1.0 / 16777216.0);
}

static void setup(double *dd, double *bb, int n)
{
  int i;
  for (i = 0; i < n; i++) /* idiom: map (index-based init) */
    dd[i] = 4.0 + 0.25 * (double)(i % 7);
  for (i = 0; i < n; i++) /* not-idiom: recurrence (LCG state) */
    bb[i] = lcg_unit() - 0.25;
}

static double dot(const double *a, const double *c, int n)
{
  double s = 0.0;
  int i;
  for (i = 0; i < n; i++) /* idiom: reduction (dot product) */
    s += a[i] * c[i];
  return s;
}

static double norm2(const double *a, int n)
{
  double s = 0.0;
  int i;
  for (i = 0; i < n; i++) /* idiom: reduction (sum of squares) */
    s = s + a[i] * a[i];
  return sqrt(s);
}

/* qq = A pp: interior rows as a stencil map over 1..n-2. */
static void matvec(double *qq, const double *dd, const double *pp, double e,
                   int n)
{
  int i;
  qq[0] = dd[0] * pp[0] + e * pp[1];
  for (i = 1; i < n - 1; i++) /* idiom: map (3-point stencil) */
    qq[i] = dd[i] * pp[i] + e * (pp[i - 1] + pp[i + 1]);
  qq[n - 1] = dd[n - 1] * pp[n - 1] + e * pp[n - 2];
}

static void copy(double *dst, const double *src, int n)
{
  int i;
  for (i = 0; i < n; i++) /* idiom: map (copy) */
    dst[i] = src[i];
}

static void zero(double *dst, int n)
{
  int i;
  for (i = 0; i < n; i++) /* idiom: map (fill) */
    dst[i] = 0.0;
}

/* Two outputs in one loop: x += alpha p, r -= alpha q. */
static void update_xr(double *xx, double *rr, const double *pp,
                      const double *qq, double alpha, int n)
{
  int i;
  for (i = 0; i < n; i++) { /* idiom: map (two outputs) */
    xx[i] = xx[i] + alpha * pp[i];
    rr[i] = rr[i] - alpha * qq[i];
  }
}

static void update_p(double *pp, const double *rr, double beta, int n)
{
  int i;
  for (i = 0; i < n; i++) /* idiom: map (p = r + beta p) */
    pp[i] = rr[i] + beta * pp[i];
}

static void axpy(double *y, const double *xx, double alpha, int n)
{
  int i;
  for (i = 0; i < n; i++) /* idiom: map (axpy) */
    y[i] = y[i] + alpha * xx[i];
}

/* Residual of the computed solution: ww = bb - A xx (two maps). */
static void residual(double *ww, const double *bb, const double *xx,
                     const double *dd, int n)
{
  int i;
  matvec(ww, dd, xx, offdiag, n);
  for (i = 0; i < n; i++) /* idiom: map (b - Ax) */
    ww[i] = bb[i] - ww[i];
}

/* Looks like a reduction, but each iteration calls a function that updates a
 * global counter. */
__attribute__((noinline)) static double monitor(double v)
{
  if (v > 0.5)
    monitor_calls++;
  return v * v;
}

static double monitored_sum(const double *a, int n)
{
  double s = 0.0;
  int i;
  for (i = 0; i < n; i++) /* not-idiom: side effect (call) */
    s += monitor(a[i]);
  return s;
}

/* out[i] = 2 in[i]; the caller passes overlapping ranges, so the runtime
 * must decline (or the pass must guard) and the loop run as written. */
__attribute__((noinline)) static void dshift(double *out, const double *in,
                                             int n)
{
  int i;
  for (i = 0; i < n; i++) /* not-idiom: overlap (runtime) */
    out[i] = in[i] * 2.0;
}

/* Same with the dependence going forward: out = in + 1 makes every
 * iteration read what the previous one wrote. */
__attribute__((noinline)) static void dsmooth(double *out, const double *in,
                                              int n)
{
  int i;
  for (i = 0; i < n; i++) /* not-idiom: overlap (loop-carried) */
    out[i] = 0.5 * in[i] + 0.25;
}

int main(void)
{
  int n = N, it;
  double rho, rho_new, alpha, beta, pq, rnorm0, rnorm, xnorm, tnorm, msum;

  setup(d, b, n);
  zero(x, n);
  copy(r, b, n);
  copy(p, r, n);
  rho = dot(r, r, n);
  rnorm0 = sqrt(rho);

  printf("n %d\n", n);
  printf("bnorm %.10e\n", norm2(b, n));
  for (it = 0; it < NITER; it++) { /* CG iterations: 8 trips, sequential */
    matvec(q, d, p, offdiag, n);
    pq = dot(p, q, n);
    alpha = rho / pq;
    update_xr(x, r, p, q, alpha, n);
    rho_new = dot(r, r, n);
    beta = rho_new / rho;
    update_p(p, r, beta, n);
    rho = rho_new;
    printf("rnorm_it%d %.10e\n", it, sqrt(rho));
  }
  rnorm = norm2(r, n);
  xnorm = norm2(x, n);
  residual(w, b, x, d, n);
  tnorm = norm2(w, n);
  printf("rnorm_rel %.10e\n", rnorm / rnorm0);
  printf("true_resid %.10e\n", tnorm);
  printf("xnorm %.10e\n", xnorm);
  printf("x_dot_b %.10e\n", dot(x, b, n));

  /* A final axpy, then the negatives. */
  copy(w, x, n);
  axpy(w, r, 1.0, n);
  printf("w_dot_w %.10e\n", dot(w, w, n));

  msum = monitored_sum(b, n);
  printf("monitored_sum %.10e\n", msum);
  printf("monitor_calls %ld\n", monitor_calls);

  copy(w, b, n);
  dshift(w, w + 1, n - 1); /* w[i] = 2 b[i+1] */
  printf("shift_sum %.10e\n", dot(w, w, n));
  printf("shift_w0 %.10e\n", w[0]);
  copy(w, b, n);
  dsmooth(w + 1, w, n - 1); /* w[i+1] = w[i]/2 + 1/4, sequentially */
  printf("smooth_last %.10e\n", w[n - 1]);
  printf("smooth_sum %.10e\n", dot(w, w, n));
  return 0;
}
