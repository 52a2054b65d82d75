// End to end on the OpenCL CPU device (PoCL): the offloaded build prints what
// the sequential build prints, and IDIOM_STATS shows the idioms ran on the
// device. With IDIOM_DEVICE=seq every idiom falls back to the original loop.
// IDIOM_COST=off: every call is offloaded (the cost model would keep these
// one-shot calls on the host; test/lit/run/cost-model.c tests it).
// RUN: %clang -O2 %s -o %t.seq
// RUN: %clang-idiom -g %s -lidiomrt -o %t.idiom
// RUN: %t.seq > %t.expected
// RUN: env IDIOM_COST=off IDIOM_STATS=1 %t.idiom > %t.out 2> %t.stats
// RUN: diff %t.expected %t.out
// RUN: FileCheck %s --check-prefix=STATS < %t.stats
// RUN: env IDIOM_DEVICE=seq IDIOM_STATS=1 %t.idiom > %t.seqout 2> %t.seqstats
// RUN: diff %t.expected %t.seqout
// RUN: FileCheck %s --check-prefix=SEQ < %t.seqstats
#include <stdio.h>

#define N (1 << 16)
static int a[N], b[N], c[N];

static long isum(const int *x, int n) {
  long s = 0;
  for (int i = 0; i < n; i++)
    s += x[i];
  return s;
}

// Not inlined, so that the aliasing below is invisible at compile time.
__attribute__((noinline)) static void add(int *z, const int *x, const int *y, int n) {
  for (int i = 0; i < n; i++)
    z[i] = x[i] + 3 * y[i];
}

int main(void) {
  for (int i = 0; i < N; i++) {
    a[i] = (i * 7919) % 1000 - 500;
    b[i] = (i * 104729) % 777;
  }
  add(c, a, b, N);
  printf("sum %ld\n", isum(c, N));
  printf("c[12345] %d\n", c[12345]);
  // Overlapping output and input: sequentially a recurrence through memory.
  // The runtime's overlap check declines and the original loop runs.
  add(c + 1, c, b, N - 1);
  printf("alias sum %ld\n", isum(c, N));
  return 0;
}
// The two inlined copies of isum's loop are one source loop: one descriptor
// (passes/KernelSharing.h), called twice.
// STATS-DAG: idiom-stats: pocl.c:{{[0-9]+}} scalar-reduction calls=2 offloaded=2 device="{{.+}}" {{.*}}fallbacks=0
// STATS-DAG: idiom-stats: pocl.c:{{[0-9]+}} map calls=1 offloaded=1 device="{{.+}}" {{.*}}fallbacks=0
// STATS-DAG: idiom-stats: pocl.c:[[@LINE-22]] map calls=2 offloaded=1 device="{{.+}}" {{.*}}fallbacks=1 {{.*}}reasons="overlapping input/output ranges
// SEQ-DAG: idiom-stats: pocl.c:{{[0-9]+}} scalar-reduction calls=2 offloaded=0 {{.*}}fallbacks=2 {{.*}}reasons="IDIOM_DEVICE=seq
// SEQ-DAG: idiom-stats: pocl.c:{{[0-9]+}} map calls=1 offloaded=0 {{.*}}fallbacks=1 {{.*}}reasons="IDIOM_DEVICE=seq
