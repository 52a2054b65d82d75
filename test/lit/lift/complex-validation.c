// Translation validation covers the complex-struct lifts (issue 13): the
// FFT stage over blocks of 2s (views of stride 2 into a double array, two
// outputs per complex number) and an element function that reads an
// induction variable whose step is symbolic (j += 2 * s: the IV is start
// + k * step, the step an index parameter on both sides). The hidden
// testing option corrupts the lifted text; validation must then refuse.
// RUN: %clang-idiom -ffp-contract=off -c %s -o /dev/null -Rpass=idiom-offload 2>&1 | FileCheck %s --check-prefix=OK
// RUN: %clang-idiom -ffp-contract=off -fplugin=%plugin -mllvm -idiom-test-corrupt-lift -mllvm -idiom-z3-timeout=600000 -c %s -o /dev/null -Rpass=idiom-offload -Rpass-missed=idiom-offload 2>&1 | FileCheck %s --check-prefix=BAD
typedef struct { double re, im; } dcomplex;
// OK: complex-validation.c:[[@LINE+3]]:3: remark: offloaded 2-D map (map)
// BAD: complex-validation.c:[[@LINE+2]]:3: remark: idiom map not offloaded: translation validation failed
void stage(dcomplex *x, const dcomplex *w, int n, int s) {
  for (int j = 0; j < n; j += 2 * s)
    for (int k = 0; k < s; k++) {
      dcomplex u = x[j + k], v = x[j + k + s], t;
      t.re = w[k].re * v.re - w[k].im * v.im;
      t.im = w[k].re * v.im + w[k].im * v.re;
      x[j + k].re = u.re + t.re;
      x[j + k].im = u.im + t.im;
      x[j + k + s].re = u.re - t.re;
      x[j + k + s].im = u.im - t.im;
    }
}
// OK: complex-validation.c:[[@LINE+3]]:3: remark: offloaded 2-D map (map)
// BAD: complex-validation.c:[[@LINE+2]]:3: remark: idiom map not offloaded: translation validation failed: Z3 found inputs on which the lifted FunIL and the LLVM slice differ
void blockindex(long *y, int n, int s) {
  for (int j = 0; j < n; j += 2 * s)
    for (int k = 0; k < s; k++)
      y[j + k] = j + k;
}
