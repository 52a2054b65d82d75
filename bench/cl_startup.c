// Issue 12 benchmark: the OpenCL driver's own start-up, step by step, the
// floor of any process that uses the device (no Idiom code). Times, in ms
// since main: dlopen of libOpenCL.so.1, clGetPlatformIDs (the ICD loader
// loads every registered vendor here), clGetDeviceIDs, clCreateContext,
// clCreateCommandQueue, and a first 4-byte buffer written (the context's lazy
// initialisation). The process's exit is timed by the caller
// (bench/cl_startup.sh).  Usage: cl_startup [gpu|cpu|all]
#define CL_TARGET_OPENCL_VERSION 120
#include <CL/cl.h>
#include <dlfcn.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

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
  cl_device_type type = !strcmp(want, "cpu") ? CL_DEVICE_TYPE_CPU
                        : !strcmp(want, "all") ? CL_DEVICE_TYPE_ALL
                                               : CL_DEVICE_TYPE_GPU;
  void *h = dlopen("libOpenCL.so.1", RTLD_NOW | RTLD_LOCAL);
  if (!h)
    return printf("no libOpenCL.so.1\n"), 1;
  printf("dlopen %.1f\n", ms());
  cl_platform_id plats[16];
  cl_uint np = 0;
  if (SYM(h, clGetPlatformIDs)(16, plats, &np) != CL_SUCCESS || !np)
    return printf("no platform\n"), 1;
  printf("clGetPlatformIDs %.1f (%u platforms)\n", ms(), np);
  cl_device_id dev = 0;
  for (cl_uint p = 0; p < np && !dev; p++) {
    cl_uint nd = 0;
    if (SYM(h, clGetDeviceIDs)(plats[p], type, 1, &dev, &nd) != CL_SUCCESS)
      dev = 0;
  }
  if (!dev)
    return printf("no %s device\n", want), 1;
  char name[256] = "";
  SYM(h, clGetDeviceInfo)(dev, CL_DEVICE_NAME, sizeof name, name, NULL);
  printf("clGetDeviceIDs %.1f (%s)\n", ms(), name);
  cl_int err;
  cl_context ctx = SYM(h, clCreateContext)(NULL, 1, &dev, NULL, NULL, &err);
  if (!ctx)
    return printf("clCreateContext %d\n", err), 1;
  printf("clCreateContext %.1f\n", ms());
  cl_command_queue q = SYM(h, clCreateCommandQueue)(ctx, dev, 0, &err);
  if (!q)
    return printf("clCreateCommandQueue %d\n", err), 1;
  printf("clCreateCommandQueue %.1f\n", ms());
  int x = 1;
  cl_mem b = SYM(h, clCreateBuffer)(ctx, CL_MEM_READ_WRITE, sizeof x, NULL, &err);
  if (!b || SYM(h, clEnqueueWriteBuffer)(q, b, CL_TRUE, 0, sizeof x, &x, 0, NULL,
                                         NULL) != CL_SUCCESS)
    return printf("first buffer failed\n"), 1;
  printf("first buffer %.1f\n", ms());
  fflush(stdout);
  return 0;
}
