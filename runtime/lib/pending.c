/*===- pending.c - Whether the calls around fallback loops have work -----===*
 *
 * idiom_pending_work (idiomrt.h) is the word that the plugin's stitched
 * code reads before each call of idiom_region_sync, idiom_region_load,
 * idiom_region_store and idiom_host_end_site, which it makes only while
 * the word is nonzero. Each of them returns at once when its thread holds
 * no device copy, has handed out no region epoch and has no host-time
 * measurement pending; the word is nonzero whenever some thread may be in
 * another state:
 *
 *   IDIOMRT_PENDING_DEVICE, set once and never cleared: the OpenCL library
 *     was loaded (cl_loader.c: no device copy exists before) or a region
 *     epoch was handed out (residency.c, idiomrt_resid_epoch);
 *   the bits below it: the host-time measurements begun and not yet ended
 *     (costmodel.c, idiom_host_begin and idiom_host_end), in all threads.
 *
 * Every change is an atomic read-modify-write of the one word, made by the
 * thread whose state changes before that state can make a call necessary;
 * that thread's later loads read it or a later value (coherence), and no
 * value after its increment is 0 while its own measurement is pending (a
 * thread decrements only what it incremented). Another thread's copies and
 * measurements are never this thread's calls' business. So a relaxed load
 * that reads 0 means every call it skips would have returned at once. A
 * thread that exits with a measurement pending, or a fork's child, keeps
 * the calls (the word only errs towards making them).
 *
 * A program whose sites all stay on the host never loads OpenCL, and its
 * host measurements (about one call in 16 of a class, bench/tiny_host.sh)
 * end within their loop: around the other calls' fallback loops it makes
 * no runtime call at all, only a load and a branch.
 *
 *===----------------------------------------------------------------------===*/
#include "rt_internal.h"

/* Weak: a module of the plugin defines it too, weakly, next to its host
   hint words (passes/PendingGuards.cpp), and the linker keeps that one,
   the first it meets; this one serves programs without such a module. */
__attribute__((weak)) IDIOMRT_START_DATA int idiom_pending_work;

void idiomrt_pending_device(void) {
  if (!(__atomic_load_n(&idiom_pending_work, __ATOMIC_RELAXED) &
        IDIOMRT_PENDING_DEVICE))
    __atomic_or_fetch(&idiom_pending_work, IDIOMRT_PENDING_DEVICE,
                      __ATOMIC_RELAXED);
}

void idiomrt_pending_timing(int begun) {
  if (begun)
    __atomic_add_fetch(&idiom_pending_work, 1, __ATOMIC_RELAXED);
  else
    __atomic_sub_fetch(&idiom_pending_work, 1, __ATOMIC_RELAXED);
}
