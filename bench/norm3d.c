/* Issue 13: NAS MG's norm2u3 (the sum of squares and the largest magnitude
   over the interior of a 3-D grid reached through a VLA-typed cast) as one
   3-D scalar reduction over the flattened grid (scalar-reduction-3d), called
   REPS times on an N^3 grid that the host does not change between calls
   (after the first call the grid may stay on the device).
     norm3d [N] [REPS]        (defaults 256 20: 128 MiB of doubles) */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

__attribute__((noinline)) static void norm2u3(void *or, int n1, int n2, int n3,
                                              double *rnm2, double *rnmu) {
  double (*r)[n2][n1] = (double (*)[n2][n1])or;
  double s = 0.0, mx = 0.0;
  for (int i3 = 1; i3 < n3 - 1; i3++)
    for (int i2 = 1; i2 < n2 - 1; i2++)
      for (int i1 = 1; i1 < n1 - 1; i1++) {
        s = s + r[i3][i2][i1] * r[i3][i2][i1];
        double t = fabs(r[i3][i2][i1]);
        if (t > mx)
          mx = t;
      }
  *rnmu = mx;
  *rnm2 = sqrt(s / ((double)(n1 - 2) * (n2 - 2) * (n3 - 2)));
}

int main(int argc, char **argv) {
  int n = argc > 1 ? atoi(argv[1]) : 256, reps = argc > 2 ? atoi(argv[2]) : 20;
  size_t total = (size_t)n * n * n;
  double *u = malloc(sizeof(double) * total);
  if (!u)
    return 1;
  unsigned seed = 314159u;
  for (size_t k = 0; k < total; k++) {
    seed = seed * 1103515245u + 12345u;
    u[k] = ((double)((seed >> 8) & 0xffff) - 32768.0) / 65536.0;
  }
  double rnm2 = 0, rnmu = 0, acc = 0;
  for (int r = 0; r < reps; r++) {
    norm2u3(u, n, n, n, &rnm2, &rnmu);
    acc += rnm2;
  }
  printf("rnm2 %.15e\nrnmu %.15e\nmean %.15e\n", rnm2, rnmu, acc / reps);
  free(u);
  return 0;
}
