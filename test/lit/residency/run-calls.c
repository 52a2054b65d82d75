// Residency regions across calls to functions of the module (summaries,
// RegionSummaries.h), run on PoCL against the sequential build. The
// positive case keeps its buffers on the device across ten calls, with
// printf and clock_gettime between them; the adversarial cases must form no
// region (or stay correct): the callee also writes its buffer on the host,
// a printf reads an element of a buffer between calls, a buffer is freed and
// reallocated at the same address between calls, a call through a function
// pointer, a callee that is called from another translation unit too, and a
// caller placed before its callee (a pending region, decided at
// OptimizerLast).
// RUN: %clang -O2 %s %S/Inputs/calls-other-tu.c -o %t.seq
// RUN: %clang-idiom %s %S/Inputs/calls-other-tu.c -Rpass=idiom-offload -Rpass-missed=idiom-offload -lidiomrt -o %t.idiom 2> %t.remarks
// RUN: FileCheck %s --check-prefix=REMARK < %t.remarks
// RUN: %t.seq > %t.expected
// RUN: env IDIOM_ZERO_COPY=off IDIOM_MIN_TRIP=0 IDIOM_STATS=1 %t.idiom > %t.out 2> %t.stats
// RUN: diff %t.expected %t.out
// Zero-copy on PoCL (runtime/lib/zerocopy.c): the same output, and the runs
// passed buffers over the program's memory.
// RUN: env IDIOM_COST=off IDIOM_MIN_TRIP=0 IDIOM_STATS=1 %t.idiom > %t.zc 2> %t.zcstats
// RUN: diff %t.expected %t.zc
// RUN: grep -q "idiom-stats: zero-copy args=[1-9]" %t.zcstats
// RUN: FileCheck %s --check-prefix=STATS < %t.stats
// STATS-DAG: idiom-stats: residency regions={{[0-9]+}} reused={{[0-9]+}} syncs=0
// RUN: env IDIOM_DEVICE=seq %t.idiom > %t.out2
// RUN: diff %t.expected %t.out2
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define N 65536
static int x[N], y[N], z[N];
// Trip counts the optimiser cannot see (no full unrolling).
volatile int ten = 10, five = 5, four = 4, six = 6;

void twice_from_other_tu(int *y, const int *x, int n);

// Pending: the callee is defined after this caller, so the region is
// decided at OptimizerLast.
__attribute__((noinline)) void bump(int *y, const int *x, int n);
__attribute__((noinline)) static void pending(int steps) {
  // REMARK-DAG: run-calls.c:[[@LINE+1]]:3: remark: residency region: the buffers of {{.*}}1 call(s)
  for (int t = 0; t < steps; t++)
    bump(z, x, N);
}

// The positive case: ten calls, one copy in and one copy back (at the
// region's end: flushed_bytes).
// STATS-DAG: idiom-stats: run-calls.c:[[@LINE+2]] map calls=10 offloaded=10 {{.*}} bytes_in=524288 bytes_out=0
__attribute__((noinline)) void scale(int *y, const int *x, int n) {
  for (int i = 0; i < n; i++)
    y[i] = (y[i] * 3 + x[i]) & 65535;
}

__attribute__((noinline)) void step(int *y, const int *x, int n) {
  for (int i = 0; i < n; i++)
    y[i] = (y[i] * 7 + x[i]) & 65535;
}

// Also writes its buffer on the host, outside the idiom.
__attribute__((noinline)) void step_poke(int *y, const int *x, int n, int t) {
  for (int i = 0; i < n; i++)
    y[i] = (y[i] * 5 + x[i]) & 65535;
  y[t] = -t;
}

__attribute__((noinline)) void bump(int *y, const int *x, int n) {
  for (int i = 0; i < n; i++)
    y[i] = (y[i] + x[i] + 1) & 65535;
}

void (*through_pointer)(int *, const int *, int);

// In place: w[i] += x[i] + t.
__attribute__((noinline)) void accumulate(int *w, const int *x, int t, int n) {
  for (int i = 0; i < n; i++)
    w[i] = (w[i] + x[i] + t) & 65535;
}
static int w[N];

// A callee with a residency region of its own: nested in the caller's.
static int v[N];
__attribute__((noinline)) void inner_steps(int *w, int *v, const int *x, int k,
                                           int n) {
  // REMARK-DAG: run-calls.c:[[@LINE+1]]:3: remark: residency region: the buffers of 2 offloaded idiom(s) stay
  for (int s = 0; s < k; s++) {
    for (int i = 0; i < n; i++)
      w[i] = (w[i] * 3 + x[i] + s) & 65535;
    for (int i = 0; i < n; i++)
      v[i] = (v[i] + w[i]) & 65535;
  }
}

static long check(const int *v, int n) {
  long c = 0;
  for (int i = 0; i < n; i += 7)
    c = c * 31 + v[i];
  return c;
}

int main(void) {
  int T = ten, T5 = five, T4 = four;
  through_pointer = T > 0 ? bump : step;
  for (int i = 0; i < N; i++) {
    x[i] = i % 29;
    y[i] = i % 5;
    z[i] = i % 3;
  }
  struct timespec ts;
  // REMARK-DAG: run-calls.c:[[@LINE+1]]:3: remark: residency region: the buffers of {{.*}}1 call(s)
  for (int t = 0; t < T; t++) {
    clock_gettime(CLOCK_MONOTONIC, &ts);
    scale(y, x, N);
    printf("step %d\n", t);
  }
  printf("%ld\n", check(y, N));

  // REMARK-DAG: run-calls.c:[[@LINE+1]]:3: remark: no residency region: the loop or a function it calls stores to an idiom's buffer (y) outside the idiom
  for (int t = 0; t < T; t++)
    step_poke(y, x, N, t);
  printf("%ld\n", check(y, N));

  // REMARK-DAG: run-calls.c:[[@LINE+1]]:3: remark: no residency region: the loop or a function it calls loads from an idiom's buffer (z) outside the idiom
  for (int t = 0; t < T; t++) {
    bump(z, x, N);
    printf("%d\n", z[t]);
  }

  // REMARK-DAG: run-calls.c:[[@LINE+1]]:3: remark: no residency region: the loop calls a function through a pointer
  for (int t = 0; t < T; t++) {
    bump(y, x, N);
    through_pointer(y, x, N);
  }
  printf("%ld\n", check(y, N));

  // A block freed and reallocated (often at the same address) between the
  // calls: the loop calls free and calloc, so it is no region.
  int *p = calloc(N, sizeof(int));
  // REMARK-DAG: run-calls.c:[[@LINE+1]]:3: remark: no residency region: the loop calls {{free|calloc}}, which may access an idiom's buffer
  for (int t = 0; t < T5; t++) {
    step(p, x, N);
    free(p);
    p = calloc(N, sizeof(int));
    step(p, x, N);
  }
  printf("%ld\n", check(p, N));
  // Regions around calls, with a free and a malloc (same address) between
  // the regions.
  for (int r = 0; r < 3; r++) {
    // REMARK-DAG: run-calls.c:[[@LINE+1]]:5: remark: residency region: the buffers of {{.*}}1 call(s) {{.*}} (3 inlined copies)
    for (int t = 0; t < T4; t++)
      bump(p, x, N);
    printf("%ld\n", check(p, N));
    free(p);
    p = malloc(sizeof(int) * N);
    for (int i = 0; i < N; i++)
      p[i] = (i * r) % 17;
  }
  free(p);

  // A memset of a callee's buffer in the loop goes through the runtime
  // (idiom_region_memset): filled on the device once the region holds it.
  // REMARK-DAG: run-calls.c:[[@LINE+1]]:3: remark: residency region: the buffers of {{.*}}2 call(s)
  for (int t = 0; t < T; t++) {
    memset(w, 0, sizeof(w));
    accumulate(w, x, t, N);
    accumulate(w, y, t, N);
  }
  printf("%ld\n", check(w, N));

  // REMARK-DAG: run-calls.c:[[@LINE+1]]:3: remark: residency region: the buffers of {{.*}}1 call(s)
  for (int t = 0; t < T; t++) {
    inner_steps(w, v, x, T5, N);
    printf("%d\n", t);
  }
  printf("%ld %ld\n", check(w, N), check(v, N));

  // The callee is also called from another translation unit, outside any
  // region, with host reads between the calls.
  twice_from_other_tu(z, x, N);
  pending(six);
  printf("%ld %ld\n", check(z, N), check(y, N));
  return 0;
}
