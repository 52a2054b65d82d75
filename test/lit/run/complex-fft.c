// Complex numbers as structs end to end on PoCL (issue 13): a radix-2
// in-place FFT whose stages are 2-D maps over blocks of 2s (one launch per
// stage, the stage loop on the host in a residency region) after a bit
// reversal on the host, an element-wise complex product, then the inverse
// transform after a bit reversal through a permutation table (a gather of
// struct fields) and a scaled copy. Each
// element is computed as in the loop, so the output is the sequential
// build's bit for bit.
// RUN: %clang -O2 %s -lm -o %t.seq
// RUN: %clang-idiom %s -lidiomrt -lm -Rpass=idiom-offload -o %t.idiom 2> %t.remarks
// RUN: FileCheck %s --check-prefix=REMARK < %t.remarks
// RUN: %t.seq > %t.expected
// RUN: env IDIOM_ZERO_COPY=off IDIOM_COST=off IDIOM_MIN_TRIP=0 IDIOM_STATS=1 IDIOM_CACHE_DIR=off %t.idiom > %t.out 2> %t.stats
// RUN: diff %t.expected %t.out
// RUN: FileCheck %s --check-prefix=STATS < %t.stats
#include <math.h>
#include <stdio.h>

#define LOGN 12
#define N (1 << LOGN)

typedef struct {
  double re, im;
} dcomplex;

static dcomplex x[N], y[N], f[N], twf[N], twi[N];
static int rev[N];

static void twiddles(dcomplex *tw, int n, double sign) {
  for (int s = 1; s < n; s *= 2)
    for (int k = 0; k < s; k++) {
      tw[s - 1 + k].re = cos(M_PI * k / s);
      tw[s - 1 + k].im = sign * sin(M_PI * k / s);
    }
}

static void bitreverse(dcomplex *a, int n) {
  for (int i = 0, j = 0; i < n - 1; i++) {
    if (i < j) {
      dcomplex t = a[i];
      a[i] = a[j];
      a[j] = t;
    }
    int m = n >> 1;
    while (m >= 1 && j >= m) {
      j -= m;
      m >>= 1;
    }
    j += m;
  }
}

// The stages, in place, for input in bit-reversed order.
// REMARK-DAG: complex-fft.c:[[@LINE+6]]:5: remark: offloaded 2-D map (map)
// REMARK-DAG: complex-fft.c:[[@LINE+3]]:3: remark: residency region
__attribute__((noinline)) static void stages(dcomplex *a, const dcomplex *tw,
                                             int n) {
  for (int s = 1; s < n; s *= 2) {
    const dcomplex *w = tw + (s - 1);
    for (int j = 0; j < n; j += 2 * s)
      for (int k = 0; k < s; k++) {
        dcomplex u = a[j + k], v = a[j + k + s], t;
        t.re = w[k].re * v.re - w[k].im * v.im;
        t.im = w[k].re * v.im + w[k].im * v.re;
        a[j + k].re = u.re + t.re;
        a[j + k].im = u.im + t.im;
        a[j + k + s].re = u.re - t.re;
        a[j + k + s].im = u.im - t.im;
      }
  }
}

__attribute__((noinline)) static void fft(dcomplex *a, const dcomplex *tw,
                                          int n) {
  bitreverse(a, n);
  stages(a, tw, n);
}

// The bit reversal as a gather of struct fields through a permutation
// table: a map whose loads x[rev[i]].re and .im read the elements 2 rev[i]
// and 2 rev[i] + 1 of a buffer of the index's run-time extent.
// REMARK-DAG: complex-fft.c:[[@LINE+4]]:3: remark: offloaded map (map)
__attribute__((noinline)) static void permute(dcomplex *restrict y,
                                              const dcomplex *restrict a,
                                              const int *rev, int n) {
  for (int i = 0; i < n; i++) {
    y[i].re = a[rev[i]].re;
    y[i].im = a[rev[i]].im;
  }
}

// REMARK-DAG: complex-fft.c:[[@LINE+3]]:3: remark: offloaded map (map)
__attribute__((noinline)) static void cmul(dcomplex *a, const dcomplex *b,
                                           int n) {
  for (int i = 0; i < n; i++) {
    double ar = a[i].re, ai = a[i].im;
    a[i].re = ar * b[i].re - ai * b[i].im;
    a[i].im = ar * b[i].im + ai * b[i].re;
  }
}

// REMARK-DAG: complex-fft.c:[[@LINE+2]]:3: remark: offloaded map (map)
__attribute__((noinline)) static void cscale(dcomplex *a, double c, int n) {
  for (int i = 0; i < n; i++) {
    a[i].re = c * a[i].re;
    a[i].im = c * a[i].im;
  }
}

int main(void) {
  unsigned state = 12345u;
  for (int i = 0; i < N; i++) {
    state = state * 1103515245u + 12345u;
    x[i].re = (double)((state >> 8) & 0xffff) / 65536.0 - 0.5;
    state = state * 1103515245u + 12345u;
    x[i].im = (double)((state >> 8) & 0xffff) / 65536.0 - 0.5;
    f[i].re = cos(0.01 * i);
    f[i].im = sin(0.01 * i);
  }
  twiddles(twf, N, -1.0);
  twiddles(twi, N, 1.0);
  fft(x, twf, N);
  printf("X[1] %a %a\n", x[1].re, x[1].im);
  printf("X[%d] %a %a\n", N / 2 + 3, x[N / 2 + 3].re, x[N / 2 + 3].im);
  cmul(x, f, N);
  for (int i = 0; i < N; i++) {
    int r = 0;
    for (int b = 0; b < LOGN; b++)
      r |= ((i >> b) & 1) << (LOGN - 1 - b);
    rev[i] = r;
  }
  permute(y, x, rev, N);
  stages(y, twi, N);
  cscale(y, 1.0 / N, N);
  for (int i = 0; i < N; i += N / 8)
    printf("y[%d] %a %a\n", i, y[i].re, y[i].im);
  return 0;
}

// STATS-DAG: idiom-stats: complex-fft.c:{{[a-z0-9]+}} map calls=24 offloaded=24 {{.*}} fallbacks=0
// STATS-DAG: idiom-stats: complex-fft.c:{{[a-z0-9]+}} map-extent-check calls=1 offloaded=1 {{.*}} fallbacks=0
// STATS-DAG: idiom-stats: complex-fft.c:{{[a-z0-9]+}} map calls=1 offloaded=1 {{.*}} fallbacks=0
// STATS-DAG: idiom-stats: complex-fft.c:{{[a-z0-9]+}} map calls=1 offloaded=1 {{.*}} fallbacks=0
// STATS-DAG: idiom-stats: complex-fft.c:{{[a-z0-9]+}} map calls=1 offloaded=1 {{.*}} fallbacks=0
// Two transforms of 12 stages each: the stage loop is a residency region,
// so 22 of the 24 stage launches find x on the device.
// STATS-DAG: idiom-stats: residency regions=2 reused=22 syncs=0
