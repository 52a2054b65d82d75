// CSR sparse matrix-vector products end to end on PoCL: the offloaded build
// prints what the sequential build prints, bit for bit (one row per
// work-item, each row summed in the loop's order), IDIOM_STATS shows which
// calls ran on the device, and the run-time conditions (checked by
// idiom_run_csr once it decides to run the kernel) send the others to the
// original loop: row pointers that decrease somewhere (the loop skips that
// row, or reads past ptr[n]; the kernel's buffers end there), and a column
// index outside x's known extent (S.x has 4000 elements; column 4003 reads
// S.pad[3] in the loop).
// IDIOM_MIN_TRIP=0: every call that passes the checks is offloaded.
// RUN: %clang -O2 %s -o %t.seq
// RUN: %clang-idiom -g %s -lidiomrt -Rpass=idiom-offload -Rpass-missed=idiom-offload -o %t.idiom 2> %t.remarks
// RUN: FileCheck %s --check-prefix=REMARK < %t.remarks
// RUN: %t.seq > %t.expected
// RUN: env IDIOM_MIN_TRIP=0 IDIOM_STATS=1 IDIOM_CACHE_DIR=off %t.idiom > %t.out 2> %t.stats
// RUN: diff %t.expected %t.out
// RUN: FileCheck %s --check-prefix=STATS < %t.stats
// RUN: env IDIOM_DEVICE=seq %t.idiom > %t.seqout
// RUN: diff %t.expected %t.seqout
// The default policy (cost model: the first calls time the loop on the
// host, with the check skipped) prints the same.
// RUN: env IDIOM_CACHE_DIR=off %t.idiom > %t.auto
// RUN: diff %t.expected %t.auto
#include <stdio.h>
#include <string.h>

#define ROWS 6000
#define COLS 4000
#define MAXNZ (ROWS * 24)

static int rowptr[ROWS + 1], col[MAXNZ];
static long rowptr64[ROWS + 1];
static double val[MAXNZ], xd[COLS], yd[ROWS];
static float valf[MAXNZ], yf[ROWS];
static struct {
  float x[COLS];
  float pad[8];
} S;

static unsigned long long seed = 12345;
static unsigned next(void) {
  seed = seed * 6364136223846793005ULL + 1442695040888963407ULL;
  return (unsigned)(seed >> 33);
}

// REMARK-DAG: spmv.c:[[@LINE+4]]:3: remark: offloaded CSR SpMV (spmv-csr) to OpenCL as
__attribute__((noinline)) static void spmv(int n, const int *ptr, const int *ci,
                                           const double *v, const double *x,
                                           double *y) {
  for (int i = 0; i < n; i++) {
    double s = 0;
    for (int p = ptr[i]; p < ptr[i + 1]; p++)
      s += v[p] * x[ci[p]];
    y[i] = s;
  }
}

// x is a member of a struct: its extent (COLS) comes from the array type.
// REMARK-DAG: spmv.c:[[@LINE+2]]:3: remark: offloaded CSR SpMV (spmv-csr) to OpenCL as
__attribute__((noinline)) static void spmv_member(int n) {
  for (int i = 0; i < n; i++) {
    float s = 0;
    for (int p = rowptr[i]; p < rowptr[i + 1]; p++)
      s += valf[p] * S.x[col[p]];
    yf[i] = 2.0f * s;
  }
}

// 64-bit row pointers, a one-based column index.
// REMARK-DAG: spmv.c:[[@LINE+3]]:3: remark: offloaded CSR SpMV (spmv-csr) to OpenCL as
__attribute__((noinline)) static void spmv_long(long n, const long *ptr,
                                                const int *ci, double *y) {
  for (long i = 0; i < n; i++) {
    double s = 1.0;
    for (long p = ptr[i]; p < ptr[i + 1]; p++)
      s += val[p] * xd[ci[p] - 1];
    y[i] = s;
  }
}

// Unsigned row pointers and columns (zero-extended; the guard and the exit
// test compare unsigned).
// REMARK-DAG: spmv.c:[[@LINE+3]]:3: remark: offloaded CSR SpMV (spmv-csr) to OpenCL as
__attribute__((noinline)) static void spmv_unsigned(unsigned n, const unsigned *ptr,
                                                    const unsigned *ci, float *y) {
  for (unsigned i = 0; i < n; i++) {
    float s = 0;
    for (unsigned p = ptr[i]; p < ptr[i + 1]; p++)
      s += valf[p] * S.x[ci[p]];
    y[i] = s;
  }
}

static unsigned long long hash_d(const double *y, int n) {
  unsigned long long h = 0, b;
  for (int i = 0; i < n; i++) {
    memcpy(&b, &y[i], sizeof b);
    h = h * 1000003ULL ^ b;
  }
  return h;
}

static unsigned long long hash_f(const float *y, int n) {
  unsigned long long h = 0;
  unsigned b;
  for (int i = 0; i < n; i++) {
    memcpy(&b, &y[i], sizeof b);
    h = h * 1000003ULL ^ b;
  }
  return h;
}

int main(void) {
  int nz = 0;
  for (int i = 0; i < ROWS; i++) {
    rowptr[i] = nz;
    int len = (int)(next() % 24); // some rows are empty
    for (int k = 0; k < len; k++, nz++) {
      col[nz] = (int)(next() % COLS);
      val[nz] = (double)(next() % 2001) / 1000.0 - 1.0;
      valf[nz] = (float)val[nz];
    }
  }
  rowptr[ROWS] = nz;
  for (int i = 0; i <= ROWS; i++)
    rowptr64[i] = rowptr[i];
  for (int j = 0; j < COLS; j++) {
    xd[j] = (double)(next() % 100003) / 7.0;
    S.x[j] = (float)xd[j];
  }
  for (int k = 0; k < 8; k++)
    S.pad[k] = 0.5f + k;
  printf("nonzeros %d\n", nz);

  spmv(ROWS, rowptr, col, val, xd, yd);
  printf("y %llx %a\n", hash_d(yd, ROWS), yd[17]);

  // Row 100's pointers decrease: the loop skips the row, the kernel would
  // read a negative length. Fallback, same output.
  int saved = rowptr[101];
  rowptr[101] = rowptr[100] - 3;
  spmv(ROWS, rowptr, col, val, xd, yd);
  printf("non-monotone %llx %a\n", hash_d(yd, ROWS), yd[100]);
  // Row 100 reaching past ptr[ROWS] (into the arrays' zero tail): the
  // loop reads val and col there; the kernel's buffers end at ptr[ROWS].
  rowptr[101] = nz + 5;
  spmv(ROWS, rowptr, col, val, xd, yd);
  printf("past the end %llx %a\n", hash_d(yd, ROWS), yd[100]);
  rowptr[101] = saved;
  spmv(ROWS, rowptr, col, val, xd, yd);
  printf("y again %llx\n", hash_d(yd, ROWS));
  // In place (x is y): later rows read what earlier rows wrote; the
  // runtime sees y's range overlap x's and declines.
  spmv(ROWS, rowptr, col, val, yd, yd);
  printf("in place %llx %a\n", hash_d(yd, ROWS), yd[ROWS - 1]);

  spmv_member(ROWS);
  printf("member %llx %a\n", hash_f(yf, ROWS), yf[5]);
  // A column past S.x (inside S): fallback, the loop reads S.pad[3].
  int c = col[rowptr[7]];
  col[rowptr[7]] = COLS + 3;
  spmv_member(ROWS);
  printf("out of range %llx %a\n", hash_f(yf, ROWS), yf[7]);
  col[rowptr[7]] = c;

  static int one_based[MAXNZ];
  for (int k = 0; k < nz; k++)
    one_based[k] = col[k] + 1;
  spmv_long(ROWS, rowptr64, one_based, yd);
  printf("long %llx %a\n", hash_d(yd, ROWS), yd[3]);

  static unsigned uptr[ROWS + 1], ucol[MAXNZ];
  for (int i = 0; i <= ROWS; i++)
    uptr[i] = (unsigned)rowptr[i];
  for (int k = 0; k < nz; k++)
    ucol[k] = (unsigned)col[k];
  spmv_unsigned(ROWS, uptr, ucol, yf);
  printf("unsigned %llx %a\n", hash_f(yf, ROWS), yf[11]);
  return 0;
}

// Two calls of spmv ran on the device; idiom_run_csr declined the two with
// decreasing row pointers and, by the overlap of y with x, the in-place
// one. One of the two calls of spmv_member: a column outside S.x.
// STATS-DAG: idiom-stats: spmv.c:{{[0-9]+}} spmv-csr calls=5 offloaded=2 device={{.*}} fallbacks=3 {{.*}}reasons="CSR row pointers not monotone" x2; "overlapping input/output ranges" x1
// STATS-DAG: idiom-stats: spmv.c:{{[0-9]+}} spmv-csr calls=2 offloaded=1 device={{.*}} fallbacks=1 {{.*}}reasons="CSR column index outside x" x1
// STATS-DAG: idiom-stats: spmv.c:{{[0-9]+}} spmv-csr calls=1 offloaded=1 device={{.*}} fallbacks=0
// STATS-DAG: idiom-stats: spmv.c:{{[0-9]+}} spmv-csr calls=1 offloaded=1 device={{.*}} fallbacks=0
