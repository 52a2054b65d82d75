// A reduction with 8 accumulators (the runtime's IDIOM_MAX_RESULTS) runs on
// the device, with every offload forced, and prints what the sequential
// build prints; one with 9 is not offloaded at compile time, so no call is
// declined at run time ("invalid descriptor: results").
// RUN: %clang -O2 %s -o %t.seq
// RUN: %clang-idiom -g %s -lidiomrt -o %t.idiom
// RUN: %t.seq > %t.expected
// RUN: env IDIOM_MIN_TRIP=0 IDIOM_STATS=1 %t.idiom > %t.out 2> %t.stats
// RUN: diff %t.expected %t.out
// RUN: FileCheck %s < %t.stats
// RUN: grep -c "idiom-stats: limits-accumulators.c" %t.stats | FileCheck %s --check-prefix=NSTATS
#include <stdio.h>

#define NOINLINE __attribute__((noinline))
#define ACC8(X)                                                                \
  a0 += X;                                                                     \
  a1 ^= X;                                                                     \
  a2 |= X;                                                                     \
  a3 &= X;                                                                     \
  a4 = a4 > X ? a4 : X;                                                        \
  a5 = a5 < X ? a5 : X;                                                        \
  a6 += X * 3;                                                                 \
  a7 += X ^ 0x55;

NOINLINE long eight(const int *x, int n) {
  int a0 = 0, a1 = 0, a2 = 0, a3 = -1, a4 = -1000000, a5 = 1000000, a6 = 0, a7 = 0;
  // CHECK: idiom-stats: limits-accumulators.c:[[@LINE+1]] scalar-reduction calls=2 offloaded=2 {{.*}}fallbacks=0
  for (int i = 0; i < n; i++) {
    ACC8(x[i])
  }
  return (long)a0 + a1 + a2 + a3 + a4 + a5 + a6 + a7;
}

NOINLINE long nine(const int *x, int n) {
  int a0 = 0, a1 = 0, a2 = 0, a3 = -1, a4 = -1000000, a5 = 1000000, a6 = 0, a7 = 0;
  long a8 = 0;
  for (int i = 0; i < n; i++) {
    ACC8(x[i])
    a8 += (long)x[i] * x[i];
  }
  return (long)a0 + a1 + a2 + a3 + a4 + a5 + a6 + a7 + a8;
}
// CHECK-NOT: invalid descriptor
// NSTATS: {{^}}1{{$}}

static int x[50000];

int main(void) {
  unsigned s = 99;
  for (int i = 0; i < 50000; i++) {
    s = s * 1103515245u + 12345u;
    x[i] = (int)(s >> 7) % 100003 - 50000;
  }
  printf("eight %ld %ld\n", eight(x, 50000), eight(x + 7, 40000));
  printf("nine %ld %ld\n", nine(x, 50000), nine(x + 3, 30000));
  return 0;
}
