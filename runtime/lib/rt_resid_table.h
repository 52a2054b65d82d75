/*===- rt_resid_table.h - The range table of residency regions ------------===*
 *
 * Private to runtime/lib (rt_internal.h includes it); only the residency
 * files use it: residency.c (the table: entries, copy-back, merging,
 * regions, counters), resid_run.c (a run's use of the table) and
 * resid_host.c (host code on region memory: device-side memmove and
 * memset, element loads and stores). See residency.c for the coherence
 * states and the rules.
 *
 *===----------------------------------------------------------------------===*/
#ifndef IDIOMRT_RESID_TABLE_H
#define IDIOMRT_RESID_TABLE_H

#include "rt_cl.h"
#include "rt_device.h"
#include <stddef.h>
#include <stdint.h>

/* View and backup buffers an entry keeps for the next run with a
   sub-range of the same size (any offset: they are filled by a device copy
   before every run): a time loop passes the same ranges every iteration, a
   plane sweep ranges of one size, and a GPU driver's allocation and free of
   a buffer per run (a free waits for the device) cost more than the
   kernels. */
#define IDIOMRT_RESID_SPARES 4

typedef struct idiomrt_resid_spare {
  size_t off, bytes;    /* the sub-range [lo + off, lo + off + bytes) */
  int backup;           /* 1: a backup buffer, 0: a view */
  int busy;             /* handed to the current run */
  cl_mem buf;           /* NULL: the slot is free */
} idiomrt_resid_spare;

typedef struct idiomrt_resid_entry {
  const idiomrt_device *dev; /* whose context holds buf */
  uintptr_t lo, hi;     /* host range, hi > lo */
  uint64_t last_use;    /* the table's clock at the last run that used it */
  cl_mem buf;           /* hi - lo bytes */
  int dirty;            /* the device holds bytes the host lacks */
  unsigned char *snap;  /* host bytes the buffer was filled from, or NULL */
  idiomrt_resid_spare spare[IDIOMRT_RESID_SPARES];
} idiomrt_resid_entry;

typedef struct idiomrt_resid_table {
  unsigned depth;       /* nesting of idiom_region_begin */
  uint64_t epoch;       /* idiomrt_resid_epoch: 0 outside regions */
  int epoch_read;       /* epoch handed out since it began (csr.c's memo) */
  uint64_t clock;       /* runs that used the table */
  idiomrt_resid_entry *e;
  unsigned n, cap;
  uint64_t synced;      /* most bytes a sync emptied in this region */
  uint64_t region_id;   /* the outermost region's number, process-wide */
} idiomrt_resid_table;


/* The calling thread's range table (residency.c). */
extern _Thread_local idiomrt_resid_table idiomrt_resid_tab;

/* Process-wide counters (IDIOM_STATS: idiomrt_resid_report), updated with
   relaxed atomics. */
typedef struct idiomrt_resid_counters {
  uint64_t regions, syncs, reused, flush_bytes, evicted;
  uint64_t dev_copies;              /* idiom_region_memmove/memset on the
                                       device */
  uint64_t grown;                   /* entries grown to hold a run's
                                       argument */
  uint64_t offsets;                 /* sub-range arguments passed at an
                                       offset */
  uint64_t views;                   /* sub-range arguments passed as a view
                                       copy */
  uint64_t host_loads, host_stores; /* idiom_region_load/store */
  uint64_t snapshots;               /* IDIOM_ARG_SNAPSHOT inputs over an
                                       output filled by a device copy */
  uint64_t partial_syncs;           /* syncs of a host run's own ranges
                                       (resid_sync.c) */
  uint64_t sync_released;           /* entries they released (an output
                                       overlapped them) */
} idiomrt_resid_counters;
extern idiomrt_resid_counters idiomrt_resid_n;

/* 1 when [a0, a1) and [b0, b1) share a byte. */
static inline int idiomrt_ranges_overlap(uintptr_t a0, uintptr_t a1,
                                         uintptr_t b0, uintptr_t b1) {
  return a0 < b1 && b0 < a1;
}

/* A message on stderr naming what failed (copying device-resident results
   back, which are the only copy of them), then abort(). */
void idiomrt_resid_fatal(const char *what, cl_int err);
/* Copies entry x back to the host when it is dirty (then clean, its
   snapshot freed); a failed copy is fatal. */
void idiomrt_resid_flush_entry(const idiomrt_device *dev,
                               idiomrt_resid_entry *x);
/* Copies entry i of t back (when dirty), releases it and removes it from
   t (the last entry takes its index). */
void idiomrt_resid_drop_entry(idiomrt_resid_table *t, unsigned i);
/* Begins a new host-stability epoch of the calling thread (the host may
   write region buffers next: idiomrt_resid_epoch). */
void idiomrt_resid_new_epoch(void);
/* A read-write buffer of n bytes (1 when n is 0) on dev into *out (NULL
   on failure); the OpenCL error. */
cl_int idiomrt_resid_new_buffer(const idiomrt_device *dev, size_t n,
                                cl_mem *out);
/* The entry of t that holds all of [a0, a1), or -1. */
int idiomrt_resid_holding(const idiomrt_resid_table *t, uintptr_t a0,
                          uintptr_t a1);
/* Makes one entry of t hold all of [r0, r1), merging on the device every
   entry that overlaps it with the host bytes around them; its index, or
   -1 (t unchanged) when no entry overlaps the range, the entries are on
   different devices, or an allocation or copy fails. */
int idiomrt_resid_hold_range(idiomrt_resid_table *t, uintptr_t r0,
                             uintptr_t r1);

#endif /* IDIOMRT_RESID_TABLE_H */
