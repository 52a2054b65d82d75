// The run-time policy's worst case for launches (issue 12): a map of 4096
// floats, about a microsecond of host work, run once per iteration of an
// outer loop (3000 times). The cost model keeps it on the host; forced
// (IDIOM_DEVICE=gpu) it makes 3000 launches.
#include <stdio.h>
#include <stdlib.h>
#define N 4096
#define REPS 3000
static float x[N], y[N];
int main(void) {
  for (int i = 0; i < N; ++i) { x[i] = (float)(i % 17); y[i] = (float)(i % 5); }
  double s = 0;
  for (int r = 0; r < REPS; ++r) {
    for (int i = 0; i < N; ++i)
      y[i] = 0.5f * x[i] + y[i] * 0.25f;
    s += y[r % N];
  }
  printf("%.6f\n", s);
  return 0;
}
