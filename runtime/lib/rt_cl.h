/*===- rt_cl.h - The OpenCL headers of the runtime ------------------------===*
 *
 * Private to runtime/lib. CL/cl.h at the OpenCL version the runtime
 * targets (1.2), for every header that names an OpenCL type.
 *
 *===----------------------------------------------------------------------===*/
#ifndef IDIOMRT_CL_H
#define IDIOMRT_CL_H

#ifndef CL_TARGET_OPENCL_VERSION
#define CL_TARGET_OPENCL_VERSION 120
#endif
#include <CL/cl.h>

#endif /* IDIOMRT_CL_H */
