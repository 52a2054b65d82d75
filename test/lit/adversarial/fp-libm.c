// libm calls in maps. By default a map that calls expf, logf, sinf, cosf or
// powf (or their double versions) is not offloaded, because the OpenCL
// functions are not bit-exact; the output is the sequential one. Maps of exact
// functions (sqrt, fabs, floor, ceil, fma) are offloaded and bit-exact. With
// -mllvm -idiom-approx-libm the approximate maps are offloaded and each result
// is within the OpenCL 1.2 full-profile ulp bound of the host's (NaN compared
// as NaN, whatever its sign). Reductions may call them under the
// reassociation tolerance.
// RUN: %clang -O2 -fno-math-errno %s -lm -o %t.seq
// RUN: %clang-idiom -fno-math-errno %s -lm -lidiomrt -o %t.idiom
// RUN: %clang-idiom -fno-math-errno -fplugin=%plugin -mllvm -idiom-approx-libm %s -lm -lidiomrt -o %t.approx
// RUN: %t.seq > %t.expected
// RUN: env IDIOM_MIN_TRIP=0 IDIOM_STATS=1 %t.idiom > %t.out 2> %t.stats
// RUN: diff %t.expected %t.out
// RUN: FileCheck %s --check-prefix=EXACT < %t.stats
// RUN: not grep -qE "fp-libm.c:(fexp|flog|fsin|fpow|dexpsin) " %t.stats
// RUN: env IDIOM_MIN_TRIP=0 IDIOM_STATS=1 %t.approx > %t.approx.out 2> %t.approx.stats
// RUN: diff %t.expected %t.approx.out
// RUN: FileCheck %s --check-prefix=APPROX < %t.approx.stats
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#define N 8192
static float x[N], y[N], o[N], ref[N];
static double dx[N], dout[N], dref[N];
static volatile int sink;

// Exact functions: offloaded, and printed bit for bit.
__attribute__((noinline)) static void exact(float *out, const float *in, int n) {
  for (int i = 0; i < n; i++)
    out[i] = sqrtf(fabsf(in[i])) + floorf(in[i]) * ceilf(in[i] * 0.5f);
}

__attribute__((noinline)) static void exactd(double *out, const double *in, int n) {
  for (int i = 0; i < n; i++)
    out[i] = sqrt(fabs(in[i])) + fma(in[i], 3.0, floor(in[i]));
}

// Approximate functions: the maps of lines 43 to 55.
__attribute__((noinline)) static void fexp(float *out, const float *in, int n) {
  for (int i = 0; i < n; i++) out[i] = expf(in[i]);
}
__attribute__((noinline)) static void flog(float *out, const float *in, int n) {
  for (int i = 0; i < n; i++) out[i] = logf(in[i]);
}
__attribute__((noinline)) static void fsin(float *out, const float *in, int n) {
  for (int i = 0; i < n; i++) out[i] = sinf(in[i]) * cosf(in[i]);
}
__attribute__((noinline)) static void fpow(float *out, const float *in, const float *e, int n) {
  for (int i = 0; i < n; i++) out[i] = powf(in[i], e[i]);
}
__attribute__((noinline)) static void dexpsin(double *out, const double *in, int n) {
  for (int i = 0; i < n; i++) out[i] = exp(in[i]) * sin(in[i]);
}

// A reduction of an approximate function: offloaded (reassociation tolerance).
__attribute__((noinline)) static double sumexp(const double *in, int n) {
  double s = 0;
  for (int i = 0; i < n; i++)
    s += exp(in[i] * 1e-3);
  return s;
}

static int64_t ulps(double a, double b, int isfloat) {
  if (isnan(a) || isnan(b))
    return isnan(a) && isnan(b) ? 0 : INT64_MAX;
  if (a == b)
    return 0;
  if (isfloat) {
    float fa = (float)a, fb = (float)b;
    int32_t ia, ib;
    memcpy(&ia, &fa, 4);
    memcpy(&ib, &fb, 4);
    if (ia < 0) ia = INT32_MIN - ia;
    if (ib < 0) ib = INT32_MIN - ib;
    return ia > ib ? (int64_t)ia - ib : (int64_t)ib - ia;
  }
  int64_t ia, ib;
  memcpy(&ia, &a, 8);
  memcpy(&ib, &b, 8);
  if (ia < 0) ia = INT64_MIN - ia;
  if (ib < 0) ib = INT64_MIN - ib;
  return ia > ib ? ia - ib : ib - ia;
}

// Each reference is computed by a loop that is never offloaded (it also
// writes a volatile), so the check holds for whichever build runs.
static void check(const char *name, int64_t bound) {
  int64_t worst = 0;
  for (int i = 0; i < N; i++) {
    int64_t u = ulps(o[i], ref[i], 1);
    if (u > worst) worst = u;
  }
  printf("%s within %lld ulp: %s\n", name, (long long)bound, worst <= bound ? "yes" : "NO");
}

int main(void) {
  for (int i = 0; i < N; i++) {
    x[i] = (float)((i * 7919) % 4001 - 2000) / 97.0f;
    y[i] = (float)((i * 31) % 17) / 4.0f - 2.0f;
    dx[i] = (double)((i * 104729) % 6007 - 3000) / 101.0;
  }
  exact(o, x, N);
  uint32_t h = 0;
  for (int i = 0; i < N; i++) {
    uint32_t b;
    memcpy(&b, &o[i], 4);
    h = h * 31 + b;
  }
  printf("exact float: %08x %a %a\n", h, o[1], o[N - 1]);
  exactd(dout, dx, N);
  printf("exact double: %a %a %a\n", dout[0], dout[7], dout[N - 1]);

  fexp(o, x, N);
  for (int i = 0; i < N; i++) { ref[i] = expf(x[i]); sink = i; }
  check("expf", 3);
  flog(o, x, N); // negative inputs: NaN (the host prints -nan)
  for (int i = 0; i < N; i++) { ref[i] = logf(x[i]); sink = i; }
  check("logf", 3);
  fsin(o, x, N);
  for (int i = 0; i < N; i++) { ref[i] = sinf(x[i]) * cosf(x[i]); sink = i; }
  // sin * cos: 4 ulp each, plus the rounding of the product.
  check("sinf*cosf", 9);
  fpow(o, x, y, N);
  for (int i = 0; i < N; i++) { ref[i] = powf(x[i], y[i]); sink = i; }
  check("powf", 16);
  dexpsin(dout, dx, N);
  int64_t worst = 0;
  for (int i = 0; i < N; i++) {
    dref[i] = exp(dx[i]) * sin(dx[i]);
    sink = i;
    int64_t u = ulps(dout[i], dref[i], 0);
    if (u > worst) worst = u;
  }
  // exp (3 ulp) times sin (4 ulp), plus the rounding of the product.
  printf("exp*sin within 8 ulp: %s\n", worst <= 8 ? "yes" : "NO");
  double s = sumexp(dx, N);
  printf("sum of exp: %.6e\n", s);
  return 0;
}
// EXACT-DAG: idiom-stats: fp-libm.c:exact map calls=1 offloaded=1
// EXACT-DAG: idiom-stats: fp-libm.c:exactd map calls=1 offloaded=1
// EXACT-DAG: idiom-stats: fp-libm.c:sumexp scalar-reduction calls=1 offloaded=1
// APPROX-DAG: idiom-stats: fp-libm.c:fexp map calls=1 offloaded=1
// APPROX-DAG: idiom-stats: fp-libm.c:flog map calls=1 offloaded=1
// APPROX-DAG: idiom-stats: fp-libm.c:fsin map calls=1 offloaded=1
// APPROX-DAG: idiom-stats: fp-libm.c:fpow map calls=1 offloaded=1
// APPROX-DAG: idiom-stats: fp-libm.c:dexpsin map calls=1 offloaded=1
