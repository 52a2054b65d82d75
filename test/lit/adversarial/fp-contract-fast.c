// A program built with -O2 -ffp-contract=fast -mfma prints what its
// sequential build prints. The host's back end fuses each fmul and fadd with
// the `contract` flag into one fma, which a kernel evaluating them apart
// would not mirror, so the maps and the histogram with such a pair are not
// offloaded (lift/fp-contract-fast.c checks the remarks) and run as the
// sequential build; the loop without an add of a product is still
// offloaded. The two float sums, whose only fusion is of the term's product
// into the accumulator's add, are offloaded under the reassociation
// licence: within the bound of a reordered sum (Inputs/sum_bound.py), not
// bit for bit. Without -mfma (x86-64 baseline) the back end cannot fuse:
// the same loops are offloaded and the maps print the sequential build's
// bits. The data make fused and unfused results differ, so the first
// comparison fails where the kernels would evaluate them apart (the code
// before this check).
// REQUIRES: host-fma
// RUN: %clang -O2 -ffp-contract=fast -mfma %s -o %t.fma.seq
// RUN: %clang-idiom -ffp-contract=fast -mfma %s -lidiomrt -o %t.fma.idiom
// RUN: %t.fma.seq > %t.fma.expected
// RUN: env IDIOM_MIN_TRIP=0 IDIOM_COST=off IDIOM_STATS=1 %t.fma.idiom > %t.fma.out 2> %t.fma.stats
// RUN: grep -v '^dot:\|^sumsq:' %t.fma.expected > %t.fma.expected.exact
// RUN: grep -v '^dot:\|^sumsq:' %t.fma.out > %t.fma.out.exact
// RUN: diff %t.fma.expected.exact %t.fma.out.exact
// RUN: python3 %S/Inputs/sum_bound.py %t.fma.expected %t.fma.out
// RUN: FileCheck %s --check-prefix=FMA < %t.fma.stats
// RUN: %clang -O2 -ffp-contract=fast %s -o %t.seq
// RUN: %clang-idiom -ffp-contract=fast %s -lidiomrt -o %t.idiom
// RUN: %t.seq > %t.expected
// RUN: env IDIOM_MIN_TRIP=0 IDIOM_COST=off IDIOM_STATS=1 %t.idiom > %t.out 2> %t.stats
// RUN: grep ' map: ' %t.expected > %t.expected.maps
// RUN: grep ' map: ' %t.out > %t.out.maps
// RUN: diff %t.expected.maps %t.out.maps
// RUN: python3 %S/Inputs/sum_bound.py %t.expected %t.out
// RUN: FileCheck %s --check-prefix=NOFMA < %t.stats
// The two sequential builds differ in every map and reduction line.
// RUN: not diff -u %t.expected %t.fma.expected > %t.differ
// RUN: FileCheck %s --check-prefix=DIFFER < %t.differ
#include "Inputs/hashf.h"
#include <stdio.h>

#define N 8192
static float a[N], b[N], c[N], o[N], s[N], hist[256], hw[N];
static double da[N], db[N];
static int bin[N];

__attribute__((noinline)) static void muladd(float *restrict out, const float *restrict x,
                                             const float *restrict y,
                                             const float *restrict z, int n) {
  for (int i = 0; i < n; i++)
    out[i] = x[i] * y[i] + z[i];
}

__attribute__((noinline)) static void stencil(float *restrict out, const float *restrict x,
                                              int n) {
  for (int i = 1; i < n - 1; i++)
    out[i] = 0.3f * x[i - 1] + 0.4f * x[i] + 0.3f * x[i + 1];
}

__attribute__((noinline)) static void product(float *restrict out, const float *restrict x,
                                              const float *restrict y, int n) {
  for (int i = 0; i < n; i++)
    out[i] = x[i] * y[i];
}

__attribute__((noinline)) static double dot(const double *x, const double *y, int n) {
  double t = 0.0;
  for (int i = 0; i < n; i++)
    t += x[i] * y[i];
  return t;
}

__attribute__((noinline)) static float sumsq(const float *x, int n) {
  float t = 0.0f;
  for (int i = 0; i < n; i++)
    t += x[i] * x[i];
  return t;
}

__attribute__((noinline)) static void histo(float *restrict h, const int *restrict k,
                                            const float *restrict w,
                                            const float *restrict v,
                                            const float *restrict z, int n) {
  for (int i = 0; i < n; i++)
    h[k[i] & 255] += w[i] * v[i] + z[i];
}

int main(void) {
  for (int i = 0; i < N; i++) {
    a[i] = 1.0f + (float)(i % 97) * 0x1p-13f;
    b[i] = 1.0f + (float)(i % 89) * 0x1p-13f;
    c[i] = -a[i] * b[i] * (i % 3 ? 1.0f : 0.5f);
    da[i] = 1.0 + (double)(i % 97) * 0x1p-29;
    db[i] = (i % 2 ? 1.0 : -1.0) * (1.0 - (double)(i % 83) * 0x1p-29);
    bin[i] = (i * 37) % 251;
  }
  muladd(o, a, b, c, N);
  printf("muladd map: %08x %a %a\n", hashf(o, N), o[5], o[N - 1]);
  stencil(s, a, N);
  printf("stencil map: %08x %a %a\n", hashf(s, N), s[5], s[N - 2]);
  product(hw, a, b, N);
  printf("product map: %08x %a\n", hashf(hw, N), hw[N - 1]);
  printf("dot: %a\n", dot(da, db, N));
  printf("sumsq: %a\n", sumsq(a, N));
  histo(hist, bin, a, b, c, N);
  printf("histogram: %08x %a\n", hashf(hist, 256), hist[7]);
  return 0;
}
// The loop without an add of a product and the two sums run on the device.
// FMA-NOT: {{(muladd|stencil|histo) }}
// FMA-DAG: idiom-stats: fp-contract-fast.c:product map calls=1 offloaded=1
// FMA-DAG: idiom-stats: fp-contract-fast.c:dot scalar-reduction calls=1 offloaded=1
// FMA-DAG: idiom-stats: fp-contract-fast.c:sumsq scalar-reduction calls=1 offloaded=1
// FMA-NOT: {{(muladd|stencil|histo) }}
// NOFMA-DAG: idiom-stats: fp-contract-fast.c:muladd map calls=1 offloaded=1
// NOFMA-DAG: idiom-stats: fp-contract-fast.c:stencil map calls=1 offloaded=1
// NOFMA-DAG: idiom-stats: fp-contract-fast.c:product map calls=1 offloaded=1
// NOFMA-DAG: idiom-stats: fp-contract-fast.c:dot scalar-reduction calls=1 offloaded=1
// NOFMA-DAG: idiom-stats: fp-contract-fast.c:sumsq scalar-reduction calls=1 offloaded=1
// NOFMA-DAG: idiom-stats: fp-contract-fast.c:histo histogram calls=1 offloaded=1
// DIFFER-DAG: {{^}}-muladd map:
// DIFFER-DAG: {{^}}-stencil map:
// DIFFER-DAG: {{^}}-dot:
// DIFFER-DAG: {{^}}-sumsq:
// DIFFER-DAG: {{^}}-histogram:
