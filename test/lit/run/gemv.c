// GEMV and transposed GEMV end to end on PoCL at odd sizes (67 x 45): each
// element of y is summed in the loop's order, so the offloaded build prints
// the sequential build's bits (compared with diff, every value in hex).
// Shapes: row form y = A x (flat), y = alpha A x + beta y on 2-D double
// arrays, the transposed in-place form s[j] += A[i][j] * r[i] on a VLA
// (PolyBench bicg), PolyBench atax (tmp = A x; y = A^T tmp, y zeroed by a
// map first), BLAS strides (x[j*incx], y[i*incy]), GSL's cblas loop with
// its own counters and negative increments. Fallbacks, where the
// original loop runs and the output is the same: incy = 0 (the run-time
// condition that y repeats no element fails), y equal to x and y inside A
// (the runtime's overlap check). Every variant gives the same bits (the
// tiled ones are forced once each).
// RUN: %clang -O2 %s -o %t.seq
// RUN: %clang-idiom -g %s -lidiomrt -o %t.idiom
// RUN: %clang-idiom -g -ffp-contract=off %s -lidiomrt -o %t.off
// RUN: %clang -O2 -ffp-contract=off %s -o %t.seqoff
// RUN: %t.seq > %t.expected
// RUN: env IDIOM_MIN_TRIP=1 IDIOM_STATS=1 %t.idiom > %t.out 2> %t.stats
// RUN: diff %t.expected %t.out
// RUN: FileCheck %s --check-prefix=STATS < %t.stats
// RUN: %t.seqoff > %t.expectedoff
// RUN: env IDIOM_MIN_TRIP=1 %t.off > %t.offout
// RUN: diff %t.expectedoff %t.offout
// A host that fuses llvm.fmuladd (-mfma): the lift writes fma, the device
// fuses too, and the bits are again the sequential build's.
// RUN: %clang -O2 -mfma %s -o %t.seqfma
// RUN: %clang-idiom -mfma %s -lidiomrt -o %t.fma
// RUN: %t.seqfma > %t.expectedfma
// RUN: env IDIOM_MIN_TRIP=1 %t.fma > %t.fmaout
// RUN: diff %t.expectedfma %t.fmaout
// RUN: env IDIOM_MIN_TRIP=1 IDIOM_DEVICE=seq %t.idiom > %t.seqout
// RUN: diff %t.expected %t.seqout
// The in-order variants other than 0, forced: under the reassociation
// licence (the default) variant 1 (work-group 128 for y = A x, 16 outputs
// per work-item for the transposed form, the 1 x 128 tiles where the
// strides are run-time values), before the reassociating ones (vector-load
// lanes, split-K, row lanes: test/lit/run/gemv-variants.c); with
// -idiom-fp-reassoc=false every variant sums in order, the tiles are 4, 5
// and 6.
// RUN: env IDIOM_MIN_TRIP=1 IDIOM_VARIANT=1 IDIOM_STATS=1 %t.idiom > %t.v1 2> %t.v1stats
// RUN: diff %t.expected %t.v1
// RUN: FileCheck %s --check-prefix=TILED -DK=1 < %t.v1stats
// RUN: %clang-idiom -fplugin=%plugin -g %s -lidiomrt -mllvm -idiom-fp-reassoc=false -o %t.exact
// RUN: env IDIOM_MIN_TRIP=1 IDIOM_VARIANT=4 IDIOM_STATS=1 %t.exact > %t.v4 2> %t.v4stats
// RUN: diff %t.expected %t.v4
// RUN: FileCheck %s --check-prefix=TILED -DK=4 < %t.v4stats
// RUN: env IDIOM_MIN_TRIP=1 IDIOM_VARIANT=5 %t.exact > %t.v5
// RUN: diff %t.expected %t.v5
// TILED: idiom-stats: gemv.c:{{[0-9]+}} gemv calls=1 offloaded=1 {{.*}}tuning="class {{[0-9]+}}: variant [[K]] tuned=forced"
#include <stdio.h>
#include <string.h>

#define M 67
#define N 45

// Row form: a map over rows of a sequential sum over j.
__attribute__((noinline)) void gemv_rows(int m, int n, const float *a,
                                         const float *x, float *y) {
  // STATS-DAG: idiom-stats: gemv.c:[[@LINE+1]] gemv calls=3 offloaded=1 device="{{.+}}" {{.*}}fallbacks=2 {{.*}}reasons="overlapping input/output ranges
  for (int i = 0; i < m; i++) {
    float sum = 0;
    for (int j = 0; j < n; j++)
      sum += a[i * n + j] * x[j];
    y[i] = sum;
  }
}

double GA[M][N], GX[N], GY[M];
// y = alpha*A*x + beta*y on global 2-D arrays.
__attribute__((noinline)) void gemv_scaled(double alpha, double beta) {
  // STATS-DAG: idiom-stats: gemv.c:[[@LINE+1]] gemv calls=1 offloaded=1 device="{{.+}}" {{.*}}fallbacks=0
  for (int i = 0; i < M; i++) {
    double sum = 0;
    for (int j = 0; j < N; j++)
      sum += GA[i][j] * GX[j];
    GY[i] = alpha * sum + beta * GY[i];
  }
}

// Transposed, in place (bicg's s = A^T r): a map over columns j of a sum
// over i in i order, starting from the old s[j].
__attribute__((noinline)) void gemv_t(int m, int n, float A[m][n],
                                      const float *r, float *s) {
  // STATS-DAG: idiom-stats: gemv.c:[[@LINE+1]] gemv calls=1 offloaded=1 device="{{.+}}" {{.*}}fallbacks=0
  for (int i = 0; i < m; i++)
    for (int j = 0; j < n; j++)
      s[j] = s[j] + r[i] * A[i][j];
}

// PolyBench atax: y = A^T (A x), in double.
__attribute__((noinline)) void atax(int m, int n, double A[m][n],
                                    const double *x, double *y, double *tmp) {
  for (int i = 0; i < n; i++)
    y[i] = 0;
  // STATS-DAG: idiom-stats: gemv.c:[[@LINE+1]] gemv calls=1 offloaded=1 device="{{.+}}" {{.*}}fallbacks=0
  for (int i = 0; i < m; i++) {
    tmp[i] = 0.0;
    for (int j = 0; j < n; j++)
      tmp[i] = tmp[i] + A[i][j] * x[j];
  }
  // STATS-DAG: idiom-stats: gemv.c:[[@LINE+1]] gemv calls=1 offloaded=1 device="{{.+}}" {{.*}}fallbacks=0
  for (int i = 0; i < m; i++)
    for (int j = 0; j < n; j++)
      y[j] = y[j] + A[i][j] * tmp[i];
}

// BLAS-like strides; incy = 0 writes y[0] on every row: the run-time
// condition |incy| >= 1 fails and the original loop runs (no runtime call).
__attribute__((noinline)) void gemv_strided(int m, int n, float alpha,
                                            const float *a, int lda,
                                            const float *x, int incx, float *y,
                                            int incy) {
  // STATS-DAG: idiom-stats: gemv.c:[[@LINE+1]] gemv calls=1 offloaded=1 device="{{.+}}" {{.*}}fallbacks=0
  for (int i = 0; i < m; i++) {
    float sum = 0;
    for (int j = 0; j < n; j++)
      sum += a[i * lda + j] * x[j * incx];
    y[i * incy] = alpha * sum;
  }
}

// GSL's cblas gemv (source_gemv_r.h, y := alpha*A*x + y): counters ix and
// iy of their own, strides of either sign.
#define OFFSET(N, inc) ((inc) > 0 ? 0 : ((N) - 1) * (-(inc)))
__attribute__((noinline)) void cblas_gemv(int lenY, int lenX, double alpha,
                                          const double *A, int lda,
                                          const double *X, int incX, double *Y,
                                          int incY) {
  int iy = OFFSET(lenY, incY);
  // STATS-DAG: idiom-stats: gemv.c:[[@LINE+1]] gemv calls=5 offloaded=5 device="{{.+}}" {{.*}}fallbacks=0
  for (int i = 0; i < lenY; i++) {
    double temp = 0.0;
    int ix = OFFSET(lenX, incX);
    for (int j = 0; j < lenX; j++) {
      temp += X[ix] * A[lda * i + j];
      ix += incX;
    }
    Y[iy] += alpha * temp;
    iy += incY;
  }
}

static unsigned Seed = 12345;
static float rnd(void) {
  Seed = Seed * 1103515245u + 12345u;
  return (float)((Seed >> 8) & 0xffff) / 65536.0f * 2.0f - 0.9f;
}

static void printf32(const char *name, const float *v, int n) {
  for (int i = 0; i < n; i++)
    printf("%s %d %a\n", name, i, v[i]);
}
static void printf64(const char *name, const double *v, int n) {
  for (int i = 0; i < n; i++)
    printf("%s %d %a\n", name, i, v[i]);
}

static float A[M * N + 8], X[2 * N], Y[M + N], R[M], S[N];
static float VA[M][N];
static double DA[M][N], DX[N], DY[N], DT[M];

int main(void) {
  for (int i = 0; i < M * N + 8; i++)
    A[i] = rnd();
  for (int i = 0; i < 2 * N; i++)
    X[i] = rnd();
  gemv_rows(M, N, A, X, Y);
  printf32("rows", Y, M);
  // y is x (m = n): the loop reads elements it writes; declined.
  for (int i = 0; i < N; i++)
    Y[i] = X[i];
  gemv_rows(N, N, A, Y, Y);
  printf32("alias_x", Y, N);
  // y inside A: declined.
  gemv_rows(N, N, A + N * N, A, A + 8);
  printf32("alias_a", A, N + 8);

  for (int i = 0; i < M; i++) {
    GY[i] = rnd();
    for (int j = 0; j < N; j++)
      GA[i][j] = rnd() / 3.0;
  }
  for (int j = 0; j < N; j++)
    GX[j] = rnd() * 1.25;
  gemv_scaled(0.7, -1.3);
  printf64("scaled", GY, M);

  for (int i = 0; i < M; i++) {
    R[i] = rnd();
    for (int j = 0; j < N; j++)
      VA[i][j] = rnd();
  }
  for (int j = 0; j < N; j++)
    S[j] = rnd();
  gemv_t(M, N, VA, R, S);
  printf32("transposed", S, N);

  for (int i = 0; i < M; i++)
    for (int j = 0; j < N; j++)
      DA[i][j] = rnd() / 7.0;
  for (int j = 0; j < N; j++)
    DX[j] = rnd();
  atax(M, N, DA, DX, DY, DT);
  printf64("atax_tmp", DT, M);
  printf64("atax_y", DY, N);

  memset(Y, 0, sizeof(Y));
  gemv_strided(M, N / 2, 1.5f, A, N, X, 2, Y, 1);
  printf32("strided", Y, M);
  gemv_strided(M, N / 2, 1.5f, A, N, X, 2, Y, 0);
  printf32("incy0", Y, 2);

  static double CY[3 * M];
  static const int Incs[5][2] = {{1, 1}, {2, 3}, {-1, 1}, {1, -2}, {-3, -1}};
  for (int t = 0; t < 5; t++) {
    for (int k = 0; k < 3 * M; k++)
      CY[k] = k * 0.01;
    cblas_gemv(M, N / 3, -0.75, &DA[0][0], N, DX, Incs[t][0], CY, Incs[t][1]);
    printf64("cblas", CY, 3 * M);
  }
  return 0;
}
