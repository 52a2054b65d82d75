// Outer-loop accumulations (issue 13) end to end on PoCL at odd sizes: the
// nest `for k: for x: Q[x] += f(k, x)` runs as one map over x of a
// sequential reduction over k (calls=1 per nest, where the inner map alone
// was launched once per k). With -idiom-fp-reassoc=false (no row-lanes
// variants) each element is summed in k's order, so the float and int
// results are the sequential build's bits (compared with diff, floats in
// hex). The mri-q shape (cosf, sinf, two accumulators Qr and
// Qi, the calls kept as errno-setting libm calls) needs -idiom-approx-libm
// (OpenCL's cos and sin are within 4 ulp of the host's): compared with
// compare.py at the tolerance stated below. A second mri-q run with an
// infinite kx makes cosf and sinf set errno on the host: the errno check
// sends that nest to the original loop, which sets errno as the sequential
// build does. Q overlapping an input (the runtime's overlap check) runs the
// original nest too.
// RUN: %clang -O2 %s -lm -o %t.seq
// RUN: %clang-idiom -g -fplugin=%plugin -mllvm -idiom-approx-libm -mllvm -idiom-fp-reassoc=false %s -lm -lidiomrt -Rpass=idiom-offload -Rpass-analysis=idiom-offload -Rpass-missed=idiom-offload -o %t.idiom 2> %t.remarks
// RUN: FileCheck %s --check-prefix=REMARK < %t.remarks
// RUN: %t.seq > %t.expected
// RUN: env IDIOM_COST=off IDIOM_MIN_TRIP=0 IDIOM_STATS=1 %t.idiom > %t.out 2> %t.stats
// RUN: python3 %srcroot/nas-parboil/compare.py %t.expected %t.out --src %s
// RUN: grep -v '^mriq' %t.expected > %t.exact.expected
// RUN: grep -v '^mriq' %t.out > %t.exact.out
// RUN: diff %t.exact.expected %t.exact.out
// RUN: FileCheck %s --check-prefix=STATS < %t.stats
// RUN: env IDIOM_COST=off IDIOM_MIN_TRIP=0 IDIOM_DEVICE=seq %t.idiom > %t.seqout
// RUN: diff %t.expected %t.seqout
// # tol mriq.* 1e-5
#include <errno.h>
#include <math.h>
#include <stdio.h>

#define K 37
#define NX 1029

static float a[K], b[NX], Q[NX];
static int ia[K], ib[NX], iQ[NX];
static float kx[K], ky[K], kz[K], phi[K], x[NX], y[NX], z[NX], Qr[NX], Qi[NX];

// REMARK-DAG: outer-accumulation.c:[[@LINE+4]]:3: remark: offloaded outer-loop accumulation (outer-accumulation)
// STATS-DAG: idiom-stats: outer-accumulation.c:[[@LINE+3]] outer-accumulation calls=2 offloaded=1
__attribute__((noinline)) static void plain(int nk, int nx, const float *pa,
                                            const float *pb, float *q) {
  for (int k = 0; k < nk; k++)
    for (int i = 0; i < nx; i++)
      q[i] += pa[k] * pb[i];
}

// REMARK-DAG: outer-accumulation.c:[[@LINE+4]]:3: remark: offloaded outer-loop accumulation (outer-accumulation)
// STATS-DAG: idiom-stats: outer-accumulation.c:[[@LINE+3]] outer-accumulation calls=1 offloaded=1
__attribute__((noinline)) static void ints(int nk, int nx, const int *pa,
                                           const int *pb, int *q) {
  for (int k = 0; k < nk; k++)
    for (int i = 0; i < nx; i++)
      q[i] += pa[k] * pb[i] - (pa[k] ^ pb[i]);
}

// Parboil mri-q's ComputeQ (CPU reference).
// REMARK-DAG: outer-accumulation.c:[[@LINE+5]]:3: remark: offloaded outer-loop accumulation (outer-accumulation)
// REMARK-DAG: outer-accumulation.c:[[@LINE+4]]:3: remark: calls cosf, sinf, which may set errno
// STATS-DAG: idiom-stats: outer-accumulation.c:[[@LINE+3]] outer-accumulation calls=2 offloaded=1
__attribute__((noinline)) static void computeQ(int numK, int numX) {
  const float PIx2 = 6.2831853071795864769252867665590058f;
  for (int k = 0; k < numK; k++)
    for (int i = 0; i < numX; i++) {
      float expArg = PIx2 * (kx[k] * x[i] + ky[k] * y[i] + kz[k] * z[i]);
      Qr[i] += phi[k] * cosf(expArg);
      Qi[i] += phi[k] * sinf(expArg);
    }
}

int main(void) {
  unsigned s = 12345;
#define RND() ((s = s * 1103515245u + 12345u) >> 8 & 0xffff)
  for (int k = 0; k < K; k++) {
    a[k] = RND() / 65536.0f - 0.5f;
    ia[k] = (int)RND() - 30000;
    kx[k] = RND() / 65536.0f - 0.5f;
    ky[k] = RND() / 65536.0f - 0.5f;
    kz[k] = RND() / 65536.0f - 0.5f;
    phi[k] = RND() / 65536.0f;
  }
  for (int i = 0; i < NX; i++) {
    b[i] = RND() / 65536.0f * 3.0f;
    Q[i] = RND() / 65536.0f;
    ib[i] = (int)RND() - 1000;
    iQ[i] = (int)RND();
    x[i] = RND() / 65536.0f * 4.0f - 2.0f;
    y[i] = RND() / 65536.0f * 4.0f - 2.0f;
    z[i] = RND() / 65536.0f * 4.0f - 2.0f;
  }
  plain(K, NX, a, b, Q);
  // Q overlaps the input: the runtime's overlap check declines the call.
  plain(K, NX - 8, Q + 8, b, Q);
  ints(K, NX, ia, ib, iQ);
  computeQ(K, NX);
  printf("n %d\n", K);
  double sr = 0, si = 0;
  for (int i = 0; i < NX; i++) {
    printf("plain %a\n", Q[i]);
    printf("ints %d\n", iQ[i]);
    sr += Qr[i];
    si += Qi[i];
  }
  printf("mriq.sum.f32 %.10e %.10e\n", sr, si);
  for (int i = 0; i < NX; i += 97)
    printf("mriq.sample.f32 %.10e %.10e\n", Qr[i], Qi[i]);
  // An infinite argument: cosf and sinf set errno (EDOM) on the host.
  kx[3] = INFINITY;
  errno = 0;
  computeQ(K, NX);
  printf("errno %d\n", errno);
  return 0;
}
