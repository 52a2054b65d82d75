// Complex numbers as structs (issue 13): an array of `struct { double re,
// im; }` is a double array whose element i is the pair at 2i and 2i + 1, so
// a map over it reads and writes views of stride 2, two outputs per point.
// An FFT stage over blocks of 2s (`j += 2 * s`, a step that is not a
// constant but is invariant in the nest) is a 2-D map whose outer views
// have the symbolic stride 4s; the dependence test proves the butterfly
// pairs (j + k, j + k + s) disjoint within the stage.
// RUN: %clang -O2 -g -fno-vectorize -fno-slp-vectorize -fno-unroll-loops -S -emit-llvm %s -o %t.ll
// RUN: %opt -passes='loop-simplify,lcssa,print<idiom>' -disable-output %t.ll | FileCheck %s
// RUN: %clang-idiom -c %s -o /dev/null -Rpass=idiom-offload 2>&1 | FileCheck %s --check-prefix=REMARK

typedef struct {
  double re, im;
} dcomplex;
typedef struct {
  float re, im;
} fcomplex;

// CHECK-LABEL: Idioms in function 'cmul'
// CHECK: idiom map (map)
// CHECK: idiom idiom_cmul_{{[0-9]+}}(n0: i64, b0: [f64], b1: [f64], b2: [f64]) {
// CHECK-NEXT: store (view(b{{[0-9]}}, 0:i64, 2:i64, n0), view(b{{[0-9]}}, 1:i64, 2:i64, n0)) = map(
// CHECK: OpenCL:
// CHECK: [2L * i0] =
// CHECK: [1L + (2L * i0)] =
// REMARK: complex.c:[[@LINE+2]]:3: remark: offloaded map (map)
void cmul(dcomplex *restrict c, const dcomplex *a, const dcomplex *b, int n) {
  for (int i = 0; i < n; i++) {
    double ar = a[i].re, ai = a[i].im, br = b[i].re, bi = b[i].im;
    c[i].re = ar * br - ai * bi;
    c[i].im = ar * bi + ai * br;
  }
}

// A scaled copy: both parts times a real scalar.
// CHECK-LABEL: Idioms in function 'cscale'
// CHECK: idiom map (map)
// CHECK: idiom idiom_cscale_{{[0-9]+}}(n0: i64, b0: [f64], b1: [f64], s0: f64) {
// CHECK-NEXT: store (view(b{{[0-9]}}, 0:i64, 2:i64, n0), view(b{{[0-9]}}, 1:i64, 2:i64, n0)) = map(
// REMARK: complex.c:[[@LINE+2]]:3: remark: offloaded map (map)
void cscale(dcomplex *c, const dcomplex *a, double s, int n) {
  for (int i = 0; i < n; i++) {
    c[i].re = s * a[i].re;
    c[i].im = s * a[i].im;
  }
}

// Single precision, in place.
// CHECK-LABEL: Idioms in function 'fcmul'
// CHECK: idiom map (map)
// CHECK: idiom idiom_fcmul_{{[0-9]+}}(n0: i64, b0: [f32], b1: [f32]) {
// CHECK-NEXT: store (view(b0, 0:i64, 2:i64, n0), view(b0, 1:i64, 2:i64, n0)) = map(
// CHECK: __global float *b0
// REMARK: complex.c:[[@LINE+2]]:3: remark: offloaded map (map)
void fcmul(fcomplex *x, const fcomplex *f, int n) {
  for (int i = 0; i < n; i++) {
    float xr = x[i].re, xi = x[i].im;
    x[i].re = xr * f[i].re - xi * f[i].im;
    x[i].im = xr * f[i].im + xi * f[i].re;
  }
}

// One radix-2 stage of span s: blocks of 2s, s butterflies each. The outer
// views' stride is 4s doubles (x3 = 4 * s), the inner one 2; the four
// stores are the two parts of x[j + k] (offset 0, 1) and of x[j + k + s]
// (offset 2s, 2s + 1).
// CHECK-LABEL: Idioms in function 'stage'
// CHECK: idiom map (2-D map)
// CHECK: idiom idiom_stage_{{[0-9]+}}(n0: i64, n1: i64, b0: [f64], b1: [f64], [[A:x[0-9]]]: i64, [[S0:x[0-9]]]: i64, [[B:x[0-9]]]: i64, [[C:x[0-9]]]: i64, [[D:x[0-9]]]: i64) {
// CHECK-NEXT: store (view(b1, [[C]], [[S0]], n0, 2:i64, n1), view(b1, [[D]], [[S0]], n0, 2:i64, n1), view(b1, [[B]], [[S0]], n0, 2:i64, n1), view(b1, [[A]], [[S0]], n0, 2:i64, n1)) = map(\(r: {{.*}}) => map(\(t: {{.*}}) => {{.*}}, zip(view(b0, 1:i64, 0:i64, n0, 2:i64, n1),
// CHECK: OpenCL:
// CHECK: const long i1 = get_global_id(1);
// CHECK: const long i0 = get_global_id(0);
// REMARK: complex.c:[[@LINE+2]]:3: remark: offloaded 2-D map (map)
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

// The stage's first block alone: j in [0, s) and its partner j + s.
// CHECK-LABEL: Idioms in function 'block'
// CHECK: idiom map (map)
// REMARK: complex.c:[[@LINE+2]]:3: remark: offloaded map (map)
void block(dcomplex *x, const dcomplex *w, int s) {
  for (int j = 0; j < s; j++) {
    dcomplex u = x[j], v = x[j + s], t;
    t.re = w[j].re * v.re - w[j].im * v.im;
    t.im = w[j].re * v.im + w[j].im * v.re;
    x[j].re = u.re + t.re;
    x[j].im = u.im + t.im;
    x[j + s].re = u.re - t.re;
    x[j + s].im = u.im - t.im;
  }
}

// A stage whose butterfly index is the IV itself: j = k + s' with the IV
// value used (not only in addresses), so the lifted element function reads
// iteration index times the symbolic step.
// CHECK-LABEL: Idioms in function 'blockindex'
// CHECK: idiom map (2-D map)
// CHECK: mul(
// REMARK: complex.c:[[@LINE+2]]:3: remark: offloaded 2-D map (map)
void blockindex(double *y, int n, int s) {
  for (int j = 0; j < n; j += 2 * s)
    for (int k = 0; k < s; k++)
      y[j + k] = (double)(j + k);
}

// A bit reversal through a permutation table: the struct fields
// x[rev[i]].re and .im are gathers of the elements 2 rev[i] and
// 2 rev[i] + 1, read through buffers of the index's run-time extent.
// CHECK-LABEL: Idioms in function 'permute'
// CHECK: idiom map (map)
// CHECK: at(view(b{{[0-9]}}, 0:i64, 1:i64, e1), sub(mul(sext.i64(t), 2:i64), e0)), at(view(b{{[0-9]}}, 0:i64, 1:i64, e3), sub(add(mul(sext.i64(t), 2:i64), 1:i64), e2))
// REMARK: complex.c:[[@LINE+3]]:3: remark: offloaded map (map)
void permute(dcomplex *restrict y, const dcomplex *restrict x, const int *rev,
             int n) {
  for (int i = 0; i < n; i++) {
    y[i].re = x[rev[i]].re;
    y[i].im = x[rev[i]].im;
  }
}
