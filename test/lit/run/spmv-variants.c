// The CSR SpMV variants end to end on PoCL (docs/Rewrite.md, "Row
// reductions by lanes"): each of the 8 variants forced in turn (7: the
// load-balanced row blocks; test/lit/run/spmv-row-blocks.c has more)
// (IDIOM_VARIANT; IDIOM_COST=off offloads every call; the loops are not
// static, so their row count is no constant) on a skewed matrix of 5001
// rows (no work-group size divides it) with empty rows, short rows, long
// rows and one row of 60000 nonzeros. Integer SpMV: every variant
// prints the sequential build's bits. Float and double SpMV: the program
// compares every y[i] with a reference computed by an optnone copy of the
// loop (which the plugin does not see) within the bound of a reassociated
// row sum, 2 gamma(L + 2) sum |a x| (L the row's length), and prints "ok";
// the sequential build prints the same. IDIOM_STATS shows that the
// variant ran on the device for every call, in the size class of the
// 298936 nonzeros (18), not of the 5001 rows (12).
// RUN: %clang -O2 %s -o %t.seq
// RUN: %clang-idiom -g %s -lidiomrt -Rpass=idiom-offload -Rpass-analysis=idiom-offload -o %t.idiom 2> %t.remarks
// RUN: FileCheck %s --check-prefix=REMARK < %t.remarks
// RUN: FileCheck %s --check-prefix=INT-REMARK < %t.remarks
// RUN: %t.seq > %t.expected
// RUN: env IDIOM_COST=off IDIOM_DEVICE=cpu IDIOM_VARIANT=0 IDIOM_STATS=1 %t.idiom > %t.v0 2> %t.s0
// RUN: diff %t.expected %t.v0
// RUN: FileCheck %s --check-prefix=STATS -DK=0 < %t.s0
// RUN: env IDIOM_COST=off IDIOM_DEVICE=cpu IDIOM_VARIANT=1 IDIOM_STATS=1 %t.idiom > %t.v1 2> %t.s1
// RUN: diff %t.expected %t.v1
// RUN: FileCheck %s --check-prefix=STATS -DK=1 < %t.s1
// RUN: env IDIOM_COST=off IDIOM_DEVICE=cpu IDIOM_VARIANT=2 IDIOM_STATS=1 %t.idiom > %t.v2 2> %t.s2
// RUN: diff %t.expected %t.v2
// RUN: FileCheck %s --check-prefix=STATS -DK=2 < %t.s2
// RUN: env IDIOM_COST=off IDIOM_DEVICE=cpu IDIOM_VARIANT=3 IDIOM_STATS=1 %t.idiom > %t.v3 2> %t.s3
// RUN: diff %t.expected %t.v3
// RUN: FileCheck %s --check-prefix=STATS -DK=3 < %t.s3
// RUN: env IDIOM_COST=off IDIOM_DEVICE=cpu IDIOM_VARIANT=4 IDIOM_STATS=1 %t.idiom > %t.v4 2> %t.s4
// RUN: diff %t.expected %t.v4
// RUN: FileCheck %s --check-prefix=STATS -DK=4 < %t.s4
// RUN: env IDIOM_COST=off IDIOM_DEVICE=cpu IDIOM_VARIANT=5 IDIOM_STATS=1 %t.idiom > %t.v5 2> %t.s5
// RUN: diff %t.expected %t.v5
// RUN: FileCheck %s --check-prefix=STATS -DK=5 < %t.s5
// RUN: env IDIOM_COST=off IDIOM_DEVICE=cpu IDIOM_VARIANT=6 IDIOM_STATS=1 %t.idiom > %t.v6 2> %t.s6
// RUN: diff %t.expected %t.v6
// RUN: FileCheck %s --check-prefix=STATS -DK=6 < %t.s6
// RUN: env IDIOM_COST=off IDIOM_DEVICE=cpu IDIOM_VARIANT=7 IDIOM_STATS=1 %t.idiom > %t.v7 2> %t.s7
// RUN: diff %t.expected %t.v7
// RUN: FileCheck %s --check-prefix=STATS -DK=7 < %t.s7
// With -idiom-fp-reassoc=false the float loops get only variants that sum
// each row in the loop's order: every variant prints the sequential bits
// (argument "bits": the float results' hashes too), and the source has no
// row lanes for them (the int loop keeps its lanes: exact).
// RUN: %clang-idiom -fplugin=%plugin %s -lidiomrt -mllvm -idiom-fp-reassoc=false -Rpass=idiom-offload -Rpass-analysis=idiom-offload -o %t.exact 2> %t.exact-remarks
// RUN: FileCheck %s --check-prefix=EXACT-REMARK < %t.exact-remarks
// RUN: not grep "floating-point row sums" %t.exact-remarks
// RUN: %t.seq bits > %t.bits
// RUN: env IDIOM_COST=off IDIOM_DEVICE=cpu IDIOM_VARIANT=0 %t.exact bits > %t.e0
// RUN: diff %t.bits %t.e0
// RUN: env IDIOM_COST=off IDIOM_DEVICE=cpu IDIOM_VARIANT=2 IDIOM_STATS=1 %t.exact bits > %t.e2 2> %t.es2
// RUN: diff %t.bits %t.e2
// RUN: FileCheck %s --check-prefix=STATS -DK=2 < %t.es2
// RUN: env IDIOM_COST=off IDIOM_DEVICE=cpu IDIOM_VARIANT=7 %t.exact bits > %t.e7
// RUN: diff %t.bits %t.e7
// RUN: %clang-idiom -fplugin=%plugin %s -S -emit-llvm -mllvm -idiom-fp-reassoc=false -o - | FileCheck %s --check-prefix=EXACT-IR
// RUN: %clang-idiom %s -S -emit-llvm -o - | FileCheck %s --check-prefix=IR
// RUN: %clang-idiom -fplugin=%plugin %s -S -emit-llvm -mllvm -idiom-fp-reassoc=false -o - | FileCheck %s --check-prefix=EXACT-IR-BLOCKS
// RUN: %clang-idiom %s -S -emit-llvm -o - | FileCheck %s --check-prefix=IR-BLOCKS
#include <math.h>
#include <stdio.h>
#include <string.h>

#define ROWS 5001
#define COLS 7000
#define MAXNZ 400000

static int ptr[ROWS + 1], col[MAXNZ], ival[MAXNZ], ix[COLS], iy[ROWS];
static float fval[MAXNZ], fx[COLS], fy[ROWS], fref[ROWS];
static double dval[MAXNZ], dx[COLS], dy[ROWS], dref[ROWS];

static unsigned long long seed = 99;
static unsigned next(void) {
  seed = seed * 6364136223846793005ULL + 1442695040888963407ULL;
  return (unsigned)(seed >> 33);
}

// REMARK-DAG: spmv-variants.c:[[@LINE+5]]:3: remark: offloaded CSR SpMV (spmv-csr) to OpenCL as
// REMARK-DAG: spmv-variants.c:[[@LINE+4]]:3: remark: floating-point row sums may be reassociated by parallel evaluation
// STATS-DAG: idiom-stats: spmv-variants.c:[[@LINE+3]] spmv-csr calls=1 offloaded=1 device={{.*}} variants=8 {{.*}}class 18: variant [[K]] tuned=forced
__attribute__((noinline)) void spmv_f(int n, const int *p, const int *c,
                                             const float *v, const float *x, float *y) {
  for (int i = 0; i < n; i++) {
    float s = 0;
    for (int k = p[i]; k < p[i + 1]; k++)
      s += v[k] * x[c[k]];
    y[i] = s;
  }
}

// y = 0.5 A x + y in double.
// REMARK-DAG: spmv-variants.c:[[@LINE+4]]:3: remark: floating-point row sums may be reassociated by parallel evaluation
// STATS-DAG: idiom-stats: spmv-variants.c:[[@LINE+3]] spmv-csr calls=1 offloaded=1 device={{.*}} variants=8 {{.*}}class 18: variant [[K]] tuned=forced
__attribute__((noinline)) void spmv_d(int n, const int *p, const int *c,
                                             const double *v, const double *x, double *y) {
  for (int i = 0; i < n; i++) {
    double s = 0;
    for (int k = p[i]; k < p[i + 1]; k++)
      s += v[k] * x[c[k]];
    y[i] = 0.5 * s + y[i];
  }
}

// Integer sums wrap (values up to 2^20, products past 2^31): exact in any
// order, so no reassociation remark.
// INT-REMARK-NOT: spmv-variants.c:[[@LINE+4]]:3: remark: floating-point row sums
// STATS-DAG: idiom-stats: spmv-variants.c:[[@LINE+3]] spmv-csr calls=1 offloaded=1 device={{.*}} variants=8 {{.*}}class 18: variant [[K]] tuned=forced
__attribute__((noinline)) void spmv_i(int n, const int *p, const int *c,
                                             const int *v, const int *x, int *y) {
  for (int i = 0; i < n; i++) {
    unsigned s = 3;
    for (int k = p[i]; k < p[i + 1]; k++)
      s += (unsigned)v[k] * (unsigned)x[c[k]];
    y[i] = (int)s;
  }
}
// EXACT-REMARK-COUNT-3: remark: offloaded CSR SpMV (spmv-csr)
// EXACT-IR-COUNT-1: ept=1/32
// EXACT-IR-NOT: ept=1/32
// IR-COUNT-3: ept=1/32
// IR-NOT: ept=1/32
// EXACT-IR-BLOCKS-COUNT-1: ept=blocks/256
// EXACT-IR-BLOCKS-NOT: ept=blocks/256
// IR-BLOCKS-COUNT-3: ept=blocks/256
// IR-BLOCKS-NOT: ept=blocks/256

// References: the plugin does not run on optnone functions.
__attribute__((noinline, optnone)) static void reference(int n) {
  for (int i = 0; i < n; i++) {
    double s = 0, t = 0;
    for (int k = ptr[i]; k < ptr[i + 1]; k++) {
      s += fval[k] * fx[col[k]];
      t += dval[k] * dx[col[k]];
    }
    fref[i] = (float)s;
    dref[i] = 0.5 * t + dref[i];
  }
}

/// |y - ref| within 2 gamma(L + 2) sum |a x| (the double y's scaled by
/// 0.5), plus the rounding of the final operations and of the reference.
static int within(int n, int dbl) {
  double u = dbl ? 0x1p-53 : 0x1p-24;
  for (int i = 0; i < n; i++) {
    int len = ptr[i + 1] - ptr[i];
    double abs_sum = 0;
    for (int k = ptr[i]; k < ptr[i + 1]; k++)
      abs_sum += dbl ? fabs(dval[k] * dx[col[k]]) : fabs((double)fval[k] * fx[col[k]]);
    double g = (len + 2) * u / (1 - (len + 2) * u);
    double got = dbl ? dy[i] : fy[i], want = dbl ? dref[i] : fref[i];
    double bound = dbl ? 2 * g * 0.5 * abs_sum + 4 * u * (fabs(want) + 0.5 * abs_sum)
                       : 2 * g * abs_sum + 2 * u * fabs(want);
    if (!(fabs(got - want) <= bound)) {
      printf("row %d (%d nonzeros): %a vs %a, bound %g\n", i, len, got, want, bound);
      return 0;
    }
  }
  return 1;
}

static unsigned long long hash(const void *p, size_t n) {
  const unsigned char *b = p;
  unsigned long long h = 1469598103934665603ULL;
  for (size_t i = 0; i < n; i++)
    h = (h ^ b[i]) * 1099511628211ULL;
  return h;
}

int main(int argc, char **argv) {
  int nz = 0;
  for (int i = 0; i < ROWS; i++) {
    ptr[i] = nz;
    unsigned u = next() % 100;
    int len = u < 15 ? 0 : u < 80 ? (int)(next() % 6) : u < 97 ? 20 + (int)(next() % 200) : 900;
    if (i == 2500)
      len = 60000; // one huge row
    for (int k = 0; k < len; k++, nz++) {
      col[nz] = (int)(next() % COLS);
      fval[nz] = (float)((int)(next() % 2001) - 1000) / 256.0f;
      dval[nz] = fval[nz] * 1.000001;
      ival[nz] = (int)(next() % (1u << 20));
    }
  }
  ptr[ROWS] = nz;
  for (int j = 0; j < COLS; j++) {
    fx[j] = (float)((int)(next() % 4001) - 2000) / 64.0f;
    dx[j] = fx[j];
    ix[j] = (int)(next() % (1u << 20));
  }
  for (int i = 0; i < ROWS; i++)
    dy[i] = dref[i] = (double)(int)(next() % 100) / 8.0;
  printf("nonzeros %d\n", nz);

  spmv_f(ROWS, ptr, col, fval, fx, fy);
  spmv_d(ROWS, ptr, col, dval, dx, dy);
  spmv_i(ROWS, ptr, col, ival, ix, iy);
  reference(ROWS);
  printf("float %s\n", within(ROWS, 0) ? "ok" : "beyond the bound");
  printf("double %s\n", within(ROWS, 1) ? "ok" : "beyond the bound");
  printf("int %llx %d %d\n", hash(iy, sizeof iy), iy[0], iy[2500]);
  if (argc > 1 && !strcmp(argv[1], "bits"))
    printf("bits %llx %llx\n", hash(fy, sizeof fy), hash(dy, sizeof dy));
  return 0;
}
