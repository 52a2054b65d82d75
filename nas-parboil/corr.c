/*
 * corr.c - PolyBench correlation and covariance on a malloc'd-free global
 * data set (n = 300 observations of m = 4608 variables, doubles from the
 * NAS LCG; more columns than the runtime's default IDIOM_MIN_TRIP), written as PolyBench writes them, j outer (issue 13):
 *   mean      for j { mean[j] = 0; for i mean[j] += data[i][j]; mean[j] /= n; }
 *   stddev    the same over (data[i][j] - mean[j])^2, then sqrt and a floor
 *             at eps (the epilogue's select)
 *   center    data[i][j] = (data[i][j] - mean[j]) / (sqrt(n) * stddev[j])
 *   corr      the upper triangle j2 > j1 of the product of the centred data
 *             with itself (the first MC variables), mirrored into the lower triangle (not lifted: the
 *             mirrored store writes another element of corr per column)
 *   cov_row   covariance of one variable with all others (a column
 *             reduction reading the fixed column data[i][j1])
 * The column reductions are maps over j of a sequential reduction over i in
 * i's order: mean and stddev are the sequential values bit for bit; corr's
 * and the checksums' sums are compared within compare.py's tolerance.
 *
 * Loops carry a trailing marker comment on their `for` line:
 *   idiom: KIND         -- expected to be offloaded
 *   not-idiom: REASON   -- must stay sequential
 *   maybe: REASON       -- either is fine
 * Output: "n N" first, then "label value" lines (see compare.py).
 */
#include <math.h>
#include <stdio.h>

#define N 300
#define M 4608
#define MC 256 /* variables of the correlation triangle */

static double data[N][M], mean[M], stddev[M], corr[MC][MC], covr[M];

/* NAS LCG: x = a x mod 2^46, uniform in (0, 1). */
static double lcg_x = 314159265.0;
static double next_uniform(void)
{
  const double r23 = 1.0 / 8388608.0, t23 = 8388608.0;
  const double r46 = r23 * r23, t46 = t23 * t23;
  const double a = 1220703125.0;
  double a1 = (double)(long)(r23 * a), a2 = a - t23 * a1;
  double x1 = (double)(long)(r23 * lcg_x), x2 = lcg_x - t23 * x1;
  double t1 = a1 * x2 + a2 * x1;
  double t2 = (double)(long)(r23 * t1);
  double z = t1 - t23 * t2;
  double t3 = t23 * z + a2 * x2;
  double t4 = (double)(long)(r46 * t3);
  lcg_x = t3 - t46 * t4;
  return r46 * lcg_x;
}

static void init(void)
{
  int i, j;
  for (i = 0; i < N; i++) /* not-idiom: recurrence (LCG state) */
    for (j = 0; j < M; j++)
      data[i][j] = next_uniform() * (1 + j % 5) + (double)(i % 7) / 7.0;
}

static void kernel_mean(int n, int m, double float_n)
{
  int i, j;
  for (j = 0; j < m; j++) { /* idiom: column reduction (mean) */
    mean[j] = 0.0;
    for (i = 0; i < n; i++)
      mean[j] += data[i][j];
    mean[j] /= float_n;
  }
}

static void kernel_stddev(int n, int m, double float_n, double eps)
{
  int i, j;
  for (j = 0; j < m; j++) { /* idiom: column reduction (stddev, sqrt, floor at eps) */
    stddev[j] = 0.0;
    for (i = 0; i < n; i++)
      stddev[j] += (data[i][j] - mean[j]) * (data[i][j] - mean[j]);
    stddev[j] /= float_n;
    stddev[j] = sqrt(stddev[j]);
    stddev[j] = stddev[j] <= eps ? 1.0 : stddev[j];
  }
}

static void kernel_center(int n, int m, double float_n)
{
  int i, j;
  for (i = 0; i < n; i++) /* idiom: map (centre and reduce the columns) */
    for (j = 0; j < m; j++)
      data[i][j] = (data[i][j] - mean[j]) / (sqrt(float_n) * stddev[j]);
}

static void kernel_corr(int n, int m)
{
  int i, j1, j2;
  for (j1 = 0; j1 < m - 1; j1++) { /* maybe: triangle with a mirrored store */
    corr[j1][j1] = 1.0;
    for (j2 = j1 + 1; j2 < m; j2++) { /* not-idiom: mirrored store corr[j2][j1] */
      corr[j1][j2] = 0.0;
      for (i = 0; i < n; i++)
        corr[j1][j2] += data[i][j1] * data[i][j2];
      corr[j2][j1] = corr[j1][j2];
    }
  }
  corr[m - 1][m - 1] = 1.0;
}

static void kernel_cov_row(int n, int m, int j1)
{
  int i, j;
  for (j = 0; j < m; j++) { /* idiom: column reduction (a fixed column times every column) */
    double s = 0.0;
    for (i = 0; i < n; i++)
      s += data[i][j1] * data[i][j];
    covr[j] = s / (n - 1);
  }
}

int main(void)
{
  double sum = 0.0, sd = 0.0, c = 0.0, cr = 0.0;
  int j, k;
  init();
  kernel_mean(N, M, (double)N);
  kernel_stddev(N, M, (double)N, 0.1);
  printf("n %d\n", N);
  for (j = 0; j < M; j += 397)
    printf("mean_%d %.10e\nstddev_%d %.10e\n", j, mean[j], j, stddev[j]);
  for (j = 0; j < M; j++) /* idiom: reduction */
    sum += mean[j];
  for (j = 0; j < M; j++) /* idiom: reduction */
    sd += stddev[j];
  printf("mean_sum %.10e\nstddev_sum %.10e\n", sum, sd);
  kernel_center(N, M, (double)N);
  kernel_corr(N, MC);
  kernel_cov_row(N, M, 17);
  for (j = 0; j < MC; j += 31)
    for (k = 0; k < MC; k += 37)
      printf("corr_%d_%d %.10e\n", j, k, corr[j][k]);
  for (j = 0; j < MC; j++) /* maybe: reduction over a 2-D array */
    for (k = 0; k < MC; k++)
      c += corr[j][k];
  for (j = 0; j < M; j++) /* idiom: reduction */
    cr += covr[j];
  printf("corr_sum %.10e\ncovr_sum %.10e\ncovr_17 %.10e\n", c, cr, covr[17]);
  return 0;
}
