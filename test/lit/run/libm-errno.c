// errno kept exactly on PoCL: maps of sqrt, log, exp, pow, sin and cos (and
// their float versions) built with clang's default -fmath-errno, run on
// arrays of ordinary values with one boundary argument planted in the middle
// (negative, -0, 0, +-inf, NaN, overflow and underflow arguments). The
// program prints errno after each map and the planted element's result, so
// the plugin build prints what the sequential build prints only if every
// argument that sets errno on the host made the stitched code run the
// original loop. IDIOM_STATS shows that the device ran the maps whose
// arguments set nothing and fell back for the others: the counts are those
// of the host's errno cases (sqrt, log, sin, cos), plus the documented
// over-approximations (exp near its thresholds and at +-inf; pow of a NaN y,
// of +-inf, and with y = -inf).
// RUN: %clang -O2 %s -lm -o %t.seq
// RUN: %clang-idiom -fplugin=%plugin -mllvm -idiom-approx-libm %s -lm -lidiomrt -Rpass=idiom-offload -Rpass-analysis=idiom-offload -o %t.idiom 2> %t.remarks
// RUN: FileCheck %s --check-prefix=REMARK < %t.remarks
// RUN: %t.seq > %t.expected
// RUN: env IDIOM_COST=off IDIOM_MIN_TRIP=0 IDIOM_STATS=1 %t.idiom > %t.out 2> %t.stats
// RUN: diff %t.expected %t.out
// RUN: FileCheck %s --check-prefix=STATS < %t.stats
// RUN: env IDIOM_DEVICE=seq %t.idiom > %t.seqout
// RUN: diff %t.expected %t.seqout
#include <errno.h>
#include <float.h>
#include <math.h>
#include <stdio.h>

#define N 4096
static double x[N], x2[N], y[N];
static float xf[N], xf2[N], yf[N];

// REMARK-DAG: libm-errno.c:[[@LINE+5]]:3: remark: offloaded map
// REMARK-DAG: libm-errno.c:[[@LINE+4]]:3: remark: calls sqrt, which may set errno: a device check of the arguments
// STATS-DAG: idiom-stats: libm-errno.c:[[@LINE+3]] map calls=10 offloaded=6 {{.*}}fallbacks=4 {{.*}}reasons="a libm argument would set errno" x4
// STATS-DAG: idiom-stats: libm-errno.c:[[@LINE+2]] map-errno-check calls=10 offloaded=10 {{.*}}fallbacks=0
__attribute__((noinline)) static void m_sqrt(int n) {
  for (int i = 0; i < n; i++) y[i] = sqrt(x[i]);
}
// REMARK-DAG: libm-errno.c:[[@LINE+4]]:3: remark: calls sqrtf, which may set errno
// STATS-DAG: idiom-stats: libm-errno.c:[[@LINE+3]] map calls=9 offloaded=7 {{.*}}fallbacks=2 {{.*}}reasons="a libm argument would set errno" x2
// STATS-DAG: idiom-stats: libm-errno.c:[[@LINE+2]] map-errno-check calls=9 offloaded=9 {{.*}}fallbacks=0
__attribute__((noinline)) static void m_sqrtf(int n) {
  for (int i = 0; i < n; i++) yf[i] = sqrtf(xf[i]);
}
// REMARK-DAG: libm-errno.c:[[@LINE+4]]:3: remark: calls log, which may set errno
// STATS-DAG: idiom-stats: libm-errno.c:[[@LINE+3]] map calls=10 offloaded=6 {{.*}}fallbacks=4 {{.*}}reasons="a libm argument would set errno" x4
// STATS-DAG: idiom-stats: libm-errno.c:[[@LINE+2]] map-errno-check calls=10 offloaded=10 {{.*}}fallbacks=0
__attribute__((noinline)) static void m_log(int n) {
  for (int i = 0; i < n; i++) y[i] = log(x[i]);
}
// REMARK-DAG: libm-errno.c:[[@LINE+4]]:3: remark: calls logf, which may set errno
// STATS-DAG: idiom-stats: libm-errno.c:[[@LINE+3]] map calls=10 offloaded=4 {{.*}}fallbacks=6 {{.*}}reasons="a libm argument would set errno" x6
// STATS-DAG: idiom-stats: libm-errno.c:[[@LINE+2]] map-errno-check calls=10 offloaded=10 {{.*}}fallbacks=0
__attribute__((noinline)) static void m_logf(int n) {
  for (int i = 0; i < n; i++) yf[i] = logf(xf[i]);
}
// REMARK-DAG: libm-errno.c:[[@LINE+4]]:3: remark: calls exp, which may set errno
// STATS-DAG: idiom-stats: libm-errno.c:[[@LINE+3]] map calls=13 offloaded=4 {{.*}}fallbacks=9 {{.*}}reasons="a libm argument would set errno" x9
// STATS-DAG: idiom-stats: libm-errno.c:[[@LINE+2]] map-errno-check calls=13 offloaded=13 {{.*}}fallbacks=0
__attribute__((noinline)) static void m_exp(int n) {
  for (int i = 0; i < n; i++) y[i] = exp(x[i]);
}
// REMARK-DAG: libm-errno.c:[[@LINE+4]]:3: remark: calls expf, which may set errno
// STATS-DAG: idiom-stats: libm-errno.c:[[@LINE+3]] map calls=11 offloaded=4 {{.*}}fallbacks=7 {{.*}}reasons="a libm argument would set errno" x7
// STATS-DAG: idiom-stats: libm-errno.c:[[@LINE+2]] map-errno-check calls=11 offloaded=11 {{.*}}fallbacks=0
__attribute__((noinline)) static void m_expf(int n) {
  for (int i = 0; i < n; i++) yf[i] = expf(xf[i]);
}
// REMARK-DAG: libm-errno.c:[[@LINE+4]]:3: remark: calls pow, which may set errno
// STATS-DAG: idiom-stats: libm-errno.c:[[@LINE+3]] map calls=20 offloaded=12 {{.*}}fallbacks=8 {{.*}}reasons="a libm argument would set errno" x8
// STATS-DAG: idiom-stats: libm-errno.c:[[@LINE+2]] map-errno-check calls=20 offloaded=20 {{.*}}fallbacks=0
__attribute__((noinline)) static void m_pow(int n) {
  for (int i = 0; i < n; i++) y[i] = pow(x[i], x2[i]);
}
// REMARK-DAG: libm-errno.c:[[@LINE+4]]:3: remark: calls powf, which may set errno
// STATS-DAG: idiom-stats: libm-errno.c:[[@LINE+3]] map calls=12 offloaded=6 {{.*}}fallbacks=6 {{.*}}reasons="a libm argument would set errno" x6
// STATS-DAG: idiom-stats: libm-errno.c:[[@LINE+2]] map-errno-check calls=12 offloaded=12 {{.*}}fallbacks=0
__attribute__((noinline)) static void m_powf(int n) {
  for (int i = 0; i < n; i++) yf[i] = powf(xf[i], xf2[i]);
}
// REMARK-DAG: libm-errno.c:[[@LINE+4]]:3: remark: calls sin, which may set errno
// STATS-DAG: idiom-stats: libm-errno.c:[[@LINE+3]] map calls=6 offloaded=4 {{.*}}fallbacks=2 {{.*}}reasons="a libm argument would set errno" x2
// STATS-DAG: idiom-stats: libm-errno.c:[[@LINE+2]] map-errno-check calls=6 offloaded=6 {{.*}}fallbacks=0
__attribute__((noinline)) static void m_sin(int n) {
  for (int i = 0; i < n; i++) y[i] = sin(x[i]);
}
// REMARK-DAG: libm-errno.c:[[@LINE+4]]:3: remark: calls cosf, which may set errno
// STATS-DAG: idiom-stats: libm-errno.c:[[@LINE+3]] map calls=6 offloaded=3 {{.*}}fallbacks=3 {{.*}}reasons="a libm argument would set errno" x3
// STATS-DAG: idiom-stats: libm-errno.c:[[@LINE+2]] map-errno-check calls=6 offloaded=6 {{.*}}fallbacks=0
__attribute__((noinline)) static void m_cosf(int n) {
  for (int i = 0; i < n; i++) yf[i] = cosf(xf[i]);
}

typedef void (*MapFn)(int);

// Ordinary arguments everywhere (in (0.5, 1.5): no function sets errno on
// them), the boundary pair at N/2.
static void fill(double v, double w) {
  for (int i = 0; i < N; i++) {
    x[i] = 0.5 + (double)i / N;
    x2[i] = 1.0 + (double)(i % 7) / 8;
    xf[i] = (float)x[i];
    xf2[i] = (float)x2[i];
    y[i] = -1;
    yf[i] = -1;
  }
  x[N / 2] = v;
  x2[N / 2] = w;
  xf[N / 2] = (float)v;
  xf2[N / 2] = (float)w;
}

// Results of the approximate functions differ from glibc by a few ulps on
// the device: printed to 6 digits (a NaN's sign is not printed: the
// contract leaves it open).
static void show(const char *name, MapFn f, int isfloat, double v, double w) {
  fill(v, w);
  errno = 0;
  f(N);
  int e = errno;
  double r = isfloat ? yf[N / 2] : y[N / 2];
  double sum = 0;
  for (int i = 0; i < N; i++)
    sum += isfloat ? yf[i] : y[i];
  if (isnan(r))
    printf("%s(%g, %g): errno=%d result=nan", name, v, w, e);
  else
    printf("%s(%g, %g): errno=%d result=%.6g", name, v, w, e, r);
  if (isnan(sum))
    printf(" sum=nan\n");
  else
    printf(" sum=%.6g\n", sum);
}

int main(void) {
  const double inf = INFINITY, nan = NAN;
  // The classic: errno = 0, a loop that takes sqrt of a negative, errno
  // printed (EDOM on the host).
  show("sqrt", m_sqrt, 0, -1, 0);
  double sq[] = {2, -0.0, 0.0, inf, -inf, nan, -nan, -4.9e-324, -DBL_MAX};
  for (unsigned k = 0; k < sizeof sq / sizeof *sq; k++)
    show("sqrt", m_sqrt, 0, sq[k], 0);
  for (unsigned k = 0; k < sizeof sq / sizeof *sq; k++)
    show("sqrtf", m_sqrtf, 1, sq[k], 0);
  double lg[] = {2, -1, -0.0, 0.0, 4.9e-324, DBL_MIN, inf, -inf, nan, 1e-40};
  for (unsigned k = 0; k < sizeof lg / sizeof *lg; k++)
    show("log", m_log, 0, lg[k], 0);
  for (unsigned k = 0; k < sizeof lg / sizeof *lg; k++)
    show("logf", m_logf, 1, lg[k], 0);
  double ex[] = {1, 700, 709.7, 709.79, 710, -700, -708.3, -708.5, -745.2,
                 -746, inf, -inf, nan};
  for (unsigned k = 0; k < sizeof ex / sizeof *ex; k++)
    show("exp", m_exp, 0, ex[k], 0);
  double exf[] = {1, 80, 88.8, 89, -80, -87.5, -103.5, -104, inf, -inf, nan};
  for (unsigned k = 0; k < sizeof exf / sizeof *exf; k++)
    show("expf", m_expf, 1, exf[k], 0);
  double pw[][2] = {{2, 10},   {-2, 3},    {-2, 0.5}, {0, -1},   {-0.0, -1},
                    {0, -0.5}, {0, 2},     {10, 400}, {10, -400}, {10, 300},
                    {-10, 301}, {inf, 2},  {-inf, 0.5}, {nan, 2},  {2, nan},
                    {1, inf},  {-1, inf},  {0.5, -inf}, {2, inf},  {1e-300, 2}};
  for (unsigned k = 0; k < sizeof pw / sizeof *pw; k++)
    show("pow", m_pow, 0, pw[k][0], pw[k][1]);
  double pwf[][2] = {{2, 10}, {-2, 3},  {-2, 0.5}, {0, -1},  {-0.0, -3},
                     {10, 40}, {10, -46}, {10, 30}, {inf, 2}, {nan, 2},
                     {1, inf}, {1e-30, 2}};
  for (unsigned k = 0; k < sizeof pwf / sizeof *pwf; k++)
    show("powf", m_powf, 1, pwf[k][0], pwf[k][1]);
  double tr[] = {1, -0.0, 1e300, inf, -inf, nan};
  for (unsigned k = 0; k < sizeof tr / sizeof *tr; k++)
    show("sin", m_sin, 0, tr[k], 0);
  for (unsigned k = 0; k < sizeof tr / sizeof *tr; k++)
    show("cosf", m_cosf, 1, tr[k], 0);
  return 0;
}

