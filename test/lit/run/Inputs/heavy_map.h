/* The program of test/lit/run/late-load.c, start-wait.c and
   start-record-age.c. Its one site is a map of HEAVY_K multiply-adds an
   element (exact: unsigned), heavy for its bytes, so that the cost model
   wants the device from its first call; main fills the input with a
   recurrence (no idiom), sleeps HEAVY_INIT_MS (the program's own
   initialisation), runs the site STEPS times and prints one sum. */
#include <stdio.h>
#include <time.h>

enum { N = 1 << 16 };
static unsigned in[N], out[N];

__attribute__((noinline)) static void step(unsigned a) {
  for (int i = 0; i < N; ++i) {
    unsigned v = in[i] + a;
    for (unsigned k = 0; k < HEAVY_K; ++k)
      v = v * 3u + k;
    out[i] = v;
  }
}

int main(void) {
  unsigned r = 1; /* a recurrence: no idiom */
  for (int i = 0; i < N; ++i) {
    r = r * 1103515245u + 12345u;
    in[i] = r >> 8;
  }
  if (HEAVY_INIT_MS) {
    struct timespec ts = {0, HEAVY_INIT_MS * 1000000L};
    nanosleep(&ts, NULL);
  }
  unsigned long long acc = 0;
  for (int t = 0; t < STEPS; ++t) {
    step((unsigned)t);
    acc += out[(t * 4099) % N];
  }
  printf("%llu\n", acc);
  return 0;
}
