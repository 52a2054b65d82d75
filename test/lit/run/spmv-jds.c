// JDS sparse matrix-vector products (Parboil spmv's CPU form) end to end on
// PoCL: the offloaded build prints what the sequential build prints, bit for
// bit (one row per work-item, each row summed in the loop's order, the
// result scattered through perm), IDIOM_STATS shows which calls ran on the
// device, and the run-time conditions (checked by idiom_run_csr once it
// decides to run the kernel, runtime/lib/jds.c) send the others to the
// original loop: a perm that maps two rows to one element of y, a column
// index outside x's known extent (S.x has 3000 elements; column 3002 reads
// S.pad[2] in the loop) and a negative row count (the loop runs no
// iteration for that row). Rows of length 0 are part of every matrix; one
// function reads a count per block of 32 rows (Parboil's GPU form).
// IDIOM_MIN_TRIP=0: every call that passes the checks is offloaded.
// RUN: %clang -O2 %s -o %t.seq
// RUN: %clang-idiom -g %s -lidiomrt -Rpass=idiom-offload -Rpass-missed=idiom-offload -o %t.idiom 2> %t.remarks
// RUN: FileCheck %s --check-prefix=REMARK < %t.remarks
// RUN: %t.seq > %t.expected
// RUN: env IDIOM_MIN_TRIP=0 IDIOM_STATS=1 %t.idiom > %t.out 2> %t.stats
// RUN: diff %t.expected %t.out
// RUN: FileCheck %s --check-prefix=STATS < %t.stats
// The exploration's last variant (a work-group of 512; scatter programs get
// work-group sizes only) prints the same.
// RUN: env IDIOM_MIN_TRIP=0 IDIOM_VARIANT=3 %t.idiom > %t.v3
// RUN: diff %t.expected %t.v3
// RUN: env IDIOM_DEVICE=seq %t.idiom > %t.seqout
// RUN: diff %t.expected %t.seqout
// The default policy (cost model) prints the same.
// RUN: %t.idiom > %t.auto
// RUN: diff %t.expected %t.auto
#include <stdio.h>
#include <string.h>

#define ROWS 5000
#define COLS 3000
#define MAXLEN 20
#define MAXNZ (ROWS * MAXLEN)

static int len[ROWS], order[ROWS];
static int cnt[ROWS], perm[ROWS], jds_ptr[MAXLEN + 1], indices[MAXNZ];
static long jds_ptr64[MAXLEN + 1];
static float data[MAXNZ], y[ROWS];
// The padded block form: a count per block of 32 sorted rows.
#define BLOCKS ((ROWS + 31) / 32)
static int bcnt[BLOCKS], bptr[MAXLEN + 1], bidx[MAXNZ + 32 * MAXLEN];
static float bdata[MAXNZ + 32 * MAXLEN], yb[ROWS];
static double datad[MAXNZ], xd[COLS], yd[ROWS];
static struct {
  float x[COLS];
  float pad[8];
} S;

static unsigned long long seed = 4242;
static unsigned next(void) {
  seed = seed * 6364136223846793005ULL + 1442695040888963407ULL;
  return (unsigned)(seed >> 33);
}

// REMARK-DAG: spmv-jds.c:[[@LINE+4]]:3: remark: offloaded JDS SpMV (spmv-jds) to OpenCL as
__attribute__((noinline)) static void parboil_jds(int dim, const float *h_data,
    const int *h_nzcnt, const int *h_ptr, const int *h_indices,
    const int *h_perm, float *h_Ax_vector) {
  for (int i = 0; i < dim; i++) {
    float sum = 0.0f;
    int bound = h_nzcnt[i];
    for (int k = 0; k < bound; k++) {
      int j = h_ptr[k] + i;
      int in = h_indices[j];
      float d = h_data[j];
      float t = S.x[in];
      sum += d * t;
    }
    h_Ax_vector[h_perm[i]] = sum;
  }
}

// 64-bit diagonal starts, the row first in the position, double values,
// the count read in the loop's condition, y = 2 * A x.
// REMARK-DAG: spmv-jds.c:[[@LINE+3]]:3: remark: offloaded JDS SpMV (spmv-jds) to OpenCL as
__attribute__((noinline)) static void jds_long(long n, const double *x,
                                               double *out) {
  for (long i = 0; i < n; i++) {
    double sum = 0.0;
    for (int k = 0; k < cnt[i]; k++)
      sum += datad[i + jds_ptr64[k]] * x[indices[i + jds_ptr64[k]]];
    out[perm[i]] = 2.0 * sum;
  }
}

// Parboil's GPU form: one count per block of 32 rows (sh_zcnt[i / 32]),
// the diagonals padded with zeros to the longest row of each block.
// REMARK-DAG: spmv-jds.c:[[@LINE+4]]:3: remark: offloaded JDS SpMV (spmv-jds) to OpenCL as
__attribute__((noinline)) static void jds_blocks(int dim, const float *d,
    const int *sh_zcnt, const int *ptr, const int *idx, const int *p,
    float *out) {
  for (int i = 0; i < dim; i++) {
    float sum = 0.0f;
    int bound = sh_zcnt[i / 32];
    for (int k = 0; k < bound; k++) {
      int j = ptr[k] + i;
      sum += d[j] * S.x[idx[j]];
    }
    out[p[i]] = sum;
  }
}

// Unsigned counts and perm (zero-extended) read one element ahead, y a
// global written at perm + 3.
static unsigned ucnt[ROWS + 1], uperm[ROWS + 1];
static float yg[ROWS + 8];
// REMARK-DAG: spmv-jds.c:[[@LINE+3]]:3: remark: offloaded JDS SpMV (spmv-jds) to OpenCL as
__attribute__((noinline)) static void jds_shifted(int dim, const unsigned *c,
                                                  const unsigned *p) {
  for (int i = 0; i < dim; i++) {
    float sum = 0.0f;
    for (unsigned k = 0; k < c[i + 1]; k++)
      sum += data[jds_ptr[k] + i] * S.x[indices[jds_ptr[k] + i]];
    yg[(long)p[i + 1] + 3] = sum;
  }
}

static unsigned long long hash_f(const float *v, int n) {
  unsigned long long h = 0;
  unsigned b;
  for (int i = 0; i < n; i++) {
    memcpy(&b, &v[i], sizeof b);
    h = h * 1000003ULL ^ b;
  }
  return h;
}

static unsigned long long hash_d(const double *v, int n) {
  unsigned long long h = 0, b;
  for (int i = 0; i < n; i++) {
    memcpy(&b, &v[i], sizeof b);
    h = h * 1000003ULL ^ b;
  }
  return h;
}

int main(void) {
  // Row lengths 0..MAXLEN (some rows empty), rows sorted by decreasing
  // length (stable: a counting sort), perm[i] the original row of sorted
  // row i, diagonal k holding the k-th nonzero of every row longer than k.
  for (int r = 0; r < ROWS; r++)
    len[r] = (int)(next() % (MAXLEN + 1));
  int at = 0;
  for (int l = MAXLEN; l >= 0; l--)
    for (int r = 0; r < ROWS; r++)
      if (len[r] == l)
        order[at++] = r;
  for (int i = 0; i < ROWS; i++) {
    perm[i] = order[i];
    cnt[i] = len[order[i]];
  }
  int nz = 0;
  for (int k = 0; k < MAXLEN; k++) {
    jds_ptr[k] = nz;
    jds_ptr64[k] = nz;
    for (int i = 0; i < ROWS && cnt[i] > k; i++, nz++) {
      indices[nz] = (int)(next() % COLS);
      datad[nz] = (double)(next() % 2001) / 1000.0 - 1.0;
      data[nz] = (float)datad[nz];
    }
  }
  jds_ptr[MAXLEN] = nz;
  for (int c = 0; c < COLS; c++) {
    xd[c] = (double)(next() % 100003) / 7.0;
    S.x[c] = (float)xd[c];
  }
  for (int k = 0; k < 8; k++)
    S.pad[k] = 0.25f + k;
  int empty = 0;
  for (int i = 0; i < ROWS; i++)
    empty += cnt[i] == 0;
  printf("nonzeros %d, empty rows %d\n", nz, empty);

  // Parboil repeats the product.
  for (int p = 0; p < 3; p++)
    parboil_jds(ROWS, data, cnt, jds_ptr, indices, perm, y);
  printf("y %llx %a %a\n", hash_f(y, ROWS), y[perm[0]], y[perm[ROWS - 1]]);

  // Two rows scattered to one element: the loop's last row wins and the
  // other element keeps its value. Fallback, same output.
  memset(y, 0, sizeof y);
  int saved = perm[10];
  perm[10] = perm[11];
  parboil_jds(ROWS, data, cnt, jds_ptr, indices, perm, y);
  printf("duplicate %llx %a %a\n", hash_f(y, ROWS), y[perm[11]], y[saved]);
  perm[10] = saved;

  // A column past S.x (inside S): fallback, the loop reads S.pad[2].
  int c = indices[jds_ptr[0] + 3];
  indices[jds_ptr[0] + 3] = COLS + 2;
  parboil_jds(ROWS, data, cnt, jds_ptr, indices, perm, y);
  printf("out of range %llx %a\n", hash_f(y, ROWS), y[perm[3]]);
  indices[jds_ptr[0] + 3] = c;

  // A negative count: the loop runs no iteration for the row; fallback.
  int saved_cnt = cnt[7];
  cnt[7] = -5;
  parboil_jds(ROWS, data, cnt, jds_ptr, indices, perm, y);
  printf("negative count %llx %a\n", hash_f(y, ROWS), y[perm[7]]);
  cnt[7] = saved_cnt;

  // Only the rows of a leading block (the others keep their values): the
  // rows write y[perm[0..999]], 1000 elements spread over y's 5000, not
  // consecutive ones: fallback as well.
  memset(y, 0, sizeof y);
  parboil_jds(1000, data, cnt, jds_ptr, indices, perm, y);
  printf("partial %llx\n", hash_f(y, ROWS));

  // The padded block form of the same matrix: the same sums plus zero
  // terms, in the same order.
  for (int b = 0; b < BLOCKS; b++)
    bcnt[b] = cnt[32 * b]; // the block's longest row (rows sorted)
  int bnz = 0;
  for (int k = 0; k < MAXLEN; k++) {
    bptr[k] = bnz;
    for (int i = 0; i < ROWS && bcnt[i / 32] > k; i++, bnz++) {
      int real = k < cnt[i];
      bidx[bnz] = real ? indices[jds_ptr[k] + i] : 0;
      bdata[bnz] = real ? data[jds_ptr[k] + i] : 0.0f;
    }
  }
  jds_blocks(ROWS, bdata, bcnt, bptr, bidx, perm, yb);
  printf("blocks %d %llx %a\n", bnz, hash_f(yb, ROWS), yb[perm[40]]);

  for (int i = 0; i < ROWS; i++) {
    ucnt[i + 1] = (unsigned)cnt[i];
    uperm[i + 1] = (unsigned)perm[i];
  }
  jds_shifted(ROWS, ucnt, uperm);
  printf("shifted %llx %a\n", hash_f(yg + 3, ROWS), yg[2]);

  jds_long(ROWS, xd, yd);
  printf("long %llx %a\n", hash_d(yd, ROWS), yd[perm[5]]);
  // y is x (in place): later rows read what earlier rows wrote; the
  // runtime sees the ranges overlap and declines.
  for (int i = 0; i < COLS; i++)
    yd[i] = xd[i];
  jds_long(ROWS, yd, yd);
  printf("in place %llx\n", hash_d(yd, ROWS));
  return 0;
}

// STATS-DAG: idiom-stats: spmv-jds.c:{{[0-9]+}} spmv-jds calls=7 offloaded=3 device={{.*}} fallbacks=4 {{.*}}reasons={{.*}}"JDS row permutation not one-to-one" x1
// STATS-DAG: "JDS rows do not write consecutive elements of y" x1
// STATS-DAG: "CSR column index outside x" x1
// STATS-DAG: "JDS row count negative" x1
// STATS-DAG: idiom-stats: spmv-jds.c:{{[0-9]+}} spmv-jds calls=1 offloaded=1 device={{.*}} fallbacks=0
// STATS-DAG: idiom-stats: spmv-jds.c:{{[0-9]+}} spmv-jds calls=1 offloaded=1 device={{.*}} fallbacks=0
// STATS-DAG: idiom-stats: spmv-jds.c:{{[0-9]+}} spmv-jds calls=2 offloaded=1 device={{.*}} fallbacks=1 {{.*}}reasons="overlapping input/output ranges" x1
