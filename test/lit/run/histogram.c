// Histograms end to end on PoCL: the offloaded build prints what the
// sequential build prints (integer bins are exact; the float bins take
// values that are exact in any order), IDIOM_STATS shows the histograms ran
// on the device, with tuning over the variants (global atomics and
// per-work-group local bins) on first use, and IDIOM_DEVICE=seq falls back.
// IDIOM_COST=off: every call is offloaded, as the checks expect.
// RUN: %clang -O2 %s -o %t.seq
// RUN: %clang-idiom -g %s -lidiomrt -Rpass=idiom-offload -Rpass-analysis=idiom-offload -o %t.idiom 2> %t.remarks
// RUN: FileCheck %s --check-prefix=REMARK < %t.remarks
// RUN: %t.seq > %t.expected
// RUN: env IDIOM_COST=off IDIOM_STATS=1 IDIOM_TUNE_MIN=0 IDIOM_CACHE_DIR=off %t.idiom > %t.out 2> %t.stats
// RUN: diff %t.expected %t.out
// RUN: FileCheck %s --check-prefix=STATS < %t.stats
// RUN: env IDIOM_DEVICE=seq %t.idiom > %t.seqout
// RUN: diff %t.expected %t.seqout
#include <stdio.h>

#define N (1 << 18)
static unsigned char img[N];
static unsigned key[N];
static int value[N];
static float weight[N];

static int counts[256];       // bins from the array type
static unsigned char sat[256]; // Parboil histo: saturating u8
static long wide[64];          // 64-bit bins: atom_add
static int lowest[1024];       // min per bin, index & 1023
static float fsum[16];         // float bins (reassociated: values exact)

// REMARK-DAG: histogram.c:[[@LINE+2]]:3: remark: offloaded histogram (histogram) to OpenCL as {{.*}} with operator add
static void count_bytes(const unsigned char *x, int n) {
  for (int i = 0; i < n; i++)
    counts[x[i]]++;
}

// REMARK-DAG: histogram.c:[[@LINE+2]]:3: remark: offloaded histogram (histogram) to OpenCL as {{.*}} with operator uadd.sat
static void saturating(const unsigned char *x, int n) {
  for (int i = 0; i < n; i++)
    if (sat[x[i]] < 255)
      sat[x[i]]++;
}

// REMARK-DAG: histogram.c:[[@LINE+2]]:3: remark: offloaded histogram (histogram) to OpenCL as {{.*}} with operator add
static void wide_sums(const unsigned *k, const int *v, int n) {
  for (int i = 0; i < n; i++)
    wide[k[i] % 64] += (long)v[i] * 1000003L;
}

// REMARK-DAG: histogram.c:[[@LINE+2]]:3: remark: offloaded histogram (histogram) to OpenCL as {{.*}} with operator smin
static void minimum(const unsigned *k, const int *v, int n) {
  for (int i = 0; i < n; i++) {
    int b = k[i] & 1023;
    if (v[i] < lowest[b])
      lowest[b] = v[i];
  }
}

// REMARK-DAG: histogram.c:[[@LINE+3]]:3: remark: offloaded histogram (histogram) to OpenCL as {{.*}} with operator fadd
// REMARK-DAG: histogram.c:[[@LINE+2]]:3: remark: floating-point histogram is reassociated by parallel evaluation
static void float_bins(const unsigned char *x, const float *w, int n) {
  for (int i = 0; i < n; i++)
    fsum[x[i] & 15] += w[i];
}

int main(void) {
  unsigned s = 12345;
  for (int i = 0; i < N; i++) {
    s = s * 1103515245u + 12345u;
    img[i] = (unsigned char)(s >> 16) % 200; // bins 200..255 stay empty
    key[i] = s >> 3;
    value[i] = (int)(s % 100001u) - 50000;
    weight[i] = (float)(s % 7) * 0.25f; // quarters: sums exact in float
  }
  for (int b = 0; b < 1024; b++)
    lowest[b] = 1 << 30;
  sat[3] = 250;
  counts[7] = -5;
  count_bytes(img, N);
  saturating(img, N);
  wide_sums(key, value, N);
  minimum(key, value, N);
  float_bins(img, weight, N);
  long c = 0, sc = 0, w = 0, l = 0;
  for (int b = 0; b < 256; b++)
    c += (long)counts[b] * (b + 1), sc += (long)sat[b] * (b + 1);
  for (int b = 0; b < 64; b++)
    w ^= wide[b] + b;
  for (int b = 0; b < 1024; b++)
    l += (long)lowest[b] * (b % 13);
  printf("counts %ld [0]=%d [7]=%d [199]=%d [200]=%d\n", c, counts[0], counts[7], counts[199], counts[200]);
  printf("sat %ld [3]=%d [10]=%d [255]=%d\n", sc, sat[3], sat[10], sat[255]);
  printf("wide %ld [5]=%ld\n", w, wide[5]);
  printf("lowest %ld [17]=%d\n", l, lowest[17]);
  for (int b = 0; b < 16; b++)
    printf("fsum[%d] = %.2f\n", b, fsum[b]);
  return 0;
}

// STATS: idiom-stats: histogram.c:{{[0-9]+}} histogram calls=1 offloaded=1 device="{{.*}}"{{.*}}variants=5
// STATS: idiom-stats: histogram.c:{{[0-9]+}} histogram calls=1 offloaded=1
// STATS: idiom-stats: histogram.c:{{[0-9]+}} histogram calls=1 offloaded=1
// STATS: idiom-stats: histogram.c:{{[0-9]+}} histogram calls=1 offloaded=1
// STATS: idiom-stats: histogram.c:{{[0-9]+}} histogram calls=1 offloaded=1
