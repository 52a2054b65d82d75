// ThinLTO (-flto=thin): the pre-link pipeline has no VectorizerStart, so the
// plugin offloads at OptimizerLast there. The program prints what the
// sequential build prints and IDIOM_STATS shows the idioms ran on the device.
// REQUIRES: lld
// RUN: %clang -O2 %s -o %t.seq
// RUN: %clang-idiom -g -flto=thin -c %s -o %t.o -Rpass=idiom-offload 2> %t.remarks
// RUN: FileCheck %s --check-prefix=REMARK < %t.remarks
// RUN: %clang -O2 -flto=thin -fuse-ld=lld %t.o -L%libdir -lidiomrt -o %t.idiom
// RUN: %t.seq > %t.expected
// RUN: env IDIOM_MIN_TRIP=0 IDIOM_STATS=1 %t.idiom > %t.out 2> %t.stats
// RUN: diff %t.expected %t.out
// RUN: FileCheck %s --check-prefix=STATS < %t.stats
#include <stdio.h>

#define N 100000
#define NOINLINE __attribute__((noinline))

NOINLINE long isum(const int *x, int n) {
  long s = 0;
  // REMARK: thinlto.c:[[@LINE+2]]:3: remark: offloaded scalar reduction
  // STATS-DAG: idiom-stats: thinlto.c:[[@LINE+1]] scalar-reduction calls=1 offloaded=1 {{.*}}fallbacks=0
  for (int i = 0; i < n; i++)
    s += x[i];
  return s;
}

NOINLINE void add(int *z, const int *x, const int *y, int n) {
  // REMARK: thinlto.c:[[@LINE+2]]:3: remark: offloaded map
  // STATS-DAG: idiom-stats: thinlto.c:[[@LINE+1]] map calls=1 offloaded=1 {{.*}}fallbacks=0
  for (int i = 0; i < n; i++)
    z[i] = x[i] + 3 * y[i];
}

static int a[N], b[N], c[N];

int main(void) {
  unsigned s = 1;
  for (int i = 0; i < N; i++) {
    s = s * 1103515245u + 12345u;
    a[i] = (int)(s >> 8) % 1000 - 500;
    b[i] = (int)(s >> 12) % 777;
  }
  add(c, a, b, N);
  printf("sum %ld c[777] %d\n", isum(c, N), c[777]);
  return 0;
}
