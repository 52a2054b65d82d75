/* Times one generated two-stage OpenCL reduction (idiom-funil --emit=opencl
 * of bench/lowering_sum.funil, idiom sum(x: [f32], n0: i64)) on the first GPU:
 * kernels BASE_partial(x, n0, part_0, scratch_0) over G groups of L work-items
 * and BASE_final(m, part_0, out_0, scratch_0) over one group, for several
 * (G, L). Prints the median kernel time (partial + final) and GB/s of the x
 * read, and the relative error against a double-precision host sum.
 * Usage: lowering_gpu FILE.cl BASE [LOG2N [REPS]]   (bench/run_lowering_gpu.sh) */
#define CL_TARGET_OPENCL_VERSION 120
#include <CL/cl.h>

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define CHECK_CL(e)                                                            \
  do {                                                                         \
    cl_int err_ = (e);                                                         \
    if (err_ != CL_SUCCESS) {                                                  \
      fprintf(stderr, "%s:%d: OpenCL error %d in %s\n", __FILE__, __LINE__,    \
              (int)err_, #e);                                                  \
      exit(1);                                                                 \
    }                                                                          \
  } while (0)

static int cmp_double(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return x < y ? -1 : x > y;
}

static char *read_file(const char *path) {
  FILE *f = fopen(path, "rb");
  if (!f) {
    perror(path);
    exit(1);
  }
  fseek(f, 0, SEEK_END);
  long n = ftell(f);
  fseek(f, 0, SEEK_SET);
  char *s = malloc((size_t)n + 1);
  if (fread(s, 1, (size_t)n, f) != (size_t)n)
    exit(1);
  s[n] = 0;
  fclose(f);
  return s;
}

int main(int argc, char **argv) {
  if (argc < 3) {
    fprintf(stderr, "usage: %s FILE.cl BASE [LOG2N [REPS]]\n", argv[0]);
    return 1;
  }
  const char *base = argv[2];
  int log2n = argc > 3 ? atoi(argv[3]) : 28;
  int reps = argc > 4 ? atoi(argv[4]) : 9;
  cl_long n = (cl_long)1 << log2n;
  float *x = malloc((size_t)n * sizeof *x);
  uint64_t s = 88172645463325252ull;
  double want = 0;
  for (cl_long i = 0; i < n; ++i) {
    s ^= s << 13, s ^= s >> 7, s ^= s << 17;
    x[i] = (float)((double)(s >> 11) / 9007199254740992.0);
    want += x[i];
  }
  cl_platform_id plats[8];
  cl_uint np = 0;
  CHECK_CL(clGetPlatformIDs(8, plats, &np));
  cl_device_id dev = 0;
  for (cl_uint p = 0; p < np && !dev; ++p) {
    cl_uint nd = 0;
    if (clGetDeviceIDs(plats[p], CL_DEVICE_TYPE_GPU, 1, &dev, &nd) != CL_SUCCESS || !nd)
      dev = 0;
  }
  for (cl_uint p = 0; p < np && !dev; ++p) {
    cl_uint nd = 0;
    if (clGetDeviceIDs(plats[p], CL_DEVICE_TYPE_ALL, 1, &dev, &nd) != CL_SUCCESS || !nd)
      dev = 0;
  }
  if (!dev) {
    fprintf(stderr, "no OpenCL device\n");
    return 1;
  }
  char name[256];
  CHECK_CL(clGetDeviceInfo(dev, CL_DEVICE_NAME, sizeof name, name, NULL));
  cl_int err;
  cl_context ctx = clCreateContext(NULL, 1, &dev, NULL, NULL, &err);
  CHECK_CL(err);
  cl_command_queue q = clCreateCommandQueue(ctx, dev, CL_QUEUE_PROFILING_ENABLE, &err);
  CHECK_CL(err);
  const char *src = read_file(argv[1]);
  cl_program prog = clCreateProgramWithSource(ctx, 1, &src, NULL, &err);
  CHECK_CL(err);
  if (clBuildProgram(prog, 1, &dev, "", NULL, NULL) != CL_SUCCESS) {
    char log[1 << 16];
    clGetProgramBuildInfo(prog, dev, CL_PROGRAM_BUILD_LOG, sizeof log, log, NULL);
    fprintf(stderr, "build failed:\n%s\n", log);
    return 1;
  }
  char kn[256];
  snprintf(kn, sizeof kn, "%s_partial", base);
  cl_kernel kp = clCreateKernel(prog, kn, &err);
  CHECK_CL(err);
  snprintf(kn, sizeof kn, "%s_final", base);
  cl_kernel kf = clCreateKernel(prog, kn, &err);
  CHECK_CL(err);
  cl_mem xb = clCreateBuffer(ctx, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR,
                             (size_t)n * 4, x, &err);
  CHECK_CL(err);
  const size_t Gs[] = {528, 1056, 2112, 4224};
  const size_t Ls[] = {256, 512};
  double best = 1e30;
  for (int li = 0; li < 2; ++li)
    for (int gi = 0; gi < 4; ++gi) {
      size_t G = Gs[gi], L = Ls[li];
      cl_mem part = clCreateBuffer(ctx, CL_MEM_READ_WRITE, G * 4, NULL, &err);
      CHECK_CL(err);
      cl_mem out = clCreateBuffer(ctx, CL_MEM_READ_WRITE, 4, NULL, &err);
      CHECK_CL(err);
      cl_long m = (cl_long)G;
      CHECK_CL(clSetKernelArg(kp, 0, sizeof xb, &xb));
      CHECK_CL(clSetKernelArg(kp, 1, sizeof n, &n));
      CHECK_CL(clSetKernelArg(kp, 2, sizeof part, &part));
      CHECK_CL(clSetKernelArg(kp, 3, L * 4, NULL));
      CHECK_CL(clSetKernelArg(kf, 0, sizeof m, &m));
      CHECK_CL(clSetKernelArg(kf, 1, sizeof part, &part));
      CHECK_CL(clSetKernelArg(kf, 2, sizeof out, &out));
      CHECK_CL(clSetKernelArg(kf, 3, L * 4, NULL));
      double *t = malloc(sizeof(double) * (size_t)reps);
      for (int r = -2; r < reps; ++r) {
        cl_event e1, e2;
        size_t gp = G * L, gf = L;
        CHECK_CL(clEnqueueNDRangeKernel(q, kp, 1, NULL, &gp, &L, 0, NULL, &e1));
        CHECK_CL(clEnqueueNDRangeKernel(q, kf, 1, NULL, &gf, &L, 0, NULL, &e2));
        CHECK_CL(clFinish(q));
        cl_ulong a0, a1, b0, b1;
        CHECK_CL(clGetEventProfilingInfo(e1, CL_PROFILING_COMMAND_START, 8, &a0, NULL));
        CHECK_CL(clGetEventProfilingInfo(e1, CL_PROFILING_COMMAND_END, 8, &a1, NULL));
        CHECK_CL(clGetEventProfilingInfo(e2, CL_PROFILING_COMMAND_START, 8, &b0, NULL));
        CHECK_CL(clGetEventProfilingInfo(e2, CL_PROFILING_COMMAND_END, 8, &b1, NULL));
        if (r >= 0)
          t[r] = (double)((a1 - a0) + (b1 - b0)) / 1e6;
        clReleaseEvent(e1);
        clReleaseEvent(e2);
      }
      float got = 0;
      CHECK_CL(clEnqueueReadBuffer(q, out, CL_TRUE, 0, 4, &got, 0, NULL, NULL));
      qsort(t, (size_t)reps, sizeof *t, cmp_double);
      double med = t[reps / 2];
      best = med < best ? med : best;
      printf("%s %s: G=%zu L=%zu median %.4f ms = %.1f GB/s, rel. error %.2e\n", name, argv[1],
             G, L, med, (double)n * 4 / 1e6 / med, fabs(got - want) / want);
      free(t);
      clReleaseMemObject(part);
      clReleaseMemObject(out);
    }
  printf("BEST %s n=2^%d %.4f ms %.1f GB/s\n", argv[1], log2n, best, (double)n * 4 / 1e6 / best);
  return 0;
}
