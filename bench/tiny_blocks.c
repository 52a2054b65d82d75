// bench/policy_tiny.c's loop with REPS 12000, the time-stamp counter read
// after every 512 outer iterations (helper "tinymain", docs/Benchmarks.md):
// whether the plugin build's loop, with its host-hint check per call, runs
// slower than the sequential build's, block by block (early blocks against
// late ones). Build it both ways and run each many times:
//   clang-19 -O2 bench/tiny_blocks.c -o blocks.seq
//   clang-19 -O2 -fpass-plugin=build/lib/libIdiom.so bench/tiny_blocks.c \
//     -Lbuild/lib -lidiomrt -o blocks.idiom
// stderr: the initialisation loop's cycles, then each block's (x86-64).
#include <stdio.h>
#include <stdlib.h>
#include <x86intrin.h>
#define N 4096
#define REPS 12000
#define BLOCK 512
#define NBLOCKS 14
static float x[N], y[N];
static unsigned long long t[NBLOCKS + 2];
int main(void) {
  t[0] = __rdtsc();
  for (int i = 0; i < N; ++i) { x[i] = (float)(i % 17); y[i] = (float)(i % 5); }
  t[1] = __rdtsc();
  double s = 0;
  for (int r = 0; r < REPS; ++r) {
    for (int i = 0; i < N; ++i)
      y[i] = 0.5f * x[i] + y[i] * 0.25f;
    s += y[r % N];
    if (r % BLOCK == BLOCK - 1 && r / BLOCK < NBLOCKS)
      t[2 + r / BLOCK] = __rdtsc();
  }
  printf("%.6f\n", s);
  for (int i = 1; i < NBLOCKS + 2; ++i)
    fprintf(stderr, "%llu ", t[i] - t[i - 1]);
  fprintf(stderr, "\n");
  return 0;
}
