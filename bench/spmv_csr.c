// Issue 14 benchmark: a CSR SpMV y = A x as legacy code writes it, called
// REPS times on one matrix (rows with 8..24 nonzeros at random columns,
// built at run time by an LCG). Usage: spmv_csr [log2 rows] [reps] [FILE]
// (default 2^21, 20); with FILE the matrix and x are also written there
// (int64 rows, nnz; int32 rowptr[rows+1], col[nnz]; double val[nnz],
// x[rows]) for bench/spmv_gpu.py's cuSPARSE baseline. Prints a checksum.
#include <stdio.h>
#include <stdlib.h>

static unsigned long long lcg = 88172645463325252ull;
static unsigned next(void) {
  lcg = lcg * 6364136223846793005ull + 1442695040888963407ull;
  return (unsigned)(lcg >> 33);
}

__attribute__((noinline)) static void spmv(double *y, const int *rowptr,
                                           const int *col, const double *val,
                                           const double *x, long rows) {
  for (long i = 0; i < rows; i++) {
    double s = 0;
    for (int k = rowptr[i]; k < rowptr[i + 1]; k++)
      s += val[k] * x[col[k]];
    y[i] = s;
  }
}

int main(int argc, char **argv) {
  int lg = argc > 1 ? atoi(argv[1]) : 21;
  int reps = argc > 2 ? atoi(argv[2]) : 20;
  long rows = 1L << lg;
  int *rowptr = malloc(sizeof(int) * (rows + 1));
  long cap = rows * 24;
  int *col = malloc(sizeof(int) * cap);
  double *val = malloc(sizeof(double) * cap);
  double *x = malloc(sizeof(double) * rows), *y = malloc(sizeof(double) * rows);
  if (!rowptr || !col || !val || !x || !y)
    return 1;
  long nz = 0;
  for (long i = 0; i < rows; i++) {
    rowptr[i] = (int)nz;
    int len = 8 + (int)(next() % 17);
    for (int k = 0; k < len; k++) {
      col[nz] = (int)(next() % (unsigned)rows);
      val[nz] = (double)(next() % 1000) * 1e-3;
      nz++;
    }
  }
  rowptr[rows] = (int)nz;
  for (long i = 0; i < rows; i++)
    x[i] = (double)(i % 101) * 1e-2;
  if (argc > 3) {
    FILE *f = fopen(argv[3], "wb");
    long long hdr[2] = {rows, nz};
    if (!f || fwrite(hdr, sizeof hdr, 1, f) != 1 ||
        fwrite(rowptr, sizeof(int), rows + 1, f) != (size_t)(rows + 1) ||
        fwrite(col, sizeof(int), nz, f) != (size_t)nz ||
        fwrite(val, sizeof(double), nz, f) != (size_t)nz ||
        fwrite(x, sizeof(double), rows, f) != (size_t)rows)
      return 2;
    fclose(f);
  }
  double c = 0;
  for (int r = 0; r < reps; r++) {
    spmv(y, rowptr, col, val, x, rows);
    c += y[(r * 7919L) % rows];
  }
  printf("rows %ld nnz %ld checksum %.6e\n", rows, nz, c);
  return 0;
}
