// TRMM (issue 13; spec trmm, constraints/specs/trmm.idl, `lifts trmm`) end
// to end on PoCL: PolyBench trmm (B = alpha (B + A^T B) over the band k > i,
// in place) in float with run-time sizes on VLA pointers, in double on 2-D
// arrays of constant size, and BLAS's left upper form (A[i][k]), lifted as
// the band program (docs/FunIL.md, "TRMM programs: a band on the
// reduction"): B read from its own device copy (IDIOM_ARG_SNAPSHOT), the
// product in the loop's order, so the output is bit for bit the sequential
// build's. Sizes with edge rows: m = 1 (the band is empty everywhere: only
// the scaling), 2, 3, 37 and 61 (odd, no multiple of anything), n = 1, 5, 53;
// m = 0 and n = 0 make no call (the nest's guards). The lower form whose
// rows run down (`for (i = m - 1; i > 0; i--) ... for (k = 0; k < i;
// k++)`), with run-time sizes (m = 0 to 61, 3 too; m = 1 makes no call)
// and constant ones (A transposed, through a sum), a triangle on the
// reduction read from the snapshot likewise. A call whose A is B's
// own array (another pointer: the runtime's overlap check) declines and the
// loop runs.
// RUN: %clang -O2 %s -o %t.seq
// RUN: %clang-idiom -g %s -lidiomrt -Rpass=idiom-offload -o %t.idiom 2> %t.remarks
// RUN: FileCheck %s --check-prefix=REMARK < %t.remarks
// RUN: %t.seq > %t.expected
// RUN: env IDIOM_COST=off IDIOM_MIN_TRIP=1 IDIOM_STATS=1 %t.idiom > %t.out 2> %t.stats
// RUN: diff %t.expected %t.out
// RUN: FileCheck %s --check-prefix=STATS < %t.stats
// RUN: env IDIOM_COST=off IDIOM_DEVICE=seq %t.idiom > %t.seqout
// RUN: diff %t.expected %t.seqout
// Every variant of the run-time-size kernels (work-group sizes, rows in
// blocks), and tuning at every size (its timed runs restore C):
// RUN: env IDIOM_COST=off IDIOM_MIN_TRIP=1 IDIOM_VARIANT=1 %t.idiom > %t.v1
// RUN: diff %t.expected %t.v1
// RUN: env IDIOM_COST=off IDIOM_MIN_TRIP=1 IDIOM_VARIANT=2 %t.idiom > %t.v2
// RUN: diff %t.expected %t.v2
// RUN: env IDIOM_COST=off IDIOM_MIN_TRIP=1 IDIOM_VARIANT=3 %t.idiom > %t.v3
// RUN: diff %t.expected %t.v3
// RUN: env IDIOM_COST=off IDIOM_MIN_TRIP=1 IDIOM_VARIANT=4 %t.idiom > %t.v4
// RUN: diff %t.expected %t.v4
// RUN: env IDIOM_COST=off IDIOM_MIN_TRIP=1 IDIOM_VARIANT=5 %t.idiom > %t.v5
// RUN: diff %t.expected %t.v5
// The tiled variants (docs/FunIL.md, "TRMM programs": the matrix-product
// rules' tiles, each step keeping the band's mask, only the K tiles that
// meet a work-group's band): 6 and 7 of the run-time-size kernels (128x128
// and 32x32 tiles, K tiles of 16: m = 37, 61 and n = 5, 53 are no
// multiples, m = 61 has K tiles inside the band and partial ones), 4 and 5
// of the constant-size ones (double, 37 x 29), upper and lower forms; the
// statistics show that the tiled variant ran.
// RUN: env IDIOM_COST=off IDIOM_MIN_TRIP=1 IDIOM_VARIANT=6 IDIOM_STATS=1 %t.idiom > %t.v6 2> %t.v6stats
// RUN: diff %t.expected %t.v6
// RUN: FileCheck %s --check-prefix=TILED < %t.v6stats
// RUN: env IDIOM_COST=off IDIOM_MIN_TRIP=1 IDIOM_VARIANT=7 %t.idiom > %t.v7
// RUN: diff %t.expected %t.v7
// RUN: env IDIOM_COST=off IDIOM_MIN_TRIP=1 IDIOM_VARIANT=4 IDIOM_STATS=1 %t.idiom > %t.v4t 2> %t.v4stats
// RUN: FileCheck %s --check-prefix=TILEDC < %t.v4stats
// RUN: env IDIOM_COST=off IDIOM_MIN_TRIP=1 IDIOM_TUNE_MIN=0 %t.idiom > %t.tuned
// RUN: diff %t.expected %t.tuned
#include <stdio.h>

#define MMAX 61
#define NMAX 53
#define MD 37
#define ND 29

static float Af[MMAX * MMAX], Bf[MMAX * NMAX];
static double Ad[MD][MD], Bd[MD][ND];

// REMARK-DAG: trmm.c:[[@LINE+5]]:3: remark: offloaded TRMM (trmm) to OpenCL
// STATS-DAG: idiom-stats: trmm.c:[[@LINE+4]] trmm calls=16 offloaded=15 device={{.*}} fallbacks=1 {{.*}}reasons="overlapping input/output ranges" x1
// TILED-DAG: idiom-stats: trmm.c:[[@LINE+3]] trmm calls=16 offloaded=15 {{.*}} variants=8 {{.*}}class 11: variant 6 tuned=forced"
__attribute__((noinline)) void trmm_f(int m, int n, float alpha,
                                      float A[m][m], float B[m][n]) {
  for (int i = 0; i < m; i++)
    for (int j = 0; j < n; j++) {
      for (int k = i + 1; k < m; k++)
        B[i][j] += A[k][i] * B[k][j];
      B[i][j] = alpha * B[i][j];
    }
}

// REMARK-DAG: trmm.c:[[@LINE+4]]:3: remark: offloaded TRMM (trmm) to OpenCL
// STATS-DAG: idiom-stats: trmm.c:[[@LINE+3]] trmm calls=1 offloaded=1 device=
// TILEDC-DAG: idiom-stats: trmm.c:[[@LINE+2]] trmm calls=1 offloaded=1 {{.*}} variants=6 {{.*}}tuning="class {{[0-9]+}}: variant 4 tuned=forced"
__attribute__((noinline)) void trmm_d(double alpha) {
  for (int i = 0; i < MD; i++)
    for (int j = 0; j < ND; j++) {
      for (int k = i + 1; k < MD; k++)
        Bd[i][j] += Ad[k][i] * Bd[k][j];
      Bd[i][j] = alpha * Bd[i][j];
    }
}

// BLAS's left upper form without transposition: A[i][k].
// REMARK-DAG: trmm.c:[[@LINE+5]]:3: remark: offloaded TRMM (trmm) to OpenCL
// STATS-DAG: idiom-stats: trmm.c:[[@LINE+4]] trmm calls=1 offloaded=1 device=
// TILED-DAG: idiom-stats: trmm.c:[[@LINE+3]] trmm calls=1 offloaded=1 {{.*}} variants=8 {{.*}}tuning="class {{[0-9]+}}: variant 6 tuned=forced"
__attribute__((noinline)) void trmm_up(int m, int n, float alpha,
                                       float A[m][m], float B[m][n]) {
  for (int i = 0; i < m; i++)
    for (int j = 0; j < n; j++) {
      for (int k = i + 1; k < m; k++)
        B[i][j] += A[i][k] * B[k][j];
      B[i][j] = alpha * B[i][j];
    }
}

// The lower form whose rows run down (row i reads rows k < i that later
// iterations overwrite): a triangle on the reduction, rows counted from the
// last (docs/FunIL.md, "TRMM programs"); long indices (with int ones and a
// run-time m, SCEV does not cancel zext(m - 1) against zext(m) - 1).
// REMARK-DAG: trmm.c:[[@LINE+5]]:3: remark: offloaded TRMM (trmm) to OpenCL
// STATS-DAG: idiom-stats: trmm.c:[[@LINE+4]] trmm calls=13 offloaded=12 device={{.*}} fallbacks=1 {{.*}}reasons="overlapping input/output ranges" x1
// TILED-DAG: idiom-stats: trmm.c:[[@LINE+3]] trmm calls=13 offloaded=12 {{.*}} variants=8 {{.*}}class 11: variant 6 tuned=forced"
__attribute__((noinline)) void trmm_lower(long m, long n, float alpha,
                                          float A[m][m], float B[m][n]) {
  for (long i = m - 1; i > 0; i--)
    for (long j = 0; j < n; j++) {
      for (long k = 0; k < i; k++)
        B[i][j] += A[i][k] * B[k][j];
      B[i][j] = alpha * B[i][j];
    }
}

// Transposed A, through a sum into `B[i][j] += alpha * s`, constant sizes.
// REMARK-DAG: trmm.c:[[@LINE+4]]:3: remark: offloaded TRMM (trmm) to OpenCL
// STATS-DAG: idiom-stats: trmm.c:[[@LINE+3]] trmm calls=1 offloaded=1 device=
// TILEDC-DAG: idiom-stats: trmm.c:[[@LINE+2]] trmm calls=1 offloaded=1 {{.*}} variants=6 {{.*}}tuning="class {{[0-9]+}}: variant 4 tuned=forced"
__attribute__((noinline)) void trmm_lower_t(double alpha) {
  for (int i = MD - 1; i >= 1; i--)
    for (int j = 0; j < ND; j++) {
      double s = 0;
      for (int k = 0; k < i; k++)
        s += Ad[k][i] * Bd[k][j];
      Bd[i][j] += alpha * s;
    }
}

static float valf(int i, int s) { return (float)((i * 7 + s * 13) % 23) / 23.0f - 0.5f; }

static void print_f(const char *name, const float *v, int count) {
  unsigned long h = 0;
  for (int i = 0; i < count; i++) {
    unsigned u;
    __builtin_memcpy(&u, &v[i], sizeof u);
    h = h * 1000003u + u;
  }
  printf("%s count=%d hash=%lx", name, count, h);
  for (int i = 0; i < count; i += 1 + count / 5)
    printf(" %.9g", v[i]);
  printf("\n");
}

static void run_f(int m, int n, int lower) {
  for (int i = 0; i < m * m; i++)
    Af[i] = valf(i, m);
  for (int i = 0; i < m * n; i++)
    Bf[i] = valf(i, n + 1);
  if (lower)
    trmm_lower(m, n, 1.5f, (float(*)[m])Af, (float(*)[n])Bf);
  else
    trmm_f(m, n, 1.5f, (float(*)[m])Af, (float(*)[n])Bf);
  char name[40];
  snprintf(name, sizeof name, "trmm%s m=%d n=%d", lower ? "_lower" : "", m, n);
  print_f(name, Bf, m * n);
}

static void print_d(const char *name) {
  unsigned long h = 0;
  for (int i = 0; i < MD; i++)
    for (int j = 0; j < ND; j++) {
      unsigned long u;
      __builtin_memcpy(&u, &Bd[i][j], sizeof u);
      h = h * 1000003u + u;
    }
  printf("%s hash=%lx %.17g %.17g %.17g\n", name, h, Bd[0][0], Bd[1][0],
         Bd[MD - 2][ND - 1]);
}

static void init_d(void) {
  for (int i = 0; i < MD; i++) {
    for (int k = 0; k < MD; k++)
      Ad[i][k] = (double)((i * 5 + k * 2) % 13) / 13.0;
    for (int j = 0; j < ND; j++)
      Bd[i][j] = (double)((i + j * 5) % 19) / 19.0 - 0.25;
  }
}

int main(void) {
  int ms[] = {0, 1, 2, 3, 37, 61}, ns[] = {0, 1, 5, 53};
  for (int lower = 0; lower < 2; lower++)
    for (int a = 0; a < 6; a++)
      for (int b = 0; b < 4; b++)
        run_f(ms[a], ns[b], lower);
  init_d();
  trmm_d(0.75);
  print_d("trmm_d");
  init_d();
  trmm_lower_t(0.75);
  print_d("trmm_lower_t");
  for (int i = 0; i < 41 * 41; i++)
    Af[i] = valf(i, 3);
  for (int i = 0; i < 41 * 19; i++)
    Bf[i] = valf(i, 4);
  trmm_up(41, 19, 0.5f, (float(*)[41])Af, (float(*)[19])Bf);
  print_f("trmm_up", Bf, 41 * 19);
  // A is B's array: the runtime sees A's range (an IN buffer that is no
  // snapshot) overlap the output and runs the loop.
  for (int i = 0; i < 37 * 37; i++)
    Bf[i] = valf(i, 5);
  trmm_f(37, 37, 1.25f, (float(*)[37])Bf, (float(*)[37])Bf);
  print_f("alias", Bf, 37 * 37);
  for (int i = 0; i < 37 * 37; i++)
    Bf[i] = valf(i, 6);
  trmm_lower(37, 37, 1.25f, (float(*)[37])Bf, (float(*)[37])Bf);
  print_f("alias_lower", Bf, 37 * 37);
  return 0;
}
