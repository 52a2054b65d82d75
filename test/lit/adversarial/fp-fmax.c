// fmaxf/fminf in maps on signed zeros and NaNs print what the host prints.
// clang 19 on x86-64 lowers llvm.maxnum(x, y) to `isnan(x) ? y : (y > x ? y
// : x)` (min: `y < x`), and to `x > y ? x : y` when y is a non-NaN constant;
// the kernels evaluate the same expression (passes/lift/HostFloat.h). Every
// pair of {-0, +0, 1, -1, NaN, -NaN, inf} is tried, in both operand orders.
// RUN: %clang -O2 %s -lm -o %t.seq
// RUN: %clang-idiom %s -lm -lidiomrt -o %t.idiom
// RUN: %t.seq > %t.expected
// RUN: env IDIOM_MIN_TRIP=0 IDIOM_STATS=1 %t.idiom > %t.out 2> %t.stats
// RUN: diff %t.expected %t.out
// RUN: FileCheck %s --check-prefix=STATS < %t.stats
#include <math.h>
#include <stdio.h>

#define K 7
#define N (K * K * 64)
static float x[N], y[N], o1[N], o2[N], o3[N], o4[N];
static double dx[N], dy[N], d1[N], d2[N];

__attribute__((noinline)) static void fmax2(float *restrict out, const float *p,
                                            const float *q, int n) {
  for (int i = 0; i < n; i++)
    out[i] = fmaxf(p[i], q[i]);
}

__attribute__((noinline)) static void fmin2(float *restrict out, const float *p,
                                            const float *q, int n) {
  for (int i = 0; i < n; i++)
    out[i] = fminf(p[i], q[i]);
}

// ReLU: the constant operand is known not to be NaN.
__attribute__((noinline)) static void relu(float *restrict out, const float *p, int n) {
  for (int i = 0; i < n; i++)
    out[i] = fmaxf(p[i], 0.0f);
}

__attribute__((noinline)) static void clampneg(float *restrict out, const float *p, int n) {
  for (int i = 0; i < n; i++)
    out[i] = fminf(-0.0f, p[i]);
}

__attribute__((noinline)) static void dmax2(double *restrict out, const double *p,
                                            const double *q, int n) {
  for (int i = 0; i < n; i++)
    out[i] = fmax(p[i], q[i]);
}

__attribute__((noinline)) static void dmin2(double *restrict out, const double *p,
                                            const double *q, int n) {
  for (int i = 0; i < n; i++)
    out[i] = fmin(p[i] * 2.0, q[i]);
}

int main(void) {
  const float v[K] = {-0.0f, 0.0f, 1.0f, -1.0f, NAN, -NAN, INFINITY};
  for (int i = 0; i < N; i++) {
    x[i] = v[i % K];
    y[i] = v[(i / K) % K];
    dx[i] = x[i];
    dy[i] = y[i];
  }
  fmax2(o1, x, y, N);
  fmin2(o2, x, y, N);
  relu(o3, x, N);
  clampneg(o4, y, N);
  dmax2(d1, dx, dy, N);
  dmin2(d2, dx, dy, N);
  for (int i = 0; i < K * K; i++)
    printf("%a %a: fmaxf %a fminf %a relu %a clampneg %a fmax %a fmin %a\n", x[i], y[i],
           o1[i], o2[i], o3[i], o4[i], d1[i], d2[i]);
  // The same pairs far from the start (vector body of the host loop).
  for (int i = N - K * K; i < N; i++)
    printf("%a %a: fmaxf %a fminf %a relu %a clampneg %a fmax %a fmin %a\n", x[i], y[i],
           o1[i], o2[i], o3[i], o4[i], d1[i], d2[i]);
  return 0;
}
// STATS-DAG: idiom-stats: fp-fmax.c:fmax2 map calls=1 offloaded=1
// STATS-DAG: idiom-stats: fp-fmax.c:fmin2 map calls=1 offloaded=1
// STATS-DAG: idiom-stats: fp-fmax.c:relu map calls=1 offloaded=1
// STATS-DAG: idiom-stats: fp-fmax.c:clampneg map calls=1 offloaded=1
// STATS-DAG: idiom-stats: fp-fmax.c:dmax2 map calls=1 offloaded=1
// STATS-DAG: idiom-stats: fp-fmax.c:dmin2 map calls=1 offloaded=1
