// Conditional stores run on PoCL with every offload forced: loops that store
// only under a condition are not offloaded (a kernel would write every
// element), and print what the sequential build prints; reductions whose
// element is selected and maps that write every element still run on the
// device.
// RUN: %clang -O2 %s -o %t.seq
// RUN: %clang-idiom -c %s -o /dev/null -Rpass=idiom-offload -Rpass-missed=idiom-offload -Rpass-analysis=idiom-offload 2> %t.remarks
// RUN: FileCheck %s --check-prefix=REMARK < %t.remarks
// RUN: %clang-idiom -g %s -lidiomrt -o %t.idiom
// RUN: %t.seq > %t.expected
// RUN: env IDIOM_MIN_TRIP=0 IDIOM_STATS=1 %t.idiom > %t.out 2> %t.stats
// RUN: diff %t.expected %t.out
// RUN: FileCheck %s --check-prefix=STATS < %t.stats
// RUN: grep -c "idiom-stats: mem-conditional-store.c" %t.stats | FileCheck %s --check-prefix=NSTATS
#include <stdio.h>
#include <string.h>

#define N 20000
#define NOINLINE __attribute__((noinline))

NOINLINE void masked_scale(float *o, const float *x, const int *m, int n) {
  // REMARK-DAG: mem-conditional-store.c:[[@LINE+1]]:3: remark: {{.*}}store executes only under a condition
  for (int i = 0; i < n; i++)
    if (m[i])
      o[i] = x[i] * 2;
}

NOINLINE void clip(float *out, const float *in, float t, int n) {
  // REMARK-DAG: mem-conditional-store.c:[[@LINE+1]]:3: remark: {{.*}}store executes only under a condition
  for (int i = 0; i < n; i++)
    if (in[i] > t)
      out[i] = t;
}

NOINLINE void zero_negatives(int *r, const int *q, int n) {
  // REMARK-DAG: mem-conditional-store.c:[[@LINE+1]]:3: remark: {{.*}}store executes only under a condition
  for (int i = 0; i < n; i++)
    if (q[i] < 0)
      r[i] = 0;
}

NOINLINE void mean(int *mean, const int *sum, const int *cnt, int n) {
  // REMARK-DAG: mem-conditional-store.c:[[@LINE+1]]:3: remark: {{.*}}store executes only under a condition
  for (int i = 0; i < n; i++)
    if (cnt[i])
      mean[i] = sum[i] / cnt[i];
}

NOINLINE void smooth_inner(float *out, const float *in, int n) {
  // REMARK-DAG: mem-conditional-store.c:[[@LINE+1]]:3: remark: {{.*}}{{executes only under a condition|detected idiom stencil}}
  for (int i = 0; i < n; i++) {
    if (i == 0 || i == n - 1)
      continue;
    out[i] = (in[i - 1] + in[i] + in[i + 1]) / 3.0f;
  }
}

// Positives: the device computes these.
// The elements are multiples of 1/7 in float below 143 in magnitude: their
// double sum is exact in any order.
NOINLINE double relu_sum(const float *x, int n) {
  double s = 0;
  // REMARK-DAG: mem-conditional-store.c:[[@LINE+2]]:3: remark: offloaded scalar reduction
  // STATS-DAG: idiom-stats: mem-conditional-store.c:[[@LINE+1]] scalar-reduction calls=1 offloaded=1
  for (int i = 0; i < n; i++)
    s += x[i] > 0 ? x[i] : 0.0;
  return s;
}

NOINLINE long positive_sum(const int *x, int n) {
  long s = 0;
  // REMARK-DAG: mem-conditional-store.c:[[@LINE+2]]:3: remark: offloaded scalar reduction
  // STATS-DAG: idiom-stats: mem-conditional-store.c:[[@LINE+1]] scalar-reduction calls=1 offloaded=1
  for (int i = 0; i < n; i++)
    if (x[i] > 0)
      s += x[i];
  return s;
}

NOINLINE void select_scale(float *o, const float *x, const int *m, int n) {
  // REMARK-DAG: mem-conditional-store.c:[[@LINE+2]]:3: remark: offloaded map
  // STATS-DAG: idiom-stats: mem-conditional-store.c:[[@LINE+1]] map calls=1 offloaded=1
  for (int i = 0; i < n; i++) {
    float v = x[i] * 2, old = o[i];
    o[i] = m[i] ? v : old;
  }
}
// NSTATS: {{^}}3{{$}}

// FNV-1a over the bytes: a recurrence, never offloaded.
static unsigned hash(const void *p, size_t bytes) {
  const unsigned char *b = p;
  unsigned h = 2166136261u;
  for (size_t i = 0; i < bytes; i++)
    h = (h ^ b[i]) * 16777619u;
  return h;
}

static float xf[N], of[N], sf[N], minus2[N], nines[N];
static int mi[N], qi[N], ri[N], si[N], ci[N], mn[N];

int main(void) {
  unsigned s = 12345;
  for (int i = 0; i < N; i++) {
    s = s * 1103515245u + 12345u;
    xf[i] = (float)((int)(s >> 8) % 2001 - 1000) / 7.0f;
    mi[i] = (s >> 4) & 1;
    qi[i] = (int)(s >> 9) % 201 - 100;
    si[i] = (int)(s >> 10) % 10007;
    ci[i] = (s >> 3) % 4 == 0 ? 0 : (int)(s >> 12) % 13;
    of[i] = -1.0f;
    ri[i] = 7;
    mn[i] = -5;
    minus2[i] = -2.0f;
    nines[i] = 9.0f;
  }
  masked_scale(of, xf, mi, N);
  printf("masked_scale %08x\n", hash(of, sizeof of));
  memcpy(sf, xf, sizeof sf);
  clip(sf, xf, 3.5f, N);
  printf("clip %08x\n", hash(sf, sizeof sf));
  memcpy(ri, qi, sizeof ri);
  zero_negatives(ri, qi, N);
  printf("zero_negatives %08x\n", hash(ri, sizeof ri));
  mean(mn, si, ci, N);
  printf("mean %08x\n", hash(mn, sizeof mn));
  memcpy(sf, minus2, sizeof sf);
  smooth_inner(sf, xf, N);
  printf("smooth_inner %08x first %g last %g\n", hash(sf, sizeof sf), sf[0], sf[N - 1]);
  printf("relu_sum %.6f\n", relu_sum(xf, N));
  printf("positive_sum %ld\n", positive_sum(qi, N));
  memcpy(of, nines, sizeof of);
  select_scale(of, xf, mi, N);
  printf("select_scale %08x\n", hash(of, sizeof of));
  return 0;
}
