// Loops with a second induction variable (issue 13): `k += 2` beside `i++`
// is, for ScalarEvolution, the affine recurrence {k0,+,2} of the loop, so
// InductionPhi accepts it (DerivedIV, constraints/LoopFacts.h) and the
// lifters read it as k0 + 2 * i (addresses through SCEV, values as that
// function of the iteration index). A variable updated under a condition is
// no recurrence: "phi is not an induction variable". End to end on PoCL;
// the integer results are exact, the float sums within compare.py's
// tolerance. Translation validation refuses a corrupted lift of each.
// RUN: %clang -O2 %s -o %t.seq
// RUN: %clang-idiom -g %s -lidiomrt -Rpass=idiom-offload -Rpass-missed=idiom-offload -o %t.idiom 2> %t.remarks
// RUN: FileCheck %s --check-prefix=REMARK < %t.remarks
// RUN: %t.seq > %t.expected
// RUN: env IDIOM_COST=off IDIOM_MIN_TRIP=0 IDIOM_STATS=1 %t.idiom > %t.out 2> %t.stats
// RUN: python3 %srcroot/nas-parboil/compare.py %t.expected %t.out
// RUN: FileCheck %s --check-prefix=STATS < %t.stats
// RUN: %clang-idiom -g -ffp-contract=off -fplugin=%plugin -mllvm -idiom-test-corrupt-lift -mllvm -idiom-z3-timeout=600000 -mllvm -idiom-z3-rlimit=200000000 -c %s -o /dev/null -Rpass=idiom-offload -Rpass-missed=idiom-offload 2>&1 | FileCheck %s --check-prefix=BAD
// BAD-NOT: offloaded scalar reduction
// BAD-NOT: offloaded map
#include <stdio.h>

#define N 4099

static double a[N], b[3 * N + 8];
static int ia[N], ib[3 * N + 8], out[3 * N + 8];

// REMARK-DAG: derived-iv.c:[[@LINE+5]]:3: remark: offloaded scalar reduction (scalar-reduction)
// STATS-DAG: idiom-stats: derived-iv.c:[[@LINE+4]] scalar-reduction calls=1 offloaded=1
__attribute__((noinline)) static double strided_dot(int n) {
  double s = 0;
  long k = 0;
  for (int i = 0; i < n; i++) {
    s += a[i] * b[k];
    k += 2;
  }
  return s;
}

// The second variable's value is read, not only its address.
// REMARK-DAG: derived-iv.c:[[@LINE+5]]:3: remark: offloaded scalar reduction (scalar-reduction)
// STATS-DAG: idiom-stats: derived-iv.c:[[@LINE+4]] scalar-reduction calls=1 offloaded=1
__attribute__((noinline)) static long int_value(int n) {
  long s = 0;
  int k = 5;
  for (int i = 0; i < n; i++) {
    s += (long)ia[i] * ib[k] + k;
    k += 3;
  }
  return s;
}

// A map whose store goes through the second variable.
// REMARK-DAG: derived-iv.c:[[@LINE+4]]:3: remark: offloaded map (map)
// STATS-DAG: idiom-stats: derived-iv.c:[[@LINE+3]] map calls=1 offloaded=1
__attribute__((noinline)) static void scatter_map(int n) {
  int k = 1;
  for (int i = 0; i < n; i++) {
    out[k] = ia[i] * 2 + k;
    k += 3;
  }
}

// Negatives: k advances only when a[i] > 0.5 (not a recurrence of the
// loop), read as an address and as a value.
// REMARK-DAG: derived-iv.c:[[@LINE+4]]:3: remark: loop is not an idiom (closest: scalar-reduction): {{.*}}AffineAccess(ld, loop): address is not affine in the loop's induction variables
__attribute__((noinline)) static double conditional(int n) {
  double s = 0;
  long k = 0;
  for (int i = 0; i < n; i++) {
    s += a[i] * b[k];
    if (a[i] > 0.5)
      k += 2;
  }
  return s;
}

// REMARK-DAG: derived-iv.c:[[@LINE+4]]:3: remark: loop is not an idiom (closest: scalar-reduction): {{.*}}ArgIndexPhi(phi, loop): index update is not tied to a min/max update
__attribute__((noinline)) static double conditional_value(int n) {
  double s = 0;
  long k = 0;
  for (int i = 0; i < n; i++) {
    s += a[i] * (double)k;
    if (a[i] > 0.5)
      k += 2;
  }
  return s;
}

int main(void) {
  unsigned r = 99;
#define RND() ((r = r * 1103515245u + 12345u) >> 8 & 0xffff)
  for (int i = 0; i < N; i++) {
    a[i] = RND() / 65536.0;
    ia[i] = (int)RND() - 30000;
  }
  for (int i = 0; i < 3 * N + 8; i++) {
    b[i] = RND() / 65536.0 - 0.5;
    ib[i] = (int)RND() - 30000;
  }
  printf("n %d\n", N);
  printf("strided %.10e\n", strided_dot(N));
  printf("intvalue %ld\n", int_value(N));
  scatter_map(N);
  long c = 0;
  for (int i = 0; i < 3 * N + 8; i++)
    c = c * 31 + out[i];
  printf("scatter %ld\n", c);
  printf("conditional %.10e\n", conditional(N));
  printf("conditional_value %.10e\n", conditional_value(N));
  return 0;
}
