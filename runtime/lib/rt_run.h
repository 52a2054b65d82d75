/*===- rt_run.h - The state of one device run -----------------------------===*
 *
 * Private to runtime/lib (rt_internal.h includes it).
 *
 * One device run of idiom_run (launch.c) or of the second device's
 * detached warm-up (startup_warm.c), split by concern:
 *
 *   run.c          its life: init, the decline reason, its events (wait,
 *                  profile), release, and its end (settle)
 *   gate.c         the zero-copy failure gate: the user event its kernels
 *                  wait for (zerocopy.c, "failure")
 *   run_buffers.c  its device buffers: inputs copied in, outputs mapped
 *                  back, element offsets, reduction scratch
 *   enqueue.c      its kernels: work-group sizes and NDRanges of maps
 *                  (row blocks, row walks) and two-stage reductions
 *   tune_race.c    the timing of a descriptor's variants on its buffers
 *
 * Every function that can fail returns 1, or 0 with the reason written to
 * r->reason (a decline reason, idiom_last_reason).
 *
 *===----------------------------------------------------------------------===*/
#ifndef IDIOMRT_RUN_H
#define IDIOMRT_RUN_H

#include "rt_cl.h"
#include "rt_device.h"
#include "rt_launch.h"
#include "rt_registry.h"
#include "rt_residency.h"
#include "idiomrt.h"
#include <stddef.h>
#include <stdint.h>

/* A run's events, for the decline reason of one that failed and for its
   profile (kernel time, transfer time). */
enum idiomrt_ev_kind { IDIOMRT_EV_TRANSFER = 0, IDIOMRT_EV_KERNEL = 1 };

/* Elements of a reduction's per-group partial results (part_k): the most
   work-groups of its first stage. */
#define IDIOMRT_REDUCE_MAX_G 1024

/* An output mapped back for reading (run_buffers.c): its bytes go to the
   host once every command of the run completed (launch.c). */
typedef struct idiomrt_mapping {
  cl_mem mem;
  void *dev_ptr;             /* what clEnqueueMapBuffer returned */
  void *host;                /* where the bytes go on success */
  const unsigned char *snap; /* write only bytes that differ, or NULL */
  size_t bytes;
} idiomrt_mapping;

/* One device run; zeroed by idiomrt_run_init, owned by its caller (on the
   stack), released by idiomrt_run_cleanup. */
typedef struct idiomrt_run {
  const idiomrt_device *dev;
  const idiomrt_cl *cl;
  idiomrt_entry *e;
  const idiom_kernel_desc *d;
  const idiom_arg *args;         /* the caller's, or view */
  uint32_t nargs;
  idiom_arg *view;               /* in-place inputs emptied (inplace.c) */
  uint32_t *alias;               /* per argument: 1 + the output whose
                                    buffer an in-place input shares, or 0 */
  const uint64_t *sizes;
  cl_mem *mems;                  /* per argument; NULL for scalars */
  cl_mem *pristine;              /* tuning: copies of OUT/INOUT buffers */
  unsigned char **snap;          /* per argument: copied-in bytes, or NULL */
  cl_mem parts[IDIOM_MAX_RESULTS]; /* reductions: part_k, G elements */
  cl_mem outs[IDIOM_MAX_RESULTS];  /* reductions: out_k, one element */
  cl_event *ev;                  /* every command this run enqueued */
  unsigned char *ev_kind;        /* per event: enum idiomrt_ev_kind */
  unsigned nev, ev_cap;
  idiomrt_mapping *maps;         /* outputs mapped back for reading */
  unsigned nmaps;
  uint64_t host_copy_ns;
  uint64_t sample;               /* tuning a map: iterations launched, 0 all */
  uint64_t work;                 /* the size class counts this when larger
                                    than the iterations: a CSR SpMV's
                                    nonzeros (0: the iterations) */
  uint64_t hint_iters;           /* the call's idiom_work_hint (innermost
                                    iterations, 0: none): tuning's
                                    IDIOM_TUNE_MIN counts it too */
  uint64_t bytes_in, bytes_out;  /* host-to-device, device-to-host */
  int untuned;                   /* a class not tuned yet runs its default
                                    variant untimed (device-wait, devwait.c) */
  const idiom_csr *csr;          /* a CSR SpMV's matrix, else NULL */
  cl_mem blocks_mem;             /* row blocks of the load-balanced variant */
  const int64_t *blocks;         /* their host copy (csr.c's memo or owned) */
  int64_t *blocks_owned;         /* freed by idiomrt_run_cleanup */
  int64_t nblocks;
  idiomrt_resid_call rc;         /* inside a region (residency.c) */
  unsigned char *zc;             /* per argument: 1 a buffer over the
                                    program's memory (zerocopy.c), 2 one the
                                    driver refused, copied outside the range
                                    table; or NULL */
  size_t *zc_base;               /* its bytes before the argument's start */
  int zc_backup;                 /* INOUT zero-copy bytes copied aside */
  cl_event gate;                 /* a user event the kernels wait for, or
                                    NULL (zerocopy.c, "failure") */
  int gate_open;                 /* completed: the kernels may run */
  int launched;                  /* a kernel of the real run enqueued */
  uint32_t *off_elem;            /* a map whose kernels take element offsets
                                    (e->offsets): per argument, the element
                                    bytes of a buffer, else 0; or NULL */
  uint32_t noffs;                /* offset parameters: one per buffer */
  char *reason;
  size_t reason_len;
  uint64_t t_buffers, t_launched, t_waited; /* phase ends (IDIOM_DEBUG=time) */
} idiomrt_run;

/*--- run.c: a run's life -------------------------------------------------*/

/* r: a run of e's descriptor on dev with args, sizes and the reason
   buffer (n bytes, emptied); every other field zero. */
void idiomrt_run_init(idiomrt_run *r, const idiomrt_device *dev,
                      idiomrt_entry *e, const idiom_arg *args, uint32_t nargs,
                      const uint64_t *sizes, char *reason, size_t n);
/* Writes "OpenCL error N (NAME) in what" / why as r's reason; returns 0. */
int idiomrt_run_cl_fail(idiomrt_run *r, const char *what, cl_int err);
int idiomrt_run_fail(idiomrt_run *r, const char *why);
/* Adds ev (of kind enum idiomrt_ev_kind) to r's events; r->ev is sized
   up front (r->ev_cap) for every command a run can enqueue. */
void idiomrt_run_add_event(idiomrt_run *r, cl_event ev, int kind);
/* Waits for every command of r; 0 (with the reason) when any failed. */
int idiomrt_run_wait_all(idiomrt_run *r);
/* The nanoseconds of r's kernels and of its transfers (commands' profiling
   times plus the host copies, r->host_copy_ns). */
void idiomrt_run_profile(idiomrt_run *r, uint64_t *kernel_ns,
                         uint64_t *transfer_ns);
/* Releases everything r made. First waits for each command already
   enqueued, so no command still reads host memory once idiom_run has
   returned. */
void idiomrt_run_cleanup(idiomrt_run *r);
/* The end of r, ok or not: residency ranges committed, or else the gate
   closed, zero-copy in-place bytes put back (or, without a backup, the
   abort when a kernel may have written: only when program_args, the
   arguments being the program's own), residency ranges dropped. */
void idiomrt_run_settle(idiomrt_run *r, int ok, int program_args);

/*--- gate.c: the zero-copy failure gate ----------------------------------*/

/* A kernel's wait list (num_events_in_wait_list, event_wait_list): r's
   gate, when it has one. */
#define IDIOMRT_GATE(r) (r)->gate ? 1u : 0u, (r)->gate ? &(r)->gate : NULL
/* Creates r->gate, the user event r's kernels wait for (a run that copies
   no INOUT zero-copy bytes aside); it opens only once every command of the
   run is enqueued. */
int idiomrt_gate_make(idiomrt_run *r);
/* Opens r->gate (r->gate_open set even when that fails: the kernels may
   run). */
int idiomrt_gate_open(idiomrt_run *r);
/* A failed run's gate, if still closed: set to an error, so that the
   commands waiting for it are terminated unrun (OpenCL 1.2,
   clSetUserEventStatus); where even that fails, counted as opened. */
void idiomrt_gate_fail(idiomrt_run *r);

/*--- run_buffers.c: a run's device buffers -------------------------------*/

/* A device buffer of max(bytes, 1) bytes into *out; copies host's bytes in
   when host is not NULL (staged through pinned memory, or enqueued). */
int idiomrt_run_make_buffer(idiomrt_run *r, cl_mem_flags flags,
                            const void *host, uint64_t bytes, cl_mem *out);
/* r->mems: every buffer argument's device buffer: a zero-copy buffer
   (zerocopy.c), a resident one (residency.c, inside a region), else a new
   one with the host's bytes (an output's from a snapshot, r->snap). */
int idiomrt_run_create_buffers(idiomrt_run *r);
/* Byte offset of argument i's range in r->mems[i]: a sub-range of a
   resident entry passed as the entry's buffer (residency.c), or of a
   zero-copy buffer, else 0. */
size_t idiomrt_run_mem_off(const idiomrt_run *r, uint32_t i);
/* The source's element bytes per buffer argument (r->e->offsets) into
   r->off_elem (a map's kernels that take element offsets). */
int idiomrt_run_parse_offsets(idiomrt_run *r);
/* Maps every OUT / INOUT argument buffer back for reading (r->maps),
   except those that stay on the device (residency.c). */
int idiomrt_run_map_outputs(idiomrt_run *r);
/* A reduction's: its results (to results + 8 * k), then its outputs. */
int idiomrt_run_map_results(idiomrt_run *r, void *results);
/* A reduction's part_k (IDIOMRT_REDUCE_MAX_G elements) and out_k buffers:
   the descriptor's scratch on r->dev (kept under r->e->lock), one more
   reference each in r->parts / r->outs. */
int idiomrt_run_reduce_buffers(idiomrt_run *r);

/*--- enqueue.c: a run's kernels ------------------------------------------*/

/* The work-group size of map variant v into local (a 3-D map's groups are
   2-D tiles of one plane: local[2] = 1); 0 with the reason when the
   kernel's reqd_work_group_size or the variant's wg= does not fit. */
int idiomrt_map_local(idiomrt_run *r, const idiomrt_variant *v,
                      size_t local[3]);
/* Sets the kernel arguments of variant k of r->e and enqueues it (a map,
   or a reduction's partial and final stages, waiting for r's gate); the
   events go to evs[*nev] (two at most). Under r->e->lock: the first launch
   of a second device's variant is marked (its launched flag) and, under
   IDIOM_TEST_SLOW_BUILD_MS, slowed as PoCL's first-launch compile. */
int idiomrt_launch_variant(idiomrt_run *r, unsigned k, cl_event *evs,
                           unsigned *nev);

/*--- tune_race.c: timing the variants ------------------------------------*/

/* Times every usable variant of r->e on r's buffers for size class cls
   (outputs restored before each launch and after), records the fastest
   (tuning.c) and returns it; -1 (with the reason) when none ran. */
int idiomrt_tune_variants(idiomrt_run *r, unsigned cls);

#endif /* IDIOMRT_RUN_H */
