/*===- histo_hand.c - hand-written privatised OpenCL histogram -------------===*
 *
 * The baseline of issue 14's "Histogram with local privatisation" benchmark:
 * the histogram of bench/histo_kernel.c (same keys, weights and bins, from
 * bench/histo_data.h) as an OpenCL programmer writes it: per work-group bins
 * in local memory, cleared, one local atomic_add per key over a grid-stride
 * range, a barrier, then one global atomic_add per non-zero local bin.
 * Work-group size 256 (less where the kernel allows less); the group count is
 * tuned: for 1, 2, 4, 8, 16 and 32 groups per compute unit, and for the
 * launch shapes of the generated privatised variants (16 and 64 keys per
 * work-item: n / (16 wg) and n / (64 wg) groups), the kernel runs once to
 * warm up and RUNS times timed (CL_PROFILING_COMMAND_START..END, bins
 * cleared before each run, outside the timing), and the lowest median is
 * kept. Every group count's result is checked against the host histogram;
 * a mismatch prints the first differing bin and exits with 1.
 *
 *   HISTO_PLATFORM=NAME histo_hand [log2 n] [256|4096] [uniform|skewed]
 *                                  [count|weighted] [runs]
 *
 * HISTO_PLATFORM: a substring of the platform name ("NVIDIA", "Portable
 * Computing Language"); unset: the first platform with a GPU, else the
 * first platform. The first device of the platform runs the kernel.
 * HISTO_BUILD_OPTIONS: extra OpenCL build options, after the program's own
 * (experiments; test/lit/run/bench-histo-hand.test redefines SHIFT with it
 * to show that a wrong histogram fails the check).
 * Output: one line per group count, then
 *   hand: kernel_ms=X groups=G wg=W check=ok device="..." platform="..."
 *
 *===----------------------------------------------------------------------===*/
#define CL_TARGET_OPENCL_VERSION 120
#include <CL/cl.h>

#include "histo_data.h"

#include <string.h>

static const char *kernel_src =
    "#ifdef WEIGHTED\n"
    "#define WEIGHT(i) w[i]\n"
    "#else\n"
    "#define WEIGHT(i) 1u\n"
    "#endif\n"
    "__kernel void histo_local(__global const KEY_T *key, __global const uint *w,\n"
    "                          __global uint *bins, const uint n) {\n"
    "  __local uint lb[NBINS];\n"
    "  const uint l = get_local_id(0), ls = get_local_size(0);\n"
    "  for (uint b = l; b < NBINS; b += ls)\n"
    "    lb[b] = 0;\n"
    "  barrier(CLK_LOCAL_MEM_FENCE);\n"
    "  const uint stride = get_global_size(0);\n"
    "  for (uint i = get_global_id(0); i < n; i += stride)\n"
    "    atomic_add(&lb[key[i] >> SHIFT], WEIGHT(i));\n"
    "  barrier(CLK_LOCAL_MEM_FENCE);\n"
    "  for (uint b = l; b < NBINS; b += ls) {\n"
    "    const uint v = lb[b];\n"
    "    if (v)\n"
    "      atomic_add(&bins[b], v);\n"
    "  }\n"
    "}\n";

#define CHECK(call)                                                            \
  do {                                                                         \
    cl_int err_ = (call);                                                      \
    if (err_ != CL_SUCCESS) {                                                  \
      fprintf(stderr, "histo_hand: %s failed: %d\n", #call, (int)err_);        \
      exit(3);                                                                 \
    }                                                                          \
  } while (0)

static int cmp_double(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return (x > y) - (x < y);
}

/* The platform whose name contains HISTO_PLATFORM, else the first with a
   GPU, else the first; its first device in *dev. */
static cl_platform_id pick_platform(cl_device_id *dev) {
  cl_uint np = 0;
  if (clGetPlatformIDs(0, NULL, &np) != CL_SUCCESS || np == 0) {
    fprintf(stderr, "histo_hand: no OpenCL platform\n");
    exit(3);
  }
  cl_platform_id *ps = calloc(np, sizeof *ps);
  CHECK(clGetPlatformIDs(np, ps, NULL));
  const char *want = getenv("HISTO_PLATFORM");
  cl_platform_id chosen = NULL;
  for (int pass = 0; pass < 2 && !chosen; pass++) {
    for (cl_uint p = 0; p < np && !chosen; p++) {
      char name[256] = "";
      clGetPlatformInfo(ps[p], CL_PLATFORM_NAME, sizeof name - 1, name, NULL);
      cl_device_type type = want && *want ? CL_DEVICE_TYPE_ALL : CL_DEVICE_TYPE_GPU;
      if (want && *want && !strstr(name, want))
        continue;
      if (pass == 1 && !(want && *want))
        type = CL_DEVICE_TYPE_ALL;
      if (clGetDeviceIDs(ps[p], type, 1, dev, NULL) == CL_SUCCESS)
        chosen = ps[p];
    }
  }
  free(ps);
  if (!chosen) {
    fprintf(stderr, "histo_hand: no platform %s%s%s with a device\n", want ? "named \"" : "",
            want ? want : "", want ? "\"" : "");
    exit(3);
  }
  return chosen;
}

int main(int argc, char **argv) {
  struct histo_opts o;
  if (!histo_parse(argc, argv, 9, &o))
    return 2;
  int nbins = o.bins, weighted = o.weighted, runs = o.reps;
  size_t n = (size_t)1 << o.lg, ksize = nbins == 256 ? 1 : 2;
  void *key = malloc(n * ksize);
  unsigned *w = weighted ? malloc(sizeof(unsigned) * n) : NULL;
  unsigned *want = calloc((size_t)nbins, sizeof *want);
  unsigned *got = calloc((size_t)nbins, sizeof *got);
  double *ms = calloc((size_t)runs, sizeof *ms);
  if (!key || (weighted && !w) || !want || !got || !ms)
    return 1;
  histo_fill(key, w, nbins, o.skewed, (long)n);
  for (size_t i = 0; i < n; i++) {
    unsigned b = nbins == 256 ? ((unsigned char *)key)[i] : ((unsigned short *)key)[i] >> 4u;
    want[b] += w ? w[i] : 1u;
  }

  cl_device_id dev;
  cl_platform_id plat = pick_platform(&dev);
  char pname[256] = "", dname[256] = "";
  clGetPlatformInfo(plat, CL_PLATFORM_NAME, sizeof pname - 1, pname, NULL);
  clGetDeviceInfo(dev, CL_DEVICE_NAME, sizeof dname - 1, dname, NULL);
  cl_uint cus = 1;
  clGetDeviceInfo(dev, CL_DEVICE_MAX_COMPUTE_UNITS, sizeof cus, &cus, NULL);
  cl_int err;
  cl_context ctx = clCreateContext(NULL, 1, &dev, NULL, NULL, &err);
  CHECK(err);
  cl_command_queue q = clCreateCommandQueue(ctx, dev, CL_QUEUE_PROFILING_ENABLE, &err);
  CHECK(err);
  cl_program prog = clCreateProgramWithSource(ctx, 1, &kernel_src, NULL, &err);
  CHECK(err);
  char opts[512];
  const char *extra = getenv("HISTO_BUILD_OPTIONS");
  snprintf(opts, sizeof opts, "-DKEY_T=%s -DSHIFT=%du -DNBINS=%d%s %s",
           nbins == 256 ? "uchar" : "ushort", nbins == 256 ? 0 : 4, nbins,
           weighted ? " -DWEIGHTED" : "", extra ? extra : "");
  if (clBuildProgram(prog, 1, &dev, opts, NULL, NULL) != CL_SUCCESS) {
    char log[8192] = "";
    clGetProgramBuildInfo(prog, dev, CL_PROGRAM_BUILD_LOG, sizeof log - 1, log, NULL);
    fprintf(stderr, "histo_hand: build failed:\n%s\n", log);
    return 3;
  }
  cl_kernel k = clCreateKernel(prog, "histo_local", &err);
  CHECK(err);
  size_t wg = 256, kmax = 0;
  CHECK(clGetKernelWorkGroupInfo(k, dev, CL_KERNEL_WORK_GROUP_SIZE, sizeof kmax, &kmax, NULL));
  while (wg > kmax && wg > 1)
    wg /= 2;

  cl_mem dkey = clCreateBuffer(ctx, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, n * ksize, key, &err);
  CHECK(err);
  cl_mem dw = NULL;
  if (weighted) {
    dw = clCreateBuffer(ctx, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, n * sizeof(unsigned), w, &err);
    CHECK(err);
  }
  cl_mem dbins = clCreateBuffer(ctx, CL_MEM_READ_WRITE, (size_t)nbins * sizeof(unsigned), NULL, &err);
  CHECK(err);
  cl_uint n32 = (cl_uint)n;
  CHECK(clSetKernelArg(k, 0, sizeof dkey, &dkey));
  CHECK(clSetKernelArg(k, 1, sizeof dw, &dw));
  CHECK(clSetKernelArg(k, 2, sizeof dbins, &dbins));
  CHECK(clSetKernelArg(k, 3, sizeof n32, &n32));

  double best = -1;
  size_t best_groups = 0;
  /* Groups per compute unit, then (as 0, 1) keys per work-item. */
  static const unsigned per_cu[] = {1, 2, 4, 8, 16, 32, 0, 0};
  static const unsigned per_item[] = {0, 0, 0, 0, 0, 0, 16, 64};
  for (unsigned c = 0; c < sizeof per_cu / sizeof *per_cu; c++) {
    size_t groups = per_cu[c] ? per_cu[c] * (size_t)cus : n / (per_item[c] * wg);
    size_t global = groups * wg;
    if (groups == 0 || global > n)
      continue;
    const cl_uint zero = 0;
    for (int r = -1; r < runs; r++) {
      cl_event ev;
      CHECK(clEnqueueFillBuffer(q, dbins, &zero, sizeof zero, 0,
                                (size_t)nbins * sizeof(unsigned), 0, NULL, NULL));
      CHECK(clEnqueueNDRangeKernel(q, k, 1, NULL, &global, &wg, 0, NULL, &ev));
      CHECK(clWaitForEvents(1, &ev));
      cl_ulong t0, t1;
      CHECK(clGetEventProfilingInfo(ev, CL_PROFILING_COMMAND_START, sizeof t0, &t0, NULL));
      CHECK(clGetEventProfilingInfo(ev, CL_PROFILING_COMMAND_END, sizeof t1, &t1, NULL));
      clReleaseEvent(ev);
      if (r >= 0)
        ms[r] = (double)(t1 - t0) * 1e-6;
    }
    CHECK(clEnqueueReadBuffer(q, dbins, CL_TRUE, 0, (size_t)nbins * sizeof(unsigned), got, 0,
                              NULL, NULL));
    for (int b = 0; b < nbins; b++) {
      if (got[b] != want[b]) {
        fprintf(stderr, "histo_hand: WRONG histogram with %zu groups: bin %d is %u, host %u\n",
                groups, b, got[b], want[b]);
        return 1;
      }
    }
    qsort(ms, (size_t)runs, sizeof *ms, cmp_double);
    double med = ms[runs / 2];
    char shape[64];
    if (per_cu[c])
      snprintf(shape, sizeof shape, "%u per compute unit", per_cu[c]);
    else
      snprintf(shape, sizeof shape, "%u keys per work-item", per_item[c]);
    printf("hand groups=%zu (%s) wg=%zu kernel_ms=%.4f (median of %d) check=ok\n", groups, shape,
           wg, med, runs);
    if (best < 0 || med < best)
      best = med, best_groups = groups;
  }
  if (best < 0) {
    fprintf(stderr, "histo_hand: n = %zu is below one work-group per compute unit\n", n);
    return 2;
  }
  printf("hand: kernel_ms=%.4f groups=%zu wg=%zu check=ok device=\"%s\" platform=\"%s\"\n", best,
         best_groups, wg, dname, pname);
  return 0;
}
