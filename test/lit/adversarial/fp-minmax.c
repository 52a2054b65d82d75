// Float min/max reductions keep the loop's exact result: the sign of a zero
// result, NaN elements (ignored by `if (x > m) m = x` and by fmaxf), NaN start
// values (kept by the compare-select, dropped by fmaxf), all-NaN data. The
// device result is combined with the start value by the loop's own operator;
// a zero, infinite or NaN device result makes the original loop run
// (docs/ARCHITECTURE.md, "Floating point"). Also with -idiom-fp-reassoc=false,
// which keeps these exact reductions offloaded.
// RUN: %clang -O2 %s -lm -o %t.seq
// RUN: %clang-idiom %s -lm -lidiomrt -o %t.idiom
// RUN: %clang-idiom -fplugin=%plugin -mllvm -idiom-fp-reassoc=false %s -lm -lidiomrt -o %t.exact
// RUN: %t.seq > %t.expected
// RUN: env IDIOM_MIN_TRIP=0 IDIOM_STATS=1 %t.idiom > %t.out 2> %t.stats
// RUN: diff %t.expected %t.out
// RUN: FileCheck %s --check-prefix=STATS < %t.stats
// RUN: not grep -q "fp-minmax.c:rmax " %t.stats
// RUN: env IDIOM_MIN_TRIP=0 IDIOM_STATS=1 %t.exact > %t.exact.out 2> %t.exact.stats
// RUN: diff %t.expected %t.exact.out
// RUN: FileCheck %s --check-prefix=STATS < %t.exact.stats
#include <math.h>
#include <stdio.h>

#define N 4096
static float a[N];
static double d[N];

__attribute__((noinline)) static float cmax(const float *x, int n, float m) {
  for (int i = 0; i < n; i++)
    if (x[i] > m)
      m = x[i];
  return m;
}

__attribute__((noinline)) static float cmin(const float *x, int n, float m) {
  for (int i = 0; i < n; i++)
    if (x[i] < m)
      m = x[i];
  return m;
}

__attribute__((noinline)) static float nmax(const float *x, int n, float m) {
  for (int i = 0; i < n; i++)
    m = fmaxf(m, x[i]);
  return m;
}

__attribute__((noinline)) static float nmin(const float *x, int n, float m) {
  for (int i = 0; i < n; i++)
    m = fminf(m, x[i]);
  return m;
}

// A NaN element replaces the accumulator here: not offloaded (missed remark,
// fp-remarks.c), so it prints the loop's result too.
__attribute__((noinline)) static float rmax(const float *x, int n, float m) {
  for (int i = 0; i < n; i++)
    m = m > x[i] ? m : x[i];
  return m;
}

__attribute__((noinline)) static double dmax(const double *x, int n, double m) {
  for (int i = 0; i < n; i++)
    if (x[i] >= m)
      m = x[i];
  return m;
}

static void show(const char *what) {
  printf("%s: cmax %a cmin %a nmax %a nmin %a rmax %a\n", what,
         cmax(a, N, -INFINITY), cmin(a, N, INFINITY), nmax(a, N, -INFINITY),
         nmin(a, N, INFINITY), rmax(a, N, -INFINITY));
  printf("%s nan start: cmax %a cmin %a nmax %a nmin %a\n", what,
         cmax(a, N, NAN), cmin(a, N, NAN), nmax(a, N, NAN), nmin(a, N, NAN));
  printf("%s zero start: cmax %a %a cmin %a %a nmax %a nmin %a\n", what,
         cmax(a, N, -0.0f), cmax(a, N, 0.0f), cmin(a, N, 0.0f),
         cmin(a, N, -0.0f), nmax(a, N, -0.0f), nmin(a, N, 0.0f));
}

int main(void) {
  // Ordinary data: a positive maximum, a negative minimum.
  for (int i = 0; i < N; i++)
    a[i] = (float)((i * 7919) % 2003 - 1000) / 8.0f;
  show("plain");
  // Signed zeros: -0 first and +0 later (and the mirror for min).
  for (int i = 0; i < N; i++)
    a[i] = i % 3 == 0 ? -1.0f - i : (i % 2 ? 0.0f : -0.0f);
  a[0] = -0.0f;
  show("zeros-neg-first");
  for (int i = 0; i < N; i++)
    a[i] = i % 3 == 0 ? 1.0f + i : (i % 2 ? -0.0f : 0.0f);
  a[0] = 0.0f;
  show("zeros-pos-first");
  // NaNs among the data: ignored by the ordered compare and by fmaxf.
  for (int i = 0; i < N; i++)
    a[i] = i % 2 ? NAN : (float)(i % 3);
  a[N - 1] = 999.0f;
  a[N - 2] = NAN;
  show("nan-data");
  for (int i = 0; i < N; i++)
    a[i] = i % 5 ? -NAN : 1.5f;
  show("neg-nan-data");
  // All NaN: the start value decides (NaN start with fmaxf stays NaN).
  for (int i = 0; i < N; i++)
    a[i] = NAN;
  show("all-nan");
  // Infinities.
  for (int i = 0; i < N; i++)
    a[i] = i == 77 ? INFINITY : (i == 99 ? -INFINITY : (float)i);
  show("inf");
  for (int i = 0; i < N; i++)
    d[i] = i % 4 == 1 ? -0.0 : (i % 4 == 3 ? 0.0 : -(double)i - 0.5);
  printf("double zeros: %a %a\n", dmax(d, N, -INFINITY), dmax(d, N, NAN));
  for (int i = 0; i < N; i++)
    d[i] = (double)((i * 104729) % 4099) - 2000.25;
  printf("double plain: %a\n", dmax(d, N, -INFINITY));
  return 0;
}
// The compare-select and fmaxf/fminf reductions run on the device; the form
// where a NaN element wins (rmax) is not offloaded.
// STATS-DAG: idiom-stats: fp-minmax.c:cmax scalar-reduction calls={{[1-9][0-9]*}} offloaded={{[1-9][0-9]*}}
// STATS-DAG: idiom-stats: fp-minmax.c:cmin scalar-reduction calls={{[1-9][0-9]*}} offloaded={{[1-9][0-9]*}}
// STATS-DAG: idiom-stats: fp-minmax.c:nmax scalar-reduction calls={{[1-9][0-9]*}} offloaded={{[1-9][0-9]*}}
// STATS-DAG: idiom-stats: fp-minmax.c:nmin scalar-reduction calls={{[1-9][0-9]*}} offloaded={{[1-9][0-9]*}}
// STATS-DAG: idiom-stats: fp-minmax.c:dmax scalar-reduction calls={{[1-9][0-9]*}} offloaded={{[1-9][0-9]*}}
