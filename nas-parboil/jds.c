/*
 * jds.c - sparse matrix-vector product in jagged diagonal storage with a row
 * permutation (after Parboil "spmv", whose CPU version repeats the JDS
 * product 50 times): a random 65536 x 65536 matrix with 0 to 39 nonzeros
 * per row (16% of the rows empty, 0.84 million nonzeros), built at run time
 * in CSR form, then converted to JDS: rows sorted by decreasing length
 * (perm[i] is the original row of sorted row i), nzcnt[i] the length of
 * sorted row i, the k-th jagged diagonal starting at jds_ptr[k]. The product
 * writes y[perm[i]], so y is in the original row order; a CSR product of
 * the same matrix checks it.
 *
 * Loops carry a trailing marker comment on their `for` line:
 *   idiom: reduction | map | spmv   -- expected to be offloaded
 *   not-idiom: REASON               -- must stay sequential (or be declined)
 *   maybe: REASON                   -- either is fine
 * Output: "n N" first, then "label value" lines (see compare.py).
 */
#include <math.h>
#include <stdio.h>

#define ROWS 65536
#define COLS 65536
#define MAXLEN 40
#define MAXNZ (ROWS * 20) /* room for an average length of 20 */
#define REPS 50

static unsigned long long seed = 271828182845ULL;

static unsigned next(void)
{
  seed = seed * 6364136223846793005ULL + 1442695040888963407ULL;
  return (unsigned)(seed >> 33);
}

/* CSR form of the matrix, in the original row order. */
int rowptr[ROWS + 1];
int colidx[MAXNZ];
float val[MAXNZ];
/* JDS form. */
int len[ROWS];
int perm[ROWS];
int nzcnt[ROWS];
int jds_ptr[MAXLEN + 1];
int indices[MAXNZ];
float data[MAXNZ];
float x[COLS];
float y[ROWS];
float ycsr[ROWS];
float diff[ROWS];

/* Row lengths 0..39, skewed towards short rows; columns and values. */
static int build_csr(void)
{
  int i, k, nz = 0;
  for (i = 0; i < ROWS; i++) { /* not-idiom: recurrence (LCG state, nonzero counter) */
    unsigned u = next() % 1024;
    int l = (int)((u * u) / (1024 * 1024 / MAXLEN));
    if (l > MAXNZ - nz)
      l = MAXNZ - nz;
    len[i] = l;
    rowptr[i] = nz;
    for (k = 0; k < l; k++, nz++) {
      colidx[nz] = (int)(next() % COLS);
      val[nz] = (float)((int)(next() % 2001) - 1000) / 1000.0f;
    }
  }
  rowptr[ROWS] = nz;
  return nz;
}

/* Rows sorted by decreasing length (a stable counting sort), then the
   jagged diagonals: the k-th holds the k-th nonzero of every row longer
   than k, the sorted rows in order. */
static int build_jds(void)
{
  int l, r, i, k, at = 0, nz = 0;
  for (l = MAXLEN - 1; l >= 0; l--) /* not-idiom: recurrence (position counter) */
    for (r = 0; r < ROWS; r++)
      if (len[r] == l) {
        perm[at] = r;
        nzcnt[at] = l;
        at++;
      }
  for (k = 0; k < MAXLEN; k++) { /* not-idiom: recurrence (nonzero counter) */
    jds_ptr[k] = nz;
    for (i = 0; i < ROWS && nzcnt[i] > k; i++, nz++) {
      int p = rowptr[perm[i]] + k;
      indices[nz] = colidx[p];
      data[nz] = val[p];
    }
  }
  jds_ptr[MAXLEN] = nz;
  return nz;
}

static void init_x(float *v, int n)
{
  int i;
  for (i = 0; i < n; i++) /* idiom: map (index-based init) */
    v[i] = 1.0f + (float)(i % 97) / 64.0f;
}

/* Parboil spmv's CPU kernel: one JDS product. */
static void jds_spmv(int dim, const float *h_data, const int *h_nzcnt,
                     const int *h_ptr, const int *h_indices,
                     const int *h_perm, const float *h_x, float *h_Ax)
{
  int i, k;
  for (i = 0; i < dim; i++) { /* idiom: spmv (JDS, rows scattered through perm) */
    float sum = 0.0f;
    int bound = h_nzcnt[i];
    for (k = 0; k < bound; k++) {
      int j = h_ptr[k] + i;
      int in = h_indices[j];
      float d = h_data[j];
      float t = h_x[in];
      sum += d * t;
    }
    h_Ax[h_perm[i]] = sum;
  }
}

/* The same product from the CSR form: the same sums in the same order. */
static void csr_spmv(const float *v, float *out, int n)
{
  int i, k;
  for (i = 0; i < n; i++) { /* idiom: spmv (CSR) */
    float s = 0.0f;
    for (k = rowptr[i]; k < rowptr[i + 1]; k++)
      s += val[k] * v[colidx[k]];
    out[i] = s;
  }
}

static void subtract(const float *a, const float *b, float *d, int n)
{
  int i;
  for (i = 0; i < n; i++) /* idiom: map (difference) */
    d[i] = a[i] - b[i];
}

static double sum(const float *v, int n)
{
  double s = 0.0;
  int i;
  for (i = 0; i < n; i++) /* idiom: reduction (sum) */
    s += v[i];
  return s;
}

static float max_abs(const float *v, int n)
{
  float m = 0.0f;
  int i;
  for (i = 0; i < n; i++) /* idiom: reduction (max of |v|) */
    m = fmaxf(m, fabsf(v[i]));
  return m;
}

static int count_zero(const float *v, int n)
{
  int c = 0, i;
  for (i = 0; i < n; i++) /* idiom: reduction (conditional count) */
    c += v[i] == 0.0f;
  return c;
}

static int count_empty(const int *c, int n)
{
  int e = 0, i;
  for (i = 0; i < n; i++) /* idiom: reduction (conditional count) */
    e += c[i] == 0;
  return e;
}

int main(void)
{
  int rep, nz = build_csr();
  int nzj = build_jds();
  init_x(x, COLS);
  for (rep = 0; rep < REPS; rep++) /* not-idiom: repetition (Parboil's 50 runs) */
    jds_spmv(ROWS, data, nzcnt, jds_ptr, indices, perm, x, y);
  csr_spmv(x, ycsr, ROWS);
  subtract(y, ycsr, diff, ROWS);

  printf("n %d\n", nz);
  printf("nonzeros %d\n", nzj);
  printf("diagonals %d\n", nzcnt[0]);
  printf("empty_rows %d\n", count_empty(nzcnt, ROWS));
  printf("zero_results %d\n", count_zero(y, ROWS));
  printf("sum.f32 %.10e\n", sum(y, ROWS));
  printf("max.f32 %.10e\n", (double)max_abs(y, ROWS));
  printf("y0.f32 %.10e\n", (double)y[0]);
  printf("ymid.f32 %.10e\n", (double)y[ROWS / 2]);
  printf("ylast.f32 %.10e\n", (double)y[ROWS - 1]);
  printf("jds_minus_csr.f32 %.10e\n", (double)max_abs(diff, ROWS));
  return 0;
}
