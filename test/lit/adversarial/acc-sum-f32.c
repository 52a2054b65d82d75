// Accuracy of an offloaded float sum (docs/ARCHITECTURE.md, "Floating-point
// reductions: accuracy"): an ill-conditioned series (+big, small, -big) whose
// exact sum is an integer. The device sums with Neumaier compensation, so its
// result is at least as close to the exact sum as the sequential loop's (here
// correctly rounded where the loop's is not), bit-identical from run to run,
// with the variant fixed (never timed: the marker's CPU variant) although
// tuning is on; a sum of -0.0
// stays -0.0. With -idiom-fp-reassoc=false the loop is not offloaded.
// RUN: %clang -O2 %s -o %t.seq
// RUN: %clang-idiom %s -lidiomrt -o %t.idiom
// RUN: %t.seq | FileCheck %s --check-prefixes=CHECK,LOOP
// RUN: env IDIOM_MIN_TRIP=0 IDIOM_TUNE_MIN=0 IDIOM_STATS=1 %t.idiom > %t.1 2> %t.stats
// RUN: env IDIOM_MIN_TRIP=0 IDIOM_TUNE_MIN=0 %t.idiom > %t.2
// RUN: FileCheck %s --check-prefixes=CHECK,DEV < %t.1
// RUN: diff %t.1 %t.2
// RUN: FileCheck %s --check-prefix=STATS < %t.stats
// RUN: %clang-idiom -fplugin=%plugin %s -lidiomrt -mllvm -idiom-fp-reassoc=false -o %t.exact
// RUN: env IDIOM_MIN_TRIP=0 IDIOM_STATS=1 %t.exact 2> %t.exact.stats | FileCheck %s --check-prefixes=CHECK,LOOP
// RUN: FileCheck %s --check-prefix=EXACT < %t.exact.stats
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#define N (3 * 100000)
static float x[N], z[N];

__attribute__((noinline)) static float sum(const float *a, long n) {
  float s = 0.0f;
  for (long i = 0; i < n; i++)
    s += a[i];
  return s;
}

// Starts at -0.0: the sum of -0.0's is -0.0.
__attribute__((noinline)) static float sum_neg0(const float *a, long n) {
  float s = -0.0f;
  for (long i = 0; i < n; i++)
    s += a[i];
  return s;
}

// The sequential reference: a volatile accumulator is never offloaded.
__attribute__((noinline)) static float sum_loop(const float *a, long n) {
  volatile float s = 0.0f;
  for (long i = 0; i < n; i++)
    s += a[i];
  return s;
}

static unsigned bits(float d) {
  unsigned b;
  memcpy(&b, &d, sizeof b);
  return b;
}

int main(void) {
  long long exact = 0;
  for (long k = 0; k < N / 3; k++) {
    long long big = (k % 13 + 1) * (1LL << 26); // exact in a float
    long long small = k % 5 + 1;
    x[3 * k] = (float)big;
    x[3 * k + 1] = (float)small;
    x[3 * k + 2] = -(float)big;
    exact += small;
  }
  for (long i = 0; i < N; i++)
    z[i] = -0.0f;
  float d = sum(x, N), s = sum_loop(x, N);
  long double ed = fabsl((long double)d - exact), es = fabsl((long double)s - exact);
  printf("exact %lld\n", exact);
  printf("as accurate as the loop: %s\n", ed <= es ? "yes" : "no");
  printf("correctly rounded: %s\n", d == (float)exact ? "yes" : "no");
  printf("bits %08x\n", bits(d));
  float zz = sum_neg0(z, N);
  printf("sum of -0.0: %s\n", signbit(zz) ? "-0" : "+0");
  return 0;
}
// CHECK: exact 300000
// CHECK-NEXT: as accurate as the loop: yes
// LOOP-NEXT: correctly rounded: no
// DEV-NEXT: correctly rounded: yes
// DEV-NEXT: bits 48927c00
// CHECK: sum of -0.0: -0
// STATS-DAG: idiom-stats: acc-sum-f32.c:sum scalar-reduction calls=1 offloaded=1 {{.*}}fallbacks=0 variants={{[0-9]+}} {{.*}}: variant [[V:[0-9]+]] tuned=fixed"
// STATS-DAG: idiom-stats: acc-sum-f32.c:sum_neg0 scalar-reduction calls=1 offloaded=1 {{.*}}fallbacks=0 {{.*}}: variant [[V]] tuned=fixed"
// EXACT-NOT: scalar-reduction
// EXACT: idiom-stats: acc-sum-f32.c:main map calls=1 offloaded=1
// EXACT-NOT: scalar-reduction
