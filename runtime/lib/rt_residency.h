/*===- rt_residency.h - Regions --------------------------------------------===*
 *
 * Private to runtime/lib (rt_internal.h includes it).
 *
 * Device copies of host ranges kept inside residency regions
 * (residency.c: the range table; resid_run.c: a run's use of it;
 * resid_host.c: host code on region memory).
 *
 *===----------------------------------------------------------------------===*/
#ifndef IDIOMRT_RESIDENCY_H
#define IDIOMRT_RESIDENCY_H

#include "rt_device.h"
#include "idiomrt.h"
#include <stddef.h>
#include <stdint.h>

/*--- pending.c: idiom_pending_work, read by the stitched code -----------*/

/* The sticky bit of idiom_pending_work: device copies may exist. */
#define IDIOMRT_PENDING_DEVICE (1 << 30)
/* Sets IDIOMRT_PENDING_DEVICE (before the OpenCL library is loaded, and
   when a region epoch is handed out). */
void idiomrt_pending_device(void);
/* A host-time measurement of the calling thread began (begun 1) or ended
   (begun 0): the count in idiom_pending_work. */
void idiomrt_pending_timing(int begun);

/*--- residency.c, resid_run.c, resid_host.c: device copies in regions ----*/

/* One buffer argument of a run that uses the range table. */
typedef struct idiomrt_resid_arg {
  int entry;     /* index in the calling thread's table */
  size_t off;    /* of the argument's range in the entry's range */
  int out;       /* OUT or INOUT */
  cl_mem view;   /* range strictly inside the entry: its own buffer */
  int direct;    /* strictly inside, passed as the entry's buffer and an
                    element offset (off / the call's elem[i]): no view */
  cl_mem backup; /* INOUT of a dirty entry: the bytes before the run */
  int view_spare, backup_spare; /* kept by the entry for later runs */
} idiomrt_resid_arg;

/* A run's use of the table. dev, sink and sink_ctx are set by the caller;
   sink receives every event residency.c enqueues (the run waits for them,
   checks and profiles them). */
typedef struct idiomrt_resid_call {
  const idiomrt_device *dev;
  void (*sink)(void *ctx, cl_event ev);
  void *sink_ctx;
  uint32_t nargs;
  const unsigned char *zc; /* per argument: 1 when it is a buffer over the
                              program's memory (zerocopy.c): no entry, and
                              overlapping entries go back first; or NULL */
  const uint32_t *elem;    /* per argument: element bytes when the kernels
                              take an element offset for it (the source's
                              //@idiom-offsets line), 0 or NULL: they do not */
  int used;                /* the run's buffers come from the table */
  idiomrt_resid_arg *arg;  /* nargs, when used */
  uint64_t bytes_in;       /* host to device copies enqueued */
  unsigned reused;         /* arguments served by an existing entry */
} idiomrt_resid_call;

/* 1 when the calling thread is inside a region (idiom_region_begin). */
int idiomrt_resid_active(void);
/* Inside a region: gives every non-empty buffer argument its device buffer
   in mems[i] (a reference the run releases), copying in only what the
   table lacks; entries that overlap an argument without containing it are
   copied back and dropped. When two arguments overlap each other, only the
   entries overlapping them are copied back and dropped, c->used stays 0 and
   mems is untouched (the run copies in and out itself). 0 with the reason
   on failure; the caller then calls idiomrt_resid_abort. */
int idiomrt_resid_acquire(idiomrt_resid_call *c, const idiom_arg *args,
                          uint32_t nargs, cl_mem *mems, char *reason,
                          size_t reason_len);
/* Before idiomrt_resid_acquire on a zero-copy device (zerocopy.c): an
   IDIOM_ARG_SNAPSHOT input planned over the program's bytes (zc[i] = 1)
   that overlaps an output going through the table (zc[j] != 1: its covered
   bytes met a third argument's) is copied instead (zc[i] = 0), from the
   entry that holds it, on the device; read in place, it would have that
   entry copied back and dropped before every run. */
void idiomrt_resid_snapshot_zc(const idiom_arg *args, uint32_t nargs,
                               unsigned char *zc);
/* After the kernels were enqueued: copies outputs passed as views back into
   their entries (on the device). */
int idiomrt_resid_after_kernels(idiomrt_resid_call *c, const idiom_arg *args,
                                char *reason, size_t reason_len);
/* After every command of the run completed: outputs' entries become
   device-valid (dirty). */
void idiomrt_resid_commit(idiomrt_resid_call *c);
/* After a failed run: restores INOUT backups (waits for the queue). */
void idiomrt_resid_abort(idiomrt_resid_call *c, const idiom_arg *args);
/* Copies every dirty entry back to the host and empties the calling
   thread's table (decline, idiom_region_sync). */
void idiomrt_resid_sync(void);
/* resid_sync.c: the sync before a host run of one site's loop, which
   touches only its arguments' ranges: entries overlapping an output range
   copied back (when dirty) and released, entries overlapping only input
   ranges copied back (when dirty) and kept; a range not known (NULL
   pointer, wrapping) makes it idiomrt_resid_sync. */
void idiomrt_resid_sync_partial(const idiom_arg *args, uint32_t nargs);
/* A declined run's sync: partial for a descriptor whose caller syncs its
   fallback with idiom_region_sync_args (idiomrt_resid_syncs_args; e its
   entry or NULL), else the full idiomrt_resid_sync. */
void idiomrt_resid_decline_sync(const idiom_kernel_desc *desc,
                                const struct idiomrt_entry *e,
                                const idiom_arg *args, uint32_t nargs);
/* 1 when desc's caller has called idiom_region_sync_args (inside a
   region): its fallback preheader syncs on every path into the loop.
   e: desc's entry when the caller has it (no registry lookup), or NULL. */
int idiomrt_resid_syncs_args(const idiom_kernel_desc *desc,
                             const struct idiomrt_entry *e);
/* What a host run of a loop over args inside the calling thread's region
   costs in copies: returns the dirty bytes its sync copies back and sets
   *refill to the bytes of the entries it releases (filled again by the
   next device run). Outside a region or with an unknown range: all held
   bytes, both ways (a full sync). */
uint64_t idiomrt_resid_sync_args_bytes(const idiom_arg *args, uint32_t nargs,
                                       uint64_t *refill);
/* The calling thread's open region's number (unique in the process), 0
   outside regions. */
uint64_t idiomrt_resid_region_id(void);
/* Adds to the process-wide transfer counters (idiom_transfer_bytes). */
void idiomrt_count_transfer(uint64_t to_device, uint64_t to_host);
/* The "idiom-stats: residency" line, when a region was entered. */
void idiomrt_resid_report(void);
/* The counters of that line: regions, reused, syncs, flushed_bytes, evicted. */
void idiomrt_resid_counts(uint64_t out[6]);
/* Bytes of host ranges this thread's open region holds on the device (0
   outside regions): what running a loop on the host inside the region
   costs in copies (back, and in again later). */
uint64_t idiomrt_resid_bytes(void);
/* The calling thread's region's device bytes: the most of
   idiomrt_resid_bytes now and at each sync (a decline, idiom_region_sync)
   since the outermost idiom_region_begin; 0 outside regions. The cost
   model charges a host run the copies that refill them (costmodel.c). */
uint64_t idiomrt_resid_region_bytes(void);
/* The calling thread's host-stability epoch: 0 outside regions; inside one,
   a number that changes whenever the host may have written a region's
   buffers since (region entry, every sync, decline and region end). Host
   memory that only idioms write (tracked by idiomrt_csr_forget) keeps its
   bytes while the epoch stays the same. */
uint64_t idiomrt_resid_epoch(void);
/* The host is about to read [p, p + n) inside a region: entries holding
   device-valid bytes of it are copied back (and kept, now clean). */
void idiomrt_resid_host_read(const void *p, uint64_t n);

#endif /* IDIOMRT_RESIDENCY_H */
