/* The loop that bench/reduce_gpu.c times through the runtime. Built with the
 * Idiom plugin (bench/build_reduce_carry.sh), which replaces it with a call
 * to idiom_run: a scalar-reduction idiom lowered to the two-stage OpenCL
 * reduction, with its explored variants. */
float idiom_bench_sum(const float *x, long n) {
  float s = 0.0f;
  for (long i = 0; i < n; i++)
    s += x[i];
  return s;
}

/* A map, to check the generated vector loads and stores on the device with
 * odd lengths and misaligned offsets (bench/reduce_gpu.c). */
void idiom_bench_axpy(float *y, const float *x, float a, long n) {
  for (long i = 0; i < n; i++)
    y[i] = a * x[i] + y[i];
}
