/* A map offloaded by the plugin, and a check of its result. */
#include <stdio.h>
#include <stdlib.h>

#define N (1 << 16)

__attribute__((noinline)) static void scale(float *restrict o,
                                            const float *restrict x, float a,
                                            int n) {
  for (int i = 0; i < n; i++)
    o[i] = a * x[i];
}

int main(void) {
  float *x = malloc(N * sizeof *x), *o = malloc(N * sizeof *o);
  if (!x || !o)
    return 2;
  for (int i = 0; i < N; i++)
    x[i] = (float)(i % 7);
  scale(o, x, 3.0f, N);
  long bad = 0;
  for (int i = 0; i < N; i++)
    bad += o[i] != 3.0f * (float)(i % 7);
  printf("scale: %ld wrong\n", bad);
  free(x);
  free(o);
  return bad != 0;
}
