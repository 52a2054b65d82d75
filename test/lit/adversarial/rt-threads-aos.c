// Issue 10, item 7: one thread runs an offloaded map over p[i].x of an array
// of structs while another thread increments p[i].v. The runtime must write
// back only the bytes the map changed (the .x fields): copying the whole
// struct range back would revert increments of .v.
// RUN: %clang -O2 %s -lpthread -o %t.seq
// RUN: %clang-idiom %s -lidiomrt -lpthread -o %t.idiom
// RUN: %t.seq > %t.expected
// RUN: env IDIOM_MIN_TRIP=0 IDIOM_STATS=1 %t.idiom > %t.out 2> %t.stats
// RUN: diff %t.expected %t.out
// RUN: FileCheck %s < %t.stats
// CHECK: idiom-stats: rt-threads-aos.c:scale map calls=200 offloaded=200 {{.*}} fallbacks=0
#include <pthread.h>
#include <stdio.h>

#define N 20000
#define ROUNDS 200

struct particle {
  float x;
  int v;
};
static struct particle p[N];
static int done;
static long bumps;

__attribute__((noinline)) static void scale(struct particle *q, int n) {
  for (int i = 0; i < n; i++)
    q[i].x = q[i].x * 0.5f + 1.0f;
}

// Increments every .v once per round until main is done.
static void *bumper(void *unused) {
  (void)unused;
  while (!__atomic_load_n(&done, __ATOMIC_ACQUIRE)) {
    for (int i = 0; i < N; i++)
      __atomic_fetch_add(&p[i].v, 1, __ATOMIC_RELAXED);
    bumps++;
  }
  return NULL;
}

int main(void) {
  scale(p, N); // the first call builds the kernel
  pthread_t t;
  pthread_create(&t, NULL, bumper, NULL);
  for (int r = 1; r < ROUNDS; r++)
    scale(p, N);
  __atomic_store_n(&done, 1, __ATOMIC_RELEASE);
  pthread_join(t, NULL);
  long lost = 0;
  double sx = 0;
  for (int i = 0; i < N; i++) {
    lost += bumps - p[i].v;
    sx += p[i].x;
  }
  printf("lost increments: %ld\nsum of x: %.3f\n", lost, sx);
  fprintf(stderr, "rounds of increments: %ld\n", bumps);
  return 0;
}
