// Issue 12 benchmark: the OpenCL driver's own start-up, step by step, the
// floor of any process that uses the device (no Idiom code). Times, in ms
// since main: dlopen of the library, the platform query (through the ICD
// loader, which loads every registered vendor there, or straight from one
// vendor library through its clIcdGetPlatformIDsKHR and the platform's ICD
// dispatch table, cl_icd.h), clGetDeviceIDs, clCreateContext,
// clCreateCommandQueue, and a first 4-byte buffer written (the context's lazy
// initialisation). The process's exit is timed by the caller
// (bench/cl_startup.sh).
//   cl_startup [gpu|cpu|all] [loader|VENDOR_LIBRARY] [exit|release|quick]
// exit: return from main; release: release the buffer, queue and context
// first (timed); quick: fflush and _exit(0), no exit handlers or destructors.
#define CL_TARGET_OPENCL_VERSION 120
#define CL_USE_DEPRECATED_OPENCL_1_1_APIS
#define CL_USE_DEPRECATED_OPENCL_1_2_APIS
#include <CL/cl.h>
#include <CL/cl_icd.h>
#include <dlfcn.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

static struct timespec T0;
static double ms(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (t.tv_sec - T0.tv_sec) * 1e3 + (t.tv_nsec - T0.tv_nsec) / 1e6;
}
#define SYM(h, n) ((__typeof__(&n))dlsym(h, #n))

int main(int argc, char **argv) {
  clock_gettime(CLOCK_MONOTONIC, &T0);
  const char *want = argc > 1 ? argv[1] : "gpu";
  const char *lib = argc > 2 ? argv[2] : "loader";
  const char *how = argc > 3 ? argv[3] : "exit";
  cl_device_type type = !strcmp(want, "cpu") ? CL_DEVICE_TYPE_CPU
                        : !strcmp(want, "all") ? CL_DEVICE_TYPE_ALL
                                               : CL_DEVICE_TYPE_GPU;
  int direct = strcmp(lib, "loader") != 0;
  void *h = dlopen(direct ? lib : "libOpenCL.so.1", RTLD_NOW | RTLD_LOCAL);
  if (!h)
    return printf("cannot dlopen %s\n", direct ? lib : "libOpenCL.so.1"), 1;
  printf("dlopen %.1f\n", ms());
  cl_platform_id plats[16];
  cl_uint np = 0;
  cl_int err;
  if (direct) {
    clIcdGetPlatformIDsKHR_fn get =
        (clIcdGetPlatformIDsKHR_fn)dlsym(h, "clIcdGetPlatformIDsKHR");
    if (!get) {
      __typeof__(&clGetExtensionFunctionAddress) gefa =
          SYM(h, clGetExtensionFunctionAddress);
      get = gefa ? (clIcdGetPlatformIDsKHR_fn)gefa("clIcdGetPlatformIDsKHR")
                 : NULL;
    }
    if (!get || get(16, plats, &np) != CL_SUCCESS || !np)
      return printf("no ICD platform in %s\n", lib), 1;
  } else if (SYM(h, clGetPlatformIDs)(16, plats, &np) != CL_SUCCESS || !np) {
    return printf("no platform\n"), 1;
  }
  printf("platforms %.1f (%u)\n", ms(), np);
  // Every object of an ICD starts with its vendor's dispatch table; the
  // loader's own entry points are used when going through it.
  const cl_icd_dispatch *d = direct ? *(cl_icd_dispatch *const *)plats[0] : NULL;
#define CALL(f) (direct ? d->f : SYM(h, f))
  cl_device_id dev = 0;
  for (cl_uint p = 0; p < np && !dev; p++) {
    cl_uint nd = 0;
    if (CALL(clGetDeviceIDs)(plats[p], type, 1, &dev, &nd) != CL_SUCCESS)
      dev = 0;
  }
  if (!dev)
    return printf("no %s device\n", want), 1;
  char name[256] = "";
  CALL(clGetDeviceInfo)(dev, CL_DEVICE_NAME, sizeof name, name, NULL);
  printf("clGetDeviceIDs %.1f (%s)\n", ms(), name);
  cl_context ctx = CALL(clCreateContext)(NULL, 1, &dev, NULL, NULL, &err);
  if (!ctx)
    return printf("clCreateContext %d\n", err), 1;
  printf("clCreateContext %.1f\n", ms());
  cl_command_queue q = CALL(clCreateCommandQueue)(ctx, dev, 0, &err);
  if (!q)
    return printf("clCreateCommandQueue %d\n", err), 1;
  printf("clCreateCommandQueue %.1f\n", ms());
  int x = 1;
  cl_mem b = CALL(clCreateBuffer)(ctx, CL_MEM_READ_WRITE, sizeof x, NULL, &err);
  if (!b || CALL(clEnqueueWriteBuffer)(q, b, CL_TRUE, 0, sizeof x, &x, 0, NULL,
                                       NULL) != CL_SUCCESS)
    return printf("first buffer failed\n"), 1;
  printf("first buffer %.1f\n", ms());
  if (!strcmp(how, "release")) {
    CALL(clReleaseMemObject)(b);
    CALL(clReleaseCommandQueue)(q);
    CALL(clReleaseContext)(ctx);
    printf("released %.1f\n", ms());
  }
  fflush(stdout);
  if (!strcmp(how, "quick"))
    _exit(0);
  return 0;
}
