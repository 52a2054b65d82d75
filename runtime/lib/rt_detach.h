/*===- rt_detach.h - The device's files closed after the process exits ----===*
 *
 * Private to runtime/lib (rt_internal.h includes it); self-contained, so a
 * benchmark (bench/cl_startup.c) can build exit_detach.c alone.
 *
 * A GPU driver tears its context down when the last reference to its
 * device files and to the process's address space goes: on the H200 about
 * 110 ms in the kernel at every exit, which `_exit` or releasing the
 * context first do not shorten (docs/Benchmarks.md, seventeenth session).
 * At exit, a process cloned with CLONE_VM (no copy of the memory) keeps
 * the files the driver opened and the address space, and closes them once
 * this process has exited: the teardown runs after the program's exit, not
 * before it.
 *
 *===----------------------------------------------------------------------===*/
#ifndef IDIOMRT_DETACH_H
#define IDIOMRT_DETACH_H

/* Call on the thread that opens the device, right before it opens it:
   notes the file descriptors already open (from /proc/self/fd; the first
   IDIOMRT_DETACH_MAX_FD). */
#define IDIOMRT_DETACH_MAX_FD 4096
void idiomrt_detach_before_open(void);
/* Right after the device opened: the descriptors opened since that are
   character devices (the driver's, such as /dev/nvidia0) are the ones the
   detached process keeps, recorded with their device and inode numbers.
   Returns how many. */
unsigned idiomrt_detach_after_open(void);
/* At exit, after the runtime's last device call may still come (the child
   only holds references; this process goes on using the device): starts
   the detached process when some recorded descriptor is still open on the
   same file. It closes every other descriptor at once (so a pipe's reader
   sees its end when this process exits), waits for this process's exit
   (the end of a pipe only this process writes to), sleeps hold_ms (a test
   knob, 0 otherwise), closes the kept files and exits. Returns its
   process id, 0 when nothing is kept, -1 when it could not start (*why:
   the failing step). At most once per process. */
int idiomrt_detach_at_exit(unsigned hold_ms, const char **why);

#endif
