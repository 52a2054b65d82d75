// Reassociation that overflows: sums of alternating +-3e38 and products of
// alternating 1e30 and 1e-30 stay finite in loop order but overflow in a
// parallel order. A floating-point sum or product whose combined device result
// is not finite is recomputed by the original loop, so the sequential value is
// printed (docs/ARCHITECTURE.md, "Floating point").
// RUN: %clang -O2 %s -o %t.seq
// RUN: %clang-idiom %s -lidiomrt -o %t.idiom
// RUN: %t.seq > %t.expected
// RUN: env IDIOM_MIN_TRIP=0 IDIOM_STATS=1 %t.idiom > %t.out 2> %t.stats
// RUN: diff %t.expected %t.out
// RUN: FileCheck %s --check-prefix=STATS < %t.stats
// RUN: FileCheck %s --check-prefix=OUT < %t.out
#include <stdio.h>

#define N (1 << 20)
static float a[N];
static double d[N];

__attribute__((noinline)) static float fsum(const float *x, int n) {
  float s = 0.0f;
  for (int i = 0; i < n; i++)
    s += x[i];
  return s;
}

__attribute__((noinline)) static float fprod(const float *x, int n) {
  float p = 1.0f;
  for (int i = 0; i < n; i++)
    p *= x[i];
  return p;
}

__attribute__((noinline)) static double dsum(const double *x, int n, double s) {
  for (int i = 0; i < n; i++)
    s += x[i];
  return s;
}

int main(void) {
  for (int i = 0; i < N; i++)
    a[i] = i % 2 ? -3e38f : 3e38f;
  printf("float sum +-3e38: %a\n", fsum(a, N));
  printf("float sum +-3e38 odd: %a\n", fsum(a, N - 1));
  for (int i = 0; i < N; i++)
    a[i] = i % 2 ? 1e-30f : 1e30f;
  printf("float product 1e30*1e-30: %a\n", fprod(a, N));
  for (int i = 0; i < N; i++)
    d[i] = i % 2 ? -1.5e308 : 1.5e308;
  printf("double sum +-1.5e308: %a\n", dsum(d, N, 0.0));
  // A true overflow stays infinite (the loop runs and says so).
  for (int i = 0; i < N; i++)
    d[i] = 1e303;
  printf("double sum overflow: %a\n", dsum(d, N, 0.0));
  // Exact small integers: the device result is finite and used.
  for (int i = 0; i < N; i++)
    d[i] = (double)(i % 7);
  printf("double sum small: %a\n", dsum(d, N, 0.5));
  return 0;
}
// OUT: float sum +-3e38: 0x0p+0
// OUT: float sum +-3e38 odd: 0x1.{{[0-9a-f]+}}p+127
// OUT: float product 1e30*1e-30: 0x1{{(\.[0-9a-f]+)?}}p+0
// OUT: double sum overflow: inf
// STATS-DAG: idiom-stats: fp-overflow.c:fsum scalar-reduction calls=2 offloaded=2
// STATS-DAG: idiom-stats: fp-overflow.c:fprod scalar-reduction calls=1 offloaded=1
// STATS-DAG: idiom-stats: fp-overflow.c:dsum scalar-reduction calls=3 offloaded=3
