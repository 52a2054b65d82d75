// Issue 10, item 10: a thread with a 64 KiB stack makes the first call into
// the runtime. PoCL's kernel compiler needs far more stack than that; the
// runtime initializes OpenCL and builds on its own thread (16 MiB of stack).
// RUN: %clang -O2 %s -lpthread -o %t.seq
// RUN: %clang-idiom %s -lidiomrt -lpthread -o %t.idiom
// RUN: %t.seq > %t.expected
// RUN: env IDIOM_MIN_TRIP=0 IDIOM_STATS=1 %t.idiom > %t.out 2> %t.stats
// RUN: diff %t.expected %t.out
// RUN: FileCheck %s < %t.stats
// CHECK: idiom-stats: rt-small-stack.c:saxpy map calls=2 offloaded=2
#include <pthread.h>
#include <stdio.h>

#define N 40000
static float x[N], y[N];

__attribute__((noinline)) void saxpy(float *yy, const float *xx, float a) {
  for (int i = 0; i < N; i++)
    yy[i] = a * xx[i] + yy[i];
}

static void *body(void *unused) {
  (void)unused;
  saxpy(y, x, 2.0f);
  saxpy(y, x, -0.5f);
  return NULL;
}

int main(void) {
  // A recurrence, not an idiom: the thread's call is the first one.
  float v = 0.0f;
  for (int i = 0; i < N; i++) {
    v = v < 24.0f ? v + 0.25f : 0.0f;
    x[i] = v;
    y[i] = v * 0.5f;
  }
  pthread_attr_t attr;
  pthread_attr_init(&attr);
  pthread_attr_setstacksize(&attr, 64 * 1024);
  pthread_t t;
  if (pthread_create(&t, &attr, body, NULL) != 0) {
    printf("pthread_create failed\n");
    return 1;
  }
  pthread_join(t, NULL);
  double s = 0;
  for (int i = 0; i < N; i++)
    s += y[i] * (double)(i % 7);
  printf("%.4f\n", s);
  return 0;
}
