// An in-place input end to end on PoCL (IDIOM_ARG_INPLACE): NAS MG's
// resid, r = v - A u on a VLA grid, called out of place (v, r disjoint),
// in place (v == r: accepted, the input bound to the output's buffer), and
// with v one element past r (a partial overlap: declined, the loop runs,
// reading elements the same loop wrote). Also in place inside a time loop,
// where the residency region keeps r on the device. Every output is the
// sequential build's, bit for bit.
// RUN: %clang -O2 %s -o %t.seq
// RUN: %clang-idiom -g %s -lidiomrt -Rpass=idiom-offload -o %t.idiom 2> %t.remarks
// RUN: FileCheck %s --check-prefix=REMARK < %t.remarks
// RUN: %t.seq > %t.expected
// RUN: env IDIOM_COST=off IDIOM_MIN_TRIP=0 IDIOM_STATS=1 IDIOM_CACHE_DIR=off %t.idiom > %t.out 2> %t.stats
// RUN: diff %t.expected %t.out
// RUN: FileCheck %s --check-prefix=STATS < %t.stats
#include <stdio.h>
#include <stdlib.h>

// REMARK: inplace-input.c:[[@LINE+8]]:3: remark: offloaded 2-D map
// Out of place, in place, shifted (declined), then 4 in place in the loop.
// STATS: inplace-input.c:[[@LINE+6]] map calls=7 offloaded=6 {{.*}}reasons="overlapping input/output ranges" x1
__attribute__((noinline)) void resid(void *ou, void *ov, void *or, int n1,
                                     int n2) {
  double (*u)[n1] = ou;
  double (*v)[n1] = ov;
  double (*r)[n1] = or;
  for (int i2 = 1; i2 < n2 - 1; i2++)
    for (int i1 = 1; i1 < n1 - 1; i1++)
      r[i2][i1] = v[i2][i1] - 0.25 * (u[i2][i1 - 1] + u[i2][i1 + 1]);
}

static double sum(const double *x, size_t n) {
  double s = 0;
  for (size_t i = 0; i < n; i++)
    s = s * 0.999 + x[i];
  return s;
}

int main(void) {
  enum { N1 = 130, N2 = 98 };
  size_t n = (size_t)N1 * N2;
  double *u = malloc(n * sizeof *u), *v = malloc(n * sizeof *v);
  double *r = malloc((n + 1) * sizeof *r);
  for (size_t i = 0; i < n; i++) {
    u[i] = (double)(i % 13) * 0.5;
    v[i] = (double)(i % 11) - 3.0;
    r[i] = 1.0;
  }
  r[n] = 1.0;
  resid(u, v, r, N1, N2); /* out of place */
  printf("out %.17g\n", sum(r, n + 1));
  resid(u, r, r, N1, N2); /* in place */
  printf("in %.17g\n", sum(r, n + 1));
  resid(u, r + 1, r, N1, N2); /* partial overlap: the loop runs */
  printf("shifted %.17g\n", sum(r, n + 1));
  for (int t = 0; t < 4; t++)
    resid(u, r, r, N1, N2);
  printf("loop %.17g\n", sum(r, n + 1));
  free(u);
  free(v);
  free(r);
  return 0;
}
