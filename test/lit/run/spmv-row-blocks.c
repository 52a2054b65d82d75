// The load-balanced CSR SpMV variant (row blocks, CSR-Adaptive;
// docs/Rewrite.md, "Row reductions by lanes") forced with IDIOM_VARIANT=7
// on PoCL, on the matrices that stress its blocks: an empty matrix (no
// rows), rows that are all empty, one huge row alone, rows longer than a
// work-group (300..1200 nonzeros on 256 work-items), and a skewed matrix
// as bench/spmv_csr.c makes (95% of the rows 2-16 nonzeros, 4.9% 64-511,
// 0.1% 4096 and more) with empty rows between. Integer SpMV: the
// sequential build's bits. Float SpMV: every y[i] within 2 gamma(L + 2)
// sum |a x| of an optnone reference (the bound of a reassociated row sum,
// L the row's length), printed as "ok" (the sequential build prints the
// same). IDIOM_STATS shows that variant 7 ran on the device for every
// call with rows (the empty matrix's loop does not reach the runtime).
// RUN: %clang -O2 %s -o %t.seq
// RUN: %clang-idiom %s -lidiomrt -Rpass=idiom-offload -o %t.idiom 2> %t.remarks
// RUN: FileCheck %s --check-prefix=REMARK < %t.remarks
// RUN: %t.seq > %t.expected
// RUN: FileCheck %s --check-prefix=OUT < %t.expected
// RUN: env IDIOM_COST=off IDIOM_MIN_TRIP=0 IDIOM_DEVICE=cpu IDIOM_VARIANT=7 IDIOM_STATS=1 %t.idiom > %t.v7 2> %t.s7
// RUN: diff %t.expected %t.v7
// RUN: FileCheck %s --check-prefix=STATS < %t.s7
// Blocks cut at one step per lane (more, smaller blocks) and at 64.
// RUN: env IDIOM_COST=off IDIOM_MIN_TRIP=0 IDIOM_DEVICE=cpu IDIOM_VARIANT=7 IDIOM_ROW_BLOCK_ITERS=1 %t.idiom > %t.i1
// RUN: diff %t.expected %t.i1
// RUN: env IDIOM_COST=off IDIOM_MIN_TRIP=0 IDIOM_DEVICE=cpu IDIOM_VARIANT=7 IDIOM_ROW_BLOCK_ITERS=64 %t.idiom > %t.i64
// RUN: diff %t.expected %t.i64
// The kernel: the blocks are the last parameter, each work-group reads its
// rows' range from them, and its lanes per row come from the block's rows.
// RUN: %clang-idiom %s -S -emit-llvm -o - | FileCheck %s --check-prefix=IR
// Without the floating-point licence only the integer SpMV has the variant.
// RUN: %clang-idiom -fplugin=%plugin %s -S -emit-llvm -mllvm -idiom-fp-reassoc=false -o - | FileCheck %s --check-prefix=EXACT-IR
#include <math.h>
#include <stdio.h>

#define MAXROWS 20000
#define MAXNZ 1200000
#define COLS 5000

static int ptr[MAXROWS + 1], col[MAXNZ], ival[MAXNZ], ix[COLS], iy[MAXROWS];
static float fval[MAXNZ], fx[COLS], fy[MAXROWS];
static double fref[MAXROWS];

static unsigned long long seed = 12345;
static unsigned next(void) {
  seed = seed * 6364136223846793005ULL + 1442695040888963407ULL;
  return (unsigned)(seed >> 33);
}

// REMARK: spmv-row-blocks.c:[[@LINE+4]]:3: remark: offloaded CSR SpMV (spmv-csr) to OpenCL as
// STATS-DAG: idiom-stats: spmv-row-blocks.c:[[@LINE+3]] spmv-csr calls=4 offloaded=4 device={{.*}} variants=8 {{.*}}variant 7 tuned=forced
__attribute__((noinline)) void spmv_f(int n, const int *p, const int *c, const float *v,
                                      const float *x, float *y) {
  for (int i = 0; i < n; i++) {
    float s = 0;
    for (int k = p[i]; k < p[i + 1]; k++)
      s += v[k] * x[c[k]];
    y[i] = s;
  }
}

// REMARK: spmv-row-blocks.c:[[@LINE+4]]:3: remark: offloaded CSR SpMV (spmv-csr) to OpenCL as
// STATS-DAG: idiom-stats: spmv-row-blocks.c:[[@LINE+3]] spmv-csr calls=4 offloaded=4 device={{.*}} variants=8 {{.*}}variant 7 tuned=forced
__attribute__((noinline)) void spmv_i(int n, const int *p, const int *c, const int *v,
                                      const int *x, int *y) {
  for (int i = 0; i < n; i++) {
    unsigned s = 7;
    for (int k = p[i]; k < p[i + 1]; k++)
      s += (unsigned)v[k] * (unsigned)x[c[k]];
    y[i] = (int)s;
  }
}
// IR: ept=blocks/256
// IR-SAME: const long r0 = row_blocks[get_group_id(0)];
// IR-SAME: const long r1 = row_blocks[get_group_id(0) + 1];
// IR: ept=blocks/256
// IR-NOT: ept=blocks/256
// EXACT-IR-COUNT-1: ept=blocks/256
// EXACT-IR-NOT: ept=blocks/256

// The reference: the plugin does not run on optnone functions.
__attribute__((noinline, optnone)) static void reference(int n) {
  for (int i = 0; i < n; i++) {
    double s = 0;
    for (int k = ptr[i]; k < ptr[i + 1]; k++)
      s += (double)fval[k] * fx[col[k]];
    fref[i] = s;
  }
}

/// 1 when |fy[i] - fref[i]| <= 2 gamma(L + 2) sum |a x| + 2u |fref[i]|.
static int within(int n) {
  const double u = 0x1p-24;
  for (int i = 0; i < n; i++) {
    int len = ptr[i + 1] - ptr[i];
    double abs_sum = 0;
    for (int k = ptr[i]; k < ptr[i + 1]; k++)
      abs_sum += fabs((double)fval[k] * fx[col[k]]);
    double g = (len + 2) * u / (1 - (len + 2) * u);
    if (!(fabs(fy[i] - fref[i]) <= 2 * g * abs_sum + 2 * u * fabs(fref[i]))) {
      printf("row %d (%d nonzeros): %a vs %a\n", i, len, fy[i], fref[i]);
      return 0;
    }
  }
  return 1;
}

/// Rows 0..n-1 with the lengths len(i) draws.
static void build(int n, int (*len)(int)) {
  int nz = 0;
  for (int i = 0; i < n; i++) {
    ptr[i] = nz;
    for (int k = len(i); k > 0; k--, nz++) {
      col[nz] = (int)(next() % COLS);
      fval[nz] = (float)((int)(next() % 2001) - 1000) / 256.0f;
      ival[nz] = (int)(next() % (1u << 20));
    }
  }
  ptr[n] = nz;
}

static int empty_row(int i) { return (void)i, 0; }
static int huge_row(int i) { return (void)i, 1000000; }
static int wide_row(int i) { return 300 + (int)(next() % 901); }
static int skewed_row(int i) {
  unsigned u = next() % 1000;
  if (i % 97 == 5)
    return 0;
  return u < 950 ? 2 + (int)(next() % 15) : u < 999 ? 64 + (int)(next() % 448) : 4096 + (int)(next() % 8192);
}

static void run(const char *name, int n, int (*len)(int)) {
  build(n, len);
  for (int i = 0; i < n; i++)
    fy[i] = iy[i] = -1;
  spmv_f(n, ptr, col, fval, fx, fy);
  spmv_i(n, ptr, col, ival, ix, iy);
  reference(n);
  unsigned long long h = 1469598103934665603ULL;
  for (int i = 0; i < n; i++)
    h = (h ^ (unsigned)iy[i]) * 1099511628211ULL;
  printf("%s: rows %d nonzeros %d float %s int %llx\n", name, n, ptr[n],
         within(n) ? "ok" : "beyond the bound", h);
}

// OUT: empty: rows 0 nonzeros 0 float ok
// OUT: all rows empty: rows 3000 nonzeros 0 float ok
// OUT: one huge row: rows 1 nonzeros 1000000 float ok
// OUT: rows longer than a work-group: rows 200 nonzeros {{[0-9]+}} float ok
// OUT: skewed: rows 20000 nonzeros {{[0-9]+}} float ok
int main(void) {
  for (int j = 0; j < COLS; j++) {
    fx[j] = (float)((int)(next() % 4001) - 2000) / 64.0f;
    ix[j] = (int)(next() % (1u << 20));
  }
  run("empty", 0, empty_row);
  run("all rows empty", 3000, empty_row);
  run("one huge row", 1, huge_row);
  run("rows longer than a work-group", 200, wide_row);
  run("skewed", 20000, skewed_row);
  return 0;
}
