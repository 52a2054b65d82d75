// bench/policy_tiny.c with clock readings between its phases, for
// bench/tiny_phases.sh (helper "tinymain", docs/Benchmarks.md): the first
// constructor (priority 101, before the runtime's), main's start, the end
// of the initialisation loop (the first site's first call), the end of the
// 3000 outer iterations, the end of printf. Printed on stderr at the end:
// "CTOR MAIN INIT LOOP PRINTF" in ns of CLOCK_MONOTONIC. The readings cost
// every build the same (the vDSO's first use, one fprintf).
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#define N 4096
#define REPS 3000
static float x[N], y[N];
static long now_ns(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return t.tv_sec * 1000000000L + t.tv_nsec;
}
static long t_ctor;
__attribute__((constructor(101))) static void first_ctor(void) {
  t_ctor = now_ns();
}
int main(void) {
  long t_main = now_ns();
  for (int i = 0; i < N; ++i) { x[i] = (float)(i % 17); y[i] = (float)(i % 5); }
  long t_init = now_ns();
  double s = 0;
  for (int r = 0; r < REPS; ++r) {
    for (int i = 0; i < N; ++i)
      y[i] = 0.5f * x[i] + y[i] * 0.25f;
    s += y[r % N];
  }
  long t_loop = now_ns();
  printf("%.6f\n", s);
  long t_printf = now_ns();
  fprintf(stderr, "%ld %ld %ld %ld %ld\n", t_ctor, t_main, t_init, t_loop,
          t_printf);
  return 0;
}
