/*
 * fft.c - a 1-D complex FFT time evolution after NAS FT, as legacy C writes
 * it: complex numbers as `struct { double real, imag; }` arrays, int
 * counters, a radix-2 in-place decimation-in-time FFT with the bit
 * reversal on the host and one loop nest per stage, twiddle factors from a
 * table, and FT's steps: transform once, then per step multiply the
 * spectrum by evolution factors (element-wise complex products), transform
 * back, scale and take a checksum. 2^17 points, 6 steps.
 *
 * A stage of span s is the nest `for (j = 0; j < n; j += 2 * s) for (k =
 * 0; k < s; k++)` over the butterflies (x[j + k], x[j + k + s]): its pairs
 * are disjoint within the stage (the dependence test proves it), so each
 * stage is one 2-D map launch, and the stage loop (s = 1, 2, 4, ...) stays
 * on the host, a sequential loop of launches in a residency region.
 *
 * Loops carry a trailing marker comment on their `for` line:
 *   idiom: map | reduction  -- expected to be offloaded
 *   not-idiom: REASON       -- must stay sequential
 *   maybe: REASON           -- either is fine
 * Output: "n N" first, then "label value" lines (see compare.py).
 *
 * Every element is computed as in the loop (the kernels keep the source's
 * contractions, FP_CONTRACT OFF), so the spectra are the sequential ones
 * bit for bit; the sums are reassociated (compare.py's default tolerance).
 */
#include <math.h>
#include <stdio.h>

#define LOGN 17
#define N (1 << LOGN)
#define STEPS 6

typedef struct {
  double real, imag;
} dcomplex;

static dcomplex u0[N], u1[N], ex[N], fac[N];
static dcomplex twf[N], twi[N]; /* stage s at [s - 1, 2s - 1) */

/* Deterministic initial values from a 31-bit LCG (no rand()). */
static unsigned lcg_state = 314159u;
static double next_uniform(void)
{
  lcg_state = lcg_state * 1103515245u + 12345u;
  return (double)((lcg_state >> 8) & 0xffffff) / 16777216.0;
}

/* The twiddle factors exp(sign * i pi k / s) of every stage, k in [0, s). */
static void twiddles(dcomplex *tw, int n, double sign)
{
  int s, k;
  for (s = 1; s < n; s *= 2) /* not-idiom: stage loop (inner loop's offset moves) */
    for (k = 0; k < s; k++) { /* maybe: libm calls */
      tw[s - 1 + k].real = cos(M_PI * k / s);
      tw[s - 1 + k].imag = sign * sin(M_PI * k / s);
    }
}

/* Puts x in bit-reversed order (the input permutation of a radix-2 DIT
   FFT), swapping pairs on the host. */
static void bitreverse(dcomplex *x, int n)
{
  int i, j = 0, m;
  for (i = 0; i < n - 1; i++) { /* not-idiom: data-dependent swaps */
    if (i < j) {
      dcomplex t = x[i];
      x[i] = x[j];
      x[j] = t;
    }
    m = n >> 1;
    while (m >= 1 && j >= m) {
      j -= m;
      m >>= 1;
    }
    j += m;
  }
}

/* The butterfly stages of a radix-2 DIT FFT of x (bit-reversed) with the
   twiddle table tw, in place. */
__attribute__((noinline)) static void stages(dcomplex *x, const dcomplex *tw,
                                             int n)
{
  int s, j, k;
  for (s = 1; s < n; s *= 2) { /* not-idiom: stage loop (sequential launches) */
    const dcomplex *w = tw + (s - 1);
    for (j = 0; j < n; j += 2 * s) /* idiom: map (2-D, one stage per launch) */
      for (k = 0; k < s; k++) {
        dcomplex u = x[j + k], t;
        t.real = w[k].real * x[j + k + s].real - w[k].imag * x[j + k + s].imag;
        t.imag = w[k].real * x[j + k + s].imag + w[k].imag * x[j + k + s].real;
        x[j + k].real = u.real + t.real;
        x[j + k].imag = u.imag + t.imag;
        x[j + k + s].real = u.real - t.real;
        x[j + k + s].imag = u.imag - t.imag;
      }
  }
}

static void fft(dcomplex *x, const dcomplex *tw, int n)
{
  bitreverse(x, n);
  stages(x, tw, n);
}

/* c = a * b element-wise, complex. */
__attribute__((noinline)) static void cmul(dcomplex *c, const dcomplex *a,
                                           const dcomplex *b, int n)
{
  int i;
  for (i = 0; i < n; i++) { /* idiom: map (complex product) */
    double ar = a[i].real, ai = a[i].imag;
    c[i].real = ar * b[i].real - ai * b[i].imag;
    c[i].imag = ar * b[i].imag + ai * b[i].real;
  }
}

/* x *= f element-wise, complex, in place. */
__attribute__((noinline)) static void cmul_inplace(dcomplex *x,
                                                   const dcomplex *f, int n)
{
  int i;
  for (i = 0; i < n; i++) { /* idiom: map (complex product in place) */
    double xr = x[i].real, xi = x[i].imag;
    x[i].real = xr * f[i].real - xi * f[i].imag;
    x[i].imag = xr * f[i].imag + xi * f[i].real;
  }
}

/* x = a * c, a real scale. */
__attribute__((noinline)) static void cscale(dcomplex *x, double a, int n)
{
  int i;
  for (i = 0; i < n; i++) { /* idiom: map (scaled copy) */
    x[i].real = a * x[i].real;
    x[i].imag = a * x[i].imag;
  }
}

int main(void)
{
  int i, t;
  for (i = 0; i < N; i++) { /* not-idiom: recurrence (LCG state) */
    u0[i].real = next_uniform() - 0.5;
    u0[i].imag = next_uniform() - 0.5;
  }
  /* FT's evolution factors: exp(-4 alpha pi^2 k^2) per step, here with a
     small rotation so that the products mix both parts. */
  for (i = 0; i < N; i++) { /* maybe: libm calls */
    int k = i < N / 2 ? i : i - N;
    double d = exp(-1e-9 * (double)k * (double)k);
    fac[i].real = d * cos(1e-3 * k);
    fac[i].imag = d * sin(1e-3 * k);
    ex[i].real = 1.0;
    ex[i].imag = 0.0;
  }
  twiddles(twf, N, -1.0);
  twiddles(twi, N, 1.0);

  fft(u0, twf, N);
  printf("n %d\n", N);
  for (t = 1; t <= STEPS; t++) {
    cmul_inplace(ex, fac, N);
    cmul(u1, u0, ex, N);
    fft(u1, twi, N);
    cscale(u1, 1.0 / N, N);
    double sr = 0.0, si = 0.0;
    for (i = 0; i < N; i++) /* maybe: two reductions over one struct array */
      sr += u1[i].real;
    for (i = 0; i < N; i++) /* maybe: reduction */
      si += u1[i].imag;
    dcomplex chk = {0.0, 0.0};
    for (i = 1; i <= 1024; i++) { /* not-idiom: modular index (NAS FT's checksum) */
      int q = (int)(((long)i * 5741) % N);
      chk.real += u1[q].real;
      chk.imag += u1[q].imag;
    }
    printf("sum%d.real %.10e\n", t, sr);
    printf("sum%d.imag %.10e\n", t, si);
    printf("chk%d.real %.10e\n", t, chk.real);
    printf("chk%d.imag %.10e\n", t, chk.imag);
  }
  printf("u0[1].real %.10e\n", u0[1].real);
  printf("u0[1].imag %.10e\n", u0[1].imag);
  return 0;
}
