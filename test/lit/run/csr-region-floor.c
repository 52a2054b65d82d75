// Inside a residency region a CSR matrix stays on the device as the other
// buffers do, so the cost model's floor for an SpMV there leaves out the
// matrix's bytes (runtime/lib/launch.c), as idiomrt_cost_bytes leaves out
// the region's buffers. A power iteration (an SpMV and a scaling map, 60
// times, the region around the loop) with a start-up record of 100 MB/s:
// the matrix's 5.5 MB at that rate (55 ms) exceed the SpMV's host time,
// yet no SpMV call is refused for it ("transfers and launch exceed the
// host time"). The same program built without regions
// (-idiom-residency=false) still refuses: outside a region the matrix is
// copied at every call. Both print what the sequential build prints.
// RUN: %clang -O2 %s -o %t.seq
// RUN: %clang-idiom -g %s -lidiomrt -o %t.idiom
// RUN: %clang-idiom -fplugin=%plugin -mllvm -idiom-residency=false -g %s -lidiomrt -o %t.noregion
// RUN: %t.seq > %t.expected
// RUN: rm -rf %t.cache && mkdir -p %t.cache
// RUN: python3 %S/Inputs/startup_record.py 100 %t.cache/startup-auto.txt --lat-ns 10000 --bw-bps 100000000
// RUN: env IDIOM_CACHE_DIR=%t.cache IDIOM_PROFILE=off IDIOM_STATS=1 %t.idiom > %t.out 2> %t.err
// RUN: diff %t.expected %t.out
// RUN: grep "spmv-csr calls=60" %t.err > %t.spmv
// RUN: not grep -q "transfers and launch exceed the host time" %t.spmv
// RUN: grep -q "residency regions=1 " %t.err
// RUN: python3 %S/Inputs/startup_record.py 100 %t.cache/startup-auto.txt --lat-ns 10000 --bw-bps 100000000
// RUN: env IDIOM_CACHE_DIR=%t.cache IDIOM_PROFILE=off IDIOM_STATS=1 %t.noregion > %t.out2 2> %t.err2
// RUN: diff %t.expected %t.out2
// RUN: grep "spmv-csr calls=60" %t.err2 > %t.spmv2
// RUN: grep -q "transfers and launch exceed the host time" %t.spmv2
#include <stdio.h>
#include <stdlib.h>

#define N (1 << 16)
#define ITERS 60

int main(void) {
  int *rowptr = malloc(sizeof(int) * (N + 1));
  int *col = malloc(sizeof(int) * 5 * N);
  double *val = malloc(sizeof(double) * 5 * N);
  double *x = malloc(sizeof(double) * N), *y = malloc(sizeof(double) * N);
  if (!rowptr || !col || !val || !x || !y)
    return 1;
  int nz = 0;
  for (int i = 0; i < N; ++i) {
    rowptr[i] = nz;
    for (int t = -2; t <= 2; ++t)
      if (i + t >= 0 && i + t < N) {
        col[nz] = i + t;
        val[nz++] = t == 0 ? 0.5 : 0.125 + 0.001 * (i % 7);
      }
    x[i] = 1.0 + (i % 3);
  }
  rowptr[N] = nz;
  for (int it = 0; it < ITERS; ++it) {
    for (int i = 0; i < N; ++i) {
      double s = 0.0;
      for (int k = rowptr[i]; k < rowptr[i + 1]; ++k)
        s += val[k] * x[col[k]];
      y[i] = s;
    }
    for (int i = 0; i < N; ++i)
      x[i] = 0.5 * y[i];
  }
  double sum = 0.0;
  for (int i = 0; i < N; i += 97)
    sum += x[i];
  printf("%.9e\n", sum);
  return 0;
}
