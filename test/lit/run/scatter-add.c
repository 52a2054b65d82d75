// Scatter-adds over a small data-dependent neighbourhood (issue #14:
// gridding, a cut-off kernel): the neighbourhood loop unrolled at -O2 gives
// several guarded updates of one bins array per iteration, lifted as one
// reduceIndexed over (i, k) (HistogramLift::More). The offloaded build
// prints what the sequential build prints: integer weights exactly, float
// weights (`g[c + d] += w * f(r2)`, contracted to fmuladd) within 1e-5
// relative (compare.py: # tol line_* 1e-5, # tol g_* 1e-5; hits and the
// overlapping call's buffer exactly: # tol hits_* 0 0, # tol buf_* 0 0);
// bins behind a pointer get a run-time extent, and a call whose bins
// overlap the weights runs the original loop.
// IDIOM_COST=off: every call is offloaded.
// RUN: %clang -O2 %s -o %t.seq -lm
// RUN: %clang-idiom -g %s -lidiomrt -lm -Rpass=idiom-offload -o %t.idiom 2> %t.remarks
// RUN: FileCheck %s --check-prefix=REMARK < %t.remarks
// RUN: %t.seq > %t.expected
// RUN: env IDIOM_COST=off IDIOM_MIN_TRIP=0 IDIOM_STATS=1 IDIOM_CACHE_DIR=off %t.idiom > %t.out 2> %t.stats
// RUN: python3 %srcroot/nas-parboil/compare.py %t.expected %t.out --src %s
// RUN: FileCheck %s --check-prefix=STATS < %t.stats
// Variant 1: bins privatised in local memory (float adds by compare-and-swap).
// RUN: env IDIOM_COST=off IDIOM_MIN_TRIP=0 IDIOM_VARIANT=1 IDIOM_CACHE_DIR=off %t.idiom > %t.v1
// RUN: python3 %srcroot/nas-parboil/compare.py %t.expected %t.v1 --src %s
// RUN: env IDIOM_DEVICE=seq %t.idiom > %t.seqout
// RUN: diff %t.expected %t.seqout
#include <stdio.h>
#include <stdlib.h>

#define NL 2048
#define N 20000
static float xs[N], ws[N];
static int cls[N];
static float line[NL];
static int hits[NL];

// Five guarded float updates per sample.
// REMARK-DAG: scatter-add.c:[[@LINE+3]]:3: remark: offloaded histogram (histogram) to OpenCL as {{.*}} with operator fadd
// STATS-DAG: idiom-stats: scatter-add.c:[[@LINE+2]] histogram calls=1 offloaded=1
__attribute__((noinline)) void spread(const float *x, const float *w, int n) {
  for (int i = 0; i < n; i++) {
    float xi = x[i], wi = w[i];
    int c = (int)xi;
    for (int d = -2; d <= 2; d++) {
      float e = (float)(c + d) - xi;
      float r2 = e * e;
      if (r2 >= 2.25f)
        continue;
      line[c + d] += wi * (1.0f - r2 * (1.0f / 2.25f));
    }
  }
}

// Integer weights: exact.
// REMARK-DAG: scatter-add.c:[[@LINE+3]]:3: remark: offloaded histogram (histogram) to OpenCL as {{.*}} with operator add
// STATS-DAG: idiom-stats: scatter-add.c:[[@LINE+2]] histogram calls=1 offloaded=1
__attribute__((noinline)) void count(const float *x, const int *k, int n) {
  for (int i = 0; i < n; i++) {
    float xi = x[i];
    int c = (int)xi, ki = k[i];
    for (int d = -1; d <= 1; d++) {
      float e = (float)(c + d) - xi;
      if (e * e >= 1.0f)
        continue;
      hits[c + d] += ki;
    }
  }
}

// Bins behind a pointer: a run-time extent; the second call's bins overlap
// the weights (the loop reads what it writes): the original loop runs.
// REMARK-DAG: scatter-add.c:[[@LINE+3]]:3: remark: offloaded histogram (histogram-runtime-bins) to OpenCL as {{.*}} with operator fadd
// STATS-DAG: idiom-stats: scatter-add.c:[[@LINE+2]] histogram-runtime-bins calls=2 offloaded=1 {{.*}}fallbacks=1 {{.*}}reasons="overlapping input/output ranges" x1
__attribute__((noinline)) void spread_to(const float *x, const float *w, int n, float *g) {
  for (int i = 0; i < n; i++) {
    float xi = x[i], wi = w[i];
    int c = (int)xi;
    for (int d = -1; d <= 1; d++) {
      float e = (float)(c + d) - xi;
      if (e * e >= 1.0f)
        continue;
      g[c + d] += wi;
    }
  }
}

static unsigned long long lcg = 99991;
static float rnd(void) {
  lcg = lcg * 6364136223846793005ULL + 1442695040888963407ULL;
  return (float)((lcg >> 33) & 0xffffff) / 16777216.0f;
}

int main(void) {
  printf("n %d\n", N);
  for (int i = 0; i < N; i++) {
    xs[i] = 2.0f + (NL - 5) * rnd() * rnd(); // skewed: crowded low cells
    ws[i] = rnd();
    cls[i] = (int)(rnd() * 7.0f) - 3;
  }
  spread(xs, ws, N);
  count(xs, cls, N);
  for (int k = 0; k < NL; k += 7)
    printf("line_%d %.9e\nhits_%d %d\n", k, line[k], k, hits[k]);
  float g[64] = {0};
  float small[40];
  for (int i = 0; i < 40; i++)
    small[i] = 1.0f + 0.75f * (i % 50); // cells 1 .. 30
  spread_to(small, ws, 40, g + 8);
  float *buf = calloc(200, sizeof(float));
  for (int i = 0; i < 40; i++)
    buf[i] = ws[i];
  spread_to(small, buf, 40, buf + 38); // bins [38, 70] overlap weights 38, 39
  for (int k = 0; k < 64; k++)
    printf("g_%d %.9e\n", k, g[k]);
  for (int k = 0; k < 80; k++)
    printf("buf_%d %.9e\n", k, buf[k]);
  free(buf);
  return 0;
}
