// Iterative map for the run-time policy (issue 12): R sweeps of 4 integer
// hash steps over 16 M elements (64 MiB, INOUT). With pageable transfers
// (128 MiB per call) the device cannot beat the host loop; the cost model
// must find that out and keep the program at the sequential build's speed.
// Usage: policy_iter [R] (default 40)
#include <stdio.h>
#include <stdlib.h>
#define BIG (1 << 24)
static unsigned big[BIG];
int main(int argc, char **argv) {
  int reps = argc > 1 ? atoi(argv[1]) : 40;
  for (int i = 0; i < BIG; ++i) big[i] = (unsigned)i * 2654435761u;
  unsigned long sum = 0;
  for (int r = 0; r < reps; ++r) {
    for (int i = 0; i < BIG; ++i) {
      unsigned v = big[i];
      v = v * 1664525u + 1013904223u;
      v ^= v >> 13;
      v = v * 1664525u + 1013904223u;
      v ^= v >> 7;
      big[i] = v;
    }
    sum += big[r * 1000];
  }
  printf("%lu\n", sum);
  return 0;
}
