// The program of test/lit/run/host-probe.c and test/lit/run/stale-probe.c:
// a map of 2^21 floats with four divisions an element (its time is well
// above the device's static floor, so the cost model compares it with the
// device's), called argv[1] times from an outer loop.
#include <stdio.h>
#include <stdlib.h>

#define N (1 << 21)
static float a[N], b[N];

int main(int argc, char **argv) {
  int reps = argc > 1 ? atoi(argv[1]) : 10;
  for (int i = 0; i < N; ++i) {
    a[i] = (float)(i % 29);
    b[i] = (float)(i % 3) + 0.5f;
  }
  double s = 0;
  for (int r = 0; r < reps; ++r) {
    for (int i = 0; i < N; ++i) // the site
      b[i] = a[i] / (1.0f + b[i]) + a[i] / (2.0f + b[i]) +
             a[i] / (3.0f + b[i]) + a[i] / (4.0f + b[i]);
    s += b[(r * 13) % N];
  }
  printf("%.3f\n", s);
  return 0;
}
