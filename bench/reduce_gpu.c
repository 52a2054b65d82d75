/*===- reduce_gpu.c - generated vs hand-written OpenCL sum, same run -------===*
 *
 * Sums 2^LOG2 random floats (default 2^28) on the first OpenCL GPU:
 *  1. a hand-written float4 grid-stride reduction (partial + final kernel,
 *     local-memory tree), built here with OpenCL, timed with profiling
 *     events: median of REPS runs for each of a few group counts;
 *  2. the plugin-generated reduction (bench/reduce_gpu_sum.c built with the
 *     Idiom plugin), called REPS times through the runtime; its kernel time
 *     per call is read with idiom_last_kernel_ms() (the first call also times
 *     the variants; that call's own run is excluded from the median, as is
 *     its transfer).
 * Both results are checked against a double-precision sum on the host.
 * Last, a generated map (y = a * x + y) runs on odd lengths at aligned and
 * misaligned offsets and is compared element by element with the host.
 * Prints one line per measurement and a last summary line with GB/s (bytes
 * read, 4 * 2^LOG2, over the kernel time) and the ratio generated / hand.
 *
 * Build: bench/build_reduce_carry.sh. Run: IDIOM_DEVICE=gpu reduce_gpu [LOG2 [REPS]]
 *
 *===----------------------------------------------------------------------===*/
#define CL_TARGET_OPENCL_VERSION 120
#include <CL/cl.h>

#include "idiomrt.h"

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

float idiom_bench_sum(const float *x, long n);
void idiom_bench_axpy(float *y, const float *x, float a, long n);

static const char *hand_src =
    "__kernel void part(__global const float4 *x, const long n4,\n"
    "                   __global const float *tail, const long ntail,\n"
    "                   __global float *part, __local float *s) {\n"
    "  float4 acc = (float4)(0.0f);\n"
    "  for (long i = get_global_id(0); i < n4; i += get_global_size(0))\n"
    "    acc += x[i];\n"
    "  float a = (acc.x + acc.y) + (acc.z + acc.w);\n"
    "  if (get_global_id(0) < ntail) a += tail[get_global_id(0)];\n"
    "  size_t l = get_local_id(0);\n"
    "  s[l] = a;\n"
    "  barrier(CLK_LOCAL_MEM_FENCE);\n"
    "  for (size_t h = get_local_size(0) / 2; h > 0; h /= 2) {\n"
    "    if (l < h) s[l] += s[l + h];\n"
    "    barrier(CLK_LOCAL_MEM_FENCE);\n"
    "  }\n"
    "  if (l == 0) part[get_group_id(0)] = s[0];\n"
    "}\n"
    "__kernel void fin(__global const float *part, const long m,\n"
    "                  __global float *out, __local float *s) {\n"
    "  size_t l = get_local_id(0);\n"
    "  float a = 0.0f;\n"
    "  for (long i = l; i < m; i += get_local_size(0)) a += part[i];\n"
    "  s[l] = a;\n"
    "  barrier(CLK_LOCAL_MEM_FENCE);\n"
    "  for (size_t h = get_local_size(0) / 2; h > 0; h /= 2) {\n"
    "    if (l < h) s[l] += s[l + h];\n"
    "    barrier(CLK_LOCAL_MEM_FENCE);\n"
    "  }\n"
    "  if (l == 0) out[0] = s[0];\n"
    "}\n";

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

static double median(double *v, int n) {
  qsort(v, (size_t)n, sizeof *v, cmp_double);
  return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

/* The first GPU, else the first device of any kind. */
static cl_device_id first_gpu(cl_platform_id *plat_out) {
  cl_platform_id plats[16];
  cl_uint np = 0;
  CHECK_CL(clGetPlatformIDs(16, plats, &np));
  for (cl_uint p = 0; p < np; ++p) {
    cl_device_id d;
    cl_uint nd = 0;
    if (clGetDeviceIDs(plats[p], CL_DEVICE_TYPE_GPU, 1, &d, &nd) == CL_SUCCESS &&
        nd > 0) {
      *plat_out = plats[p];
      return d;
    }
  }
  for (cl_uint p = 0; p < np; ++p) { /* no GPU: any device (a test run) */
    cl_device_id d;
    cl_uint nd = 0;
    if (clGetDeviceIDs(plats[p], CL_DEVICE_TYPE_ALL, 1, &d, &nd) == CL_SUCCESS &&
        nd > 0) {
      *plat_out = plats[p];
      return d;
    }
  }
  fprintf(stderr, "no OpenCL device\n");
  exit(1);
}

/* Median kernel ms (partial + final) of the hand-written reduction with G
   groups of L; *result receives the last run's sum. */
static double hand_ms(cl_context ctx, cl_command_queue q, cl_kernel kp,
                      cl_kernel kf, cl_mem x, long n, size_t G, size_t L,
                      int reps, float *result) {
  cl_int err;
  long n4 = n / 4, ntail = n - 4 * n4;
  cl_mem tail = clCreateBuffer(ctx, CL_MEM_READ_WRITE, 64, NULL, &err);
  CHECK_CL(err);
  if (ntail)
    CHECK_CL(clEnqueueCopyBuffer(q, x, tail, (size_t)(4 * n4) * 4, 0,
                                 (size_t)ntail * 4, 0, NULL, NULL));
  cl_mem part = clCreateBuffer(ctx, CL_MEM_READ_WRITE, G * 4, NULL, &err);
  CHECK_CL(err);
  cl_mem out = clCreateBuffer(ctx, CL_MEM_READ_WRITE, 4, NULL, &err);
  CHECK_CL(err);
  cl_long m = (cl_long)G, ln4 = n4, lt = ntail;
  CHECK_CL(clSetKernelArg(kp, 0, sizeof x, &x));
  CHECK_CL(clSetKernelArg(kp, 1, sizeof ln4, &ln4));
  CHECK_CL(clSetKernelArg(kp, 2, sizeof tail, &tail));
  CHECK_CL(clSetKernelArg(kp, 3, sizeof lt, &lt));
  CHECK_CL(clSetKernelArg(kp, 4, sizeof part, &part));
  CHECK_CL(clSetKernelArg(kp, 5, L * 4, NULL));
  CHECK_CL(clSetKernelArg(kf, 0, sizeof part, &part));
  CHECK_CL(clSetKernelArg(kf, 1, sizeof m, &m));
  CHECK_CL(clSetKernelArg(kf, 2, sizeof out, &out));
  CHECK_CL(clSetKernelArg(kf, 3, L * 4, NULL));
  double *t = malloc(sizeof(double) * (size_t)reps);
  for (int r = -2; r < reps; ++r) { /* two warm-up runs */
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
  CHECK_CL(clEnqueueReadBuffer(q, out, CL_TRUE, 0, 4, result, 0, NULL, NULL));
  double med = median(t, reps);
  free(t);
  clReleaseMemObject(tail);
  clReleaseMemObject(part);
  clReleaseMemObject(out);
  return med;
}

int main(int argc, char **argv) {
  int log2n = argc > 1 ? atoi(argv[1]) : 28;
  int reps = argc > 2 ? atoi(argv[2]) : 9;
  long n = 1L << log2n;
  double gb = (double)n * 4 / 1e9;
  float *x = malloc((size_t)n * sizeof *x);
  if (!x)
    return 1;
  uint64_t s = 88172645463325252ull;
  double ref = 0;
  for (long i = 0; i < n; ++i) { /* xorshift64: random floats in [0, 1) */
    s ^= s << 13;
    s ^= s >> 7;
    s ^= s << 17;
    x[i] = (float)(s >> 40) / 16777216.0f;
    ref += x[i];
  }

  /* 1. hand-written float4 reduction */
  cl_platform_id plat;
  cl_device_id dev = first_gpu(&plat);
  char name[256] = "", driver[128] = "";
  cl_uint cus = 1;
  clGetDeviceInfo(dev, CL_DEVICE_NAME, sizeof name, name, NULL);
  clGetDeviceInfo(dev, CL_DRIVER_VERSION, sizeof driver, driver, NULL);
  clGetDeviceInfo(dev, CL_DEVICE_MAX_COMPUTE_UNITS, sizeof cus, &cus, NULL);
  cl_int err;
  cl_context ctx = clCreateContext(NULL, 1, &dev, NULL, NULL, &err);
  CHECK_CL(err);
  cl_command_queue q =
      clCreateCommandQueue(ctx, dev, CL_QUEUE_PROFILING_ENABLE, &err);
  CHECK_CL(err);
  cl_program prog = clCreateProgramWithSource(ctx, 1, &hand_src, NULL, &err);
  CHECK_CL(err);
  CHECK_CL(clBuildProgram(prog, 1, &dev, "", NULL, NULL));
  cl_kernel kp = clCreateKernel(prog, "part", &err);
  CHECK_CL(err);
  cl_kernel kf = clCreateKernel(prog, "fin", &err);
  CHECK_CL(err);
  cl_mem xb = clCreateBuffer(ctx, CL_MEM_READ_ONLY, (size_t)n * 4, NULL, &err);
  CHECK_CL(err);
  CHECK_CL(clEnqueueWriteBuffer(q, xb, CL_TRUE, 0, (size_t)n * 4, x, 0, NULL, NULL));
  printf("device \"%s\" driver %s, %u compute units, n = 2^%d floats (%.3f GB)\n",
         name, driver, cus, log2n, gb);
  double hand_best = 1e30;
  size_t groups[] = {cus * 4, cus * 8, cus * 16, cus * 32};
  for (size_t gi = 0; gi < sizeof groups / sizeof groups[0]; ++gi) {
    float r = 0;
    double ms = hand_ms(ctx, q, kp, kf, xb, n, groups[gi], 256, reps, &r);
    double rel = fabs(r - ref) / ref;
    printf("hand-written float4: G=%zu L=256 median %.4f ms = %.1f GB/s, "
           "rel. error %.2e%s\n",
           groups[gi], ms, gb / (ms / 1e3), rel, rel < 1e-4 ? "" : " WRONG");
    if (rel < 1e-4 && ms < hand_best)
      hand_best = ms;
  }
  clReleaseMemObject(xb);
  clReleaseKernel(kp);
  clReleaseKernel(kf);
  clReleaseProgram(prog);
  clReleaseCommandQueue(q);
  clReleaseContext(ctx);

  /* 2. the plugin-generated reduction through the runtime */
  double *t = malloc(sizeof(double) * (size_t)(reps + 1));
  int nt = 0, variant = -1, wrong = 0;
  for (int r = 0; r <= reps; ++r) {
    float v = idiom_bench_sum(x, n);
    double ms = idiom_last_kernel_ms();
    double rel = fabs(v - ref) / ref;
    if (ms < 0) {
      printf("generated: call %d declined: %s\n", r,
             idiom_last_reason() ? idiom_last_reason() : "?");
      continue;
    }
    variant = idiom_last_variant();
    if (rel >= 1e-4)
      wrong = 1;
    printf("generated: call %d variant %d kernel %.4f ms = %.1f GB/s, rel. "
           "error %.2e%s\n",
           r, variant, ms, gb / (ms / 1e3), rel, rel < 1e-4 ? "" : " WRONG");
    if (r > 0) /* call 0 timed the variants first */
      t[nt++] = ms;
  }
  if (nt == 0) {
    printf("SUMMARY generated reduction did not run\n");
    return 1;
  }
  double gen = median(t, nt);

  /* 3. a generated map: odd lengths, aligned and misaligned starts */
  long mn = n / 4 + 3; /* x[mn + 16] is still inside x */
  float *y = malloc((size_t)(mn + 8) * sizeof *y);
  for (int off = 0; off < 3; ++off) {
    for (long i = 0; i < mn + 8; ++i)
      y[i] = x[i + 8];
    idiom_bench_axpy(y + off, x + off, 1.5f, mn);
    int ran = idiom_last_kernel_ms() >= 0, v = idiom_last_variant();
    long bad = 0;
    for (long i = 0; i < mn + 8; ++i) {
      float want = x[i + 8];
      if (i >= off && i < off + mn)
        want = 1.5f * x[i] + x[i + 8];
      if (y[i] != want)
        bad++;
    }
    printf("generated map: n=%ld offset %d %s variant %d: %ld wrong elements%s\n",
           mn, off, ran ? "offloaded" : "declined", v, bad, bad ? " WRONG" : "");
    wrong |= bad != 0;
  }
  free(y);
  printf("SUMMARY n=2^%d hand-written float4 %.4f ms %.1f GB/s; generated "
         "(variant %d) %.4f ms %.1f GB/s; generated/hand = %.3f%s\n",
         log2n, hand_best, gb / (hand_best / 1e3), variant, gen,
         gb / (gen / 1e3), hand_best / gen, wrong ? " (WRONG RESULTS)" : "");
  free(t);
  free(x);
  return wrong;
}
