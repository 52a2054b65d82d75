// Issue 10, item 8: a process offloads, then forks; the child's offloads must
// decline ("forked child", never touching the parent's OpenCL objects) and
// run the original loop. A child of a process that never initialized OpenCL
// (mode "fresh") initializes it itself and offloads.
// RUN: %clang -O2 %s -o %t.seq
// RUN: %clang-idiom %s -lidiomrt -o %t.idiom
// RUN: %t.seq > %t.expected
// RUN: env IDIOM_MIN_TRIP=0 IDIOM_STATS=1 %t.idiom > %t.out 2> %t.stats
// RUN: diff %t.expected %t.out
// RUN: FileCheck %s --check-prefix=FORKED < %t.stats
// RUN: %t.seq fresh > %t.expected-fresh
// RUN: env IDIOM_MIN_TRIP=0 IDIOM_STATS=1 %t.idiom fresh > %t.out-fresh 2> %t.stats-fresh
// RUN: diff %t.expected-fresh %t.out-fresh
// RUN: FileCheck %s --check-prefix=FRESH < %t.stats-fresh
//
// The child's report comes first (it exits first): all its calls declined.
// FORKED: idiom-stats: rt-fork.c:step map calls=2 offloaded=1 {{.*}} fallbacks=1 {{.*}}reasons="forked child" x1
// FORKED: idiom-stats: rt-fork.c:step map calls=2 offloaded=2 {{.*}} fallbacks=0
// FRESH: idiom-stats: rt-fork.c:step map calls=1 offloaded=1 {{.*}} fallbacks=0
// FRESH-NOT: idiom-stats: {{.*}} calls=
#include <stdio.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#define N 50000
static int a[N], b[N];

__attribute__((noinline)) static void step(int *y, const int *x, int k) {
  for (int i = 0; i < N; i++)
    y[i] = x[i] * 3 + k;
}

static long sum(const int *y) {
  long s = 0;
  for (int i = 0; i < N; i++)
    s = s * 31 + y[i];
  return s;
}

int main(int argc, char **argv) {
  int fresh = argc > 1 && strcmp(argv[1], "fresh") == 0;
  a[0] = 1; // a recurrence: not an idiom, so "fresh" makes no call before fork
  for (int i = 1; i < N; i++)
    a[i] = (a[i - 1] * 7 + 3) % 1001 - 500;
  if (!fresh) {
    step(b, a, 1);
    printf("parent before fork: %ld\n", sum(b));
  }
  fflush(stdout);
  pid_t pid = fork();
  if (pid == 0) {
    step(b, a, 2);
    printf("child: %ld\n", sum(b));
    return 0;
  }
  int st = 0;
  waitpid(pid, &st, 0);
  if (fresh)
    printf("child exited: %d\n", WIFEXITED(st) ? WEXITSTATUS(st) : -1);
  else {
    step(b, a, 3);
    printf("child exited: %d, parent after fork: %ld\n",
           WIFEXITED(st) ? WEXITSTATUS(st) : -1, sum(b));
  }
  return 0;
}
