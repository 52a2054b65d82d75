// Triangular products whose rows run down (issue 13; docs/FunIL.md, "TRMM
// programs", "TRMV programs": NestInfo::RowsReversed) end to end on PoCL:
// the lower TRMM in place (`for (i = m - 1; i > 0; i--) for (j) { for (k =
// 0; k < i; k++) B[i][j] += A[i][k] * B[k][j]; B[i][j] *= alpha; }`, row i
// reading the rows k < i that later iterations overwrite, so B is read
// from a snapshot) with run-time sizes (long indices, VLA pointers) and
// with constant ones (int indices, double, A transposed), and the lower
// and upper TRMVs with rows running down. Each element is the loop's sum
// in the loop's order: the program prints every element's bits and the
// plugin build prints what the sequential build prints, for every variant
// forced in turn (IDIOM_VARIANT) and tuned. Sizes m = 0, 1 (no call: the
// nest's guard), 2, 3, 37, 61 and n = 0, 1, 5, 53 (odd, no multiple of a
// work-group or tile), TRMV n = 0, 1, 2, 7, 61. A call whose A is B's own
// array (an IN buffer that is no snapshot) is declined by the overlap
// check and runs the loop.
// RUN: %clang -O2 %s -o %t.seq
// RUN: %clang-idiom -g %s -lidiomrt -Rpass=idiom-offload -Rpass-missed=idiom-offload -o %t.idiom 2> %t.remarks
// RUN: FileCheck %s --check-prefix=REMARK < %t.remarks
// RUN: %t.seq > %t.expected
// RUN: env IDIOM_COST=off IDIOM_MIN_TRIP=1 IDIOM_DEVICE=cpu IDIOM_STATS=1 %t.idiom > %t.out 2> %t.stats
// RUN: diff %t.expected %t.out
// RUN: FileCheck %s --check-prefix=STATS < %t.stats
// RUN: env IDIOM_COST=off IDIOM_DEVICE=seq %t.idiom > %t.seqout
// RUN: diff %t.expected %t.seqout
// RUN: env IDIOM_COST=off IDIOM_MIN_TRIP=1 IDIOM_DEVICE=cpu IDIOM_VARIANT=1 %t.idiom > %t.v1
// RUN: diff %t.expected %t.v1
// RUN: env IDIOM_COST=off IDIOM_MIN_TRIP=1 IDIOM_DEVICE=cpu IDIOM_VARIANT=2 %t.idiom > %t.v2
// RUN: diff %t.expected %t.v2
// RUN: env IDIOM_COST=off IDIOM_MIN_TRIP=1 IDIOM_DEVICE=cpu IDIOM_VARIANT=3 %t.idiom > %t.v3
// RUN: diff %t.expected %t.v3
// RUN: env IDIOM_COST=off IDIOM_MIN_TRIP=1 IDIOM_DEVICE=cpu IDIOM_VARIANT=4 %t.idiom > %t.v4
// RUN: diff %t.expected %t.v4
// RUN: env IDIOM_COST=off IDIOM_MIN_TRIP=1 IDIOM_DEVICE=cpu IDIOM_VARIANT=5 %t.idiom > %t.v5
// RUN: diff %t.expected %t.v5
// RUN: env IDIOM_COST=off IDIOM_MIN_TRIP=1 IDIOM_DEVICE=cpu IDIOM_TUNE_MIN=0 %t.idiom > %t.tuned
// RUN: diff %t.expected %t.tuned
#include <stdio.h>

#define MMAX 61
#define NMAX 53
#define MD 37
#define ND 29
#define NM 64

static float Af[MMAX * MMAX], Bf[MMAX * NMAX];
static double Ad[MD][MD], Bd[MD][ND];
static double Ld[NM][NM], xd[NM], yd[NM];
static float Lf[NM][NM], xf[NM], yf[NM];

// REMARK-DAG: triangular-down.c:[[@LINE+4]]:3: remark: offloaded TRMM (trmm) to OpenCL
// STATS-DAG: idiom-stats: triangular-down.c:[[@LINE+3]] trmm calls=13 offloaded=12 device={{.*}} fallbacks=1 {{.*}}reasons="overlapping input/output ranges" x1
__attribute__((noinline)) void trmm_lower(long m, long n, float alpha,
                                          float A[m][m], float B[m][n]) {
  for (long i = m - 1; i > 0; i--)
    for (long j = 0; j < n; j++) {
      for (long k = 0; k < i; k++)
        B[i][j] += A[i][k] * B[k][j];
      B[i][j] = alpha * B[i][j];
    }
}

// Transposed A, a sum into `B[i][j] += alpha * s`, constant sizes.
// REMARK-DAG: triangular-down.c:[[@LINE+3]]:3: remark: offloaded TRMM (trmm) to OpenCL
// STATS-DAG: idiom-stats: triangular-down.c:[[@LINE+2]] trmm calls=1 offloaded=1 device=
__attribute__((noinline)) void trmm_lower_t(double alpha) {
  for (int i = MD - 1; i >= 1; i--)
    for (int j = 0; j < ND; j++) {
      double s = 0;
      for (int k = 0; k < i; k++)
        s += Ad[k][i] * Bd[k][j];
      Bd[i][j] += alpha * s;
    }
}

// REMARK-DAG: triangular-down.c:[[@LINE+3]]:3: remark: offloaded TRMV (triangular-dot) to OpenCL
// STATS-DAG: idiom-stats: triangular-down.c:[[@LINE+2]] triangular-dot calls=4 offloaded=4 {{.*}}fallbacks=0
__attribute__((noinline)) void trmv_lower(int n, const double *x, double *y) {
  for (int i = n - 1; i >= 0; i--) {
    double s = 0;
    for (int j = 0; j <= i; j++)
      s += Ld[i][j] * x[j];
    y[i] = s;
  }
}

// REMARK-DAG: triangular-down.c:[[@LINE+3]]:3: remark: offloaded TRMV (triangular-dot) to OpenCL
// STATS-DAG: idiom-stats: triangular-down.c:[[@LINE+2]] triangular-dot calls=1 offloaded=1 {{.*}}fallbacks=0
__attribute__((noinline)) void trmv_upper(float a) {
  for (int i = NM - 4; i >= 0; i--) {
    float s = 0;
    for (int j = i + 1; j < NM - 3; j++)
      s += Lf[i][j] * xf[j];
    yf[i] = a * s + yf[i];
  }
}

static float valf(long i, long s) { return (float)((i * 7 + s * 13) % 23) / 23.0f - 0.5f; }

static void print_f(const char *name, const float *v, long count) {
  unsigned long h = 0;
  for (long i = 0; i < count; i++) {
    unsigned u;
    __builtin_memcpy(&u, &v[i], sizeof u);
    h = h * 1000003u + u;
  }
  printf("%s count=%ld hash=%lx", name, count, h);
  for (long i = 0; i < count; i += 1 + count / 5)
    printf(" %a", (double)v[i]);
  printf("\n");
}

static void run_f(long m, long n) {
  for (long i = 0; i < m * m; i++)
    Af[i] = valf(i, m);
  for (long i = 0; i < m * n; i++)
    Bf[i] = valf(i, n + 1);
  trmm_lower(m, n, 1.5f, (float(*)[m])Af, (float(*)[n])Bf);
  char name[40];
  snprintf(name, sizeof name, "trmm_lower m=%ld n=%ld", m, n);
  print_f(name, Bf, m * n);
}

int main(void) {
  long ms[] = {0, 1, 2, 3, 37, 61}, ns[] = {0, 1, 5, 53};
  for (int a = 0; a < 6; a++)
    for (int b = 0; b < 4; b++)
      run_f(ms[a], ns[b]);
  for (int i = 0; i < MD; i++) {
    for (int k = 0; k < MD; k++)
      Ad[i][k] = (double)((i * 5 + k * 2) % 13) / 13.0;
    for (int j = 0; j < ND; j++)
      Bd[i][j] = (double)((i + j * 5) % 19) / 19.0 - 0.25;
  }
  trmm_lower_t(0.75);
  unsigned long h = 0;
  for (int i = 0; i < MD; i++)
    for (int j = 0; j < ND; j++) {
      unsigned long u;
      __builtin_memcpy(&u, &Bd[i][j], sizeof u);
      h = h * 1000003u + u;
    }
  printf("trmm_lower_t hash=%lx %a %a\n", h, Bd[1][0], Bd[MD - 1][ND - 1]);
  // A is B's array: declined by the overlap check, the loop runs.
  for (long i = 0; i < 37 * 37; i++)
    Bf[i] = valf(i, 5);
  trmm_lower(37, 37, 1.25f, (float(*)[37])Bf, (float(*)[37])Bf);
  print_f("alias", Bf, 37 * 37);

  for (int i = 0; i < NM; i++) {
    for (int j = 0; j < NM; j++) {
      Ld[i][j] = (double)((i * 37 + j * 11) % 29) / 7.0 - 2.0;
      Lf[i][j] = (float)((i * 13 + j * 31) % 23) / 3.0f - 3.5f;
    }
    xd[i] = 1.0 / (i + 3);
    xf[i] = (float)(i % 9) / 7.0f - 0.5f;
    yf[i] = (float)(i % 5) - 2.0f;
  }
  static const int Sizes[] = {0, 1, 2, 7, 61};
  for (int s = 0; s < 5; s++) {
    int n = Sizes[s];
    for (int i = 0; i < NM; i++)
      yd[i] = -1.0;
    trmv_lower(n, xd, yd);
    printf("trmv_lower %d:", n);
    for (int i = 0; i < NM; i++)
      printf(" %a", yd[i]);
    printf("\n");
  }
  trmv_upper(0.5f);
  print_f("trmv_upper", yf, NM);
  return 0;
}
