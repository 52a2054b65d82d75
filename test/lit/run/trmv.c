// Triangular matrix-vector products (the TRMV family, issue 13; spec
// triangular-dot, `lifts trmv`) end to end on PoCL: lower (`j <= i`, `j <
// i`, `j <= 2 i`) and upper (`j >= i`, `j > i`, `j >= 2 i` with y = a s +
// y) triangles, through a sum and in place into y (`y[i] += ...`), double
// and float, 2-D arrays and a flat one with a run-time leading dimension,
// a row count read from memory in every iteration, rows running down
// (lower, and upper with long indices), each on n = 0, 1, 2, 7
// (odd) and 61 (odd, a rectangle of 61 x 61 around the triangle of a 64 x
// 64 array),
// with every variant forced in turn (IDIOM_VARIANT; IDIOM_COST=off offloads
// every call). Each output is the loop's sum in the loop's order (docs/
// FunIL.md, "TRMV programs"): the program prints every element's bits, and
// the plugin build prints what the sequential build prints. y aliasing x
// (`trmv_lower(n, L, v, v)`: row i reads the x[j], j < i, that rows before
// it overwrote) is declined at run time by the overlap check and runs the
// original loop (fallbacks=4: n = 1, 2, 7, 61; at n = 0 the nest's guard
// skips the call), with the sequential result. IDIOM_DEVICE=seq runs every
// original loop.
// RUN: %clang -O2 %s -o %t.seq
// RUN: %clang-idiom -g %s -lidiomrt -Rpass=idiom-offload -Rpass-missed=idiom-offload -o %t.idiom 2> %t.remarks
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
// RUN: env IDIOM_DEVICE=seq %t.idiom > %t.seqout
// RUN: diff %t.expected %t.seqout
// Contraction as the host's: with -march=native (FMA where the machine has
// it) the host fuses the loop's llvm.fmuladd and so does the kernel
// (HostFloat.h), bit for bit. With -ffp-contract=fast too, the host's
// back end fuses the loop's fmul and fadd where the machine has FMA: the
// lifter refuses those (SliceExprRules::RefuseHostContraction; on a machine
// without FMA they are offloaded unfused), and the output is the
// sequential build's either way.
// RUN: %clang -O2 -march=native %s -o %t.seq-fma
// RUN: %clang-idiom %s -march=native -lidiomrt -o %t.idiom-fma
// RUN: %t.seq-fma > %t.expected-fma
// RUN: env IDIOM_COST=off IDIOM_MIN_TRIP=1 IDIOM_DEVICE=cpu %t.idiom-fma > %t.fma
// RUN: diff %t.expected-fma %t.fma
// RUN: %clang -O2 -march=native -ffp-contract=fast %s -o %t.seq-fast
// RUN: %clang-idiom %s -march=native -ffp-contract=fast -lidiomrt -o %t.idiom-fast
// RUN: %t.seq-fast > %t.expected-fast
// RUN: env IDIOM_COST=off IDIOM_MIN_TRIP=1 IDIOM_DEVICE=cpu %t.idiom-fast > %t.fast
// RUN: diff %t.expected-fast %t.fast
#include <stdio.h>

#define NM 64
static double Ld[NM][NM], xd[NM], yd[NM], vd[NM];
static float Lf[NM][NM], xf[NM], yf[NM];

// REMARK-DAG: trmv.c:[[@LINE+4]]:3: remark: offloaded TRMV (triangular-dot) to OpenCL
// STATS-DAG: idiom-stats: trmv.c:[[@LINE+3]] triangular-dot calls=8 offloaded=4 {{.*}}fallbacks=4 {{.*}}variant [[K]] tuned=forced
__attribute__((noinline)) void trmv_lower(int n, double L[NM][NM],
                                          const double *x, double *y) {
  for (int i = 0; i < n; i++) {
    double s = 0;
    for (int j = 0; j <= i; j++)
      s += L[i][j] * x[j];
    y[i] = s;
  }
}

// REMARK-DAG: trmv.c:[[@LINE+3]]:3: remark: offloaded TRMV (triangular-dot) to OpenCL
// STATS-DAG: idiom-stats: trmv.c:[[@LINE+2]] triangular-dot calls=4 offloaded=4 {{.*}}fallbacks=0 {{.*}}variant [[K]] tuned=forced
__attribute__((noinline)) void trmv_strict_lower(int n, float L[NM][NM], const float *x, float *y) {
  for (int i = 0; i < n; i++) {
    float s = 0;
    for (int j = 0; j < i; j++)
      s += L[i][j] * x[j];
    y[i] = s;
  }
}

// REMARK-DAG: trmv.c:[[@LINE+3]]:3: remark: offloaded TRMV (triangular-dot) to OpenCL
// STATS-DAG: idiom-stats: trmv.c:[[@LINE+2]] triangular-dot calls=4 offloaded=4 {{.*}}fallbacks=0 {{.*}}variant [[K]] tuned=forced
__attribute__((noinline)) void trmv_upper(int n, double U[NM][NM], const double *x, double *y) {
  for (int i = 0; i < n; i++) {
    double s = 0;
    for (int j = i; j < n; j++)
      s += U[i][j] * x[j];
    y[i] = s;
  }
}

// REMARK-DAG: trmv.c:[[@LINE+3]]:3: remark: offloaded TRMV (triangular-dot) to OpenCL
// STATS-DAG: idiom-stats: trmv.c:[[@LINE+2]] triangular-dot calls=4 offloaded=4 {{.*}}fallbacks=0 {{.*}}variant [[K]] tuned=forced
__attribute__((noinline)) void trmv_strict_upper(int n, float U[NM][NM], const float *x, float *y) {
  for (int i = 0; i < n; i++) {
    float s = 0;
    for (int j = i + 1; j < n; j++)
      s += U[i][j] * x[j];
    y[i] = s;
  }
}

// In place into y: y[i] += sum, from y's old value.
// REMARK-DAG: trmv.c:[[@LINE+3]]:3: remark: offloaded TRMV (triangular-dot) to OpenCL
// STATS-DAG: idiom-stats: trmv.c:[[@LINE+2]] triangular-dot calls=4 offloaded=4 {{.*}}fallbacks=0 {{.*}}variant [[K]] tuned=forced
__attribute__((noinline)) void trmv_lower_acc(int n, double L[NM][NM], const double *x, double *y) {
  for (int i = 0; i < n; i++)
    for (int j = 0; j <= i; j++)
      y[i] += L[i][j] * x[j];
}

// REMARK-DAG: trmv.c:[[@LINE+3]]:3: remark: offloaded TRMV (triangular-dot) to OpenCL
// STATS-DAG: idiom-stats: trmv.c:[[@LINE+2]] triangular-dot calls=4 offloaded=4 {{.*}}fallbacks=0 {{.*}}variant [[K]] tuned=forced
__attribute__((noinline)) void trmv_upper_acc(int n, float U[NM][NM], const float *x, float *y) {
  for (int i = 0; i < n; i++)
    for (int j = i + 1; j < n; j++)
      y[i] += U[i][j] * x[j];
}

// A slope of two rows per row (`j <= 2 i`: the mask x.2 < 1 + 2 q.2) and a
// band that starts two columns further per row (`j >= 2 i`: x.2 < 2 q.2).
// REMARK-DAG: trmv.c:[[@LINE+3]]:3: remark: offloaded TRMV (triangular-dot) to OpenCL
// STATS-DAG: idiom-stats: trmv.c:[[@LINE+2]] triangular-dot calls=4 offloaded=4 {{.*}}fallbacks=0 {{.*}}variant [[K]] tuned=forced
__attribute__((noinline)) void trmv_slope2(int n, float L[NM][NM], const float *x, float *y) {
  for (int i = 0; i < n; i++) {
    float s = 0;
    for (int j = 0; j <= 2 * i; j++)
      s += L[i][j] * x[j];
    y[i] = s;
  }
}

// REMARK-DAG: trmv.c:[[@LINE+3]]:3: remark: offloaded TRMV (triangular-dot) to OpenCL
// STATS-DAG: idiom-stats: trmv.c:[[@LINE+2]] triangular-dot calls=4 offloaded=4 {{.*}}fallbacks=0 {{.*}}variant [[K]] tuned=forced
__attribute__((noinline)) void trmv_lead2(int n, double a, double U[NM][NM], const double *x, double *y) {
  for (int i = 0; i < n; i++) {
    double s = 0;
    for (int j = 2 * i; j < n; j++)
      s += U[i][j] * x[j];
    y[i] = a * s + y[i];
  }
}

// A flat matrix with a run-time leading dimension (`L[i * ld + j]`): its
// sign is tested before the call; ld = n and ld = n + 3.
// REMARK-DAG: trmv.c:[[@LINE+3]]:3: remark: offloaded TRMV (triangular-dot) to OpenCL
// STATS-DAG: idiom-stats: trmv.c:[[@LINE+2]] triangular-dot calls=8 offloaded=8 {{.*}}fallbacks=0 {{.*}}variant [[K]] tuned=forced
__attribute__((noinline)) void trmv_flat(int n, int ld, const double *L, const double *x, double *y) {
  for (int i = 0; i < n; i++) {
    double s = 0;
    for (int j = 0; j <= i; j++)
      s += L[i * ld + j] * x[j];
    y[i] = s;
  }
}

// The row count read from memory in every iteration (`i < *np`: y may
// alias it): offloaded through the copy with the bound read once behind a
// run-time check (BoundVersioning.h).
// REMARK-DAG: trmv.c:[[@LINE+3]]:3: remark: offloaded TRMV (triangular-dot) to OpenCL
// STATS-DAG: idiom-stats: trmv.c:[[@LINE+2]] triangular-dot calls=4 offloaded=4 {{.*}}fallbacks=0 {{.*}}variant [[K]] tuned=forced
__attribute__((noinline)) void trmv_bound_mem(const int *np, double L[NM][NM], const double *x, double *y) {
  for (int i = 0; i < *np; i++) {
    double s = 0;
    for (int j = 0; j <= i; j++)
      s += L[i][j] * x[j];
    y[i] = s;
  }
}

// Rows that run down (NestInfo::RowsReversed): the same programs.
// REMARK-DAG: trmv.c:[[@LINE+3]]:3: remark: offloaded TRMV (triangular-dot) to OpenCL
// STATS-DAG: idiom-stats: trmv.c:[[@LINE+2]] triangular-dot calls=4 offloaded=4 {{.*}}fallbacks=0 {{.*}}variant [[K]] tuned=forced
__attribute__((noinline)) void trmv_lower_down(int n, double L[NM][NM], const double *x, double *y) {
  for (int i = n - 1; i >= 0; i--) {
    double s = 0;
    for (int j = 0; j <= i; j++)
      s += L[i][j] * x[j];
    y[i] = s;
  }
}

// An upper triangle whose rows run down, long indices (with int ones the
// count zext(n - i) is not affine for the spec's IndependentIterations).
// REMARK-DAG: trmv.c:[[@LINE+3]]:3: remark: offloaded TRMV (triangular-dot) to OpenCL
// STATS-DAG: idiom-stats: trmv.c:[[@LINE+2]] triangular-dot calls=4 offloaded=4 {{.*}}fallbacks=0 {{.*}}variant [[K]] tuned=forced
__attribute__((noinline)) void trmv_upper_down(long n, float a, float U[NM][NM], const float *x, float *y) {
  for (long i = n - 1; i >= 0; i--) {
    float s = 0;
    for (long j = i + 1; j < n; j++)
      s += U[i][j] * x[j];
    y[i] = a * s + y[i];
  }
}

static void printd(const char *what, int n, const double *y) {
  printf("%s %d:", what, n);
  for (int i = 0; i < n; i++)
    printf(" %a", y[i]);
  printf("\n");
}

static void printf32(const char *what, int n, const float *y) {
  printf("%s %d:", what, n);
  for (int i = 0; i < n; i++)
    printf(" %a", (double)y[i]);
  printf("\n");
}

int main(void) {
  for (int i = 0; i < NM; i++) {
    for (int j = 0; j < NM; j++) {
      Ld[i][j] = (double)((i * 37 + j * 11) % 29) / 7.0 - 2.0;
      Lf[i][j] = (float)((i * 13 + j * 31) % 23) / 3.0f - 3.5f;
    }
    xd[i] = 1.0 / (i + 3);
    xf[i] = (float)(i % 9) / 7.0f - 0.5f;
  }
  static const int Sizes[] = {0, 1, 2, 7, 61};
  for (int s = 0; s < 5; s++) {
    int n = Sizes[s];
    for (int i = 0; i < NM; i++) {
      yd[i] = -1.0;
      yf[i] = -1.0f;
    }
    trmv_lower(n, Ld, xd, yd);
    printd("lower", n, yd);
    trmv_strict_lower(n, Lf, xf, yf);
    printf32("strict-lower", n, yf);
    trmv_upper(n, Ld, xd, yd);
    printd("upper", n, yd);
    trmv_strict_upper(n, Lf, xf, yf);
    printf32("strict-upper", n, yf);
    trmv_lower_acc(n, Ld, xd, yd);
    printd("lower-acc", n, yd);
    trmv_upper_acc(n, Lf, xf, yf);
    printf32("upper-acc", n, yf);
    trmv_slope2((n + 1) / 2, Lf, xf, yf);
    printf32("slope2", (n + 1) / 2, yf);
    trmv_lead2(n, 0.75, Ld, xd, yd);
    printd("lead2", n, yd);
    trmv_flat(n, n, &Ld[0][0], xd, yd);
    printd("flat", n, yd);
    trmv_flat(n, n + 3, &Ld[0][0], xd, yd);
    printd("flat-ld", n, yd);
    trmv_bound_mem(&n, Ld, xd, yd);
    printd("bound-mem", n, yd);
    trmv_lower_down(n, Ld, xd, yd);
    printd("lower-down", n, yd);
    trmv_upper_down(n, 0.5f, Lf, xf, yf);
    printf32("upper-down", n, yf);
    // y is x: rows read what earlier rows wrote.
    for (int i = 0; i < NM; i++)
      vd[i] = xd[i];
    trmv_lower(n, Ld, vd, vd);
    printd("lower-alias", n, vd);
  }
  return 0;
}
