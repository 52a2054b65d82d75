/* The end-to-end run of idiom-report (report_e2e_test.py): a map that
   offloads, called 4 times, a recurrence that is not an idiom and a loop
   that LLVM's loop-idiom turns into memset (its remark is not Idiom's). */
#include <stdio.h>
#include <stdlib.h>

#define N (1 << 18)

__attribute__((noinline)) static void scale(float *restrict o,
                                            const float *restrict x, int n) {
  for (int i = 0; i < n; i++) /* MAP_LOOP */
    o[i] = 3.0f * x[i] + 1.0f;
}

__attribute__((noinline)) static void smooth(float *a, int n) {
  for (int i = 1; i < n; i++) /* CARRIED_LOOP */
    a[i] = 0.5f * a[i - 1] + a[i];
}

__attribute__((noinline)) static void clear(int *a, int n) {
  for (int i = 0; i < n; i++) /* MEMSET_LOOP */
    a[i] = 0;
}

int main(void) {
  float *x = malloc(N * sizeof *x), *o = malloc(N * sizeof *o);
  if (!x || !o)
    return 2;
  for (int i = 0; i < N; i++)
    x[i] = (float)(i % 7);
  for (int r = 0; r < 4; r++)
    scale(o, x, N);
  long bad = 0;
  for (int i = 0; i < N; i++)
    bad += o[i] != 3.0f * (float)(i % 7) + 1.0f;
  smooth(o, N);
  int z[64];
  clear(z, 64);
  bad += z[5];
  printf("report_prog: %ld wrong %g\n", bad, (double)o[N - 1]);
  free(x);
  free(o);
  return bad != 0;
}
