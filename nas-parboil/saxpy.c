/*
 * saxpy.c - BLAS-1 style maps in single and double precision: index-based
 * initialisation, saxpy / daxpy, scaling, a loop with two outputs, and
 * checksums (reductions) over the results.
 *
 * Loops carry a trailing marker comment on their `for` line:
 *   idiom: reduction | map   -- expected to be offloaded
 *   not-idiom: REASON        -- must stay sequential (or be declined)
 * Output: "n N" first, then "label value" lines (see compare.py). Labels
 * ending in ".f32" hold results computed (at least partly) in single
 * precision and are compared with the single-precision tolerance.
 *
 * Tolerance overrides read by compare.py. The default single-precision rule
 * (n * 2^-24 * 4 = 1.0 for n = 2^22) is meant for float accumulators; the
 * other ".f32" lines are float map results (at most a few ulps apart per
 * element, e.g. when a*x+y is contracted to an fma) summed in double over
 * terms of one sign, so 1e-5 relative is ample:
 *   # tol *.f32 1e-5
 * The float-accumulator dot product keeps the n-based rule:
 *   # tol sdot_xy.f32 1.0
 */
#include <stdio.h>

#define N (1 << 22)
#define ND (1 << 21)

float x[N];
float y[N];
float z[N];
float v[N];
double xd[ND];
double yd[ND];

/* x[i] = i/2, y[i] = 1 + (i mod 1000)/4: maps that use the index. */
static void init_f(float *xx, float *yy, int n)
{
  int i;
  for (i = 0; i < n; i++) /* idiom: map (index init) */
    xx[i] = (float)i * 0.5f;
  for (i = 0; i < n; i++) /* idiom: map (index init, modulo) */
    yy[i] = 1.0f + (float)(i % 1000) * 0.25f;
}

static void init_d(double *xx, double *yy, long n)
{
  long i;
  for (i = 0; i < n; i++) { /* idiom: map (two outputs, index init) */
    xx[i] = 1.0 / (double)(i + 1);
    yy[i] = (double)(i & 1023) * 0.001;
  }
}

static void saxpy(int n, float a, const float *xx, float *yy)
{
  int i;
  for (i = 0; i < n; i++) /* idiom: map (saxpy) */
    yy[i] = a * xx[i] + yy[i];
}

static void daxpy(long n, double a, const double *xx, double *yy)
{
  long i;
  for (i = 0; i < n; i++) /* idiom: map (daxpy) */
    yy[i] = yy[i] + a * xx[i];
}

static void sscal(int n, float a, float *xx)
{
  int i;
  for (i = 0; i < n; i++) /* idiom: map (in-place scale) */
    xx[i] = a * xx[i];
}

/* Two outputs from one loop. */
static void sum_diff(int n, const float *xx, const float *yy, float *s,
                     float *dif)
{
  int i;
  for (i = 0; i < n; i++) { /* idiom: map (two outputs) */
    s[i] = xx[i] + yy[i];
    dif[i] = xx[i] - yy[i];
  }
}

/* Checksums: float data summed in double. */
static double dsum_f(const float *a, int n)
{
  double s = 0.0;
  int i;
  for (i = 0; i < n; i++) /* idiom: reduction (float data, double acc.) */
    s += a[i];
  return s;
}

/* Legacy sdot: single-precision accumulator. */
static float sdot(int n, const float *a, const float *c)
{
  float s = 0.0f;
  int i;
  for (i = 0; i < n; i++) /* idiom: reduction (float acc.) */
    s += a[i] * c[i];
  return s;
}

static double ddot(long n, const double *a, const double *c)
{
  double s = 0.0;
  long i;
  for (i = 0; i < n; i++) /* idiom: reduction (dot product) */
    s += a[i] * c[i];
  return s;
}

/* out[i] = 2 in[i]; the caller passes overlapping ranges. */
__attribute__((noinline)) static void shift(float *out, float *in, int n)
{
  int i;
  for (i = 0; i < n; i++) /* not-idiom: overlap (runtime) */
    out[i] = in[i] * 2.0f;
}

/* out[i] = in[i]/2 + 1; called as relax(a + 1, a, n): a true loop-carried
 * dependence through memory. */
__attribute__((noinline)) static void relax(float *out, float *in, int n)
{
  int i;
  for (i = 0; i < n; i++) /* not-idiom: overlap (loop-carried) */
    out[i] = in[i] * 0.5f + 1.0f;
}

/* First-order recursive filter. */
static void iir(float *out, const float *in, int n)
{
  int i;
  out[0] = in[0];
  for (i = 1; i < n; i++) /* not-idiom: recurrence (IIR filter) */
    out[i] = 0.75f * out[i - 1] + 0.25f * in[i];
}

int main(void)
{
  int n = N;
  long nd = ND;

  init_f(x, y, n);
  init_d(xd, yd, nd);
  printf("n %d\n", n);
  printf("sum_x_init.f32 %.10e\n", dsum_f(x, n));
  printf("sum_y_init.f32 %.10e\n", dsum_f(y, n));

  saxpy(n, 0.75f, x, y);
  printf("saxpy_sum.f32 %.10e\n", dsum_f(y, n));
  printf("saxpy_y_last.f32 %.10e\n", (double)y[n - 1]);

  sscal(n, 1.0f / 1024.0f, x);
  printf("sscal_sum.f32 %.10e\n", dsum_f(x, n));

  sum_diff(n, x, y, z, v);
  printf("sum_z.f32 %.10e\n", dsum_f(z, n));
  printf("sum_v.f32 %.10e\n", dsum_f(v, n));
  printf("sdot_xy.f32 %.10e\n", (double)sdot(n, x, y));

  daxpy(nd, 2.5, xd, yd);
  printf("daxpy_sum %.10e\n", ddot(nd, yd, yd));
  printf("ddot_xy %.10e\n", ddot(nd, xd, yd));
  printf("harmonic %.10e\n", ddot(nd, xd, xd));

  /* Negatives. */
  shift(z, z + 1, n - 1); /* z[i] = 2 z[i+1] */
  printf("shift_sum.f32 %.10e\n", dsum_f(z, n));
  printf("shift_z0.f32 %.10e\n", (double)z[0]);
  relax(v + 1, v, n - 1); /* v[i+1] = v[i]/2 + 1, converges to 2 */
  printf("relax_sum.f32 %.10e\n", dsum_f(v, n));
  printf("relax_v1.f32 %.10e\n", (double)v[1]);
  iir(z, y, n);
  printf("iir_sum.f32 %.10e\n", dsum_f(z, n));
  printf("iir_last.f32 %.10e\n", (double)z[n - 1]);
  return 0;
}
