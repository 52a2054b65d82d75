/* The known run of the IDIOM_STATS=json test (stats_json_test.py): with
   IDIOM_DEVICE=cpu the large map runs on the device 3 times; the small one
   (100 iterations, 400 bytes read: work below IDIOM_MIN_TRIP's 4096)
   declines twice. */
#include <stdio.h>
#include <stdlib.h>

#define BIG (1 << 16)
#define SMALL 100

__attribute__((noinline)) static void big(float *restrict o,
                                          const float *restrict x, int n) {
  for (int i = 0; i < n; i++) /* BIG_LOOP */
    o[i] = 2.0f * x[i] + 1.0f;
}

__attribute__((noinline)) static void small(int *restrict o,
                                            const int *restrict x, int n) {
  for (int i = 0; i < n; i++) /* SMALL_LOOP */
    o[i] = x[i] * 5;
}

int main(void) {
  float *x = malloc(BIG * sizeof *x), *o = malloc(BIG * sizeof *o);
  int xi[SMALL], oi[SMALL];
  if (!x || !o)
    return 2;
  for (int i = 0; i < BIG; i++)
    x[i] = (float)(i % 5);
  for (int i = 0; i < SMALL; i++)
    xi[i] = i;
  for (int r = 0; r < 3; r++)
    big(o, x, BIG);
  for (int r = 0; r < 2; r++)
    small(oi, xi, SMALL);
  long bad = 0;
  for (int i = 0; i < BIG; i++)
    bad += o[i] != 2.0f * (float)(i % 5) + 1.0f;
  for (int i = 0; i < SMALL; i++)
    bad += oi[i] != 5 * i;
  printf("stats_prog: %ld wrong\n", bad);
  free(x);
  free(o);
  return bad != 0;
}
