// Offsets that are products of run-time sizes, (i * ny + j) * nz * 8 bytes,
// are whole elements because one factor is (issue 13; they were "address
// offset is not a whole number of elements"): a 3-D 7-point stencil over
// flat arrays with long sizes is a map (a 2-D map a plane here), and its
// output is the sequential
// build's bit for bit. Called with overlapping input and output (out = in
// + 1), the run-time overlap check makes the original nest run.
// RUN: %clang -O2 %s -o %t.seq
// RUN: %clang-idiom -g %s -lidiomrt -Rpass=idiom-offload -o %t.idiom 2> %t.remarks
// RUN: FileCheck %s --check-prefix=REMARK < %t.remarks
// RUN: %t.seq > %t.expected
// RUN: env IDIOM_COST=off IDIOM_MIN_TRIP=0 IDIOM_STATS=1 IDIOM_CACHE_DIR=off %t.idiom > %t.out 2> %t.stats
// RUN: diff %t.expected %t.out
// RUN: FileCheck %s --check-prefix=STATS < %t.stats
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

// At -O2 the nest is one 3-D map (the plane offset (i * ny + j) * nz is a
// whole number of elements): the first call offloaded, the overlapping one
// declined.
// REMARK: flat-products.c:[[@LINE+3]]:3: remark: offloaded 3-D map
// STATS: flat-products.c:[[@LINE+2]] map calls=2 offloaded=1 {{.*}}fallbacks=1
__attribute__((noinline)) void weighted_flat(double *out, const double *in, long nx, long ny, long nz) {
  for (long i = 1; i < nx - 1; i++)
    for (long j = 1; j < ny - 1; j++)
      for (long k = 1; k < nz - 1; k++) {
        // Asymmetric weights: a wrong sign of any offset changes the output.
        long at = (i * ny + j) * nz + k, plane = ny * nz;
        out[at] = 0.5 * in[at - plane] - 0.25 * in[at + plane] + 2.0 * in[at - nz] +
                  0.125 * in[at + nz] - 3.0 * in[at - 1] + in[at + 1] + 1.5 * in[at];
      }
}

static unsigned long long hash(const double *a, long n) {
  unsigned long long h = 0;
  for (long q = 0; q < n; q++) { // h * P ^ bits: a recurrence, on the host
    unsigned long long x;
    memcpy(&x, &a[q], sizeof x);
    h = h * 1099511628211ull ^ x;
  }
  return h;
}

int main(void) {
  long nx = 30, ny = 41, nz = 52, n = nx * ny * nz;
  double *a = malloc(n * sizeof *a), *b = malloc(n * sizeof *b);
  for (long q = 0; q < n; q++) {
    a[q] = (q * 7919 % 1000) / 1000.0;
    b[q] = -1.0;
  }
  weighted_flat(b, a, nx, ny, nz);
  printf("separate %016llx\n", hash(b, n));
  weighted_flat(a + 1, a, nx, ny, nz); // overlapping: a dependence at run time
  printf("overlapping %016llx\n", hash(a, n));
  return 0;
}
