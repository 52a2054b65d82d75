/*===- cpu_bench.c - generated kernels on PoCL vs OpenMP vs sequential ----===*
 *
 * 2^LOG2 floats (default 2^26): the sum reduction and the map
 * y = a * x + y (bench/cpu_loops.c), each built sequential -O2, with OpenMP
 * and with the Idiom plugin, timed in the same process: median of REPS
 * (default 5) calls each. For the plugin build two times per call: the
 * kernels alone (idiom_last_kernel_ms, what the device computes) and the
 * whole call (wall clock: copies in and out included). The first plugin call
 * of each loop also times the variants (bench/run_cpu_bench.sh runs a second
 * process that reads the tuning file instead); it is reported, not counted.
 *
 *===----------------------------------------------------------------------===*/
#include "idiomrt.h"

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

float seq_sum(const float *x, long n);
float omp_sum(const float *x, long n);
float idiom_sum(const float *x, long n);
void seq_saxpy(float *y, const float *x, float a, long n);
void omp_saxpy(float *y, const float *x, float a, long n);
void idiom_saxpy(float *y, const float *x, float a, long n);

static double now_ms(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return t.tv_sec * 1e3 + t.tv_nsec / 1e6;
}

static int cmp(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return x < y ? -1 : x > y;
}

static double median(double *v, int n) {
  qsort(v, (size_t)n, sizeof *v, cmp);
  return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

int main(int argc, char **argv) {
  int log2n = argc > 1 ? atoi(argv[1]) : 26;
  int reps = argc > 2 ? atoi(argv[2]) : 5;
  long n = 1L << log2n;
  float *x = malloc(sizeof(float) * (size_t)n), *y = malloc(sizeof(float) * (size_t)n);
  float *y0 = malloc(sizeof(float) * (size_t)n);
  uint64_t s = 88172645463325252ull;
  double ref = 0;
  for (long i = 0; i < n; ++i) {
    s ^= s << 13;
    s ^= s >> 7;
    s ^= s << 17;
    x[i] = (float)(s >> 40) / 16777216.0f;
    y0[i] = (float)(i % 1000) * 0.25f;
    ref += x[i];
  }
  double mb_sum = n * 4.0 / 1e6, mb_map = n * 12.0 / 1e6; /* bytes moved */
  printf("device \"%s\", n = 2^%d floats, median of %d\n",
         idiom_device_name() ? idiom_device_name() : "none", log2n, reps);

  double *t = malloc(sizeof(double) * (size_t)reps), *tk = malloc(sizeof(double) * (size_t)reps);
  float (*sums[3])(const float *, long) = {seq_sum, omp_sum, idiom_sum};
  const char *names[3] = {"sequential -O2", "OpenMP", "Idiom (PoCL)"};
  double sum_ms[3], sum_kernel = -1, map_ms[3], map_kernel = -1;
  for (int w = 0; w < 3; ++w) {
    float r = 0;
    if (w == 2) { /* the first call times the variants */
      double t0 = now_ms();
      r = sums[w](x, n);
      printf("  sum, %s: first call %.2f ms (variant %d chosen)\n", names[w], now_ms() - t0,
             idiom_last_variant());
    }
    for (int k = 0; k < reps; ++k) {
      double t0 = now_ms();
      r = sums[w](x, n);
      t[k] = now_ms() - t0;
      tk[k] = idiom_last_kernel_ms();
    }
    sum_ms[w] = median(t, reps);
    if (w == 2)
      sum_kernel = median(tk, reps);
    printf("  sum, %s: %.2f ms (%.0f MB/s), rel. error %.1e\n", names[w], sum_ms[w],
           mb_sum / (sum_ms[w] / 1e3), fabs(r - ref) / ref);
  }
  void (*maps[3])(float *, const float *, float, long) = {seq_saxpy, omp_saxpy, idiom_saxpy};
  for (int w = 0; w < 3; ++w) {
    long bad = 0;
    for (int k = (w == 2 ? -1 : 0); k < reps; ++k) {
      memcpy(y, y0, sizeof(float) * (size_t)n);
      double t0 = now_ms();
      maps[w](y, x, 1.5f, n);
      double ms = now_ms() - t0;
      if (k < 0) {
        printf("  map, %s: first call %.2f ms (variant %d chosen)\n", names[w], ms,
               idiom_last_variant());
        continue;
      }
      t[k] = ms;
      tk[k] = idiom_last_kernel_ms();
      for (long i = 0; i < n; i += 4099)
        bad += y[i] != 1.5f * x[i] + y0[i];
    }
    map_ms[w] = median(t, reps);
    if (w == 2)
      map_kernel = median(tk, reps);
    printf("  map, %s: %.2f ms (%.0f MB/s)%s\n", names[w], map_ms[w],
           mb_map / (map_ms[w] / 1e3), bad ? " WRONG" : "");
  }
  printf("SUMMARY sum: seq %.2f ms, OpenMP %.2f ms, Idiom kernels %.2f ms (whole call %.2f ms); "
         "kernels vs OpenMP %.2fx\n",
         sum_ms[0], sum_ms[1], sum_kernel, sum_ms[2], sum_ms[1] / sum_kernel);
  printf("SUMMARY map: seq %.2f ms, OpenMP %.2f ms, Idiom kernels %.2f ms (whole call %.2f ms); "
         "kernels vs OpenMP %.2fx\n",
         map_ms[0], map_ms[1], map_kernel, map_ms[2], map_ms[1] / map_kernel);
  return 0;
}
