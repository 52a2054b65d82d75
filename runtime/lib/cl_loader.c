/*===- cl_loader.c - libOpenCL.so.1 through dlopen ------------------------===*
 *
 * The runtime never links libOpenCL: a program built with the plugin must
 * start where no OpenCL is installed. The library named by
 * IDIOM_OPENCL_LIBRARY (default "libOpenCL.so.1") is opened once and every
 * entry point the runtime uses is resolved into a table of function pointers.
 *
 *===----------------------------------------------------------------------===*/
#include "rt_internal.h"

#include <dlfcn.h>

static idiomrt_cl g_cl;
static int g_cl_ok;
static pthread_once_t g_cl_once = PTHREAD_ONCE_INIT;

static void cl_load(void) {
  /* from now on device copies may exist: the stitched code calls the
     region functions (pending.c) */
  idiomrt_pending_device();
  const char *name = idiomrt_config_get()->opencl_library;
  void *h = dlopen(name, RTLD_NOW | RTLD_LOCAL);
  if (!h) {
    const char *e = dlerror();
    idiomrt_debug("cannot load %s: %s", name, e ? e : "unknown error");
    return;
  }
  g_cl.handle = h;
#define IDIOMRT_CL_RESOLVE(f)                                                  \
  g_cl.f = (__typeof__(&f))dlsym(h, #f);                                       \
  if (!g_cl.f) {                                                               \
    idiomrt_debug("%s lacks %s", name, #f);                                    \
    dlclose(h);                                                                \
    g_cl.handle = NULL;                                                        \
    return;                                                                    \
  }
  IDIOMRT_CL_FUNCS(IDIOMRT_CL_RESOLVE)
#undef IDIOMRT_CL_RESOLVE
  g_cl_ok = 1;
  idiomrt_debug("loaded %s", name);
}

const idiomrt_cl *idiomrt_cl_load(void) {
  pthread_once(&g_cl_once, cl_load);
  return g_cl_ok ? &g_cl : NULL;
}

const char *idiomrt_cl_error_name(cl_int err) {
  switch (err) {
#define E(c)                                                                   \
  case c:                                                                      \
    return #c;
    E(CL_SUCCESS)
    E(CL_DEVICE_NOT_FOUND)
    E(CL_DEVICE_NOT_AVAILABLE)
    E(CL_COMPILER_NOT_AVAILABLE)
    E(CL_MEM_OBJECT_ALLOCATION_FAILURE)
    E(CL_OUT_OF_RESOURCES)
    E(CL_OUT_OF_HOST_MEMORY)
    E(CL_PROFILING_INFO_NOT_AVAILABLE)
    E(CL_MEM_COPY_OVERLAP)
    E(CL_IMAGE_FORMAT_MISMATCH)
    E(CL_IMAGE_FORMAT_NOT_SUPPORTED)
    E(CL_BUILD_PROGRAM_FAILURE)
    E(CL_MAP_FAILURE)
    E(CL_MISALIGNED_SUB_BUFFER_OFFSET)
    E(CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST)
    E(CL_COMPILE_PROGRAM_FAILURE)
    E(CL_LINKER_NOT_AVAILABLE)
    E(CL_LINK_PROGRAM_FAILURE)
    E(CL_DEVICE_PARTITION_FAILED)
    E(CL_KERNEL_ARG_INFO_NOT_AVAILABLE)
    E(CL_INVALID_VALUE)
    E(CL_INVALID_DEVICE_TYPE)
    E(CL_INVALID_PLATFORM)
    E(CL_INVALID_DEVICE)
    E(CL_INVALID_CONTEXT)
    E(CL_INVALID_QUEUE_PROPERTIES)
    E(CL_INVALID_COMMAND_QUEUE)
    E(CL_INVALID_HOST_PTR)
    E(CL_INVALID_MEM_OBJECT)
    E(CL_INVALID_IMAGE_FORMAT_DESCRIPTOR)
    E(CL_INVALID_IMAGE_SIZE)
    E(CL_INVALID_SAMPLER)
    E(CL_INVALID_BINARY)
    E(CL_INVALID_BUILD_OPTIONS)
    E(CL_INVALID_PROGRAM)
    E(CL_INVALID_PROGRAM_EXECUTABLE)
    E(CL_INVALID_KERNEL_NAME)
    E(CL_INVALID_KERNEL_DEFINITION)
    E(CL_INVALID_KERNEL)
    E(CL_INVALID_ARG_INDEX)
    E(CL_INVALID_ARG_VALUE)
    E(CL_INVALID_ARG_SIZE)
    E(CL_INVALID_KERNEL_ARGS)
    E(CL_INVALID_WORK_DIMENSION)
    E(CL_INVALID_WORK_GROUP_SIZE)
    E(CL_INVALID_WORK_ITEM_SIZE)
    E(CL_INVALID_GLOBAL_OFFSET)
    E(CL_INVALID_EVENT_WAIT_LIST)
    E(CL_INVALID_EVENT)
    E(CL_INVALID_OPERATION)
    E(CL_INVALID_GL_OBJECT)
    E(CL_INVALID_BUFFER_SIZE)
    E(CL_INVALID_MIP_LEVEL)
    E(CL_INVALID_GLOBAL_WORK_SIZE)
    E(CL_INVALID_PROPERTY)
    E(CL_INVALID_IMAGE_DESCRIPTOR)
    E(CL_INVALID_COMPILER_OPTIONS)
    E(CL_INVALID_LINKER_OPTIONS)
    E(CL_INVALID_DEVICE_PARTITION_COUNT)
#undef E
  case -1001:
    return "CL_PLATFORM_NOT_FOUND_KHR";
  default:
    return "CL_UNKNOWN_ERROR";
  }
}
