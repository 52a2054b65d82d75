// Issue 14 benchmark: a CSR SpMV y = A x as legacy code writes it, called
// REPS times on one matrix built at run time by an LCG. Usage:
//   spmv_csr [log2 rows] [reps] [FILE|-] [uniform|skewed]
// (default 2^21, 20, no file, uniform). uniform: rows with 8..24 nonzeros
// at random columns; skewed: 95% of the rows with 2..16 nonzeros, 4.9% with
// 64..511, 0.1% with 4096..32767 (a power-law-like spread, where one
// work-item per row idles most lanes of a warp and CSR-vector wastes lanes
// on the short rows). With FILE the matrix and x are also written there
// (int64 rows, nnz; int32 rowptr[rows+1], col[nnz]; double val[nnz],
// x[rows]) for bench/spmv_gpu.py's cuSPARSE baseline. Prints a checksum.
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

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
  int skewed = argc > 4 && !strcmp(argv[4], "skewed");
  long rows = 1L << lg;
  int *rowptr = malloc(sizeof(int) * (rows + 1));
  if (!rowptr)
    return 1;
  // uniform: each row's length drawn as its nonzeros are (the matrix of
  // the first measurements); skewed: the lengths first, then the nonzeros.
  long cap = rows * 24;
  if (skewed) {
    cap = 0;
    for (long i = 0; i < rows; i++) {
      unsigned u = next() % 1000;
      rowptr[i] = u < 950 ? 2 + (int)(next() % 15)
                  : u < 999 ? 64 + (int)(next() % 448)
                            : 4096 + (int)(next() % 28672);
      cap += rowptr[i];
    }
    if (cap > 0x7fffffffL)
      return 1;
  }
  int *col = malloc(sizeof(int) * cap);
  double *val = malloc(sizeof(double) * cap);
  double *x = malloc(sizeof(double) * rows), *y = malloc(sizeof(double) * rows);
  if (!col || !val || !x || !y)
    return 1;
  long nz = 0;
  for (long i = 0; i < rows; i++) {
    int len = skewed ? rowptr[i] : 8 + (int)(next() % 17);
    rowptr[i] = (int)nz;
    for (int k = 0; k < len; k++) {
      col[nz] = (int)(next() % (unsigned)rows);
      val[nz] = (double)(next() % 1000) * 1e-3;
      nz++;
    }
  }
  rowptr[rows] = (int)nz;
  for (long i = 0; i < rows; i++)
    x[i] = (double)(i % 101) * 1e-2;
  if (argc > 3 && strcmp(argv[3], "-")) {
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
