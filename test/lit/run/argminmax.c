// argmin/argmax end to end on PoCL: a (value, index) reduction whose combine
// breaks ties as the loop does (first index for < and >, last for <= and
// >=), over 1<<20 elements with the extreme repeated at many positions, so
// that the device's parallel order differs from the loop's. Floats with NaN
// elements and a NaN start value print what the sequential build prints.
// IDIOM_COST=off: every call is offloaded, as the checks (STATS-DAG above
// each function) expect.
// RUN: %clang -O2 %s -o %t.seq
// RUN: %clang-idiom -g %s -lidiomrt -Rpass=idiom-offload -o %t.idiom 2> %t.remarks
// RUN: FileCheck %s --check-prefix=REMARK < %t.remarks
// RUN: %t.seq > %t.expected
// RUN: env IDIOM_COST=off IDIOM_DEVICE=cpu IDIOM_STATS=1 IDIOM_CACHE_DIR=off %t.idiom > %t.out 2> %t.stats
// RUN: diff %t.expected %t.out
// RUN: FileCheck %s --check-prefix=STATS < %t.stats
// Variant 1 (every descriptor has it: vector loads, partial pairs per lane):
// RUN: env IDIOM_COST=off IDIOM_DEVICE=cpu IDIOM_VARIANT=1 IDIOM_CACHE_DIR=off %t.idiom > %t.v1
// RUN: diff %t.expected %t.v1
// RUN: env IDIOM_DEVICE=seq %t.idiom > %t.seqout
// RUN: diff %t.expected %t.seqout
#include <math.h>
#include <stdio.h>

#define N (1 << 20)
static int ia[N];
static unsigned ua[N];
static float fa[N];
static double da[N];

// STATS-DAG: idiom-stats: argminmax.c:[[@LINE+4]] scalar-reduction calls=2 offloaded=2 device=
// REMARK-DAG: argminmax.c:[[@LINE+3]]:3: remark: offloaded scalar reduction (scalar-reduction) to OpenCL as {{.*}} with 2 accumulator(s): argindex-first smin
__attribute__((noinline)) static int argmin_first(const int *a, int n, int *v) {
  int best = a[0], k = 0;
  for (int i = 1; i < n; i++)
    if (a[i] < best) {
      best = a[i];
      k = i;
    }
  *v = best;
  return k;
}

// STATS-DAG: idiom-stats: argminmax.c:[[@LINE+4]] scalar-reduction calls=1 offloaded=1 device=
// REMARK-DAG: argminmax.c:[[@LINE+3]]:3: remark: offloaded scalar reduction (scalar-reduction) to OpenCL as {{.*}} with 2 accumulator(s): argindex-last smax
__attribute__((noinline)) static int argmax_last(const int *a, int n, int *v) {
  int best = a[0], k = 0;
  for (int i = 1; i < n; i++)
    if (a[i] >= best) {
      best = a[i];
      k = i;
    }
  *v = best;
  return k;
}

// STATS-DAG: idiom-stats: argminmax.c:[[@LINE+4]] scalar-reduction calls=1 offloaded=1 device=
// REMARK-DAG: argminmax.c:[[@LINE+3]]:3: remark: offloaded scalar reduction (scalar-reduction) to OpenCL as {{.*}} with 2 accumulator(s): argindex-last smin
__attribute__((noinline)) static int argmin_last(const int *a, int n, int *v) {
  int best = a[0], k = 0;
  for (int i = 1; i < n; i++)
    if (a[i] <= best) {
      best = a[i];
      k = i;
    }
  *v = best;
  return k;
}

// STATS-DAG: idiom-stats: argminmax.c:[[@LINE+5]] scalar-reduction calls=1 offloaded=1 device=
// REMARK-DAG: argminmax.c:[[@LINE+4]]:3: remark: offloaded scalar reduction (scalar-reduction) to OpenCL as {{.*}} with 2 accumulator(s): argindex-first umax
__attribute__((noinline)) static int argmax_unsigned(const unsigned *a, int n, unsigned *v) {
  unsigned best = 0;
  int k = -1;
  for (int i = 0; i < n; i++)
    if (a[i] > best) {
      best = a[i];
      k = i;
    }
  *v = best;
  return k;
}

// STATS-DAG: idiom-stats: argminmax.c:[[@LINE+5]] scalar-reduction calls=4 offloaded=4 device=
// REMARK-DAG: argminmax.c:[[@LINE+4]]:3: remark: offloaded scalar reduction (scalar-reduction) to OpenCL as {{.*}} with 2 accumulator(s): argindex-first fmin
__attribute__((noinline)) static int fargmin(const float *a, int n, float *v) {
  float best = a[0];
  int k = 0;
  for (int i = 1; i < n; i++)
    if (a[i] < best) {
      best = a[i];
      k = i;
    }
  *v = best;
  return k;
}

// STATS-DAG: idiom-stats: argminmax.c:[[@LINE+5]] scalar-reduction calls=3 offloaded=3 device=
// REMARK-DAG: argminmax.c:[[@LINE+4]]:3: remark: offloaded scalar reduction (scalar-reduction) to OpenCL as {{.*}} with 2 accumulator(s): argindex-last fmax
__attribute__((noinline)) static long dargmax_last(const double *a, long n, double *v) {
  double best = a[0];
  long k = 0;
  for (long i = 1; i < n; i++)
    if (a[i] >= best) {
      best = a[i];
      k = i;
    }
  *v = best;
  return k;
}

int main(void) {
  // Integers: the minimum 3 and the maximum 1003 each at about 1000
  // positions, none of them at position 0.
  for (int i = 0; i < N; i++) {
    ia[i] = 3 + (int)(((i + 500u) * 7919u) % 1001u);
    ua[i] = (i * 2654435761u) % 100000u;
  }
  int v, k;
  unsigned uv;
  k = argmin_first(ia, N, &v);
  printf("argmin first: %d at %d\n", v, k);
  k = argmax_last(ia, N, &v);
  printf("argmax last: %d at %d\n", v, k);
  k = argmin_last(ia, N, &v);
  printf("argmin last: %d at %d\n", v, k);
  k = argmax_unsigned(ua, N, &uv);
  printf("argmax unsigned: %u at %d\n", uv, k);
  k = argmin_first(ia + 5, N - 5, &v);
  printf("argmin first, shifted: %d at %d\n", v, k);
  k = argmin_first(ia, 1, &v);
  printf("argmin first, one element: %d at %d\n", v, k);

  // Floats: repeated minimum -2.5, NaNs sprinkled in (never chosen), a
  // NaN at position 0 (nothing replaces it), -0.0 and +0.0 ties (the loop's
  // choice of sign), infinities only.
  for (int i = 0; i < N; i++) {
    fa[i] = (float)(((i + 500u) * 7919u) % 1001u) * 0.25f - 2.5f;
    da[i] = (double)((i * 104729u) % 3001u) * 0.5;
  }
  for (int i = 17; i < N; i += 4099)
    fa[i] = NAN;
  float fv;
  double dv;
  k = fargmin(fa, N, &fv);
  printf("fargmin: %a at %d\n", fv, k);
  fa[0] = NAN;
  k = fargmin(fa, N, &fv);
  printf("fargmin, NaN first: %f at %d\n", fv, k);
  fa[0] = 1.0f;
  fa[1] = NAN;
  for (int i = 2; i < N; i++)
    fa[i] = (i % 3) ? 0.0f : -0.0f;
  k = fargmin(fa, N, &fv);
  printf("fargmin, zeros: %a at %d\n", fv, k);
  for (int i = 0; i < N; i++)
    fa[i] = (i % 5 == 1) ? NAN : INFINITY;
  k = fargmin(fa, N, &fv);
  printf("fargmin, inf and NaN: %f at %d\n", fv, k);
  long lk = dargmax_last(da, N, &dv);
  printf("dargmax last: %a at %ld\n", dv, lk);
  for (int i = 1; i < N; i += 3)
    da[i] = NAN;
  lk = dargmax_last(da, N, &dv);
  printf("dargmax last, NaNs: %a at %ld\n", dv, lk);
  da[0] = NAN;
  lk = dargmax_last(da, N, &dv);
  printf("dargmax last, NaN first: %f at %ld\n", dv, lk);
  return 0;
}

// Every call runs on the device (argmin_first with one element has no
// iteration and does not call). The zeros and the infinities then rerun the
// loop on the host: which zero or which position comes first depends on the
// order.
