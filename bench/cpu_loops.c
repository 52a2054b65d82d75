/* The loops of bench/cpu_bench.c, compiled three ways by
 * bench/run_cpu_bench.sh: sequential (-O2), OpenMP (-O2 -fopenmp, the
 * pragmas below) and with the Idiom plugin (each loop becomes an idiom_run
 * call). NAME() gives each build its own symbols. */
#ifndef NAME
#error "compile with -DNAME(x)=prefix_##x"
#endif

float NAME(sum)(const float *x, long n) {
  float s = 0.0f;
#pragma omp parallel for reduction(+ : s) schedule(static)
  for (long i = 0; i < n; i++)
    s += x[i];
  return s;
}

void NAME(saxpy)(float *y, const float *x, float a, long n) {
#pragma omp parallel for schedule(static)
  for (long i = 0; i < n; i++)
    y[i] = a * x[i] + y[i];
}
