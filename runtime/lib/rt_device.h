/*===- rt_device.h - OpenCL and its devices --------------------------------===*
 *
 * Private to runtime/lib (rt_internal.h includes it).
 *
 * libOpenCL through dlopen (cl_loader.c), the recorded vendor library
 * without the loader (cl_direct.c), the device and the second
 * device (device.c), and the floating-point limits of host and device
 * (fpenv.c).
 *
 *===----------------------------------------------------------------------===*/
#ifndef IDIOMRT_DEVICE_H
#define IDIOMRT_DEVICE_H

#include "rt_cl.h"
#include <stddef.h>

/*--- cl_loader.c: libOpenCL.so.1 through dlopen --------------------------*/

#define IDIOMRT_CL_FUNCS(X)                                                    \
  X(clGetPlatformIDs)                                                          \
  X(clGetPlatformInfo)                                                         \
  X(clGetDeviceIDs)                                                            \
  X(clGetDeviceInfo)                                                           \
  X(clCreateContext)                                                           \
  X(clReleaseContext)                                                          \
  X(clCreateCommandQueue)                                                      \
  X(clReleaseCommandQueue)                                                     \
  X(clCreateProgramWithSource)                                                 \
  X(clCreateProgramWithBinary)                                                 \
  X(clBuildProgram)                                                            \
  X(clGetProgramInfo)                                                          \
  X(clGetProgramBuildInfo)                                                     \
  X(clReleaseProgram)                                                          \
  X(clCreateKernel)                                                            \
  X(clGetKernelInfo)                                                          \
  X(clGetKernelWorkGroupInfo)                                                  \
  X(clSetKernelArg)                                                            \
  X(clReleaseKernel)                                                           \
  X(clCreateBuffer)                                                            \
  X(clReleaseMemObject)                                                        \
  X(clRetainMemObject)                                                         \
  X(clEnqueueReadBuffer)                                                       \
  X(clFinish)                                                                  \
  X(clEnqueueWriteBuffer)                                                      \
  X(clEnqueueReadBufferRect)                                                   \
  X(clEnqueueWriteBufferRect)                                                  \
  X(clEnqueueCopyBuffer)                                                       \
  X(clEnqueueFillBuffer)                                                       \
  X(clEnqueueMapBuffer)                                                        \
  X(clEnqueueUnmapMemObject)                                                   \
  X(clEnqueueNDRangeKernel)                                                    \
  X(clFlush)                                                                   \
  X(clWaitForEvents)                                                           \
  X(clGetEventInfo)                                                            \
  X(clGetEventProfilingInfo)                                                   \
  X(clCreateUserEvent)                                                         \
  X(clSetUserEventStatus)                                                      \
  X(clReleaseEvent)

typedef struct idiomrt_cl {
  void *handle;
#define IDIOMRT_CL_MEMBER(f) __typeof__(&f) f;
  IDIOMRT_CL_FUNCS(IDIOMRT_CL_MEMBER)
#undef IDIOMRT_CL_MEMBER
} idiomrt_cl;

/* Loads the library and resolves every function once; NULL when the library
   or any function is missing. */
const idiomrt_cl *idiomrt_cl_load(void);
/* "CL_OUT_OF_RESOURCES" etc.; "CL_UNKNOWN_ERROR" for codes it does not know. */
const char *idiomrt_cl_error_name(cl_int err);

/*--- cl_direct.c: the recorded vendor library, opened without the loader --*/

/* What a record says (IDIOM_CACHE_DIR/icd-<pref>.txt). */
typedef struct idiomrt_icd_record {
  uint64_t view;      /* idiomrt_icd_view() when it was written */
  char library[1024]; /* the vendor library's path (dladdr) */
  char platform[128]; /* CL_PLATFORM_NAME */
  char device[256];   /* CL_DEVICE_NAME */
} idiomrt_icd_record;

/* A hash of what the ICD loader would see now: the host's name, the
   loader's environment variables, the vendors directories' entries. */
uint64_t idiomrt_icd_view(void);
/* Reads the record of IDIOM_DEVICE preference pref into *rec and, when its
   view is view, opens its library and fills a table from the dispatch table
   of its platforms (clGetPlatformIDs: the library's
   clIcdGetPlatformIDsKHR). NULL with the reason in why (n bytes) when there
   is no usable record or the library fails; the library may then stay
   loaded. Once per process (the primary device's start-up). */
const idiomrt_cl *idiomrt_cl_direct_open(int pref, uint64_t view,
                                         idiomrt_icd_record *rec, char *why,
                                         size_t n);
/* 1 when object (a platform, device, ...) carries the dispatch table that
   the direct table was filled from. */
int idiomrt_cl_direct_same_vendor(const void *object);
/* After the loader opened the primary device of platform plat: writes the
   record of pref (the library providing plat, found with dladdr on its
   dispatch table; loader is the loader's table) unless old (NULL: none)
   says the same. */
void idiomrt_cl_direct_save(int pref, uint64_t view, cl_platform_id plat,
                            const char *platform_name, const char *device_name,
                            const idiomrt_cl *loader,
                            const idiomrt_icd_record *old);

/*--- device.c: platform / device selection, context and queue ------------*/

typedef struct idiomrt_device {
  const idiomrt_cl *cl;
  cl_platform_id platform;
  cl_device_id id;
  cl_context ctx;
  cl_command_queue queue; /* in order, CL_QUEUE_PROFILING_ENABLE */
  cl_device_type type;
  char name[256];         /* CL_DEVICE_NAME */
  char driver[128];       /* CL_DRIVER_VERSION */
  char version[128];      /* CL_DEVICE_VERSION */
  char platform_name[128];
  size_t max_wg;          /* CL_DEVICE_MAX_WORK_GROUP_SIZE */
  size_t max_item[3];     /* CL_DEVICE_MAX_WORK_ITEM_SIZES */
  cl_uint compute_units;
  cl_ulong local_mem;
  cl_ulong max_alloc;
  int fp32_denorm;          /* CL_FP_DENORM in CL_DEVICE_SINGLE_FP_CONFIG */
  int fp32_correct_divsqrt; /* CL_FP_CORRECTLY_ROUNDED_DIVIDE_SQRT there */
  const char *build_options; /* options of every clBuildProgram */
  int host_unified;         /* CL_DEVICE_HOST_UNIFIED_MEMORY (zerocopy.c) */
  size_t base_align;        /* CL_DEVICE_MEM_BASE_ADDR_ALIGN, in bytes */
} idiomrt_device;

/* Selects and initializes the device once per process (the outcome, success
   or failure, is kept). On failure returns NULL and sets *reason to a static
   string. Must not be called under IDIOM_DEVICE=seq. */
const idiomrt_device *idiomrt_device_get(const char **reason);
/* The device when already initialized, else NULL; never initializes, takes
   no lock. */
const idiomrt_device *idiomrt_device_peek(void);
/* On a runtime thread (startup.c): initializes the device here when nobody
   has tried yet; waits for the device lock. */
void idiomrt_device_init_here(void);
/* 0: not tried or in progress, 1: ready, -1: failed (*reason set); takes no
   lock. */
int idiomrt_device_state(const char **reason);
/* pthread_atfork child handler's part: re-initializes the device lock. */
void idiomrt_device_after_fork(void);
/* Returned through *reason by idiomrt_device_get (and used by launch.c)
   when another thread holds the lock or the runtime thread is busy. */
extern const char idiomrt_busy_reason[];

/* The second device (a CPU OpenCL device beside a GPU; issue 12 item 4):
   its own context and queue, opened on the runtime thread when the cost
   model first wants it. IDIOM_TEST_SECOND_CPU (a test knob): unset or 0,
   1 (the first CPU device opened again as the second device, whatever the
   primary is), "alternate" (also: with the cost model off, runs outside
   residency regions alternate between the two devices), "fail" (the second
   device fails to open; with the model off, runs alternate as under
   "alternate" and those sent to the second device decline), "regions"
   (as "alternate", inside residency regions too: the range table then
   meets entries of both devices). */
enum idiomrt_second_knob {
  IDIOMRT_SECOND_OFF = 0,
  IDIOMRT_SECOND_ON = 1,
  IDIOMRT_SECOND_ALTERNATE = 2, /* this and the ones below alternate */
  IDIOMRT_SECOND_FAIL = 3,
  IDIOMRT_SECOND_REGIONS = 4
};
int idiomrt_device2_knob(void);
/* 1 when a second device may be used: the primary is up and a GPU under
   IDIOM_DEVICE=auto with the cost model on, or the knob is set (under
   auto or cpu). */
int idiomrt_device2_wanted(void);
/* Opens the second device (on a runtime thread, waiting) unless tried;
   NULL with *reason when it is not wanted or failed. */
const idiomrt_device *idiomrt_device2_get(const char **reason);
/* On the start-up thread: opens it when wanted and not tried. */
void idiomrt_device2_init_here(void);
/* 0: not tried or in progress, 1: ready, -1: failed; takes no lock. */
int idiomrt_device2_state(void);
/* The second device when ready, else NULL; takes no lock. */
const idiomrt_device *idiomrt_device2_peek(void);

/*--- fpenv.c: host floating-point environment, device FP limits ----------*/

#define IDIOMRT_FP_SCANNED 1u /* always set by idiomrt_fp_scan */
#define IDIOMRT_FP_FLOAT 2u   /* float or half arithmetic */
#define IDIOMRT_FP_DOUBLE 4u  /* double arithmetic */
#define IDIOMRT_FP_DIVSQRT 8u /* a '/' or a sqrt / divide call */
/* Classifies an OpenCL C source (comments and strings skipped). */
unsigned idiomrt_fp_scan(const char *source);
/* The calling thread's FP environment: NULL when it is the device's (round
   to nearest, subnormals kept), else the decline reason. */
const char *idiomrt_host_fp_check(void);
/* NULL when dev computes a source with fp_bits as the host does, else the
   decline reason. */
const char *idiomrt_device_fp_check(const idiomrt_device *dev,
                                    unsigned fp_bits);

#endif /* IDIOMRT_DEVICE_H */
