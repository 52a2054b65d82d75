/*
 * cg_csr.c - CG with a sparse matrix in compressed sparse row form (after
 * the NAS Parallel Benchmarks "CG", whose hot loop is a CSR matrix-vector
 * product): a few conjugate-gradient iterations on the 5-point Laplacian of
 * a G x G grid with a varying diagonal shift (symmetric, diagonally
 * dominant), built at run time into rowptr/colidx/val; dot products, norms
 * and axpy maps as in cg.c.
 *
 * Loops carry a trailing marker comment on their `for` line:
 *   idiom: reduction | map | spmv   -- expected to be offloaded
 *   not-idiom: REASON               -- must stay sequential (or be declined)
 * Output: "n N" first, then "label value" lines (see compare.py).
 */
#include <math.h>
#include <stdio.h>

#define G 400
#define N (G * G)
#define NNZ (5 * N)
#define NITER 10

int rowptr[N + 1];
int colidx[NNZ];
double val[NNZ];
double b[N];
double x[N];
double r[N];
double p[N];
double q[N];
double w[N];

/* The matrix, row by row (rows on the grid's border have fewer nonzeros). */
static int build(void)
{
  int i, j, nz = 0;
  for (i = 0; i < G; i++) /* not-idiom: recurrence (nonzero counter) */
    for (j = 0; j < G; j++) {
      int row = i * G + j;
      rowptr[row] = nz;
      if (i > 0) {
        colidx[nz] = row - G;
        val[nz++] = -1.0;
      }
      if (j > 0) {
        colidx[nz] = row - 1;
        val[nz++] = -1.0;
      }
      colidx[nz] = row;
      val[nz++] = 4.0 + 0.125 * (double)(row % 5);
      if (j < G - 1) {
        colidx[nz] = row + 1;
        val[nz++] = -1.0;
      }
      if (i < G - 1) {
        colidx[nz] = row + G;
        val[nz++] = -1.0;
      }
    }
  rowptr[N] = nz;
  return nz;
}

/* qq = A pp */
static void spmv(double *qq, const double *pp, int n)
{
  int i, k;
  for (i = 0; i < n; i++) { /* idiom: spmv (CSR, one row per work-item) */
    double s = 0.0;
    for (k = rowptr[i]; k < rowptr[i + 1]; k++)
      s += val[k] * pp[colidx[k]];
    qq[i] = s;
  }
}

static double dot(const double *a, const double *c, int n)
{
  double s = 0.0;
  int i;
  for (i = 0; i < n; i++) /* idiom: reduction (dot product) */
    s += a[i] * c[i];
  return s;
}

static void init(double *bb, double *xx, int n)
{
  int i;
  for (i = 0; i < n; i++) { /* idiom: map (index-based init, two outputs) */
    bb[i] = 1.0 + 0.0625 * (double)(i % 17);
    xx[i] = 0.0;
  }
}

static void copy(double *dst, const double *src, int n)
{
  int i;
  for (i = 0; i < n; i++) /* idiom: map (copy) */
    dst[i] = src[i];
}

static void update_xr(double *xx, double *rr, const double *pp,
                      const double *qq, double alpha, int n)
{
  int i;
  for (i = 0; i < n; i++) { /* idiom: map (two outputs) */
    xx[i] = xx[i] + alpha * pp[i];
    rr[i] = rr[i] - alpha * qq[i];
  }
}

static void update_p(double *pp, const double *rr, double beta, int n)
{
  int i;
  for (i = 0; i < n; i++) /* idiom: map (p = r + beta p) */
    pp[i] = rr[i] + beta * pp[i];
}

static void sub(double *ww, const double *bb, int n)
{
  int i;
  for (i = 0; i < n; i++) /* idiom: map (b - Ax) */
    ww[i] = bb[i] - ww[i];
}

int main(void)
{
  int n = N, it, nz;
  double rho, rho_new, alpha, beta, rnorm0;

  nz = build();
  init(b, x, n);
  copy(r, b, n);
  copy(p, r, n);
  rho = dot(r, r, n);
  rnorm0 = sqrt(rho);

  printf("n %d\n", n);
  printf("nonzeros %d\n", nz);
  printf("bnorm %.10e\n", rnorm0);
  for (it = 0; it < NITER; it++) { /* CG iterations: sequential */
    spmv(q, p, n);
    alpha = rho / dot(p, q, n);
    update_xr(x, r, p, q, alpha, n);
    rho_new = dot(r, r, n);
    beta = rho_new / rho;
    update_p(p, r, beta, n);
    rho = rho_new;
    printf("rnorm_it%d %.10e\n", it, sqrt(rho));
  }
  spmv(w, x, n);
  sub(w, b, n);
  printf("rnorm_rel %.10e\n", sqrt(rho) / rnorm0);
  printf("true_resid %.10e\n", sqrt(dot(w, w, n)));
  printf("xnorm %.10e\n", sqrt(dot(x, x, n)));
  printf("x_dot_b %.10e\n", dot(x, b, n));
  return 0;
}
