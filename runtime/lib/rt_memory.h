/*===- rt_memory.h - Zero-copy and staging ---------------------------------===*
 *
 * Private to runtime/lib (rt_internal.h includes it).
 *
 * Buffers over the program's own memory on host-unified devices
 * (zerocopy.c) and copies through pinned host memory (staging.c).
 *
 *===----------------------------------------------------------------------===*/
#ifndef IDIOMRT_MEMORY_H
#define IDIOMRT_MEMORY_H

#include "rt_device.h"
#include "idiomrt.h"
#include <stddef.h>
#include <stdint.h>

/*--- zerocopy.c: buffers over the program's memory on host-unified devices -*/

/* 1 when runs on dev create their buffers over the program's own memory
   (CL_MEM_USE_HOST_PTR): dev->host_unified and IDIOM_ZERO_COPY not off. */
int idiomrt_zc_device(const idiomrt_device *dev);
/* idiomrt_zc_device of the device this process would start, before it is
   started: of the device the start-up record names (calibration.c). */
int idiomrt_zc_expected(void);
/* The alignment (bytes, a power of two) that a range's start needs to be
   passed as it is (IDIOM_ZERO_COPY_ALIGN, default 16). */
size_t idiomrt_zc_align(void);
/* Plans a run's buffer arguments on a zero-copy device: per argument,
   zc[i] = 1 when it gets a buffer over its own bytes, and base[i] the
   bytes the buffer starts before the argument (the start aligned down;
   only where elem[i] says the kernels take an element offset for it, else
   the start must be aligned). An argument overlapping another argument's
   covered bytes, and every output when no_outputs, get zc[i] = 0. */
void idiomrt_zc_plan(const idiomrt_device *dev, const idiom_arg *args,
                     uint32_t nargs, const uint32_t *elem, int no_outputs,
                     unsigned char *zc, size_t *base);
/* A CL_MEM_USE_HOST_PTR buffer over [p - base, p + bytes); NULL with *err
   when the driver refuses it (the caller copies instead). */
cl_mem idiomrt_zc_buffer(const idiomrt_device *dev, cl_mem_flags flags,
                         void *p, size_t base, size_t bytes, cl_int *err);
/* The buffers of a run's zero-copy arguments (zc[i] set by
   idiomrt_zc_plan): over the program's bytes, with backup each INOUT
   argument's bytes first copied into the calling thread's backup area (the
   time added to *host_copy_ns); one the driver refuses is marked zc[i] = 2
   and left to be copied as outside a region. 0 when out of host memory. */
int idiomrt_zc_buffers(const idiomrt_device *dev, const idiom_arg *args,
                       uint32_t nargs, unsigned char *zc, size_t *base,
                       cl_mem *mems, int backup, uint64_t *host_copy_ns);
/* Whether an INOUT argument is zero-copy (zc[i] == 1). */
int idiomrt_zc_inout(const idiom_arg *args, uint32_t nargs,
                     const unsigned char *zc);
/* After a failed run: waits for dev's commands, then puts the INOUT
   zero-copy arguments' bytes back as they were before the run (backed_up);
   without a backup, nothing when no kernel of the run can have run (the
   gate, gate.c), else a message naming loc and abort(). */
void idiomrt_zc_abort(const idiomrt_device *dev, const idiom_arg *args,
                      uint32_t nargs, const unsigned char *zc, int backed_up,
                      int may_have_written, const char *loc);
/* IDIOM_ZERO_COPY_BACKUP=always: every run backs its INOUT arguments up. */
int idiomrt_zc_backup_always(void);
/* INOUT bytes copied aside so far (tests). */
uint64_t idiomrt_zc_backup_bytes(void);
/* Counts zero-copy arguments and those copied for their alignment. */
void idiomrt_zc_count(uint64_t zc_args, uint64_t copied_args);
/* IDIOM_ZERO_COPY_TEST_FAIL (a test knob): 1, every run fails after its
   kernels completed; 2 (=enqueued), after its commands are enqueued, before
   its gate opens; else 0. */
int idiomrt_zc_test_fail(void);
/* The "idiom-stats: zero-copy" line, when a zero-copy device ran. */
void idiomrt_zc_report(void);

/*--- staging.c: copies through pinned host memory --------------------------*/

/* 1 when IDIOM_STAGING stages a copy of n bytes to dev (NULL: a device
   not started yet, taken to be one the mode stages for: a GPU under
   auto), 0 when it copies from the program's memory directly. */
int idiomrt_stage_applies(const idiomrt_device *dev, uint64_t n);
/* Makes the pinned staging slots for dev now (the runtime thread, once the
   builds that calls wait for are done) when IDIOM_STAGING would stage on
   dev; nothing when they exist, when a copy holds them, or when they
   cannot be made (the first staged copy tries again). */
void idiomrt_stage_prepare(const idiomrt_device *dev);
/* 1 when the slots exist (tests). */
int idiomrt_stage_ready(void);
/* Copies src[0, n) into dst at off through the pinned staging slots when
   IDIOM_STAGING allows it for dev and n and the slots are free: then
   *staged = 1 and the copy has completed (or failed: the error) on return.
   Otherwise *staged = 0, nothing was done, and the caller copies itself. */
cl_int idiomrt_stage_write(const idiomrt_device *dev, cl_mem dst, size_t off,
                           const void *src, size_t n, int *staged);
/* Reads src[off, off + n) through the slots, handing each chunk to
   consume(arg, pos, chunk, len) (pos: offset in the n bytes); *staged as
   above. Synchronous. */
cl_int idiomrt_stage_read(const idiomrt_device *dev, cl_mem src, size_t off,
                          size_t n,
                          void (*consume)(void *arg, size_t pos,
                                          const void *chunk, size_t len),
                          void *arg, int *staged);

#endif /* IDIOMRT_MEMORY_H */
