/*===- lsan.c - LeakSanitizer suppressions for the OpenCL implementation --===*
 *
 * In a program built with -fsanitize=address (or leak), LeakSanitizer
 * reports at exit every unreachable block, and a report changes the exit
 * status. ICD loaders and OpenCL implementations leave such blocks behind
 * (the Khronos loader and PoCL after platform enumeration, also when no
 * device matches). The suppressions below cover only leaks whose allocation
 * stack passes through the ICD loader (libOpenCL) or a known ICD (libpocl,
 * libnvidia-opencl); a leak of the program or of this runtime is still
 * reported.
 *
 * The definition is weak: a program that defines its own
 * __lsan_default_suppressions keeps it (and should add these lines). The
 * sanitizer runtime calls the function only when it is present; without a
 * sanitizer nothing refers to it. launch.c refers to it so that the archive
 * member is always linked.
 *
 *===----------------------------------------------------------------------===*/
#include "rt_internal.h"

__attribute__((weak, visibility("default"))) const char *
__lsan_default_suppressions(void) {
  return "leak:libOpenCL.so\n"
         "leak:libpocl.so\n"
         "leak:libnvidia-opencl.so\n";
}
