// pocl_geometry.c - why PoCL's kernels lose to the host loops on a 2-core
// CPU (issue #12): the Jacobi 5-point stencil and axpby over the same data
// as bench/jacobi2d.c and bench/residency_axpby.c, each as
//   host     the loop compiled here (clang -O2: vectorised, one core),
//   idiom    the kernel shape the plugin emits today (one element per
//            work-item, 64-bit index arithmetic, a bounds check) at the
//            launch geometry the runtime picks (2-D 16x16; 1-D 256),
//   rows     the same kernel with work-groups of whole rows (local 256x1),
//   chunk    one work-item per chunk of whole rows (stencil) or elements
//            (axpby), looping over it with a unit-stride inner loop (what
//            the host loop does): 1, 2, 4, 16 and 64 chunks per compute
//            unit, work-groups of one work-item,
// plus the cost of one empty launch (clEnqueueNDRangeKernel + clFinish).
// Buffers are CL_MEM_USE_HOST_PTR over page-aligned host memory (zero-copy,
// as runtime/lib/zerocopy.c does). Times: median of REPS runs, ms.
//
// Usage: pocl_geometry [N (stencil side, default 2048)] [log2 axpby length
// (default 22)] [REPS (default 15)]. Build: clang-19 -O2 pocl_geometry.c
// -lOpenCL (docs/Benchmarks.md, "Why PoCL's kernels lose on 2 cores").
#define CL_TARGET_OPENCL_VERSION 120
#include <CL/cl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static const char *Src =
    "#pragma OPENCL EXTENSION cl_khr_fp64 : enable\n"
    "__kernel void empty(__global float *y) {}\n"
    // the plugin's shape (idiom_sweep_2 of bench/jacobi2d.c, simplified
    // names): dimension 0 is j, dimension 1 is i
    "__kernel void st_idiom(const long n0, const long n1, __global const "
    "double *u, __global double *v, const long n) {\n"
    "  const long i1 = get_global_id(1);\n"
    "  if (i1 < n1) { const long i0 = get_global_id(0);\n"
    "    if (i0 < n1) { const long c = (1 + i1) * n + 1 + i0;\n"
    "      v[c] = 0.25 * (((u[c - n] + u[c + n]) + u[c - 1]) + u[c + 1]); } } }\n"
    // one work-item per chunk of rows, unit-stride inner loop
    "__kernel void st_chunk(const long m, __global const double *u, __global "
    "double *v, const long n, const long rows) {\n"
    "  const long lo = get_global_id(0) * rows;\n"
    "  const long hi = min(lo + rows, m);\n"
    "  for (long i = 1 + lo; i < 1 + hi; ++i) {\n"
    "    __global const double *a = u + (i - 1) * n, *b = u + i * n, *c = u + "
    "(i + 1) * n; __global double *o = v + i * n;\n"
    "    for (long j = 1; j < n - 1; ++j)\n"
    "      o[j] = 0.25 * (((a[j] + c[j]) + b[j - 1]) + b[j + 1]); } }\n"
    "__kernel void ax_idiom(const long n, __global const float *x, __global "
    "float *y) {\n"
    "  const long i = get_global_id(0);\n"
    "  if (i < n) y[i] = 0.5f * x[i] + 0.25f * y[i]; }\n"
    "__kernel void ax_chunk(const long n, __global const float *x, __global "
    "float *y, const long len) {\n"
    "  const long lo = get_global_id(0) * len, hi = min(lo + len, n);\n"
    "  for (long i = lo; i < hi; ++i) y[i] = 0.5f * x[i] + 0.25f * y[i]; }\n";

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

#define CHECK(e)                                                               \
  do {                                                                         \
    cl_int err_ = (e);                                                         \
    if (err_ != CL_SUCCESS) {                                                  \
      fprintf(stderr, "%s:%d: OpenCL error %d\n", __FILE__, __LINE__, err_);   \
      exit(1);                                                                 \
    }                                                                          \
  } while (0)

static cl_command_queue Q;

/* Median time of REPS launches of k (enqueue + finish), ms. */
static double time_launch(cl_kernel k, cl_uint nd, const size_t *g,
                          const size_t *l, int reps) {
  double t[64];
  for (int r = 0; r < reps + 1; ++r) {
    double t0 = now_ms();
    CHECK(clEnqueueNDRangeKernel(Q, k, nd, NULL, g, l, 0, NULL, NULL));
    CHECK(clFinish(Q));
    if (r) /* the first run compiles the work-group function */
      t[r - 1] = now_ms() - t0;
  }
  return median(t, reps);
}

__attribute__((noinline)) static void host_stencil(const double *u, double *v,
                                                   long n) {
  for (long i = 1; i < n - 1; i++)
    for (long j = 1; j < n - 1; j++)
      v[i * n + j] = 0.25 * (u[(i - 1) * n + j] + u[(i + 1) * n + j] +
                             u[i * n + j - 1] + u[i * n + j + 1]);
}

__attribute__((noinline)) static void host_axpby(const float *x, float *y,
                                                 long n) {
  for (long i = 0; i < n; i++)
    y[i] = 0.5f * x[i] + 0.25f * y[i];
}

static size_t up(size_t n, size_t l) { return (n + l - 1) / l * l; }

int main(int argc, char **argv) {
  long n = argc > 1 ? atol(argv[1]) : 2048;
  long an = 1L << (argc > 2 ? atoi(argv[2]) : 22);
  int reps = argc > 3 ? atoi(argv[3]) : 15;
  if (reps < 1 || reps > 63 || n < 3)
    return 1;
  cl_platform_id p;
  cl_device_id d;
  CHECK(clGetPlatformIDs(1, &p, NULL));
  CHECK(clGetDeviceIDs(p, CL_DEVICE_TYPE_ALL, 1, &d, NULL));
  cl_uint cus;
  size_t maxwg;
  char name[256];
  CHECK(clGetDeviceInfo(d, CL_DEVICE_MAX_COMPUTE_UNITS, sizeof cus, &cus, NULL));
  CHECK(clGetDeviceInfo(d, CL_DEVICE_MAX_WORK_GROUP_SIZE, sizeof maxwg, &maxwg,
                        NULL));
  CHECK(clGetDeviceInfo(d, CL_DEVICE_NAME, sizeof name, name, NULL));
  cl_int err;
  cl_context ctx = clCreateContext(NULL, 1, &d, NULL, NULL, &err);
  CHECK(err);
  Q = clCreateCommandQueue(ctx, d, 0, &err);
  CHECK(err);
  cl_program prog = clCreateProgramWithSource(ctx, 1, &Src, NULL, &err);
  CHECK(err);
  if (clBuildProgram(prog, 1, &d, "", NULL, NULL) != CL_SUCCESS) {
    char log[8192];
    clGetProgramBuildInfo(prog, d, CL_PROGRAM_BUILD_LOG, sizeof log, log, NULL);
    fprintf(stderr, "%s\n", log);
    return 1;
  }
  size_t sb = sizeof(double) * n * n, ab = sizeof(float) * an;
  double *u = aligned_alloc(4096, up(sb, 4096)), *v = aligned_alloc(4096, up(sb, 4096));
  double *hv = aligned_alloc(4096, up(sb, 4096));
  float *x = aligned_alloc(4096, up(ab, 4096)), *y = aligned_alloc(4096, up(ab, 4096));
  for (long k = 0; k < n * n; ++k)
    u[k] = (double)(k % 977) * 1e-3, v[k] = hv[k] = 0;
  for (long k = 0; k < an; ++k)
    x[k] = (float)(k % 1000) * 1e-3f, y[k] = 1.0f;
  cl_mem bu = clCreateBuffer(ctx, CL_MEM_USE_HOST_PTR, sb, u, &err);
  CHECK(err);
  cl_mem bv = clCreateBuffer(ctx, CL_MEM_USE_HOST_PTR, sb, v, &err);
  CHECK(err);
  cl_mem bx = clCreateBuffer(ctx, CL_MEM_USE_HOST_PTR, ab, x, &err);
  CHECK(err);
  cl_mem by = clCreateBuffer(ctx, CL_MEM_USE_HOST_PTR, ab, y, &err);
  CHECK(err);
  printf("device: %s, %u compute units, max work-group %zu\n", name, cus, maxwg);

  /* launch overhead */
  cl_kernel ke = clCreateKernel(prog, "empty", &err);
  CHECK(err);
  CHECK(clSetKernelArg(ke, 0, sizeof bx, &bx));
  size_t g1 = cus, l1 = 1;
  printf("empty kernel, %u work-groups of 1: %.3f ms a launch\n", cus,
         time_launch(ke, 1, &g1, &l1, reps));
  g1 = 4096 * 256, l1 = 256;
  printf("empty kernel, 4096 work-groups of 256: %.3f ms a launch\n",
         time_launch(ke, 1, &g1, &l1, reps));

  /* stencil */
  double t[64];
  for (int r = 0; r < reps; ++r) {
    double t0 = now_ms();
    host_stencil(u, hv, n);
    t[r] = now_ms() - t0;
  }
  double hs = median(t, reps);
  printf("stencil %ld^2 host: %.3f ms\n", n, hs);
  long m = n - 2;
  cl_kernel ks = clCreateKernel(prog, "st_idiom", &err);
  CHECK(err);
  CHECK(clSetKernelArg(ks, 0, sizeof m, &m));
  CHECK(clSetKernelArg(ks, 1, sizeof m, &m));
  CHECK(clSetKernelArg(ks, 2, sizeof bu, &bu));
  CHECK(clSetKernelArg(ks, 3, sizeof bv, &bv));
  CHECK(clSetKernelArg(ks, 4, sizeof n, &n));
  const size_t locs[][2] = {{16, 16}, {32, 8}, {64, 4}, {256, 1}, {1024, 1},
                            {8, 8}};
  for (unsigned i = 0; i < sizeof locs / sizeof *locs; ++i) {
    if (locs[i][0] * locs[i][1] > maxwg)
      continue;
    size_t g[2] = {up(m, locs[i][0]), up(m, locs[i][1])};
    double k = time_launch(ks, 2, g, locs[i], reps);
    printf("stencil idiom shape, local %zux%zu: %.3f ms (%.2fx host)\n",
           locs[i][0], locs[i][1], k, hs / k);
  }
  if (memcmp(v + n, hv + n, sizeof(double) * n * (n - 2)))
    printf("stencil idiom shape: OUTPUT DIFFERS\n");
  cl_kernel kc = clCreateKernel(prog, "st_chunk", &err);
  CHECK(err);
  CHECK(clSetKernelArg(kc, 0, sizeof m, &m));
  CHECK(clSetKernelArg(kc, 1, sizeof bu, &bu));
  CHECK(clSetKernelArg(kc, 2, sizeof bv, &bv));
  CHECK(clSetKernelArg(kc, 3, sizeof n, &n));
  const unsigned per_cu[] = {1, 2, 4, 16, 64};
  for (unsigned i = 0; i < sizeof per_cu / sizeof *per_cu; ++i) {
    memset(v, 0, sb);
    long items = (long)cus * per_cu[i], rows = (m + items - 1) / items;
    CHECK(clSetKernelArg(kc, 4, sizeof rows, &rows));
    size_t g = (size_t)items, l = 1;
    double k = time_launch(kc, 1, &g, &l, reps);
    printf("stencil chunk of %ld rows per work-item, %ld work-groups of 1: "
           "%.3f ms (%.2fx host)%s\n",
           rows, items, k, hs / k,
           memcmp(v + n, hv + n, sizeof(double) * n * (n - 2)) ? " DIFFERS"
                                                                : "");
  }

  /* axpby (y = 0.5 x + 0.25 y, in place: each run changes y, the times
     do not depend on the values) */
  for (int r = 0; r < reps; ++r) {
    double t0 = now_ms();
    host_axpby(x, y, an);
    t[r] = now_ms() - t0;
  }
  double ha = median(t, reps);
  printf("axpby 2^%d floats host: %.3f ms\n", argc > 2 ? atoi(argv[2]) : 22, ha);
  cl_kernel ka = clCreateKernel(prog, "ax_idiom", &err);
  CHECK(err);
  CHECK(clSetKernelArg(ka, 0, sizeof an, &an));
  CHECK(clSetKernelArg(ka, 1, sizeof bx, &bx));
  CHECK(clSetKernelArg(ka, 2, sizeof by, &by));
  const size_t al[] = {64, 256, 1024, 4096};
  for (unsigned i = 0; i < sizeof al / sizeof *al; ++i) {
    if (al[i] > maxwg)
      continue;
    size_t g = up(an, al[i]);
    double k = time_launch(ka, 1, &g, &al[i], reps);
    printf("axpby idiom shape, local %zu: %.3f ms (%.2fx host)\n", al[i], k,
           ha / k);
  }
  cl_kernel kac = clCreateKernel(prog, "ax_chunk", &err);
  CHECK(err);
  CHECK(clSetKernelArg(kac, 0, sizeof an, &an));
  CHECK(clSetKernelArg(kac, 1, sizeof bx, &bx));
  CHECK(clSetKernelArg(kac, 2, sizeof by, &by));
  for (unsigned i = 0; i < sizeof per_cu / sizeof *per_cu; ++i) {
    long items = (long)cus * per_cu[i], len = (an + items - 1) / items;
    CHECK(clSetKernelArg(kac, 3, sizeof len, &len));
    size_t g = (size_t)items, l = 1;
    double k = time_launch(kac, 1, &g, &l, reps);
    printf("axpby chunk of %ld per work-item, %ld work-groups of 1: %.3f ms "
           "(%.2fx host)\n",
           len, items, k, ha / k);
  }
  return 0;
}
