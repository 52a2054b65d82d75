// Row temporaries end to end on PoCL (passes/RowTemporaries.h): NAS MG's
// 27-point smoother (psinv) and residual (resid) on 3-D grids reached
// through VLA-typed casts, each row filling two local arrays with sums of
// neighbours that the next loop reads at i1 - 1, i1 and i1 + 1. Each nest
// is privatised and offloaded as one 3-D map. Run-time checks: a smoother
// whose output overlaps the grid its sums read (u inside r) runs the
// unchanged nest (no runtime call); a residual computed in place (v == r,
// as NAS MG does below the finest level) is declined by the runtime's
// overlap check and runs the unchanged nest on the host. Every output is
// the sequential build's, bit for bit.
// RUN: %clang -O2 %s -o %t.seq
// RUN: %clang-idiom -g %s -lidiomrt -Rpass=idiom-offload -o %t.idiom 2> %t.remarks
// RUN: FileCheck %s --check-prefix=REMARK < %t.remarks
// RUN: %t.seq > %t.expected
// RUN: env IDIOM_COST=off IDIOM_MIN_TRIP=0 IDIOM_STATS=1 IDIOM_CACHE_DIR=off %t.idiom > %t.out 2> %t.stats
// RUN: diff %t.expected %t.out
// RUN: FileCheck %s --check-prefix=STATS < %t.stats
#include <stdio.h>
#include <stdlib.h>

static const double c[4] = {-3.0 / 8.0, 1.0 / 32.0, -1.0 / 64.0, 0.0};
static const double a[4] = {-8.0 / 3.0, 0.0, 1.0 / 6.0, 1.0 / 12.0};

// REMARK-DAG: row-temporaries.c:[[@LINE+7]]:3: remark: offloaded 3-D map
// Three calls on separate grids; the overlapping one runs the original.
// STATS-DAG: row-temporaries.c:[[@LINE+5]] map calls=3 offloaded=3
__attribute__((noinline)) void psinv(void *or, void *ou, int n1, int n2, int n3) {
  double (*r)[n2][n1] = (double (*)[n2][n1])or;
  double (*u)[n2][n1] = (double (*)[n2][n1])ou;
  double r1[1024], r2[1024];
  for (int i3 = 1; i3 < n3 - 1; i3++)
    for (int i2 = 1; i2 < n2 - 1; i2++) {
      for (int i1 = 0; i1 < n1; i1++) {
        r1[i1] = r[i3][i2 - 1][i1] + r[i3][i2 + 1][i1] + r[i3 - 1][i2][i1] +
                 r[i3 + 1][i2][i1];
        r2[i1] = r[i3 - 1][i2 - 1][i1] + r[i3 - 1][i2 + 1][i1] +
                 r[i3 + 1][i2 - 1][i1] + r[i3 + 1][i2 + 1][i1];
      }
      for (int i1 = 1; i1 < n1 - 1; i1++)
        u[i3][i2][i1] = u[i3][i2][i1] + c[0] * r[i3][i2][i1] +
                        c[1] * (r[i3][i2][i1 - 1] + r[i3][i2][i1 + 1] + r1[i1]) +
                        c[2] * (r2[i1] + r1[i1 - 1] + r1[i1 + 1]);
    }
}

// REMARK-DAG: row-temporaries.c:[[@LINE+9]]:3: remark: offloaded 3-D map
// Two calls: one out of place, one in place (v == r: the input flagged
// IDIOM_ARG_INPLACE, bound to the output's buffer), both offloaded.
// STATS-DAG: row-temporaries.c:[[@LINE+6]] map calls=2 offloaded=2
__attribute__((noinline)) void resid(void *ou, void *ov, void *or, int n1, int n2, int n3) {
  double (*u)[n2][n1] = (double (*)[n2][n1])ou;
  double (*v)[n2][n1] = (double (*)[n2][n1])ov;
  double (*r)[n2][n1] = (double (*)[n2][n1])or;
  double u1[1024], u2[1024];
  for (int i3 = 1; i3 < n3 - 1; i3++)
    for (int i2 = 1; i2 < n2 - 1; i2++) {
      for (int i1 = 0; i1 < n1; i1++) {
        u1[i1] = u[i3][i2 - 1][i1] + u[i3][i2 + 1][i1] + u[i3 - 1][i2][i1] +
                 u[i3 + 1][i2][i1];
        u2[i1] = u[i3 - 1][i2 - 1][i1] + u[i3 - 1][i2 + 1][i1] +
                 u[i3 + 1][i2 - 1][i1] + u[i3 + 1][i2 + 1][i1];
      }
      for (int i1 = 1; i1 < n1 - 1; i1++)
        r[i3][i2][i1] = v[i3][i2][i1] - a[0] * u[i3][i2][i1] -
                        a[2] * (u2[i1] + u1[i1 - 1] + u1[i1 + 1]) -
                        a[3] * (u2[i1 - 1] + u2[i1 + 1]);
    }
}

static double checksum(const double *x, long n) {
  double s = 0;
  for (long q = 0; q < n; q++)
    s = s * 0.999 + x[q];
  return s;
}

int main(void) {
  int n1 = 37, n2 = 21, n3 = 13; // three different sizes
  long n = (long)n1 * n2 * n3;
  double *r = malloc(sizeof(double) * n), *u = malloc(sizeof(double) * n);
  double *v = malloc(sizeof(double) * n), *big = malloc(sizeof(double) * 2 * n);
  for (long q = 0; q < n; q++) {
    r[q] = (double)((q * 7919) % 101) / 64.0 - 0.75;
    v[q] = (double)((q * 104729) % 37) / 16.0;
    u[q] = 0.0;
  }
  for (long q = 0; q < 2 * n; q++)
    big[q] = (double)((q * 31) % 17) / 8.0;
  psinv(r, u, n1, n2, n3);
  resid(u, v, r, n1, n2, n3);
  psinv(r, u, n1, n2, n3);
  resid(u, r, r, n1, n2, n3); // in place: v == r
  psinv(r, u, n1, n2, n3);
  psinv(big, big + n1 * n2 + 3, n1, n2, n3); // u overlaps r
  printf("%.17g %.17g %.17g\n", checksum(r, n), checksum(u, n),
         checksum(big, 2 * n));
  printf("%.17g %.17g\n", u[(6 * n2 + 10) * n1 + 18], r[(5 * n2 + 3) * n1 + 30]);
  free(r);
  free(u);
  free(v);
  free(big);
  return 0;
}
