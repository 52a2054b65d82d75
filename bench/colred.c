/*
 * colred.c - column reductions at benchmark size (issue 13): PolyBench
 * correlation's mean and standard deviation of every column of an n x m
 * row-major double matrix (flat, malloc'd), j outer:
 *   for j { mean[j] = 0; for i mean[j] += data[i*m+j]; mean[j] /= n; }
 *   for j { sd[j] = 0; for i sd[j] += (data[i*m+j]-mean[j])^2;
 *           sd[j] = sqrt(sd[j]/n); sd[j] = sd[j] <= eps ? 1 : sd[j]; }
 * each a map over j of a sequential reduction over i (one work-item per
 * column, neighbouring work-items reading neighbouring elements of a row).
 * On the host the column walk strides m doubles per step. Prints sampled
 * means and deviations and their sums (%.10e); every element is the
 * sequential value bit for bit with the in-order variants.
 *   colred [N] [M]        (defaults 8192 8192)
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

static void col_mean(long n, long m, const double *data, double *mean)
{
  for (long j = 0; j < m; j++) {
    mean[j] = 0.0;
    for (long i = 0; i < n; i++)
      mean[j] += data[i * m + j];
    mean[j] /= (double)n;
  }
}

static void col_stddev(long n, long m, const double *data, const double *mean,
                       double *sd, double eps)
{
  for (long j = 0; j < m; j++) {
    sd[j] = 0.0;
    for (long i = 0; i < n; i++)
      sd[j] += (data[i * m + j] - mean[j]) * (data[i * m + j] - mean[j]);
    sd[j] = sqrt(sd[j] / (double)n);
    sd[j] = sd[j] <= eps ? 1.0 : sd[j];
  }
}

int main(int argc, char **argv)
{
  long n = argc > 1 ? atol(argv[1]) : 8192, m = argc > 2 ? atol(argv[2]) : 8192;
  double *data = malloc(sizeof(double) * n * m);
  double *mean = malloc(sizeof(double) * m), *sd = malloc(sizeof(double) * m);
  unsigned s = 2718281u;
  double ms = 0.0, ss = 0.0;
  if (!data || !mean || !sd)
    return 1;
  for (long i = 0; i < n * m; i++) {
    s = s * 1103515245u + 12345u;
    data[i] = (double)((s >> 8) & 0xffff) / 65536.0 * (1 + i % 5);
  }
  col_mean(n, m, data, mean);
  col_stddev(n, m, data, mean, sd, 0.1);
  for (long j = 0; j < m; j++) {
    ms += mean[j];
    ss += sd[j];
  }
  printf("n %ld\nm %ld\n", n, m);
  for (long j = 0; j < m; j += m / 7 + 1)
    printf("mean_%ld %.10e\nsd_%ld %.10e\n", j, mean[j], j, sd[j]);
  printf("mean_sum %.10e\nsd_sum %.10e\n", ms, ss);
  return 0;
}
