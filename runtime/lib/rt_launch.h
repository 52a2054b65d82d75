/*===- rt_launch.h - A run -------------------------------------------------===*
 *
 * Private to runtime/lib (rt_internal.h includes it).
 *
 * What one idiom_run shares with the other parts: its checks of a
 * descriptor and its arguments (checks.c), its thread state and declines
 * (launch.c), and writing back only the changed bytes (writeback.c).
 *
 *===----------------------------------------------------------------------===*/
#ifndef IDIOMRT_LAUNCH_H
#define IDIOMRT_LAUNCH_H

#include "idiomrt.h"
#include <stddef.h>
#include <stdint.h>

/*--- checks.c ------------------------------------------------------------*/

/* 1 for a buffer argument (IN, OUT, INOUT), 0 for a scalar. */
static inline int idiomrt_arg_is_buffer(uint32_t kind) {
  return kind <= IDIOM_ARG_BUF_INOUT;
}
/* 1 for an argument the kernel writes (OUT, INOUT). */
static inline int idiomrt_arg_is_output(uint32_t kind) {
  return kind == IDIOM_ARG_BUF_OUT || kind == IDIOM_ARG_BUF_INOUT;
}
/* 1 for an IN buffer flagged IDIOM_ARG_SNAPSHOT (read as before the run;
   may overlap the run's outputs). */
static inline int idiomrt_arg_is_snapshot(const idiom_arg *a) {
  return a->kind == IDIOM_ARG_BUF_IN && (a->flags & IDIOM_ARG_SNAPSHOT);
}


/* checks.c: why descriptor d or its arguments cannot run (a decline
   reason), or NULL. */
const char *idiomrt_check_desc(const idiom_kernel_desc *d,
                               const idiom_arg *args, uint32_t nargs,
                               const uint64_t *sizes, const void *results);
/* checks.c: the product of d's ndims sizes, UINT64_MAX on overflow. */
uint64_t idiomrt_trip_count(const idiom_kernel_desc *d,
                            const uint64_t *sizes);
/* checks.c: 1 when an OUT / INOUT range of args overlaps any other
   non-empty buffer range of args (the runtime's overlap check). */
int idiomrt_args_overlap(const idiom_arg *args, uint32_t nargs);
/* workgate.c: a call's work for the IDIOM_MIN_TRIP gate: the larger of
   trip and the 8-byte words of the ranges it reads (IN, INOUT, csr's
   nonzeros). */
uint64_t idiomrt_call_work(uint64_t trip, const idiom_arg *args,
                           uint32_t nargs, const idiom_csr *csr);
/* workgate.c: "work below threshold" when a call of trip iterations should
   run the original loop before the cost model sees it (its work below
   IDIOM_MIN_TRIP, outside a region holding device copies with the model
   on), else NULL. */
const char *idiomrt_work_gate(uint64_t trip, const idiom_arg *args,
                              uint32_t nargs, const idiom_csr *csr);
/* workgate.c: the gate's decline reason, "work below threshold". */
extern const char idiomrt_work_gate_reason[];
/* checks.c: idiomrt_args_overlap, but an IN range flagged
   IDIOM_ARG_SNAPSHOT may overlap outputs; *snapshot is set to 1 when one
   does (the run then needs separate device copies: no residency region). */
int idiomrt_args_overlap_snapshot(const idiom_arg *args, uint32_t nargs,
                                  int *snapshot);

/*--- inplace.c -----------------------------------------------------------*/

/* 1 when the IN argument *in is flagged IDIOM_ARG_INPLACE and its range is
   identical to the (OUT / INOUT) argument *out's. */
int idiomrt_inplace_alias(const idiom_arg *in, const idiom_arg *out);
/* For a run whose IN arguments alias outputs (idiomrt_inplace_alias): a
   copy of args in which each such IN argument is empty (bytes 0: no device
   buffer, no residency entry, no copy) and its output is INOUT (read too);
   (*alias)[i] is 1 + the output's index for such an i, else 0. Returns 1
   with both allocated (free them), 0 with both NULL when no argument
   aliases, -1 when out of host memory. */
int idiomrt_inplace_view(const idiom_arg *args, uint32_t nargs,
                         idiom_arg **view, uint32_t **alias);

/*--- launch.c ------------------------------------------------------------*/

/* 1 while the calling thread is inside an idiom_run (a signal handler that
   calls into the runtime then must not touch the thread's state). */
int idiomrt_in_runtime(void);
/* launch.c: declines a run of d with reason (idiom_last_reason, stats);
   returns 0. */
int idiomrt_decline_pair(const idiom_kernel_desc *d, const char *reason);
/* launch.c: sets what idiom_last_kernel_ms returns on the calling thread. */
void idiomrt_set_last_kernel_ms(double ms);

/*--- writeback.c -----------------------------------------------------------*/

/* Stores to host[i] = dev[i] for every i < n where dev[i] != snap[i], and
   to no other byte. */
void idiomrt_write_changed(void *host, const void *dev, const void *snap,
                           size_t n);

#endif /* IDIOMRT_LAUNCH_H */
