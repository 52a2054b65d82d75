// The GEMV and GEMV^T variants end to end on PoCL (docs/Rewrite.md, "Row
// lanes of a GEMV"): each of the 8 variants forced in turn (IDIOM_VARIANT;
// IDIOM_COST=off offloads every call) on m x n matrices of 1 x 1, 3 x 3,
// 1000 x 77, 77 x 1000 and 2100 x 12 (no work-group size divides 77 or
// 1000 outputs).
// Variants 0 and 1 sum in the loop's order; 2 and 3 are, for a row-major
// y = A x, row lanes of 32 and 64 work-items per output reading 4 elements
// a step with vector loads (n = 77: a ragged last chunk, and rows not
// aligned to 16 bytes, element by element), for the transposed in-place
// s[j] += A[i][j] r[i], 2 split-K with 32 work-items per output adding
// partial sums with float atomics (m = 1, 3, 77: slices with no rows;
// 1000: not a multiple of the slices) and 3-4 the split-K tiles (128 and
// 256 slices, 4 outputs per work-item: n = 1000, a row stride of a
// multiple of 4, takes the vector loads with a ragged last tile; n = 77
// and 3 the scalar tail; 2100 x 12, 2100 rows, runs their unrolled
// loops, 8 rows of 128 slices and 4 of 256 a step); 4-7 are row lanes for y = A x, 32, 64, 128 or
// 256 work-items per output (a row's lanes are neighbouring work-items),
// 5-7 for s = A^T r, 16, 32 or 64 work-items per output with 32, 32, 16
// outputs per work-group in neighbouring work-items.
// (Integer GEMVs, whose lanes are exact, are not lifted: GEMV programs are
// float or double; test/lit/funil/gemv-lanes.funil runs an i32 one in the
// interpreter.) The same two loops in double, with double4 loads and
// 64-bit compare-and-swap. The program compares every element with
// a reference computed by an optnone copy of the loop in double (long
// double for the double loops; which the
// plugin does not see) within the bound of a reassociated sum of L = n + 1
// terms (the initial value counted), 2 gamma(L + 1) sum |t| + 2u |ref|, and
// prints "ok"; the sequential build prints the same.
// RUN: %clang -O2 %s -o %t.seq
// RUN: %clang-idiom -g %s -lidiomrt -Rpass=idiom-offload -Rpass-analysis=idiom-offload -o %t.idiom 2> %t.remarks
// RUN: FileCheck %s --check-prefix=REMARK < %t.remarks
// RUN: %t.seq > %t.expected
// RUN: env IDIOM_COST=off IDIOM_MIN_TRIP=1 IDIOM_DEVICE=cpu IDIOM_VARIANT=0 IDIOM_STATS=1 %t.idiom > %t.v0 2> %t.s0
// RUN: diff %t.expected %t.v0
// RUN: FileCheck %s --check-prefix=STATS -DK=0 < %t.s0
// RUN: env IDIOM_COST=off IDIOM_MIN_TRIP=1 IDIOM_DEVICE=cpu IDIOM_VARIANT=1 IDIOM_STATS=1 %t.idiom > %t.v1 2> %t.s1
// RUN: diff %t.expected %t.v1
// RUN: FileCheck %s --check-prefix=STATS -DK=1 < %t.s1
// RUN: env IDIOM_COST=off IDIOM_MIN_TRIP=1 IDIOM_DEVICE=cpu IDIOM_VARIANT=2 IDIOM_STATS=1 %t.idiom > %t.v2 2> %t.s2
// RUN: diff %t.expected %t.v2
// RUN: FileCheck %s --check-prefix=STATS -DK=2 < %t.s2
// RUN: env IDIOM_COST=off IDIOM_MIN_TRIP=1 IDIOM_DEVICE=cpu IDIOM_VARIANT=3 IDIOM_STATS=1 %t.idiom > %t.v3 2> %t.s3
// RUN: diff %t.expected %t.v3
// RUN: FileCheck %s --check-prefix=STATS -DK=3 < %t.s3
// RUN: env IDIOM_COST=off IDIOM_MIN_TRIP=1 IDIOM_DEVICE=cpu IDIOM_VARIANT=4 IDIOM_STATS=1 %t.idiom > %t.v4 2> %t.s4
// RUN: diff %t.expected %t.v4
// RUN: FileCheck %s --check-prefix=STATS -DK=4 < %t.s4
// RUN: env IDIOM_COST=off IDIOM_MIN_TRIP=1 IDIOM_DEVICE=cpu IDIOM_VARIANT=5 IDIOM_STATS=1 %t.idiom > %t.v5 2> %t.s5
// RUN: diff %t.expected %t.v5
// RUN: FileCheck %s --check-prefix=STATS -DK=5 < %t.s5
// RUN: env IDIOM_COST=off IDIOM_MIN_TRIP=1 IDIOM_DEVICE=cpu IDIOM_VARIANT=6 IDIOM_STATS=1 %t.idiom > %t.v6 2> %t.s6
// RUN: diff %t.expected %t.v6
// RUN: FileCheck %s --check-prefix=STATS -DK=6 < %t.s6
// RUN: env IDIOM_COST=off IDIOM_MIN_TRIP=1 IDIOM_DEVICE=cpu IDIOM_VARIANT=7 IDIOM_STATS=1 %t.idiom > %t.v7 2> %t.s7
// RUN: diff %t.expected %t.v7
// RUN: FileCheck %s --check-prefix=STATS -DK=7 < %t.s7
// With -idiom-fp-reassoc=false the float GEMVs get only variants that sum
// each output in the loop's order (the 7 of test/lit/run/gemv.c): every
// variant prints the sequential bits (argument "bits": every result in
// hex too), and the sources have no row lanes.
// RUN: %clang-idiom -fplugin=%plugin %s -lidiomrt -mllvm -idiom-fp-reassoc=false -Rpass=idiom-offload -Rpass-analysis=idiom-offload -o %t.exact 2> %t.exact-remarks
// RUN: not grep "floating-point row sums" %t.exact-remarks
// RUN: %t.seq bits > %t.bits
// RUN: env IDIOM_COST=off IDIOM_MIN_TRIP=1 IDIOM_DEVICE=cpu IDIOM_VARIANT=0 %t.exact bits > %t.e0
// RUN: diff %t.bits %t.e0
// RUN: env IDIOM_COST=off IDIOM_MIN_TRIP=1 IDIOM_DEVICE=cpu IDIOM_VARIANT=6 %t.exact bits > %t.e6
// RUN: diff %t.bits %t.e6
// RUN: %clang-idiom -fplugin=%plugin %s -S -emit-llvm -mllvm -idiom-fp-reassoc=false -o - | FileCheck %s --check-prefix=EXACT-IR
// RUN: %clang-idiom %s -S -emit-llvm -o %t.ll
// RUN: FileCheck %s --check-prefix=IR < %t.ll
// RUN: FileCheck %s --check-prefix=SPLITK < %t.ll
// RUN: FileCheck %s --check-prefix=SHAPES < %t.ll
#include <math.h>
#include <stdio.h>
#include <string.h>

#define MAXE 77000

#define MAXV 2100
static float fa[MAXE], fx[MAXV], fy[MAXV], fs[MAXV], fyr[MAXV], fsr[MAXV];
static double da[MAXE], dx[MAXV], dy[MAXV], ds[MAXV], dyr[MAXV], dsr[MAXV];

static unsigned long long seed = 7;
static unsigned next(void) {
  seed = seed * 6364136223846793005ULL + 1442695040888963407ULL;
  return (unsigned)(seed >> 33);
}

// REMARK-DAG: gemv-variants.c:[[@LINE+4]]:3: remark: offloaded GEMV (gemv) to OpenCL as
// REMARK-DAG: gemv-variants.c:[[@LINE+3]]:3: remark: floating-point row sums may be reassociated by parallel evaluation
// STATS-DAG: idiom-stats: gemv-variants.c:[[@LINE+2]] gemv calls=5 offloaded=5 device={{.*}} variants=8 {{.*}}variant [[K]] tuned=forced
__attribute__((noinline)) void gemv_f(int m, int n, const float *a, const float *x, float *y) {
  for (int i = 0; i < m; i++) {
    float sum = 0;
    for (int j = 0; j < n; j++)
      sum += a[i * n + j] * x[j];
    y[i] = sum;
  }
}

// REMARK-DAG: gemv-variants.c:[[@LINE+4]]:3: remark: offloaded GEMV (gemv) to OpenCL as
// REMARK-DAG: gemv-variants.c:[[@LINE+3]]:3: remark: floating-point row sums may be reassociated by parallel evaluation
// STATS-DAG: idiom-stats: gemv-variants.c:[[@LINE+2]] gemv calls=5 offloaded=5 device={{.*}} variants=8 {{.*}}variant [[K]] tuned=forced
__attribute__((noinline)) void gemvt_f(int m, int n, const float *a, const float *r, float *s) {
  for (int i = 0; i < m; i++)
    for (int j = 0; j < n; j++)
      s[j] += a[i * n + j] * r[i];
}

// The same in double (double4 loads, 32-byte aligned; 64-bit
// compare-and-swap for split-K).
// STATS-DAG: idiom-stats: gemv-variants.c:[[@LINE+2]] gemv calls=5 offloaded=5 device={{.*}} variants=8 {{.*}}variant [[K]] tuned=forced
__attribute__((noinline)) void gemv_d(int m, int n, const double *a, const double *x, double *y) {
  for (int i = 0; i < m; i++) {
    double sum = 0;
    for (int j = 0; j < n; j++)
      sum += a[i * n + j] * x[j];
    y[i] = sum;
  }
}

// STATS-DAG: idiom-stats: gemv-variants.c:[[@LINE+2]] gemv calls=5 offloaded=5 device={{.*}} variants=8 {{.*}}variant [[K]] tuned=forced
__attribute__((noinline)) void gemvt_d(int m, int n, const double *a, const double *r, double *s) {
  for (int i = 0; i < m; i++)
    for (int j = 0; j < n; j++)
      s[j] += a[i * n + j] * r[i];
}

// Lanes in the sources: 6 per GEMV with the licence (y = A x: 2 with
// vector loads, 4 without; s = A^T r: 2 split-K, 4 row lanes), none
// without it.
// IR-COUNT-4: 4-element vector loads
// IR-NOT: 4-element vector loads
// SPLITK-COUNT-6: split-K
// SPLITK-NOT: split-K
// SHAPES-DAG: @idiom_gemv_f_{{.*}}ept=1/32: {{[^\]*}}vector loads{{.*}}ept=1/64: {{[^\]*}}vector loads{{.*}}ept=1/32:{{.*}}ept=1/64:{{.*}}ept=1/128:{{.*}}ept=1/256:
// SHAPES-DAG: @idiom_gemvt_f_{{.*}}ept=1/32: {{[^\]*}}split-K{{.*}}ept=1/32: {{[^\]*}}split-K tiles: 128 slices{{.*}}float4{{.*}}ept=1/64: {{[^\]*}}split-K tiles: 256 slices{{.*}}ept=1/16:{{.*}}ept=1/32:{{.*}}ept=1/64:
// SHAPES-DAG: @idiom_gemv_d_{{.*}}double4{{.*}}ept=1/64: {{[^\]*}}vector loads
// SHAPES-DAG: @idiom_gemvt_d_{{.*}}split-K{{.*}}atom_cmpxchg{{.*}}split-K tiles{{.*}}double4{{.*}}atom_cmpxchg
// EXACT-IR: ept=16x1:
// EXACT-IR-NOT: ept=1/{{[0-9]+}}:

// References in double: the plugin does not run on optnone functions.
__attribute__((noinline, optnone)) static void reference(int m, int n) {
  for (int i = 0; i < m; i++) {
    double t = 0;
    for (int j = 0; j < n; j++)
      t += (double)fa[i * n + j] * fx[j];
    fyr[i] = (float)t;
  }
  for (int j = 0; j < n; j++) {
    double t = fsr[j];
    for (int i = 0; i < m; i++)
      t += (double)fa[i * n + j] * fx[i];
    fsr[j] = (float)t;
  }
  for (int i = 0; i < m; i++) {
    long double t = 0;
    for (int j = 0; j < n; j++)
      t += (long double)da[i * n + j] * dx[j];
    dyr[i] = (double)t;
  }
  for (int j = 0; j < n; j++) {
    long double t = dsr[j];
    for (int i = 0; i < m; i++)
      t += (long double)da[i * n + j] * dx[i];
    dsr[j] = (double)t;
  }
}

/// Element k of a float (dbl = 0) or double array.
static double elem(const void *p, int dbl, int k) {
  return dbl ? ((const double *)p)[k] : ((const float *)p)[k];
}

/// |got - want| within 2 gamma(L + 1) sum |t| + 2u |want| for the L terms
/// t of each output (the initial value one of them); u the unit roundoff
/// of float or (dbl) double.
static int within(int dbl, const void *got, const void *want, const void *init, int outs,
                  int len, int stride, int step, int transposed) {
  const double u = dbl ? 0x1p-53 : 0x1p-24;
  const void *a = dbl ? (const void *)da : (const void *)fa;
  const void *x = dbl ? (const void *)dx : (const void *)fx;
  for (int o = 0; o < outs; o++) {
    double abs_sum = init ? fabs(elem(init, dbl, o)) : 0;
    for (int k = 0; k < len; k++)
      abs_sum += fabs(elem(a, dbl, o * stride + k * step) * elem(x, dbl, k));
    double g = (len + 2) * u / (1 - (len + 2) * u), w = elem(want, dbl, o);
    if (!(fabs(elem(got, dbl, o) - w) <= 2 * g * abs_sum + 2 * u * fabs(w))) {
      printf("%s %s output %d: %a vs %a\n", dbl ? "double" : "float",
             transposed ? "GEMV^T" : "GEMV", o, elem(got, dbl, o), w);
      return 0;
    }
  }
  return 1;
}

int main(int argc, char **argv) {
  static const int sizes[][2] = {{1, 1}, {3, 3}, {1000, 77}, {77, 1000}, {2100, 12}};
  for (int c = 0; c < 5; c++) {
    int m = sizes[c][0], n = sizes[c][1];
    for (int k = 0; k < m * n; k++) {
      fa[k] = (float)((int)(next() % 2001) - 1000) / 256.0f;
    }
    for (int k = 0; k < MAXV; k++) {
      fx[k] = (float)((int)(next() % 4001) - 2000) / 64.0f;
      fs[k] = fsr[k] = (float)((int)(next() % 100)) / 8.0f;
    }
    for (int k = 0; k < m * n; k++)
      da[k] = (double)fa[k] + (double)((int)(next() % 2001) - 1000) * 0x1p-40;
    for (int k = 0; k < MAXV; k++) {
      dx[k] = (double)fx[k] + (double)((int)(next() % 2001) - 1000) * 0x1p-40;
      ds[k] = dsr[k] = fs[k];
    }
    float s0[MAXV];
    double d0[MAXV];
    memcpy(s0, fs, sizeof s0);
    memcpy(d0, ds, sizeof d0);
    gemv_f(m, n, fa, fx, fy);
    gemvt_f(m, n, fa, fx, fs);
    gemv_d(m, n, da, dx, dy);
    gemvt_d(m, n, da, dx, ds);
    reference(m, n);
    printf("%d x %d: float GEMV %s, GEMV^T %s; double GEMV %s, GEMV^T %s\n", m, n,
           within(0, fy, fyr, 0, m, n, n, 1, 0) ? "ok" : "beyond the bound",
           within(0, fs, fsr, s0, n, m, 1, n, 1) ? "ok" : "beyond the bound",
           within(1, dy, dyr, 0, m, n, n, 1, 0) ? "ok" : "beyond the bound",
           within(1, ds, dsr, d0, n, m, 1, n, 1) ? "ok" : "beyond the bound");
    for (int k = 0; argc > 1 && !strcmp(argv[1], "bits") && k < m + n; k++)
      printf("  %a %a\n", k < m ? fy[k] : fs[k - m], k < m ? dy[k] : ds[k - m]);
  }
  return 0;
}
