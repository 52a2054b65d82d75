// Issue 10, item 9: a SIGALRM handler (setitimer) runs an offloadable loop
// while the main thread runs many offloads. The handler's call must never
// wait for the runtime: it offloads, or declines ("runtime busy") when it
// interrupted its thread inside the runtime, and runs the loop. Device
// threads block the signal, so it is always taken by the program's thread.
// RUN: %clang -O2 %s -o %t.seq
// RUN: %clang-idiom %s -lidiomrt -o %t.idiom
// RUN: %t.seq > %t.expected
// RUN: env IDIOM_MIN_TRIP=0 IDIOM_STATS=1 %t.idiom > %t.out 2> %t.stats
// RUN: diff %t.expected %t.out
// RUN: FileCheck %s < %t.stats
// CHECK-DAG: idiom-stats: rt-sigalrm.c:work map calls=[[N:[0-9]+]] offloaded=[[N]]
// CHECK-DAG: idiom-stats: rt-sigalrm.c:on_alarm map calls={{[1-9][0-9]*}} {{.*}}"runtime busy (re-entered)" x{{[1-9]}}
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/time.h>

#define N 20000
#define M 4096
static int a[N], b[N];
static int h_in[M], h_out[M];
static volatile sig_atomic_t alarms;
static long handler_bad;

static void on_alarm(int sig) {
  (void)sig;
  for (int i = 0; i < M; i++)
    h_out[i] = h_in[i] * 5 - 1;
  for (int i = 0; i < M; i += 97)
    if (h_out[i] != h_in[i] * 5 - 1)
      handler_bad++;
  alarms++;
}

__attribute__((noinline)) void work(int *y, const int *x, int k) {
  for (int i = 0; i < N; i++)
    y[i] = x[i] * 3 + k;
}

int main(void) {
  for (int i = 0; i < M; i++)
    h_in[i] = i ^ 0x55;
  for (int i = 0; i < N; i++)
    a[i] = i % 777;
  struct sigaction sa;
  memset(&sa, 0, sizeof sa);
  sa.sa_handler = on_alarm;
  sa.sa_flags = SA_RESTART;
  sigaction(SIGALRM, &sa, NULL);
  struct itimerval it = {{0, 2000}, {0, 2000}};
  setitimer(ITIMER_REAL, &it, NULL);
  long s = 0;
  for (int r = 0; r < 1500 || alarms < 20; r++) {
    work(b, a, r);
    s += b[r % N];
  }
  struct itimerval off = {{0, 0}, {0, 0}};
  setitimer(ITIMER_REAL, &off, NULL);
  printf("handler errors: %ld, h_out[100]=%d\n", handler_bad, h_out[100]);
  return 0;
}
