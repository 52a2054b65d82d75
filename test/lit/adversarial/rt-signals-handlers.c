// Issue 10, item 9: after offloads, sigaction still returns the program's
// own handlers. PoCL's LLVM installs crash handlers for SIGSEGV, SIGBUS,
// SIGFPE, SIGILL, SIGINT, SIGTERM and others on platform enumeration and
// program builds; the runtime restores every disposition afterwards.
// RUN: %clang -O2 %s -o %t.seq
// RUN: %clang-idiom %s -lidiomrt -o %t.idiom
// RUN: %t.seq > %t.expected
// RUN: env IDIOM_MIN_TRIP=0 IDIOM_STATS=1 IDIOM_DEBUG=1 %t.idiom > %t.out 2> %t.stats
// RUN: diff %t.expected %t.out
// RUN: FileCheck %s < %t.stats
// CHECK: idiom: restored {{[0-9]+}} signal handler(s) replaced by the OpenCL implementation
// CHECK: idiom-stats: rt-signals-handlers.c:scale map calls=2 offloaded=2
#include <signal.h>
#include <stdio.h>
#include <string.h>

#define N 30000
static float x[N];

static void on_fault(int sig) { (void)sig; }
static void on_info(int sig, siginfo_t *si, void *ctx) {
  (void)sig, (void)si, (void)ctx;
}

static const int sigs[] = {SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGINT,
                           SIGTERM, SIGHUP, SIGUSR1, SIGUSR2, SIGQUIT};
#define NSIGS (int)(sizeof sigs / sizeof sigs[0])

__attribute__((noinline)) static void scale(float *v, float k) {
  for (int i = 0; i < N; i++)
    v[i] = v[i] * k + 1.0f;
}

int main(void) {
  for (int i = 0; i < NSIGS; i++) {
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    if (i % 2) {
      sa.sa_sigaction = on_info;
      sa.sa_flags = SA_SIGINFO | SA_RESTART;
    } else {
      sa.sa_handler = on_fault;
    }
    sigaction(sigs[i], &sa, NULL);
  }
  signal(SIGXCPU, SIG_IGN);
  scale(x, 2.0f);
  scale(x, 0.5f);
  int bad = 0;
  for (int i = 0; i < NSIGS; i++) {
    struct sigaction now;
    sigaction(sigs[i], NULL, &now);
    int ok = i % 2 ? (now.sa_flags & SA_SIGINFO) && now.sa_sigaction == on_info
                   : !(now.sa_flags & SA_SIGINFO) && now.sa_handler == on_fault;
    if (!ok) {
      printf("signal %d: handler replaced\n", sigs[i]);
      bad++;
    }
  }
  struct sigaction xcpu;
  sigaction(SIGXCPU, NULL, &xcpu);
  if (xcpu.sa_handler != SIG_IGN) {
    printf("SIGXCPU: disposition replaced\n");
    bad++;
  }
  double s = 0;
  for (int i = 0; i < N; i++)
    s += x[i];
  printf("%d handlers replaced, sum %.1f\n", bad, s);
  return 0;
}
