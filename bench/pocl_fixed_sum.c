// pocl_fixed_sum.c - the order-sensitive float sum on a 2-core CPU device
// (issue #12): what a CPU form of the fixed-order compensated reduction
// could gain. Sums N floats (bench/residency_axpby.c's y) as
//   host     the program's loop, `s += y[i]` in order (clang -O2: one
//            dependent add a element, not vectorised without -ffast-math),
//   chain    the fixed CPU variant's shape today (variant 2 of a
//            compensated sum: one contiguous block per work-item, one
//            Neumaier (sum, compensation) pair walked element by element,
//            a dependent add chain a element), at the runtime's geometry
//            (64 work-groups of 256 on 2 compute units) and at few long
//            blocks (work-groups of one work-item, 2..64 blocks),
//   lanes2   lanes with each lane's rounding error by TwoSum (adds and
//            subtracts only: expressible with FunIL's lane-wise operators,
//            whose comparisons are not lane-wise),
//   lanes    the same blocks with 16 Neumaier pairs per work-item, lane k
//            taking elements 16j + k of the block (float16 sums and
//            compensations, the compensation's select as a vector select:
//            no dependent chain longer than N / (16 x work-items)), the
//            lanes then combined in lane order,
// each work-item's pair written to memory and the pairs combined on the
// host in work-item order (the final kernel's work, the same in both).
// Every device form is deterministic for a given N and geometry. Printed:
// median of REPS runs in ms (enqueue + finish for the device), and each
// form's result against a double-precision sum of the same data.
// Buffers are CL_MEM_USE_HOST_PTR over page-aligned memory (zero-copy, as
// runtime/lib/zerocopy.c does); the device is the first CPU device of any
// platform.
//
// Usage: pocl_fixed_sum [log2 N (default 22)] [REPS (default 11)]. Build:
// clang-19 -O2 bench/pocl_fixed_sum.c -lOpenCL (docs/Benchmarks.md, "A CPU
// form of the fixed-order float sum").
#define CL_TARGET_OPENCL_VERSION 120
#include <CL/cl.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static const char *Src =
    "#define NEU(s, c, x) { float t_ = s + x; c += (fabs(s) >= fabs(x)) ? "
    "(s - t_) + x : (x - t_) + s; s = t_; }\n"
    "__kernel void chain(const long n, __global const float *y, __global "
    "float *ps, __global float *pc) {\n"
    "  const long w = get_global_id(0), nw = get_global_size(0);\n"
    "  const long len = (n + nw - 1) / nw, lo = w * len, hi = min(lo + len, "
    "n);\n"
    "  float s = -0.0f, c = -0.0f;\n"
    "  for (long i = lo; i < hi; ++i) NEU(s, c, y[i]);\n"
    "  ps[w] = s; pc[w] = c; }\n"
    // the two lane forms differ only in the step that computes e
    "#define LANES(name, STEP) __kernel void name(const long n, __global "
    "const float *y, __global float *ps, __global float *pc) { \\\n"
    "  const long w = get_global_id(0), nw = get_global_size(0); \\\n"
    "  const long len = ((n + nw - 1) / nw + 15) / 16 * 16, lo = w * len, hi "
    "= min(lo + len, n); \\\n"
    "  float16 s = (float16)(-0.0f), c = (float16)(-0.0f); \\\n"
    "  long i = lo; \\\n"
    "  for (; i + 16 <= hi; i += 16) { \\\n"
    "    float16 x = vload16(0, y + i), t = s + x; STEP; s = t; } \\\n"
    "  float ss = -0.0f, cc = -0.0f; \\\n"
    "  float a[16], b[16]; vstore16(s, 0, a); vstore16(c, 0, b); \\\n"
    "  for (int k = 0; k < 16; ++k) { cc += b[k]; NEU(ss, cc, a[k]); } \\\n"
    "  for (; i < hi; ++i) NEU(ss, cc, y[i]); \\\n"
    "  ps[w] = ss; pc[w] = cc; }\n"
    // Neumaier's ordered Fast2Sum, the compare as a vector select
    "LANES(lanes, c += select((x - t) + s, (s - t) + x, "
    "isgreaterequal(fabs(s), fabs(x))))\n"
    // the error of each lane's add by TwoSum (Knuth): only lane-wise adds
    // and subtracts, no comparison or select, the same exact error as
    // Neumaier's ordered Fast2Sum when the sum is finite
    "LANES(lanes2, float16 z = t - s; c += (s - (t - z)) + (x - z))\n";

static double now_ms(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return t.tv_sec * 1e3 + t.tv_nsec / 1e6;
}

static int cmp(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return x < y ? -1 : x > y;
}

static double median(double *t, int n) {
  qsort(t, n, sizeof *t, cmp);
  return t[n / 2];
}

#define CK(e)                                                                  \
  do {                                                                         \
    cl_int e_ = (e);                                                           \
    if (e_ != CL_SUCCESS) {                                                    \
      fprintf(stderr, "%s:%d: OpenCL error %d\n", __FILE__, __LINE__, e_);     \
      exit(1);                                                                 \
    }                                                                          \
  } while (0)

static void neu(float *s, float *c, float x) {
  float t = *s + x;
  *c += fabsf(*s) >= fabsf(x) ? (*s - t) + x : (x - t) + *s;
  *s = t;
}

__attribute__((noinline)) static float host_sum(const float *y, long n) {
  float s = 0;
  for (long i = 0; i < n; ++i)
    s += y[i];
  return s;
}

int main(int argc, char **argv) {
  int lg = argc > 1 ? atoi(argv[1]) : 22;
  int reps = argc > 2 ? atoi(argv[2]) : 11;
  long n = 1L << lg;
  float *y = aligned_alloc(4096, n * sizeof(float));
  double exact = 0;
  for (long i = 0; i < n; ++i) { // residency_axpby's y after a few sweeps
    y[i] = 1.0f + (float)(i % 1000) * 1e-3f / 3.0f;
    exact += y[i];
  }
  cl_platform_id ps_[8];
  cl_uint np = 0;
  cl_device_id d = NULL;
  cl_int err;
  CK(clGetPlatformIDs(8, ps_, &np));
  for (cl_uint i = 0; i < np && !d; ++i) // the first CPU device
    if (clGetDeviceIDs(ps_[i], CL_DEVICE_TYPE_CPU, 1, &d, NULL) != CL_SUCCESS)
      d = NULL;
  if (!d) {
    fprintf(stderr, "no OpenCL CPU device\n");
    return 1;
  }
  char dname[256] = "";
  clGetDeviceInfo(d, CL_DEVICE_NAME, sizeof dname, dname, NULL);
  printf("device: %s\n", dname);
  cl_uint cu = 0;
  CK(clGetDeviceInfo(d, CL_DEVICE_MAX_COMPUTE_UNITS, sizeof cu, &cu, NULL));
  cl_context ctx = clCreateContext(NULL, 1, &d, NULL, NULL, &err);
  CK(err);
  cl_command_queue q = clCreateCommandQueue(ctx, d, 0, &err);
  CK(err);
  cl_program prog = clCreateProgramWithSource(ctx, 1, &Src, NULL, &err);
  CK(err);
  CK(clBuildProgram(prog, 1, &d, "", NULL, NULL));
  cl_kernel kc = clCreateKernel(prog, "chain", &err);
  CK(err);
  cl_kernel kl = clCreateKernel(prog, "lanes", &err);
  CK(err);
  cl_kernel k2 = clCreateKernel(prog, "lanes2", &err);
  CK(err);
  enum { MAXW = 64 * 256 };
  float *ps = malloc(MAXW * sizeof(float)), *pc = malloc(MAXW * sizeof(float));
  cl_mem my = clCreateBuffer(ctx, CL_MEM_READ_ONLY | CL_MEM_USE_HOST_PTR,
                             n * sizeof(float), y, &err);
  CK(err);
  cl_mem mps = clCreateBuffer(ctx, CL_MEM_READ_WRITE, MAXW * sizeof(float),
                              NULL, &err);
  CK(err);
  cl_mem mpc = clCreateBuffer(ctx, CL_MEM_READ_WRITE, MAXW * sizeof(float),
                              NULL, &err);
  CK(err);
  double *t = malloc(reps * sizeof(double));
  printf("N = 2^%d floats, %u compute units, median of %d, ms; error = "
         "result - double sum\n",
         lg, cu, reps);
  float hs = 0;
  for (int r = 0; r < reps; ++r) {
    double t0 = now_ms();
    hs = host_sum(y, n);
    t[r] = now_ms() - t0;
  }
  printf("  %-34s %8.3f  error %+.3e\n", "host loop (one core)", median(t, reps),
         (double)hs - exact);
  struct {
    cl_kernel k;
    const char *name;
    size_t groups, local;
  } forms[] = {{kc, "chain, 64 groups x 256 (runtime)", 64, 256},
               {kl, "lanes, 64 groups x 256", 64, 256},
               {kc, "chain, 2 blocks", 2, 1},
               {kc, "chain, 8 blocks", 8, 1},
               {kc, "chain, 64 blocks", 64, 1},
               {kl, "lanes, 2 blocks", 2, 1},
               {kl, "lanes, 8 blocks", 8, 1},
               {kl, "lanes, 32 blocks", 32, 1},
               {kl, "lanes, 64 blocks", 64, 1},
               {k2, "lanes TwoSum, 8 blocks", 8, 1},
               {k2, "lanes TwoSum, 64 blocks", 64, 1}};
  for (unsigned f = 0; f < sizeof forms / sizeof forms[0]; ++f) {
    cl_kernel k = forms[f].k;
    size_t gl = forms[f].groups * forms[f].local, lo = forms[f].local;
    cl_long nn = n;
    CK(clSetKernelArg(k, 0, sizeof nn, &nn));
    CK(clSetKernelArg(k, 1, sizeof my, &my));
    CK(clSetKernelArg(k, 2, sizeof mps, &mps));
    CK(clSetKernelArg(k, 3, sizeof mpc, &mpc));
    float s = 0, c = 0;
    for (int r = -1; r < reps; ++r) { // r = -1: warm-up (PoCL compiles)
      double t0 = now_ms();
      CK(clEnqueueNDRangeKernel(q, k, 1, NULL, &gl, &lo, 0, NULL, NULL));
      CK(clFinish(q));
      if (r >= 0)
        t[r] = now_ms() - t0;
    }
    CK(clEnqueueReadBuffer(q, mps, CL_TRUE, 0, gl * sizeof(float), ps, 0,
                           NULL, NULL));
    CK(clEnqueueReadBuffer(q, mpc, CL_TRUE, 0, gl * sizeof(float), pc, 0,
                           NULL, NULL));
    s = -0.0f;
    c = -0.0f;
    for (size_t w = 0; w < gl; ++w) {
      c += pc[w];
      neu(&s, &c, ps[w]);
    }
    float res = isfinite(s) && c != 0 ? s + c : s;
    printf("  %-34s %8.3f  error %+.3e\n", forms[f].name, median(t, reps),
           (double)res - exact);
  }
  return 0;
}
