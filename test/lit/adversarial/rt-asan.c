// Issue 10 (H200 run): in an AddressSanitizer build that asks for a GPU on a
// machine without one, the ICD loader and PoCL leak during platform
// enumeration and LeakSanitizer turned the exit status into 23 although no
// device was used. The runtime's weak __lsan_default_suppressions covers
// leaks inside libOpenCL and the ICDs only: the program exits 0 with the
// sequential output, and a leak of the program itself is still reported.
// RUN: %clang -O2 %s -o %t.seq
// RUN: %clang-idiom -fsanitize=address %s -lidiomrt -o %t.idiom
// RUN: %t.seq > %t.expected
// RUN: env IDIOM_MIN_TRIP=0 IDIOM_DEVICE=gpu IDIOM_STATS=1 %t.idiom > %t.out 2> %t.stats
// RUN: diff %t.expected %t.out
// RUN: FileCheck %s < %t.stats
// RUN: env IDIOM_MIN_TRIP=0 IDIOM_DEVICE=gpu not %t.idiom leak > %t.leak-out 2> %t.leak
// RUN: FileCheck %s --check-prefix=LEAK < %t.leak
// CHECK: idiom-stats: rt-asan.c:add map calls=1 offloaded=0 {{.*}}reasons="no matching device" x1
// LEAK: ERROR: LeakSanitizer: detected memory leaks
// LEAK: in main
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define N 5000
static int a[N], b[N];

__attribute__((noinline)) void add(int *o, const int *x) {
  for (int i = 0; i < N; i++)
    o[i] = x[i] + 11;
}

int main(int argc, char **argv) {
  for (int i = 0; i < N; i++)
    a[i] = i * 3;
  add(b, a);
  long s = 0;
  for (int i = 0; i < N; i++)
    s += b[i];
  printf("%ld\n", s);
  if (argc > 1 && strcmp(argv[1], "leak") == 0) {
    static void *volatile p;
    p = malloc(77); // lost: LeakSanitizer must still see it
    p = NULL;
  }
  return 0;
}
