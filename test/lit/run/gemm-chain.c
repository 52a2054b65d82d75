// Chains of GEMMs through temporaries end to end on PoCL (PolyBench 2mm and
// 3mm at odd sizes 37 x 29 x 41 x 23 x 31): every product initialises its
// output before the loop k (`tmp = 0`, `D *= beta`), the offloaded build
// prints what the sequential build prints within the GEMM tolerance (the
// device may fuse what the host does not), and a 2mm whose D is also its
// tmp declines at run time (overlapping ranges) and runs the loop.
// RUN: %clang -O2 %s -o %t.seq
// RUN: %clang-idiom -g %s -lidiomrt -o %t.idiom
// RUN: %t.seq > %t.expected
// RUN: env IDIOM_MIN_TRIP=1 IDIOM_STATS=1 %t.idiom > %t.out 2> %t.stats
// RUN: python3 %S/Inputs/tolcompare.py %t.expected %t.out
// RUN: FileCheck %s --check-prefix=STATS < %t.stats
// RUN: env IDIOM_MIN_TRIP=1 IDIOM_DEVICE=seq %t.idiom > %t.seqout
// RUN: diff %t.expected %t.seqout
#include "Inputs/gemm_check.h"
#include <stdio.h>

#define NI 37
#define NJ 29
#define NK 41
#define NL 23
#define NM 31

static float a[NI * NK], b[NK * NJ], c[NJ * NM], d[NM * NL], c2[NJ * NL];
static float tmp[NI * NJ], d2[NI * NL], e[NI * NJ], f[NJ * NL], g[NI * NL];
static float sq[NI * NI], sq2[NI * NI], sqa[NI * NI], sqb[NI * NI];

__attribute__((noinline)) void mm2(int ni, int nj, int nk, int nl, float alpha,
                                   float beta, float *t, const float *pa,
                                   const float *pb, const float *pc, float *pd) {
  // STATS-DAG: idiom-stats: gemm-chain.c:[[@LINE+1]] gemm calls=2 offloaded=2 device=
  for (int i = 0; i < ni; i++)
    for (int j = 0; j < nj; j++) {
      t[i * nj + j] = 0.0f;
      for (int k = 0; k < nk; ++k)
        t[i * nj + j] += alpha * pa[i * nk + k] * pb[k * nj + j];
    }
  // STATS-DAG: idiom-stats: gemm-chain.c:[[@LINE+1]] gemm calls=2 offloaded=1 device="{{.+}}" {{.*}}fallbacks=1 {{.*}}reasons="overlapping input/output ranges
  for (int i = 0; i < ni; i++)
    for (int j = 0; j < nl; j++) {
      pd[i * nl + j] *= beta;
      for (int k = 0; k < nj; ++k)
        pd[i * nl + j] += t[i * nj + k] * pc[k * nl + j];
    }
}

__attribute__((noinline)) void mm3(int ni, int nj, int nk, int nl, int nm,
                                   float *pe, const float *pa, const float *pb,
                                   float *pf, const float *pc, const float *pd,
                                   float *pg) {
  // STATS-DAG: idiom-stats: gemm-chain.c:[[@LINE+1]] gemm calls=1 offloaded=1 device=
  for (int i = 0; i < ni; i++)
    for (int j = 0; j < nj; j++) {
      pe[i * nj + j] = 0.0f;
      for (int k = 0; k < nk; ++k)
        pe[i * nj + j] += pa[i * nk + k] * pb[k * nj + j];
    }
  // STATS-DAG: idiom-stats: gemm-chain.c:[[@LINE+1]] gemm calls=1 offloaded=1 device=
  for (int i = 0; i < nj; i++)
    for (int j = 0; j < nl; j++) {
      pf[i * nl + j] = 0.0f;
      for (int k = 0; k < nm; ++k)
        pf[i * nl + j] += pc[i * nm + k] * pd[k * nl + j];
    }
  // STATS-DAG: idiom-stats: gemm-chain.c:[[@LINE+1]] gemm calls=1 offloaded=1 device=
  for (int i = 0; i < ni; i++)
    for (int j = 0; j < nl; j++) {
      pg[i * nl + j] = 0.0f;
      for (int k = 0; k < nj; ++k)
        pg[i * nl + j] += pe[i * nj + k] * pf[k * nl + j];
    }
}

static void fill(float *x, int n, int salt) {
  for (int i = 0; i < n; i++)
    x[i] = val(i, salt);
}
int main(void) {
  fill(a, NI * NK, 1);
  fill(b, NK * NJ, 2);
  fill(c, NJ * NM, 3);
  fill(d, NM * NL, 4);
  fill(c2, NJ * NL, 5);
  fill(d2, NI * NL, 6);
  fill(tmp, NI * NJ, 7); // overwritten: the initialisation must happen
  fill(e, NI * NJ, 8);
  fill(f, NJ * NL, 9);
  fill(g, NI * NL, 10);
  // |tmp| <= 1.5 NK, |d2| <= 1.2 + 1.5 NK NJ.
  mm2(NI, NJ, NK, NL, 1.5f, 1.2f, tmp, a, b, c2, d2);
  print_f("tmp", tmp, NI * NJ, 1e-4 * 1.5 * NK);
  print_f("d", d2, NI * NL, 1e-4 * (1.5 * NK * NJ + 1.2));
  mm3(NI, NJ, NK, NL, NM, e, a, b, f, c, d, g);
  print_f("e", e, NI * NJ, 1e-4 * NK);
  print_f("f", f, NJ * NL, 1e-4 * NM);
  print_f("g", g, NI * NL, 1e-4 * NK * NM * NJ);
  // tmp is D (square NI x NI x NI): the second product reads elements of
  // its own output; the runtime sees the overlap and runs the loop. The
  // first product still runs on the device (fused), and the loop reads its
  // elements: each within 1e-4 NI, so D within 1e-4 NI (NI + 1).
  fill(sq, NI * NI, 11);
  fill(sq2, NI * NI, 12);
  fill(sqa, NI * NI, 13);
  fill(sqb, NI * NI, 14);
  mm2(NI, NI, NI, NI, 1.0f, 0.5f, sq, sqa, sqb, sq2, sq);
  print_f("alias", sq, NI * NI, 1e-4 * NI * (NI + 1));
  return 0;
}
