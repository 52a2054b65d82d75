// A reduction's result used by later offloaded idioms of the same function,
// as a scalar argument, a trip count and a factor inside another reduction
// (GSL's gsl_ran_dirichlet shape), run on the device and on the fallback.
// RUN: %clang -O2 %s -o %t.seq
// RUN: %clang-idiom -g -fverify-intermediate-code %s -lidiomrt -o %t.idiom
// RUN: %t.seq > %t.expected
// RUN: env IDIOM_MIN_TRIP=0 %t.idiom > %t.out
// RUN: diff %t.expected %t.out
// RUN: env IDIOM_MIN_TRIP=0 IDIOM_STATS=1 %t.idiom 2>&1 >/dev/null | FileCheck %s
// RUN: env IDIOM_DEVICE=seq %t.idiom > %t.seqout
// RUN: diff %t.expected %t.seqout
// Every idiom ran on the device, every call (no fallback hides a bad value).
#include <stdio.h>

__attribute__((noinline)) static void normalise(unsigned long k, double *theta) {
  double norm = 0.0;
  // CHECK-DAG: idiom-stats: result-feeds-idiom.c:[[@LINE+1]] {{.*}} fallbacks=0
  for (unsigned long i = 0; i < k; i++)
    norm += theta[i];
  if (norm < 1e-150)
    return;
  // CHECK-DAG: idiom-stats: result-feeds-idiom.c:[[@LINE+1]] {{.*}} fallbacks=0
  for (unsigned long i = 0; i < k; i++)
    theta[i] /= norm;
}

__attribute__((noinline)) static long count_then_fill(const int *m, long n, double *out) {
  long c = 0;
  // CHECK-DAG: idiom-stats: result-feeds-idiom.c:[[@LINE+1]] {{.*}} fallbacks=0
  for (long i = 0; i < n; i++)
    c += m[i] != 0;
  // CHECK-DAG: idiom-stats: result-feeds-idiom.c:[[@LINE+1]] {{.*}} fallbacks=0
  for (long i = 0; i < c; i++)
    out[i] = 2.0 * (double)i + 1.0;
  return c;
}

__attribute__((noinline)) static double centred_energy(const double *x, long n) {
  double mean = 0.0;
  // CHECK-DAG: idiom-stats: result-feeds-idiom.c:[[@LINE+1]] {{.*}} fallbacks=0
  for (long i = 0; i < n; i++)
    mean += x[i];
  mean /= (double)n;
  double e = 0.0;
  // CHECK-DAG: idiom-stats: result-feeds-idiom.c:[[@LINE+1]] {{.*}} fallbacks=0
  for (long i = 0; i < n; i++)
    e += (x[i] - mean) * (x[i] - mean);
  return e;
}

int main(void) {
  static double theta[2], big[5000], out[5000];
  static int m[5000];
  theta[0] = 0.5;
  theta[1] = 1.0;
  normalise(2, theta);
  printf("%.17g %.17g\n", theta[0], theta[1]);
  for (long i = 0; i < 5000; i++) {
    big[i] = (double)(i % 13) * 0.25;
    m[i] = (int)(i % 3);
  }
  normalise(5000, big);
  printf("%.17g %.17g\n", big[1], big[4999]);
  long c = count_then_fill(m, 5000, out);
  printf("%ld %.17g %.17g\n", c, out[0], out[c - 1]);
  for (long i = 0; i < 5000; i++)
    big[i] = (double)(i % 4);
  printf("%.17g\n", centred_energy(big, 5000));
  return 0;
}
