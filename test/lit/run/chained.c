// Two offloaded reductions where the second starts from the first one's
// result: the second's initial value must be taken after the first is
// stitched (a csmith-found bug: it used a value that no longer dominated).
// RUN: %clang -O2 %s -o %t.seq
// RUN: %clang-idiom -fverify-intermediate-code %s -lidiomrt -o %t.idiom
// RUN: %t.seq > %t.expected
// RUN: env IDIOM_MIN_TRIP=1 %t.idiom > %t.out
// RUN: diff %t.expected %t.out
// RUN: env IDIOM_MIN_TRIP=1 IDIOM_DEVICE=seq %t.idiom > %t.seqout
// RUN: diff %t.expected %t.seqout
#include <stdio.h>

int g = 5;
static void f(void) {
  for (long i = 78; i < 256; i++)
    g ^= 1;
}
static long h(const long *x, long n, long s) {
  for (long i = 0; i < n; i++)
    s += x[i];
  return s;
}

int main(void) {
  static long x[5000];
  for (long i = 0; i < 5000; i++)
    x[i] = i % 7;
  f();
  f();
  long s = h(x, 5000, 3);
  s = h(x, 5000, s);
  printf("%d %ld\n", g, s);
  return 0;
}
