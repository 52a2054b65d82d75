// A CSR SpMV inside a residency region: conjugate-gradient-like time loops
// whose bodies are an SpMV, dot products and axpy maps. The region forms
// with the SpMV in it; the matrix is checked once per region epoch (the
// memo of csr.c), not once per iteration, and its buffers stay on the
// device. Adversarial cases, each printing what the sequential build
// prints:
//  - cg_rewire: a map inside the region rewrites the column indices every
//    iteration (on the device): the remembered check is forgotten and the
//    next SpMV checks the new indices again;
//  - escape and back: the rewired indices leave x's known extent (xs.x has
//    N elements, the loop reads xs.pad) and come back: those SpMV calls
//    decline, the region syncs, the original loop runs on host memory, and
//    the later calls check again.
// Passes over the matrix: 1 (cg) + 8 (rewire) + 3 (escape) + 4 (back);
// cg's 7 other calls reuse its first check.
// RUN: %clang -O2 %s -o %t.seq
// RUN: %clang-idiom %s -lidiomrt -Rpass=idiom-offload -o %t.idiom 2> %t.remarks
// RUN: FileCheck %s --check-prefix=REMARK < %t.remarks
// RUN: %t.seq > %t.expected
// RUN: env IDIOM_ZERO_COPY=off IDIOM_COST=off IDIOM_MIN_TRIP=0 IDIOM_STATS=1 IDIOM_CACHE_DIR=off %t.idiom > %t.out 2> %t.stats
// RUN: diff %t.expected %t.out
// Zero-copy on PoCL (runtime/lib/zerocopy.c): the same output, and the runs
// passed buffers over the program's memory.
// RUN: env IDIOM_COST=off IDIOM_MIN_TRIP=0 IDIOM_STATS=1 %t.idiom > %t.zc 2> %t.zcstats
// RUN: diff %t.expected %t.zc
// RUN: grep -q "idiom-stats: zero-copy args=[1-9]" %t.zcstats
// RUN: FileCheck %s --check-prefix=STATS < %t.stats
// The load-balanced SpMV (variant 7, row blocks) forced: its blocks are
// memoised with the region's check and forgotten with it; the outputs are
// the same.
// RUN: env IDIOM_ZERO_COPY=off IDIOM_COST=off IDIOM_MIN_TRIP=0 IDIOM_VARIANT=7 IDIOM_STATS=1 IDIOM_CACHE_DIR=off %t.idiom > %t.out7 2> %t.stats7
// RUN: diff %t.expected %t.out7
// RUN: FileCheck %s --check-prefix=BLOCKS < %t.stats7
// BLOCKS: spmv-csr calls=8 offloaded=8 {{.*}}variant 7 tuned=forced
// BLOCKS: csr-checks passes=16 reused=7
// RUN: env IDIOM_DEVICE=seq %t.idiom > %t.out2
// RUN: diff %t.expected %t.out2
#include <stdio.h>

#define N 4096
#define NZ (5 * N)
#define IT 8

static int ptr[N + 1], col[NZ];
static double val[NZ], p[N], q[N], r[N], z[N];
static struct {
  double x[N];
  double pad[64];
} xs;

static void build(void) {
  int k = 0;
  for (int i = 0; i < N; i++) {
    ptr[i] = k;
    int c[5] = {i - 64, i - 1, i, i + 1, i + 64};
    for (int t = 0; t < 5; t++)
      if (c[t] >= 0 && c[t] < N) {
        col[k] = c[t];
        val[k] = c[t] == i ? 4.5 + (i % 7) * 0.125 : -1.0;
        k++;
      }
  }
  ptr[N] = k;
  for (int i = 0; i < N; i++) {
    p[i] = 1.0 + (i % 13) * 0.0625;
    r[i] = p[i];
    xs.x[i] = (i % 5) * 0.25;
  }
  for (int i = 0; i < 64; i++)
    xs.pad[i] = 100.0 + i;
}

// REMARK: run-csr.c:[[@LINE+4]]:3: remark: residency region: the buffers of 4 offloaded idiom(s) stay on the device
// STATS-DAG: idiom-stats: run-csr.c:[[@LINE+4]] spmv-csr calls=8 offloaded=8
// STATS-DAG: idiom-stats: csr-checks passes=16 reused=7
__attribute__((noinline)) static double cg(int it) {
  for (int t = 0; t < it; t++) {
    for (int i = 0; i < N; i++) {
      double s = 0.0;
      for (int k = ptr[i]; k < ptr[i + 1]; k++)
        s += val[k] * p[col[k]];
      q[i] = s;
    }
    double pq = 0.0;
    for (int i = 0; i < N; i++)
      pq += p[i] * q[i];
    double a = 1.0 / (pq + 1.0);
    for (int i = 0; i < N; i++)
      r[i] = r[i] - a * q[i];
    for (int i = 0; i < N; i++)
      p[i] = r[i] + 0.5 * p[i];
  }
  double s = 0.0;
  for (int i = 0; i < N; i++)
    s += p[i] * (i % 3);
  return s;
}

// REMARK: run-csr.c:[[@LINE+3]]:3: remark: residency region: the buffers of 2 offloaded idiom(s) stay on the device
// STATS-DAG: idiom-stats: run-csr.c:[[@LINE+3]] spmv-csr calls=15 offloaded=11 {{.*}}fallbacks=4
__attribute__((noinline)) static void cg_rewire(int it, int shift) {
  for (int t = 0; t < it; t++) {
    for (int i = 0; i < N; i++) {
      double s = 0.0;
      for (int k = ptr[i]; k < ptr[i + 1]; k++)
        s += val[k] * xs.x[col[k]];
      z[i] = s;
    }
    for (int k = 0; k < NZ; k++)
      col[k] = col[k] + shift;
  }
}

static double sum(const double *a) {
  double s = 0.0;
  for (int i = 0; i < N; i++)
    s = s * 0.75 + a[i];
  return s;
}

int main(void) {
  build();
  printf("cg %.12e %.12e\n", cg(IT), sum(q));
  // Columns move by +1 per iteration, then by -2 (back inside): every
  // iteration reads a different matrix.
  for (int k = 0; k < NZ; k++)
    col[k] = col[k] % 64;
  cg_rewire(IT, 1);
  printf("rewire %.12e\n", sum(z));
  // Largest column N - 1, then N and N + 1 (xs.pad): calls 2 and 3
  // decline; then N + 2 and N (decline), N - 2 and N - 4.
  for (int k = 0; k < NZ; k++)
    col[k] = N - 1 - (k % 3);
  cg_rewire(3, 1);
  printf("escape %.12e\n", sum(z));
  cg_rewire(4, -2);
  printf("back %.12e %d\n", sum(z), col[7]);
  return 0;
}
