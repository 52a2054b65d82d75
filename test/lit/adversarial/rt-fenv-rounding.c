// Issue 10, item 6: under fesetround(FE_UPWARD) (and the other directed
// modes) a float map declines ("floating-point rounding mode is not
// round-to-nearest") and the loop rounds as the program asked; an integer
// map is exact in any mode and still offloads. Back in FE_TONEAREST the
// float map offloads again.
// RUN: %clang -O2 %s -lm -o %t.seq
// RUN: %clang-idiom %s -lidiomrt -lm -o %t.idiom
// RUN: %t.seq > %t.expected
// RUN: env IDIOM_MIN_TRIP=0 IDIOM_STATS=1 %t.idiom > %t.out 2> %t.stats
// RUN: diff %t.expected %t.out
// RUN: FileCheck %s < %t.stats
// CHECK-DAG: idiom-stats: rt-fenv-rounding.c:third map calls=4 offloaded=1 {{.*}}reasons="floating-point rounding mode is not round-to-nearest" x3
// CHECK-DAG: idiom-stats: rt-fenv-rounding.c:twice map calls=4 offloaded=4 {{.*}}fallbacks=0
#include <fenv.h>
#include <stdio.h>

#define N 10000
static float x[N], y[N];
static int a[N], b[N];

__attribute__((noinline)) void third(float *o, const float *in) {
  for (int i = 0; i < N; i++)
    o[i] = in[i] / 3.0f + 0.1f;
}

__attribute__((noinline)) void twice(int *o, const int *in) {
  for (int i = 0; i < N; i++)
    o[i] = in[i] * 2 + 1;
}

static void report(const char *mode) {
  unsigned h = 2166136261u;
  for (int i = 0; i < N; i++) {
    unsigned u;
    __builtin_memcpy(&u, &y[i], 4);
    h = (h ^ u) * 16777619u;
    h = (h ^ (unsigned)b[i]) * 16777619u;
  }
  printf("%-8s %08x %a\n", mode, h, y[N - 1]);
}

int main(void) {
  for (int i = 0; i < N; i++) {
    x[i] = (float)(i * 7 % 1000) + 0.3f * (float)(i % 3);
    a[i] = i;
  }
  static const int modes[] = {FE_UPWARD, FE_DOWNWARD, FE_TOWARDZERO,
                              FE_TONEAREST};
  static const char *names[] = {"upward", "downward", "zero", "nearest"};
  for (int m = 0; m < 4; m++) {
    fesetround(modes[m]);
    third(y, x);
    twice(b, a);
    fesetround(FE_TONEAREST);
    report(names[m]);
  }
  return 0;
}
