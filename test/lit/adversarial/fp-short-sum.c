// Short reassociated floating-point sums run the original loop, in its
// order, whatever IDIOM_MIN_TRIP says (-idiom-fp-reorder-min, default 4096):
// a 10-term sum whose rounding depends on the order (GSL's QUADPACK error
// estimates are such sums) prints the sequential bits; a long one is still
// offloaded; with -idiom-fp-reorder-min=0 the short one reaches the device
// too (its output may then differ, so it is not compared). A guard that
// keeps the loop on the host makes no runtime call: calls counts the long sum.
// RUN: %clang -O2 %s -o %t.seq
// RUN: %clang-idiom -g %s -lidiomrt -o %t.idiom
// RUN: %clang-idiom -g -fplugin=%plugin -mllvm -idiom-fp-reorder-min=0 %s -lidiomrt -o %t.all
// RUN: %t.seq > %t.expected
// RUN: env IDIOM_MIN_TRIP=0 IDIOM_STATS=1 %t.idiom > %t.out 2> %t.stats
// RUN: diff %t.expected %t.out
// RUN: FileCheck %s --check-prefix=STATS < %t.stats
// RUN: env IDIOM_MIN_TRIP=0 IDIOM_STATS=1 %t.all > /dev/null 2> %t.allstats
// RUN: FileCheck %s --check-prefix=ALL < %t.allstats
#include <stdio.h>

#define NOINLINE __attribute__((noinline))

NOINLINE double sum(const double *x, int n) {
  double s = 0;
  // STATS-DAG: idiom-stats: fp-short-sum.c:[[@LINE+2]] scalar-reduction calls=1 offloaded=1
  // ALL-DAG: idiom-stats: fp-short-sum.c:[[@LINE+1]] scalar-reduction calls=2 offloaded=2
  for (int i = 0; i < n; i++)
    s += x[i];
  return s;
}

static double big[8192];

int main(void) {
  // Terms of alternating magnitude: any other order rounds differently.
  double w[10] = {1e16, 1.0, -1e16, 3.0, 1e-3, 7e15, -7e15, 0.1, 2.5, -1.0};
  printf("short %a\n", sum(w, 10));
  for (int i = 0; i < 8192; i++)
    big[i] = (i % 7) * 0.25;
  printf("long %a\n", sum(big, 8192));
  return 0;
}
