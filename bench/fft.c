// Issue 13 benchmark: radix-2 complex FFTs over `struct { double real,
// imag; }` arrays, written the legacy way (int counters, twiddle tables,
// stages as loop nests over blocks of 2s), in a time loop after NAS FT:
// each step transforms forward by decimation in frequency (natural order
// in, bit-reversed out), multiplies the spectrum by evolution factors kept
// in bit-reversed order (an element-wise complex product), and transforms
// back by decimation in time (bit-reversed in, natural out), scaled by 1/n.
// No bit reversal runs: every stage is a 2-D map and the product a map, so
// a step runs on the device from end to end.
// Usage: fft [logn] [steps] (default 22, 20). Prints checksums;
// bench/fft_gpu.sh times the sequential build against the plugin's.
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

typedef struct {
  double real, imag;
} dcomplex;

// Forward DIF stages, in place; stage s reads tw[s - 1 .. 2s - 2].
__attribute__((noinline)) static void forward(dcomplex *x, const dcomplex *tw,
                                              int n) {
  for (int s = n / 2; s >= 1; s /= 2) {
    const dcomplex *w = tw + (s - 1);
    for (int j = 0; j < n; j += 2 * s)
      for (int k = 0; k < s; k++) {
        double dr = x[j + k].real - x[j + k + s].real;
        double di = x[j + k].imag - x[j + k + s].imag;
        x[j + k].real = x[j + k].real + x[j + k + s].real;
        x[j + k].imag = x[j + k].imag + x[j + k + s].imag;
        x[j + k + s].real = w[k].real * dr - w[k].imag * di;
        x[j + k + s].imag = w[k].real * di + w[k].imag * dr;
      }
  }
}

// Inverse DIT stages, in place, with the conjugate twiddles tw.
__attribute__((noinline)) static void inverse(dcomplex *x, const dcomplex *tw,
                                              int n) {
  for (int s = 1; s < n; s *= 2) {
    const dcomplex *w = tw + (s - 1);
    for (int j = 0; j < n; j += 2 * s)
      for (int k = 0; k < s; k++) {
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

// x *= f, element-wise; f includes the 1/n of the inverse transform.
__attribute__((noinline)) static void evolve(dcomplex *x, const dcomplex *f,
                                             int n) {
  for (int i = 0; i < n; i++) {
    double xr = x[i].real, xi = x[i].imag;
    x[i].real = xr * f[i].real - xi * f[i].imag;
    x[i].imag = xr * f[i].imag + xi * f[i].real;
  }
}

int main(int argc, char **argv) {
  int logn = argc > 1 ? atoi(argv[1]) : 22;
  int steps = argc > 2 ? atoi(argv[2]) : 20;
  if (logn < 1 || logn > 26 || steps < 1) {
    fprintf(stderr, "usage: fft [logn 1..26] [steps >= 1]\n");
    return 2;
  }
  int n = 1 << logn;
  dcomplex *x = malloc(sizeof(dcomplex) * n), *f = malloc(sizeof(dcomplex) * n);
  dcomplex *twf = malloc(sizeof(dcomplex) * n), *twi = malloc(sizeof(dcomplex) * n);
  if (!x || !f || !twf || !twi)
    return 1;
  unsigned state = 4242u;
  for (int i = 0; i < n; i++) {
    state = state * 1103515245u + 12345u;
    x[i].real = (double)((state >> 8) & 0xffff) / 65536.0 - 0.5;
    state = state * 1103515245u + 12345u;
    x[i].imag = (double)((state >> 8) & 0xffff) / 65536.0 - 0.5;
    // The factor of frequency i, stored at its bit-reversed position.
    int r = 0;
    for (int b = 0; b < logn; b++)
      r |= ((i >> b) & 1) << (logn - 1 - b);
    int k = i < n / 2 ? i : i - n;
    double d = exp(-1e-6 * (double)k * (double)k / n) / n;
    f[r].real = d * cos(1e-3 * k);
    f[r].imag = d * sin(1e-3 * k);
  }
  for (int s = 1; s < n; s *= 2)
    for (int k = 0; k < s; k++) {
      twf[s - 1 + k].real = cos(M_PI * k / s);
      twf[s - 1 + k].imag = -sin(M_PI * k / s);
      twi[s - 1 + k].real = twf[s - 1 + k].real;
      twi[s - 1 + k].imag = -twf[s - 1 + k].imag;
    }
  for (int t = 0; t < steps; t++) {
    forward(x, twf, n);
    evolve(x, f, n);
    inverse(x, twi, n);
  }
  double sr = 0, si = 0;
  for (int i = 0; i < n; i++) {
    sr += fabs(x[i].real);
    si += fabs(x[i].imag);
  }
  printf("n %d steps %d\n", n, steps);
  printf("sum|re| %.10e sum|im| %.10e\n", sr, si);
  printf("x[1] %.10e %.10e\n", x[1].real, x[1].imag);
  return 0;
}
