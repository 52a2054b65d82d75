// Scalar reductions the built-in spec must detect, and near misses it must
// reject with the failing condition.
// RUN: %clang -O2 -g -fno-vectorize -fno-unroll-loops -S -emit-llvm %s -o %t.ll
// RUN: %opt -passes='loop-simplify,lcssa,print<idiom>' -disable-output %t.ll | FileCheck %s
// RUN: %opt -idiom-fp-reassoc=false -passes='loop-simplify,lcssa,print<idiom>' -disable-output %t.ll | FileCheck %s --check-prefix=EXACT

// CHECK-LABEL: Idioms in function 'dot'
// CHECK: idiom scalar-reduction (scalar reduction)
// EXACT-LABEL: Idioms in function 'dot'
// EXACT: no idiom {{.*}}reassociation
float dot(const float *x, const float *y, int n) {
  float s = 0;
  for (int i = 0; i < n; i++)
    s += x[i] * y[i];
  return s;
}

// CHECK-LABEL: Idioms in function 'sumsq'
// CHECK: idiom scalar-reduction
double sumsq(const double *x, long n) {
  double s = 0;
  for (long i = 0; i < n; i++)
    s += x[i] * x[i];
  return s;
}

// CHECK-LABEL: Idioms in function 'count_above'
// CHECK: idiom scalar-reduction
// EXACT-LABEL: Idioms in function 'count_above'
// EXACT: idiom scalar-reduction
int count_above(const double *x, long n, double t) {
  int c = 0;
  for (long i = 0; i < n; i++)
    if (x[i] > t)
      c++;
  return c;
}

// CHECK-LABEL: Idioms in function 'maxval'
// CHECK: idiom scalar-reduction
// EXACT-LABEL: Idioms in function 'maxval'
// EXACT: idiom scalar-reduction
double maxval(const double *x, int n) {
  double m = x[0];
  for (int i = 1; i < n; i++)
    m = x[i] > m ? x[i] : m;
  return m;
}

// CHECK-LABEL: Idioms in function 'minint'
// CHECK: idiom scalar-reduction
int minint(const int *x, int n) {
  int m = 2147483647;
  for (int i = 0; i < n; i++)
    if (x[i] < m)
      m = x[i];
  return m;
}

// CHECK-LABEL: Idioms in function 'bits'
// CHECK: idiom scalar-reduction
unsigned bits(const unsigned *x, int n, unsigned *o, unsigned *a) {
  unsigned r = 0, s = ~0u, t = 0;
  for (int i = 0; i < n; i++) {
    r |= x[i];
    s &= x[i];
    t ^= x[i];
  }
  *o = r;
  *a = s;
  return t;
}

// CHECK-LABEL: Idioms in function 'product'
// CHECK: idiom scalar-reduction
double product(const double *x, int n) {
  double p = 1.0;
  for (int i = 0; i < n; i++)
    p *= 1.0 + x[i];
  return p;
}

// Two accumulators with different operators in one loop.
// CHECK-LABEL: Idioms in function 'sum_and_max'
// CHECK: idiom scalar-reduction
float sum_and_max(const float *x, int n, float *mx) {
  float s = 0, m = -1e30f;
  for (int i = 0; i < n; i++) {
    s += x[i];
    m = x[i] > m ? x[i] : m;
  }
  *mx = m;
  return s;
}

// Subtraction is not commutative: Z3 refutes it.
// CHECK-LABEL: Idioms in function 'subtract'
// CHECK: no idiom (closest: scalar-reduction): {{.*}}not commutative
int subtract(const int *x, int n) {
  int s = 0;
  for (int i = 0; i < n; i++)
    s = x[i] - s;
  return s;
}

// An early exit.
// CHECK-LABEL: Idioms in function 'early_exit'
// CHECK: no idiom {{.*}}early exit
int early_exit(const int *x, int n) {
  int s = 0;
  for (int i = 0; i < n; i++) {
    if (x[i] < 0)
      break;
    s += x[i];
  }
  return s;
}

// A call with side effects.
extern int counter(int);
// CHECK-LABEL: Idioms in function 'impure'
// CHECK: no idiom {{.*}}PureCall
int impure(const int *x, int n) {
  int s = 0;
  for (int i = 0; i < n; i++)
    s += counter(x[i]);
  return s;
}

// The running value is stored every iteration: a prefix sum, not a reduction.
// CHECK-LABEL: Idioms in function 'prefix'
// CHECK: no idiom
void prefix(const int *x, int *out, int n) {
  int s = 0;
  for (int i = 0; i < n; i++) {
    s += x[i];
    out[i] = s;
  }
}
