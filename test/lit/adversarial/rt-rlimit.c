// Issue 10 (H200 run): under a small RLIMIT_AS, loading the OpenCL
// implementation aborts the process (PoCL cannot create its threads). The
// runtime checks the limit before loading anything and declines every run
// ("address-space limit too small") when the soft limit leaves less than
// 4 GiB above the process's size; the program prints the sequential output
// and exits 0. With a large finite limit ("big") the runs offload.
// RUN: %clang -O2 %s -o %t.seq
// RUN: %clang-idiom %s -lidiomrt -o %t.idiom
// RUN: %t.seq > %t.expected
// RUN: env IDIOM_MIN_TRIP=0 IDIOM_STATS=1 IDIOM_DEBUG=1 %t.idiom > %t.out 2> %t.stats
// RUN: diff %t.expected %t.out
// RUN: FileCheck %s --check-prefix=SMALL < %t.stats
// RUN: %t.seq big > %t.expected-big
// RUN: env IDIOM_MIN_TRIP=0 IDIOM_STATS=1 %t.idiom big > %t.out-big 2> %t.stats-big
// RUN: diff %t.expected-big %t.out-big
// RUN: FileCheck %s --check-prefix=BIG < %t.stats-big
// SMALL-NOT: loaded libOpenCL
// SMALL: idiom-stats: rt-rlimit.c:fill map calls=3 offloaded=0 {{.*}}reasons="address-space limit too small" x3
// BIG: idiom-stats: rt-rlimit.c:fill map calls=3 offloaded=3 {{.*}}fallbacks=0
#include <stdio.h>
#include <string.h>
#include <sys/resource.h>

#define N 100000
static long v[N];

__attribute__((noinline)) void fill(long *o, long k) {
  for (long i = 0; i < N; i++)
    o[i] = i * k - 7;
}

int main(int argc, char **argv) {
  int big = argc > 1 && strcmp(argv[1], "big") == 0;
  struct rlimit rl;
  rl.rlim_cur = rl.rlim_max = (rlim_t)(big ? 64ull : 1ull) << 30;
  if (setrlimit(RLIMIT_AS, &rl) != 0) {
    printf("setrlimit failed\n");
    return 1;
  }
  long s = 0;
  for (long k = 1; k <= 3; k++) {
    fill(v, k);
    for (long i = 0; i < N; i += 1000)
      s += v[i];
  }
  printf("%ld\n", s);
  return 0;
}
