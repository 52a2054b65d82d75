// libm calls that keep errno (clang's default -fmath-errno: `sqrt(x)` is a
// call that may write memory) in maps, reductions and histograms: lifted
// with an errno check (funil/LibmErrno.h), a 1-D `or` reduction of the
// conditions of every call on the same inputs; and the loops that must still
// be refused.
// RUN: %clang -O2 -g -fno-vectorize -fno-unroll-loops -S -emit-llvm %s -o %t.ll
// RUN: %opt -passes='loop-simplify,lcssa,print<idiom>' -disable-output %t.ll | FileCheck %s
// RUN: %opt -passes='loop-simplify,lcssa,print<idiom>' -idiom-approx-libm -disable-output %t.ll | FileCheck %s --check-prefix=APPROX
// RUN: %clang -O2 -fno-builtin -fno-vectorize -fno-unroll-loops -S -emit-llvm %s -o %t.nb.ll
// RUN: %opt -passes='loop-simplify,lcssa,print<idiom>' -disable-output %t.nb.ll | FileCheck %s --check-prefix=NOBUILTIN
#include <errno.h>
#include <math.h>

// CHECK-LABEL: Idioms in function 'map_sqrt'
// CHECK: idiom map (map)
// CHECK: store view(b1, 0:i64, 1:i64, n0) = map(\(t: f64) => sqrt(t), view(b0, 0:i64, 1:i64, n0));
// CHECK: Errno check FunIL:
// CHECK-NEXT: idiom idiom_map_sqrt_0_errno(n0: i64, b0: [f64]) {
// CHECK-NEXT: return reduce(\(a: i32, b: i32) => or(a, b), 0:i32, map(\(t: f64) => zext.i32(fcmp_olt(t, 0.0:f64)), view(b0, 0:i64, 1:i64, n0)));
// CHECK: __kernel void idiom_map_sqrt_0(
// NOBUILTIN-LABEL: Idioms in function 'map_sqrt'
// NOBUILTIN-NEXT: no idiom {{.*}}call may have side effects
void map_sqrt(double *restrict y, const double *restrict x, long n) {
  for (long i = 0; i < n; i++)
    y[i] = sqrt(x[i]);
}

// Float, with a scalar in the argument: the condition is on sqrtf's
// argument, not on the loaded element.
// CHECK-LABEL: Idioms in function 'map_sqrtf_shift'
// CHECK: Errno check FunIL:
// CHECK-NEXT: idiom idiom_map_sqrtf_shift_0_errno(n0: i64, b0: [f32], s0: f32) {
// CHECK-NEXT: zext.i32(fcmp_olt(fsub(t, s0), 0.0:f32))
void map_sqrtf_shift(float *restrict y, const float *restrict x, float c, long n) {
  for (long i = 0; i < n; i++)
    y[i] = sqrtf(x[i] - c);
}

// A reduction with two calls (x[i] is loaded twice: the calls may write
// memory): one condition each, joined by or; log in a float sum needs no
// -idiom-approx-libm.
// CHECK-LABEL: Idioms in function 'sum_log_sqrt'
// CHECK: idiom scalar-reduction (scalar reduction)
// CHECK: Errno check FunIL:
// CHECK-NEXT: idiom idiom_sum_log_sqrt_0_errno(n0: i64, b0: [f64]) {
// CHECK-NEXT: zext.i32(or(fcmp_olt(t.0, 0.0:f64), fcmp_ole(t.1, 0.0:f64)))
// CHECK: __kernel void idiom_sum_log_sqrt_0_partial(
double sum_log_sqrt(const double *x, long n) {
  double s = 0;
  for (long i = 0; i < n; i++)
    s += log(x[i]) + sqrt(x[i]);
  return s;
}

// pow's condition: domain, pole, and the range of |y ln|x||; pow itself
// needs -idiom-approx-libm in a map.
// CHECK-LABEL: Idioms in function 'map_pow'
// CHECK: map calls pow, whose OpenCL version is not bit-exact
// APPROX-LABEL: Idioms in function 'map_pow'
// APPROX: Errno check FunIL:
// APPROX-NEXT: idiom idiom_map_pow_{{[0-9]+}}_errno(n0: i64, b0: [f64], b1: [f64]) {
// APPROX-NEXT: map(\(t: (f64, f64)) => zext.i32(or(or(and(fcmp_olt(t.1, 0.0:f64), fcmp_une(t.0, floor(t.0))), and(fcmp_oeq(t.1, 0.0:f64), fcmp_olt(t.0, 0.0:f64))), and(and(fcmp_one(t.1, 0.0:f64), fcmp_olt(fabs(t.1), inf:f64)), and(fcmp_olt(fabs(t.0), inf:f64), fcmp_ogt(fabs(fmul(t.0, log(fabs(t.1)))), 7e+02:f64)))))
// APPROX-NOT: not offloaded
// APPROX: OpenCL:
void map_pow(double *restrict z, const double *restrict x, const double *restrict y, long n) {
  for (long i = 0; i < n; i++)
    z[i] = pow(x[i], y[i]);
}

// An exact reduction (an integer count) of an approximate function needs
// -idiom-approx-libm.
// CHECK-LABEL: Idioms in function 'count_exp'
// CHECK: exact reduction calls exp, whose OpenCL version is not bit-exact
// APPROX-LABEL: Idioms in function 'count_exp'
// APPROX: Errno check FunIL:
// APPROX-NEXT: idiom idiom_count_exp_{{[0-9]+}}_errno(n0: i64, b0: [f64]) {
// APPROX-NEXT: zext.i32(or(fcmp_ogt(t, 709.0:f64), fcmp_olt(t, -708.0:f64)))
// APPROX-NOT: not offloaded
int count_exp(const double *x, long n) {
  int c = 0;
  for (long i = 0; i < n; i++)
    c += exp(x[i]) > 2.0;
  return c;
}

// A tally by bin of sqrt: a histogram with an errno check.
// CHECK-LABEL: Idioms in function 'tally_sqrt'
// CHECK: idiom histogram (histogram)
// CHECK: Errno check FunIL:
// CHECK-NEXT: idiom idiom_tally_sqrt_{{[0-9]+}}_errno(n0: i64, b0: [f64]) {
// CHECK-NEXT: zext.i32(fcmp_olt(t, 0.0:f64))
static int bins[16];
void tally_sqrt(const double *x, long n) {
  for (long i = 0; i < n; i++)
    bins[(int)sqrt(x[i]) & 15]++;
}

// sin/cos: only the infinities set errno.
// CHECK-LABEL: Idioms in function 'map_sincos'
// CHECK: map calls {{sinf|cosf}}, whose OpenCL version is not bit-exact
// APPROX-LABEL: Idioms in function 'map_sincos'
// APPROX: Errno check FunIL:
// APPROX-NEXT: idiom idiom_map_sincos_{{[0-9]+}}_errno(n0: i64, b0: [f32]) {
// APPROX-NEXT: zext.i32(or(fcmp_oeq(fabs(t), inf:f32), fcmp_oeq(fabs(t), inf:f32)))
void map_sincos(float *restrict y, const float *restrict x, long n) {
  for (long i = 0; i < n; i++)
    y[i] = sinf(x[i]) * cosf(x[i]);
}

// Negative: a 2-D map with an errno call (the check is 1-D).
// CHECK-LABEL: Idioms in function 'map2d_sqrt'
// CHECK: not offloaded: cannot lift to FunIL: a 2-D nest calls sqrt, which may set errno
void map2d_sqrt(double (*restrict y)[64], const double (*restrict x)[64], long n) {
  for (long i = 0; i < n; i++)
    for (long j = 0; j < 64; j++)
      y[i][j] = sqrt(x[i][j]);
}

// Negative: the loop reads errno itself.
// CHECK-LABEL: Idioms in function 'reads_errno'
// CHECK-NOT: Errno check FunIL
// CHECK: no idiom
int reads_errno(double *restrict y, const double *restrict x, long n) {
  int bad = 0;
  for (long i = 0; i < n; i++) {
    errno = 0;
    y[i] = sqrt(x[i]);
    bad += errno != 0;
  }
  return bad;
}

// Negative: a libm function without an errno rule (tan sets errno for
// +-inf, but no rule describes it).
// CHECK-LABEL: Idioms in function 'map_tan'
// CHECK-NOT: Errno check FunIL
// CHECK: no idiom {{.*}}call may have side effects
void map_tan(double *restrict y, const double *restrict x, long n) {
  for (long i = 0; i < n; i++)
    y[i] = tan(x[i]);
}

// Negative: the argument of an errno-setting call depends on an
// approximate function (Box-Muller's sqrt(-2 log u)): the device's log may
// differ by an ulp, so its check could disagree with the host's errno.
// CHECK-LABEL: Idioms in function 'box_muller_sum'
// CHECK: not offloaded: cannot lift to FunIL: the argument of sqrt, which may set errno, depends on log, whose OpenCL version is not bit-exact: the device's errno check could disagree with the host
// APPROX-LABEL: Idioms in function 'box_muller_sum'
// APPROX: not offloaded: cannot lift to FunIL: the argument of sqrt, which may set errno, depends on log
double box_muller_sum(const double *u, long n) {
  double s = 0;
  for (long i = 0; i < n; i++)
    s += sqrt(-2.0 * log(u[i]));
  return s;
}

// The same with an exact argument: offloaded with its check.
// CHECK-LABEL: Idioms in function 'exact_argument_sum'
// CHECK: Errno check FunIL:
// CHECK-NEXT: idiom idiom_exact_argument_sum_{{[0-9]+}}_errno(
// CHECK-NEXT: zext.i32(fcmp_olt(fmul(t, -2.0:f64), 0.0:f64))
double exact_argument_sum(const double *u, long n) {
  double s = 0;
  for (long i = 0; i < n; i++)
    s += sqrt(-2.0 * u[i]);
  return s;
}
