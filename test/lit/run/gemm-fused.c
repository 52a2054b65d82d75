// GEMMs under the floating-point licence end to end on PoCL (docs/ARCHITECTURE.md,
// "Floating point"): clang's default -ffp-contract=on writes the update as
// llvm.fmuladd, which this host (x86-64 without -mfma) rounds twice; the
// device evaluates it fused. Every offloaded GEMM element must be, bit for
// bit, the loop's expression evaluated with fmaf/fma in the loop's k order
// (computed here on the host), and within the stated bound of the sequential
// element, |d| <= 2 gamma(K+3) T, T = |alpha| sum |a_k||b_k| + |beta||c| (the
// magnitudes of the element's terms; gamma(k) = k u / (1 - k u)). The data
// make the fused and unfused results differ, so the fused comparison fails
// unless the device fuses. A GEMV keeps the host's unfused evaluation (bit
// for bit). With -idiom-fp-reassoc=false every GEMM prints the sequential
// build's bits.
// RUN: %clang -O2 %s -lm -o %t.seq
// RUN: %clang-idiom -g %s -lidiomrt -lm -o %t.idiom
// RUN: %clang-idiom -fplugin=%plugin -g -mllvm -idiom-fp-reassoc=false %s -lidiomrt -lm -o %t.exact
// RUN: %t.seq > %t.expected
// RUN: env IDIOM_COST=off IDIOM_MIN_TRIP=1 IDIOM_STATS=1 %t.idiom > %t.out 2> %t.stats
// RUN: python3 %S/Inputs/fusedcheck.py %t.expected %t.out
// RUN: FileCheck %s --check-prefix=STATS < %t.stats
// Another tiled variant of every GEMM: the same bits. (The GEMV's variant 3
// is a vector-load row-lanes variant that reassociates under the licence,
// run/gemv-variants.c checks it within its bound: skipped here.)
// RUN: env IDIOM_COST=off IDIOM_MIN_TRIP=1 IDIOM_VARIANT=3 IDIOM_STATS=1 %t.idiom > %t.v3 2> %t.v3stats
// RUN: python3 %S/Inputs/fusedcheck.py --skip gemv %t.expected %t.v3
// RUN: FileCheck %s --check-prefix=STATS < %t.v3stats
// RUN: env IDIOM_COST=off IDIOM_MIN_TRIP=1 IDIOM_STATS=1 %t.exact > %t.exactout 2> %t.exactstats
// RUN: diff %t.expected %t.exactout
// RUN: FileCheck %s --check-prefix=STATS < %t.exactstats
// The checker refuses outputs that do not follow the bound or the fused
// reference: the sequential output against itself has no fused elements.
// RUN: not python3 %S/Inputs/fusedcheck.py %t.expected %t.expected
#include <math.h>
#include <stdio.h>

#define M 37
#define N 29
#define K 41

static float a[M * K], b[K * N], c[M * N], ref[M * N], tri[M * M], triref[M * M];
static float x[K], y[M];
static double A2[M][K], B2[K][N], C2[M][N], ref2[M][N];

/// The LCG's next value in [-1, 1) with all 24 bits of a float used, so that
/// products round.
static unsigned lcg = 2463534242u;
static float next(void) {
  lcg = lcg * 1103515245u + 12345u;
  return (float)((lcg >> 7) & 0xffffff) / 8388608.0f - 1.0f;
}

__attribute__((noinline)) void gemm(int m, int n, int k, float alpha, const float *pa,
                                    const float *pb, float beta, float *pc) {
  // STATS-DAG: idiom-stats: gemm-fused.c:[[@LINE+1]] gemm calls=1 offloaded=1
  for (int i = 0; i < m; i++)
    for (int j = 0; j < n; j++) {
      float s = 0;
      for (int p = 0; p < k; p++)
        s += pa[i * k + p] * pb[p * n + j];
      pc[i * n + j] = alpha * s + beta * pc[i * n + j];
    }
}

// PolyBench 2mm's first product: the output zeroed, then += alpha * A * B.
__attribute__((noinline)) void chain(int m, int n, int k, float alpha, const float *pa,
                                     const float *pb, float *pt) {
  // STATS-DAG: idiom-stats: gemm-fused.c:[[@LINE+1]] gemm calls=1 offloaded=1
  for (int i = 0; i < m; i++)
    for (int j = 0; j < n; j++) {
      pt[i * n + j] = 0.0f;
      for (int p = 0; p < k; p++)
        pt[i * n + j] += alpha * pa[i * k + p] * pb[p * n + j];
    }
}

// SYRK over the lower triangle (a triangular GEMM).
__attribute__((noinline)) void syrk(int n, int k, float alpha, float beta, const float *pa,
                                    float *pc) {
  // STATS-DAG: idiom-stats: gemm-fused.c:[[@LINE+1]] gemm-triangle calls=1 offloaded=1
  for (int i = 0; i < n; i++)
    for (int j = 0; j <= i; j++) {
      float s = 0;
      for (int p = 0; p < k; p++)
        s += pa[i * k + p] * pa[j * k + p];
      pc[i * n + j] = alpha * s + beta * pc[i * n + j];
    }
}

// Double, i-k-j in place on 2-D arrays.
__attribute__((noinline)) void dgemm(double alpha) {
  // STATS-DAG: idiom-stats: gemm-fused.c:[[@LINE+1]] gemm calls=1 offloaded=1
  for (int i = 0; i < M; i++)
    for (int p = 0; p < K; p++)
      for (int j = 0; j < N; j++)
        C2[i][j] += alpha * A2[i][p] * B2[p][j];
}

// A GEMV: not fused (memory-bound), the sequential bits.
__attribute__((noinline)) void gemv(int m, int n, const float *pa, const float *px,
                                    float *py) {
  // STATS-DAG: idiom-stats: gemm-fused.c:[[@LINE+1]] gemv calls=1 offloaded=1
  for (int i = 0; i < m; i++) {
    float s = 0;
    for (int j = 0; j < n; j++)
      s += pa[i * n + j] * px[j];
    py[i] = s;
  }
}

static double gamma_(int n, double u) { return n * u / (1 - n * u); }

/// One element of a fused GEMM: the value, the host's fused reference and
/// the bound of |value - sequential value|.
static void print_fused(const char *name, int i, double v, double r, double t, double g) {
  printf("F %s %d %a %a %.17g\n", name, i, v, r, 2 * g * t);
}

int main(void) {
  const float alpha = 1.5f, beta = -0.75f;
  for (int i = 0; i < M * K; i++)
    a[i] = next();
  for (int i = 0; i < K * N; i++)
    b[i] = next();
  for (int i = 0; i < M * N; i++)
    c[i] = next();
  for (int i = 0; i < M * M; i++)
    tri[i] = next();
  for (int i = 0; i < K; i++)
    x[i] = next();
  for (int i = 0; i < M; i++)
    for (int p = 0; p < K; p++)
      A2[i][p] = next() + next() * 0x1p-24;
  for (int p = 0; p < K; p++)
    for (int j = 0; j < N; j++)
      B2[p][j] = next() + next() * 0x1p-24;
  for (int i = 0; i < M; i++)
    for (int j = 0; j < N; j++)
      C2[i][j] = next();

  // The references first (fmaf/fma: correctly rounded in libm), and the
  // magnitudes T; then the products under test.
  double uf = 0x1p-24, ud = 0x1p-53, gf = gamma_(K + 3, uf), gd = gamma_(K + 3, ud);
  static double tg[M * N], tc[M * N], tt[M * M], td[M][N];
  for (int i = 0; i < M; i++)
    for (int j = 0; j < N; j++) {
      float s = 0, t = 0;
      double mag = 0, magt = 0;
      for (int p = 0; p < K; p++) {
        s = fmaf(a[i * K + p], b[p * N + j], s);
        t = fmaf(alpha * a[i * K + p], b[p * N + j], t);
        mag += fabs((double)a[i * K + p] * b[p * N + j]);
        magt += fabs((double)(alpha * a[i * K + p]) * b[p * N + j]);
      }
      ref[i * N + j] = fmaf(alpha, s, beta * c[i * N + j]);
      tg[i * N + j] = fabs(alpha) * mag + fabs(beta * c[i * N + j]);
      tc[i * N + j] = t;
      tt[i * N + j] = magt;
    }
  gemm(M, N, K, alpha, a, b, beta, c);
  for (int i = 0; i < M * N; i++)
    print_fused("gemm", i, c[i], ref[i], tg[i], gf);

  chain(M, N, K, alpha, a, b, c);
  for (int i = 0; i < M * N; i++)
    print_fused("chain", i, c[i], tc[i], tt[i], gf);

  static double ttri[M * M];
  for (int i = 0; i < M; i++)
    for (int j = 0; j < M; j++) {
      float s = 0;
      double mag = 0;
      for (int p = 0; p < K; p++) {
        s = fmaf(a[i * K + p], a[j * K + p], s);
        mag += fabs((double)a[i * K + p] * a[j * K + p]);
      }
      triref[i * M + j] = j <= i ? fmaf(alpha, s, beta * tri[i * M + j]) : tri[i * M + j];
      ttri[i * M + j] = fabs(alpha) * mag + fabs(beta * tri[i * M + j]);
    }
  syrk(M, K, alpha, beta, a, tri);
  for (int i = 0; i < M * M; i++)
    print_fused("syrk", i, tri[i], triref[i], ttri[i], gf);

  for (int i = 0; i < M; i++)
    for (int j = 0; j < N; j++) {
      double s = C2[i][j], mag = fabs(C2[i][j]);
      for (int p = 0; p < K; p++) {
        s = fma(0.625 * A2[i][p], B2[p][j], s);
        mag += fabs(0.625 * A2[i][p] * B2[p][j]);
      }
      ref2[i][j] = s;
      td[i][j] = mag;
    }
  dgemm(0.625);
  for (int i = 0; i < M; i++)
    for (int j = 0; j < N; j++)
      print_fused("dgemm", i * N + j, C2[i][j], ref2[i][j], td[i][j], gd);

  gemv(M, K, a, x, y);
  for (int i = 0; i < M; i++)
    printf("X gemv %d %a\n", i, y[i]);
  return 0;
}
