// Maps the built-in spec must detect (1-D and 2-D, several outputs, in place,
// index-dependent) and loops it must reject.
// RUN: %clang -O2 -g -fno-vectorize -fno-unroll-loops -S -emit-llvm %s -o %t.ll
// RUN: %opt -passes='loop-simplify,lcssa,print<idiom>' -disable-output %t.ll | FileCheck %s

// CHECK-LABEL: Idioms in function 'saxpy'
// CHECK: idiom map (map)
void saxpy(float *y, const float *x, float a, int n) {
  for (int i = 0; i < n; i++)
    y[i] = a * x[i] + y[i];
}

// CHECK-LABEL: Idioms in function 'two_outputs'
// CHECK: idiom map (map)
void two_outputs(double *s, double *d, const double *a, const double *b, long n) {
  for (long i = 0; i < n; i++) {
    s[i] = a[i] + b[i];
    d[i] = a[i] - b[i];
  }
}

// CHECK-LABEL: Idioms in function 'scale_in_place'
// CHECK: idiom map (map)
void scale_in_place(float *a, int n) {
  for (int i = 0; i < n; i++)
    a[i] = a[i] * 2.0f;
}

// CHECK-LABEL: Idioms in function 'init_index'
// CHECK: idiom map (map)
void init_index(float *x, int n) {
  for (int i = 0; i < n; i++)
    x[i] = (float)i * 0.5f;
}

float A[512][256], B[512][256];
// CHECK-LABEL: Idioms in function 'image_global'
// CHECK: idiom map (2-D map)
void image_global(float a, float b) {
  for (int i = 0; i < 512; i++)
    for (int j = 0; j < 256; j++)
      B[i][j] = a * A[i][j] + b;
}

// CHECK-LABEL: Idioms in function 'image_flat'
// CHECK: idiom map (2-D map)
void image_flat(float *out, const float *in, int h, int w) {
  for (int i = 0; i < h; i++)
    for (int j = 0; j < w; j++)
      out[i * w + j] = in[i * w + j] > 0.5f ? 1.0f : 0.0f;
}

// CHECK-LABEL: Idioms in function 'stencil3'
// CHECK: idiom map (map)
void stencil3(double *q, const double *p, const double *d, double e, int n) {
  for (int i = 1; i < n - 1; i++)
    q[i] = d[i] * p[i] + e * (p[i - 1] + p[i + 1]);
}

// A recurrence: iteration i reads what iteration i-1 wrote.
// CHECK-LABEL: Idioms in function 'recurrence'
// CHECK: no idiom
void recurrence(float *a, const float *x, int n) {
  for (int i = 1; i < n; i++)
    a[i] = a[i - 1] + x[i];
}

// An anti-dependence through the same array: Z3 finds it.
// CHECK-LABEL: Idioms in function 'shift_left'
// CHECK: no idiom {{.*}}loop-carried dependence
void shift_left(float *a, int n) {
  for (int i = 0; i < n - 1; i++)
    a[i] = a[i + 1] * 2.0f;
}

// A data-dependent store index.
// CHECK-LABEL: Idioms in function 'scatter'
// CHECK: no idiom {{.*}}AffineAccess
void scatter(float *a, const int *idx, const float *x, int n) {
  for (int i = 0; i < n; i++)
    a[idx[i]] = x[i];
}

// A call with side effects.
extern void note(float);
// CHECK-LABEL: Idioms in function 'calls_out'
// CHECK: no idiom {{.*}}PureCall
void calls_out(float *a, const float *x, int n) {
  for (int i = 0; i < n; i++) {
    a[i] = x[i];
    note(x[i]);
  }
}

// An early exit.
// CHECK-LABEL: Idioms in function 'map_break'
// CHECK: no idiom {{.*}}early exit
void map_break(float *a, const float *x, int n) {
  for (int i = 0; i < n; i++) {
    if (x[i] < 0)
      break;
    a[i] = x[i];
  }
}
