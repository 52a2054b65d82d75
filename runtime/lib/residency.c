/*===- residency.c - Device copies of host ranges across idiom calls ------===*
 *
 * Map promotion (CGCM: Jablin et al., "Automatic CPU-GPU communication
 * management and optimization", PLDI 2011): between idiom_region_begin and
 * idiom_region_end the calling thread's idiom runs keep their buffers on the
 * device. A per-thread range table holds one entry per host range
 * [lo, hi) with a device buffer of hi - lo bytes and a coherence state:
 *
 *   absent            the host is the only valid copy (host-valid);
 *   clean (dirty = 0) device and host agree on every byte a region idiom
 *                     accesses (both valid);
 *   dirty (dirty = 1) the device holds bytes the host lacks (device-valid):
 *     whole (snap == NULL): every byte of the range was written by the
 *       loops, the whole range is copied back;
 *     diff  (snap != NULL): snap holds the host bytes the entry was filled
 *       from; only the bytes whose device value differs are copied back
 *       (writeback.c), so bytes the loops never write, which other threads
 *       may write meanwhile, are never stored to.
 *
 * On a host-unified device an argument passed as a buffer over the
 * program's own memory (zerocopy.c) has no entry: an entry that overlaps it
 * is copied back (when dirty) and dropped before the run, so its kernels
 * read the host's current bytes and no old device copy is ever written over
 * them; only ranges copied for their alignment use the table there.
 *
 * Each entry remembers its device: a run on another device (a cost model
 * choosing per call) treats it as a conflicting overlap (copied back,
 * dropped). Entries are pairwise disjoint, at most RESID_MAX_ENTRIES of
 * them (least recently used ones are evicted). A run's buffer argument
 * [a, b):
 *   - equal to an entry's range: the entry's buffer is passed as it is;
 *   - strictly inside an entry, for kernels that take an element offset
 *     (the source's //@idiom-offsets line; the offset a whole number of
 *     elements): the entry's buffer is passed as it is, with that offset;
 *   - strictly inside an entry otherwise (older kernels, reductions,
 *     histograms, an offset that is not a whole number of elements): a view
 *     buffer is filled from the entry by a device-side copy and, for an
 *     output, copied back into the entry after the kernels;
 *   - overlapping an entry otherwise: that entry is copied back (when dirty)
 *     and dropped first, then a new entry [a, b) is filled from the host;
 *   - when two arguments of one run overlap each other the run does not use
 *     the table: every entry overlapping its arguments is copied back and
 *     dropped, and the run copies in and out as outside a region.
 * Only state that the host cannot have changed is reused: the plugin places
 * a region only where no host code touches the region's buffers (see
 * docs/ARCHITECTURE.md, "Residency"), and every way back to the host inside
 * a region (a decline, idiom_region_sync before a fallback loop) copies
 * every dirty entry back and empties the table first.
 *
 * A run that fails after its commands were enqueued may have written part of
 * an entry's device buffer. An INOUT argument of a dirty entry is backed up
 * on the device before the kernels and restored on failure (re-running an
 * in-place map on partly updated data would apply it twice); an OUT
 * argument's partial results are values the fallback loop writes again; a
 * clean entry is dropped without copying back.
 *
 * Copying a dirty entry back is the only copy of the loops' results: when it
 * fails the process stops (a message on stderr, then abort) rather than run
 * on with stale memory.
 *
 *===----------------------------------------------------------------------===*/
#include "rt_internal.h"

#include <errno.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Entries per thread; a run that needs more first evicts (copies back and
   drops) the least recently used ones. Bounds the table's linear scans and
   the device buffers of a loop that touches a new range every iteration
   (an outer loop over rows). */
#define RESID_MAX_ENTRIES 64

/* View and backup buffers an entry keeps for the next run with a
   sub-range of the same size (any offset: they are filled by a device copy
   before every run): a time loop passes the same ranges every iteration, a
   plane sweep ranges of one size, and a GPU driver's allocation and free of
   a buffer per run (a free waits for the device) cost more than the
   kernels. */
#define RESID_SPARES 4

typedef struct resid_spare {
  size_t off, bytes;    /* the sub-range [lo + off, lo + off + bytes) */
  int backup;           /* 1: a backup buffer, 0: a view */
  int busy;             /* handed to the current run */
  cl_mem buf;           /* NULL: the slot is free */
} resid_spare;

typedef struct resid_entry {
  const idiomrt_device *dev; /* whose context holds buf */
  uintptr_t lo, hi;     /* host range, hi > lo */
  uint64_t last_use;    /* the table's clock at the last run that used it */
  cl_mem buf;           /* hi - lo bytes */
  int dirty;            /* the device holds bytes the host lacks */
  unsigned char *snap;  /* host bytes the buffer was filled from, or NULL */
  resid_spare spare[RESID_SPARES];
} resid_entry;

typedef struct resid_table {
  unsigned depth;       /* nesting of idiom_region_begin */
  uint64_t epoch;       /* idiomrt_resid_epoch: 0 outside regions */
  int epoch_read;       /* epoch handed out since it began (csr.c's memo) */
  uint64_t clock;       /* runs that used the table */
  resid_entry *e;
  unsigned n, cap;
} resid_table;

static _Thread_local resid_table t_tab;

/* Process-wide counters (IDIOM_STATS and idiom_transfer_bytes). */
static uint64_t g_to_device, g_to_host;
static uint64_t g_regions, g_syncs, g_reused, g_flush_bytes, g_evicted;
static uint64_t g_dev_copies; /* idiom_region_memmove/memset on the device */
static uint64_t g_grown;      /* entries grown to hold a run's argument */
static uint64_t g_offsets;    /* sub-range arguments passed at an offset */
static uint64_t g_views;      /* sub-range arguments passed as a view copy */
static uint64_t g_host_loads, g_host_stores; /* idiom_region_load/store */

void idiomrt_count_transfer(uint64_t to_device, uint64_t to_host) {
  if (to_device)
    __atomic_add_fetch(&g_to_device, to_device, __ATOMIC_RELAXED);
  if (to_host)
    __atomic_add_fetch(&g_to_host, to_host, __ATOMIC_RELAXED);
}

void idiom_transfer_bytes(uint64_t *to_device, uint64_t *to_host) {
  if (to_device)
    *to_device = __atomic_load_n(&g_to_device, __ATOMIC_RELAXED);
  if (to_host)
    *to_host = __atomic_load_n(&g_to_host, __ATOMIC_RELAXED);
}

int idiomrt_resid_active(void) { return t_tab.depth > 0; }

/* Epochs of all threads come from one counter, so that no two epochs of a
   thread (or of two threads) are ever equal. */
static uint64_t g_epoch;

static void new_epoch(resid_table *t) {
  t->epoch = t->depth ? __atomic_add_fetch(&g_epoch, 1, __ATOMIC_RELAXED) : 0;
  t->epoch_read = 0;
}

/* An epoch nobody has read cannot be remembered anywhere, so a sync may
   keep it rather than begin a new one (idiom_region_sync's fast path). */
uint64_t idiomrt_resid_epoch(void) {
  t_tab.epoch_read |= t_tab.epoch != 0;
  return t_tab.epoch;
}

static void fatal(const char *what, cl_int err) {
  fprintf(stderr,
          "idiom: fatal: copying device-resident results back to the host "
          "failed (%s: OpenCL error %d, %s); the program's memory would be "
          "stale\n",
          what, (int)err, idiomrt_cl_error_name(err));
  abort();
}

/* staging.c's consumer: one chunk of entry x's device bytes to the host. */
typedef struct chunk_job {
  const resid_entry *x;
  size_t pos;
  const char *chunk;
} chunk_job;

static void consume_part(void *p, size_t lo, size_t hi) {
  const chunk_job *j = p;
  char *host = (char *)j->x->lo + j->pos;
  if (j->x->snap)
    idiomrt_write_changed(host + lo, j->chunk + lo, j->x->snap + j->pos + lo,
                          hi - lo);
  else
    memcpy(host + lo, j->chunk + lo, hi - lo);
}

static void consume_chunk(void *arg, size_t pos, const void *chunk,
                          size_t len) {
  chunk_job j = {arg, pos, chunk};
  idiomrt_parallel_range(len, consume_part, &j);
}

/* Copies entry x back to the host when it is dirty. */
static void flush_entry(const idiomrt_device *dev, resid_entry *x) {
  if (!x->dirty)
    return;
  const idiomrt_cl *cl = dev->cl;
  size_t n = (size_t)(x->hi - x->lo);
  int staged = 0;
  cl_int err = idiomrt_stage_read(dev, x->buf, 0, n, consume_chunk, x, &staged);
  if (err != CL_SUCCESS)
    fatal("staged clEnqueueReadBuffer", err);
  if (staged) {
    /* consume_chunk has stored the bytes */
  } else if (!x->snap) {
    err = cl->clEnqueueReadBuffer(dev->queue, x->buf, CL_TRUE, 0, n,
                                  (void *)x->lo, 0, NULL, NULL);
    if (err != CL_SUCCESS)
      fatal("clEnqueueReadBuffer", err);
  } else {
    unsigned char *tmp = malloc(n);
    if (!tmp)
      fatal("out of host memory", CL_OUT_OF_HOST_MEMORY);
    err = cl->clEnqueueReadBuffer(dev->queue, x->buf, CL_TRUE, 0, n, tmp, 0,
                                  NULL, NULL);
    if (err != CL_SUCCESS)
      fatal("clEnqueueReadBuffer", err);
    idiomrt_write_changed((void *)x->lo, tmp, x->snap, n);
    free(tmp);
  }
  /* Device and host now agree on every byte: a snapshot of the old host
     bytes would hide later changes back to them from a diff copy-back. */
  free(x->snap);
  x->snap = NULL;
  x->dirty = 0;
  idiomrt_count_transfer(0, n);
  __atomic_add_fetch(&g_flush_bytes, n, __ATOMIC_RELAXED);
}

/* Releases entry x's spare views and backups. */
static void release_spares(resid_entry *x) {
  for (unsigned k = 0; k < RESID_SPARES; ++k) {
    if (x->spare[k].buf)
      x->dev->cl->clReleaseMemObject(x->spare[k].buf);
    x->spare[k].buf = NULL;
  }
}

static void drop_entry(resid_table *t, unsigned i) {
  resid_entry *x = &t->e[i];
  flush_entry(x->dev, x);
  release_spares(x);
  if (x->buf)
    x->dev->cl->clReleaseMemObject(x->buf);
  free(x->snap);
  t->e[i] = t->e[--t->n];
}

/* Copies every dirty entry back and empties the table. The host may write
   the region's buffers next (a fallback loop): a new epoch. */
static void flush_all(void) {
  resid_table *t = &t_tab;
  new_epoch(t);
  if (t->n == 0)
    return;
  if (idiomrt_forked_child()) {
    /* A child forked (from a signal handler) while this thread held device
       copies: the parent's OpenCL objects are not the child's to use, and
       the child's memory lacks the device-valid results. */
    for (unsigned i = 0; i < t->n; ++i)
      if (t->e[i].dirty) {
        fprintf(stderr, "idiom: fatal: process forked inside a residency "
                        "region; its memory lacks results held by the "
                        "parent's device\n");
        abort();
      }
    t->n = 0; /* leaks the parent's handles, never touches them */
    return;
  }
  for (unsigned i = 0; i < t->n; ++i)
    flush_entry(t->e[i].dev, &t->e[i]);
  while (t->n)
    drop_entry(t, t->n - 1);
}

void idiomrt_resid_sync(void) {
  if (t_tab.n == 0) {
    if (t_tab.epoch_read)
      new_epoch(&t_tab);
    return;
  }
  __atomic_add_fetch(&g_syncs, 1, __ATOMIC_RELAXED);
  flush_all();
}

/*--- the public ABI --------------------------------------------------------*/

int idiom_regions_open;

void idiom_region_begin(void) {
  if (idiomrt_in_runtime())
    return; /* a signal handler interrupted the runtime: see idiomrt.h */
  if (t_tab.depth++ == 0) {
    __atomic_add_fetch(&g_regions, 1, __ATOMIC_RELAXED);
    __atomic_add_fetch(&idiom_regions_open, 1, __ATOMIC_SEQ_CST);
    new_epoch(&t_tab);
  }
}

void idiom_region_end(void) {
  if (idiomrt_in_runtime() || t_tab.depth == 0)
    return;
  if (--t_tab.depth == 0) {
    int saved_errno = errno; /* the program's errno, as in idiom_run */
    flush_all();
    free(t_tab.e);
    t_tab.e = NULL;
    t_tab.cap = 0;
    t_tab.epoch = 0;
    __atomic_sub_fetch(&idiom_regions_open, 1, __ATOMIC_SEQ_CST);
    errno = saved_errno;
  }
}

__attribute__((noinline)) static void region_sync_slow(void) {
  if (idiomrt_in_runtime())
    return;
  int saved_errno = errno;
  idiomrt_resid_sync();
  errno = saved_errno;
}

void idiom_region_sync(void) {
  /* Fast path, taken before every fallback loop of a region whose sites
     stay on the host (bench/tiny_host.sh): nothing on the device and no
     epoch to retire, so the sync has nothing to do (one cache line of
     thread-local state, no frame, no errno, no atomic). */
  if (t_tab.n != 0 || t_tab.epoch_read)
    region_sync_slow();
}

/*--- one run ---------------------------------------------------------------*/

static int is_buf(uint32_t k) { return k <= IDIOM_ARG_BUF_INOUT; }
static int is_out(uint32_t k) {
  return k == IDIOM_ARG_BUF_OUT || k == IDIOM_ARG_BUF_INOUT;
}

static int overlaps(uintptr_t a0, uintptr_t a1, uintptr_t b0, uintptr_t b1) {
  return a0 < b1 && b0 < a1;
}

static cl_int new_buffer(const idiomrt_device *dev, size_t n, cl_mem *out) {
  cl_int err = CL_SUCCESS;
  *out = dev->cl->clCreateBuffer(dev->ctx, CL_MEM_READ_WRITE, n ? n : 1, NULL,
                                 &err);
  if (!*out && err == CL_SUCCESS)
    err = CL_MEM_OBJECT_ALLOCATION_FAILURE;
  if (err != CL_SUCCESS)
    *out = NULL;
  return err;
}

/* A buffer of bytes for the sub-range at off of entry x (a view, or a
   backup when backup is 1): a spare of the entry when one fits, else a new
   one kept as a spare when a slot is free (*spare = 1) or owned by the run
   (*spare = 0). */
static cl_int spare_buffer(resid_entry *x, size_t off, size_t bytes,
                           int backup, cl_mem *out, int *spare) {
  int free_slot = -1;
  for (unsigned k = 0; k < RESID_SPARES; ++k) {
    resid_spare *p = &x->spare[k];
    if (!p->buf) {
      if (free_slot < 0)
        free_slot = (int)k;
      continue;
    }
    /* Any offset: a view or backup is filled from the entry by a device
       copy before each run, so one of the same size serves any sub-range
       (a plane sweep passes a new offset every run). */
    if (!p->busy && p->bytes == bytes && p->backup == backup) {
      p->busy = 1;
      p->off = off;
      *out = p->buf;
      *spare = 1;
      return CL_SUCCESS;
    }
  }
  cl_int err = new_buffer(x->dev, bytes, out);
  if (err != CL_SUCCESS)
    return err;
  *spare = free_slot >= 0;
  if (*spare)
    x->spare[free_slot] = (resid_spare){off, bytes, backup, 1, *out};
  return CL_SUCCESS;
}

/* The run is over with a buffer from spare_buffer. */
static void spare_done(resid_entry *x, cl_mem m, int spare) {
  if (!spare) {
    x->dev->cl->clReleaseMemObject(m);
    return;
  }
  for (unsigned k = 0; k < RESID_SPARES; ++k)
    if (x->spare[k].buf == m)
      x->spare[k].busy = 0;
}

static int table_find(const resid_table *t, uintptr_t a0, uintptr_t a1) {
  for (unsigned i = 0; i < t->n; ++i)
    if (overlaps(a0, a1, t->e[i].lo, t->e[i].hi))
      return (int)i;
  return -1;
}

/* Fills entry x's buffer from the host (through a fresh snapshot when
   with_snap). */
static cl_int fill_entry(idiomrt_resid_call *c, resid_entry *x,
                         int with_snap) {
  const idiomrt_device *dev = c->dev;
  size_t n = (size_t)(x->hi - x->lo);
  const void *src = (const void *)x->lo;
  free(x->snap);
  x->snap = NULL;
  if (with_snap) {
    if (!(x->snap = malloc(n)))
      return CL_OUT_OF_HOST_MEMORY;
    idiomrt_parallel_memcpy(x->snap, (const void *)x->lo, n);
    src = x->snap;
  }
  int staged = 0;
  cl_int err = idiomrt_stage_write(dev, x->buf, 0, src, n, &staged);
  if (err != CL_SUCCESS)
    return err;
  if (!staged) {
    cl_event ev = NULL;
    err = dev->cl->clEnqueueWriteBuffer(dev->queue, x->buf, CL_FALSE, 0, n,
                                        src, 0, NULL, &ev);
    if (err != CL_SUCCESS)
      return err;
    c->sink(c->sink_ctx, ev);
  }
  c->bytes_in += n;
  return CL_SUCCESS;
}

/*--- copies and fills inside a region ---------------------------------------*/

/* The entry that holds all of [a0, a1), or -1. */
static int table_holding(const resid_table *t, uintptr_t a0, uintptr_t a1) {
  for (unsigned i = 0; i < t->n; ++i)
    if (t->e[i].lo <= a0 && a1 <= t->e[i].hi)
      return (int)i;
  return -1;
}

/* Makes one entry of this thread's table hold all of [r0, r1): the one
   that does, or one made by merging every entry that overlaps the range
   (transitively) with the host bytes around them, on the device: one host
   copy of the union, then each old entry's buffer copied over its part.
   The old entries' device bytes move into it, so nothing goes back to the
   host; the merged entry is dirty (with a snapshot of the host's bytes,
   for a diff copy-back) when one of them was. -1, the table unchanged,
   when no entry overlaps the range (it is not resident: the host copies),
   the entries are on different devices, or an allocation or copy fails. */
static int hold_range(resid_table *t, uintptr_t r0, uintptr_t r1) {
  int k = table_holding(t, r0, r1);
  if (k >= 0)
    return k;
  const idiomrt_device *dev = NULL;
  uintptr_t u0 = r0, u1 = r1;
  int dirty = 0, grown = 1;
  while (grown) {
    grown = 0;
    for (unsigned i = 0; i < t->n; ++i) {
      resid_entry *x = &t->e[i];
      if (!overlaps(u0, u1, x->lo, x->hi))
        continue;
      if (dev && x->dev != dev)
        return -1;
      dev = x->dev;
      dirty |= x->dirty;
      if (x->lo < u0 || x->hi > u1) {
        u0 = x->lo < u0 ? x->lo : u0;
        u1 = x->hi > u1 ? x->hi : u1;
        grown = 1;
      }
    }
  }
  size_t n = (size_t)(u1 - u0);
  if (!dev || (dev->max_alloc && n > dev->max_alloc))
    return -1;
  const idiomrt_cl *cl = dev->cl;
  resid_entry m = {dev, u0, u1, ++t->clock, NULL, dirty, NULL, {{0}}};
  if (new_buffer(dev, n, &m.buf) != CL_SUCCESS)
    return -1;
  if (dirty && !(m.snap = malloc(n)))
    goto fail;
  if (m.snap)
    idiomrt_parallel_memcpy(m.snap, (const void *)u0, n);
  /* Only the bytes no old entry holds come from the host (a range that
     grows a plane at a time then copies a plane, not the whole union). */
  {
    const unsigned char *src = m.snap ? m.snap : (const unsigned char *)u0;
    uintptr_t at = u0;
    size_t moved = 0;
    while (at < u1) {
      /* the old entry that starts first at or after at, or covers at */
      uintptr_t next = u1;
      int covered = 0;
      for (unsigned i = 0; i < t->n; ++i) {
        resid_entry *x = &t->e[i];
        if (!overlaps(u0, u1, x->lo, x->hi))
          continue;
        if (x->lo <= at && at < x->hi) {
          covered = 1;
          next = x->hi;
          break;
        }
        if (x->lo > at && x->lo < next)
          next = x->lo;
      }
      if (!covered) {
        if (cl->clEnqueueWriteBuffer(dev->queue, m.buf, CL_TRUE,
                                     (size_t)(at - u0), (size_t)(next - at),
                                     src + (at - u0), 0, NULL,
                                     NULL) != CL_SUCCESS)
          goto fail;
        moved += (size_t)(next - at);
      }
      at = next;
    }
    n = moved; /* counted below as copied to the device */
  }
  for (unsigned i = 0; i < t->n; ++i) {
    resid_entry *x = &t->e[i];
    if (overlaps(u0, u1, x->lo, x->hi) &&
        cl->clEnqueueCopyBuffer(dev->queue, x->buf, m.buf, 0,
                                (size_t)(x->lo - u0), (size_t)(x->hi - x->lo),
                                0, NULL, NULL) != CL_SUCCESS)
      goto fail;
  }
  /* Only now drop the old entries, without copying them back. */
  for (unsigned i = 0; i < t->n;) {
    resid_entry *x = &t->e[i];
    if (!overlaps(u0, u1, x->lo, x->hi)) {
      ++i;
      continue;
    }
    release_spares(x);
    cl->clReleaseMemObject(x->buf);
    free(x->snap);
    t->e[i] = t->e[--t->n];
  }
  idiomrt_count_transfer(n, 0);
  t->e[t->n] = m; /* t->n < cap: at least one entry was dropped */
  return (int)t->n++;
fail:
  cl->clFinish(dev->queue);
  cl->clReleaseMemObject(m.buf);
  free(m.snap);
  return -1;
}

/* Entry x is about to have [a0, a1) written on the device: it becomes
   dirty. A clean entry (device and host agree) that is written only in part
   first gets a snapshot of its host bytes, so that its copy-back stores only
   the bytes that change (as for a run's partial output). 0 on no memory. */
static int make_dirty(resid_entry *x, uintptr_t a0, uintptr_t a1) {
  if (!x->dirty && !x->snap && !(x->lo == a0 && x->hi == a1)) {
    size_t n = (size_t)(x->hi - x->lo);
    if (!(x->snap = malloc(n)))
      return 0;
    idiomrt_parallel_memcpy(x->snap, (const void *)x->lo, n);
  }
  x->dirty = 1;
  return 1;
}

/* The host is about to read [s0, s1) and write [d0, d1): entries holding
   bytes of the first are copied back, entries holding bytes of the second
   also dropped (their device bytes become stale). */
static void to_host(uintptr_t s0, uintptr_t s1, uintptr_t d0, uintptr_t d1) {
  resid_table *t = &t_tab;
  for (unsigned k = 0; k < t->n;) {
    resid_entry *x = &t->e[k];
    if (overlaps(d0, d1, x->lo, x->hi)) {
      drop_entry(t, k);
      continue;
    }
    if (overlaps(s0, s1, x->lo, x->hi))
      flush_entry(x->dev, x);
    ++k;
  }
}

void idiomrt_resid_host_read(const void *p, uint64_t n) {
  uintptr_t a0 = (uintptr_t)p;
  if (t_tab.n && n && n <= UINTPTR_MAX - a0)
    to_host(a0, a0 + n, 0, 0);
}

void idiom_region_memmove(void *dst, const void *src, uint64_t n) {
  if (!n)
    return;
  resid_table *t = &t_tab;
  if (!t->depth && n <= SIZE_MAX) { /* no region of this thread: no memo */
    memmove(dst, src, (size_t)n);
    return;
  }
  uintptr_t s0 = (uintptr_t)src, d0 = (uintptr_t)dst;
  int saved_errno = errno; /* memmove writes no errno: neither do we */
  idiomrt_csr_forget(dst, n);
  if (t->depth && t->n && !idiomrt_in_runtime() && n <= SIZE_MAX &&
      !idiomrt_forked_child()) {
    int s = hold_range(t, s0, s0 + n), d = s >= 0 ? hold_range(t, d0, d0 + n) : -1;
    if (d >= 0) /* growing d's entry may have merged s's into it */
      s = table_holding(t, s0, s0 + n);
    if (s >= 0 && d >= 0 && t->e[s].dev == t->e[d].dev &&
        (s != d || !overlaps(s0, s0 + n, d0, d0 + n))) {
      resid_entry *xs = &t->e[s], *xd = &t->e[d];
      const idiomrt_device *dev = xd->dev;
      if (make_dirty(xd, d0, d0 + n) &&
          dev->cl->clEnqueueCopyBuffer(dev->queue, xs->buf, xd->buf,
                                       (size_t)(s0 - xs->lo),
                                       (size_t)(d0 - xd->lo), (size_t)n, 0,
                                       NULL, NULL) == CL_SUCCESS) {
        xs->last_use = xd->last_use = ++t->clock;
        __atomic_add_fetch(&g_dev_copies, 1, __ATOMIC_RELAXED);
        errno = saved_errno;
        return;
      }
      /* Not enqueued: the entry is dirty (or unchanged), its bytes valid;
         the host path below copies it back first. */
    }
    to_host(s0, s0 + n, d0, d0 + n);
  }
  memmove(dst, src, (size_t)n);
  errno = saved_errno;
}

void idiom_region_memset(void *dst, int c, uint64_t n) {
  if (!n)
    return;
  resid_table *t = &t_tab;
  if (!t->depth && n <= SIZE_MAX) { /* no region of this thread: no memo */
    memset(dst, c, (size_t)n);
    return;
  }
  uintptr_t d0 = (uintptr_t)dst;
  int saved_errno = errno; /* memset writes no errno: neither do we */
  idiomrt_csr_forget(dst, n);
  if (t->depth && t->n && !idiomrt_in_runtime() && n <= SIZE_MAX &&
      !idiomrt_forked_child()) {
    int d = hold_range(t, d0, d0 + n);
    if (d >= 0) {
      resid_entry *xd = &t->e[d];
      const idiomrt_device *dev = xd->dev;
      unsigned char byte = (unsigned char)c;
      if (make_dirty(xd, d0, d0 + n) &&
          dev->cl->clEnqueueFillBuffer(dev->queue, xd->buf, &byte, 1,
                                       (size_t)(d0 - xd->lo), (size_t)n, 0,
                                       NULL, NULL) == CL_SUCCESS) {
        xd->last_use = ++t->clock;
        __atomic_add_fetch(&g_dev_copies, 1, __ATOMIC_RELAXED);
        errno = saved_errno;
        return;
      }
    }
    to_host(0, 0, d0, d0 + n);
  }
  memset(dst, c, (size_t)n);
  errno = saved_errno;
}

/*--- host loads and stores of single elements inside a region ------------*/

/* The elements [b + i * s, b + i * s + size), i < count, of a routed host
   access (idiom_region_load/store), with s >= size; (lo, hi) an entry's
   range that the access's bounding range overlaps. Sets [*i0, *i1] to the
   elements that overlap it; 0 when none does. */
static int elems_in(uintptr_t b, uint64_t size, uint64_t s, uint64_t count,
                    uintptr_t lo, uintptr_t hi, uint64_t *i0, uint64_t *i1) {
  uint64_t first = b + size > lo ? 0 : (lo - (b + size)) / s + 1;
  if (hi <= b)
    return 0;
  uint64_t last = (hi - 1 - b) / s;
  if (last >= count)
    last = count - 1;
  *i0 = first;
  *i1 = last;
  return first <= last;
}

/* Host bytes h of entry x were made equal to the device's d (n bytes). In
   diff mode the snapshot must then hold them too: a later copy-back that
   compared the device with the older snapshot would skip bytes a kernel set
   back to their old value, leaving the host's newer one. */
static void synced_snap(resid_entry *x, void *h, const void *d, size_t n) {
  if (!x->snap) {
    memcpy(h, d, n);
    return;
  }
  unsigned char *sn = x->snap + ((uintptr_t)h - x->lo);
  idiomrt_write_changed(h, d, sn, n);
  memcpy(sn, d, n);
}

/* Makes the host bytes of element i of the access current (to_dev 0:
   copied from entry x's device bytes when x is dirty) or the device's
   current (to_dev 1: the host bytes written into x's buffer), clipped to
   x's range. 0 on an OpenCL error. */
static int elem_copy(resid_entry *x, uintptr_t e0, uint64_t size, int to_dev,
                     unsigned char *tmp) {
  uintptr_t a0 = e0 > x->lo ? e0 : x->lo;
  uintptr_t a1 = e0 + size < x->hi ? e0 + size : x->hi;
  size_t n = (size_t)(a1 - a0), off = (size_t)(a0 - x->lo);
  const idiomrt_cl *cl = x->dev->cl;
  if (to_dev) {
    if (cl->clEnqueueWriteBuffer(x->dev->queue, x->buf, CL_TRUE, off, n,
                                 (const void *)a0, 0, NULL,
                                 NULL) != CL_SUCCESS)
      return 0;
    if (x->snap) /* see synced_snap */
      memcpy(x->snap + off, (const void *)a0, n);
    return 1;
  }
  if (cl->clEnqueueReadBuffer(x->dev->queue, x->buf, CL_TRUE, off, n, tmp, 0,
                              NULL, NULL) != CL_SUCCESS)
    return 0;
  synced_snap(x, (void *)a0, tmp, n);
  return 1;
}

/* The elements [i0, i1] of the access, each inside x, as one rectangle
   (rows of `size` bytes, `s` apart): read into tmp (packed) and stored to
   the host (to_dev 0), or written from the host (to_dev 1). */
static int rect_copy(resid_entry *x, uintptr_t b, uint64_t size, uint64_t s,
                     uint64_t i0, uint64_t i1, int to_dev,
                     unsigned char *tmp) {
  /* Test knob (runtime.resid_host_access_elems): every rectangle refused,
     as NVIDIA's driver refused some, so the element-by-element path runs. */
  static int refuse = -1;
  if (refuse < 0)
    refuse = getenv("IDIOM_TEST_REFUSE_RECT") != NULL;
  if (refuse)
    return 0;
  const idiomrt_cl *cl = x->dev->cl;
  uintptr_t e0 = b + i0 * s;
  size_t origin[3] = {(size_t)(e0 - x->lo), 0, 0}, zero[3] = {0, 0, 0};
  size_t region[3] = {(size_t)size, (size_t)(i1 - i0 + 1), 1};
  if (to_dev) {
    if (cl->clEnqueueWriteBufferRect(x->dev->queue, x->buf, CL_TRUE, origin,
                                     zero, region, (size_t)s, 0, (size_t)s, 0,
                                     (const void *)e0, 0, NULL,
                                     NULL) != CL_SUCCESS)
      return 0;
    for (uint64_t i = i0; x->snap && i <= i1; ++i) /* see synced_snap */
      memcpy(x->snap + (b + i * s - x->lo), (const void *)(b + i * s),
             (size_t)size);
    return 1;
  }
  if (cl->clEnqueueReadBufferRect(x->dev->queue, x->buf, CL_TRUE, origin,
                                  zero, region, (size_t)s, 0, (size_t)size, 0,
                                  tmp, 0, NULL, NULL) != CL_SUCCESS)
    return 0;
  for (uint64_t i = i0; i <= i1; ++i)
    synced_snap(x, (void *)(b + i * s), tmp + (i - i0) * size, (size_t)size);
  return 1;
}

/* idiom_region_load (to_dev 0) and idiom_region_store (to_dev 1). An
   entry whose copy fails is copied back whole and dropped (a read) or
   dropped after a copy back of its other bytes would be wrong, so the
   process stops as a failed copy-back does (a write). */
/* noinline: idiom_region_load/store's test of the table stays a leaf
   without a frame (bench/tiny_host.sh). */
__attribute__((noinline)) static void
host_access(const void *p, uint64_t size, int64_t stride, uint64_t count,
            int to_dev) {
  resid_table *t = &t_tab;
  if (!t->depth || !t->n || !size || !count || idiomrt_in_runtime() ||
      idiomrt_forked_child())
    return;
  uintptr_t b = (uintptr_t)p;
  uint64_t s = stride < 0 ? (uint64_t)(-(stride + 1)) + 1 : (uint64_t)stride;
  if (count > 1 && s && (UINT64_MAX - size) / s < count - 1)
    return; /* no such range in memory: the access would be undefined */
  if (stride < 0 && count > 1)
    b -= (uintptr_t)(s * (count - 1));
  if (count == 1 || s < size) { /* one contiguous range */
    size = count == 1 || !s ? size : s * (count - 1) + size;
    s = size;
    count = 1;
  }
  uint64_t span = s * (count - 1) + size;
  if (span > UINTPTR_MAX - b)
    return;
  int saved_errno = errno;
  if (to_dev)
    idiomrt_csr_forget(p, span);
  __atomic_add_fetch(to_dev ? &g_host_stores : &g_host_loads, 1,
                     __ATOMIC_RELAXED);
  for (unsigned k = 0; k < t->n; ++k) {
    resid_entry *x = &t->e[k];
    uint64_t i0, i1;
    if ((!to_dev && !x->dirty) || !overlaps(b, b + span, x->lo, x->hi) ||
        !elems_in(b, size, s, count, x->lo, x->hi, &i0, &i1))
      continue;
    /* The elements that straddle the entry's ends one by one, the rest as
       one rectangle. */
    unsigned char stack[64], *tmp = stack;
    uint64_t need = to_dev ? 0 : (i1 - i0 + 1) * size;
    if (need > sizeof stack && !(tmp = malloc((size_t)need)))
      fatal("out of host memory", CL_OUT_OF_HOST_MEMORY);
    int ok = 1;
    uint64_t r0 = i0, r1 = i1;
    if (b + r0 * s < x->lo)
      ok &= elem_copy(x, b + r0++ * s, size, to_dev, tmp);
    if (r0 <= r1 && b + r1 * s + size > x->hi)
      ok &= elem_copy(x, b + r1-- * s, size, to_dev, tmp);
    /* The last element apart: NVIDIA's driver refuses (on an H200, gs.c)
       a rectangle whose last row's pitch runs past the buffer's end
       although its bytes do not. A rectangle the driver refuses all the
       same is copied element by element. */
    if (ok && r0 < r1 && !rect_copy(x, b, size, s, r0, r1 - 1, to_dev, tmp))
      for (uint64_t i = r0; ok && i < r1; ++i)
        ok = elem_copy(x, b + i * s, size, to_dev, tmp + (i - r0) * size);
    if (ok && r0 <= r1)
      ok = elem_copy(x, b + r1 * s, size, to_dev, tmp + (r1 - r0) * size);
    if (tmp != stack)
      free(tmp);
    if (!ok)
      fatal(to_dev ? "writing a host store through to the device"
                   : "reading an element back for a host load",
            CL_INVALID_OPERATION);
    idiomrt_count_transfer(to_dev ? need : 0, to_dev ? 0 : need);
  }
  errno = saved_errno;
}

/* Both return at once with nothing on the device (a region whose sites
   stay on the host calls them once per iteration: bench/tiny_host.sh);
   host_access checks the same first, but behind its frame's set-up. */
void idiom_region_load(const void *p, uint64_t size, int64_t stride,
                       uint64_t count) {
  if (t_tab.n)
    host_access(p, size, stride, count, 0);
}

void idiom_region_store(const void *p, uint64_t size, int64_t stride,
                        uint64_t count) {
  if (t_tab.n)
    host_access(p, size, stride, count, 1);
}

int idiomrt_resid_acquire(idiomrt_resid_call *c, const idiom_arg *args,
                          uint32_t nargs, cl_mem *mems, char *reason,
                          size_t reason_len) {
  resid_table *t = &t_tab;
  const idiomrt_device *dev = c->dev;
  const idiomrt_cl *cl = dev->cl;
  c->nargs = nargs;
  c->used = 0;

  /* Two arguments that overlap each other: no residency for this run. */
  int disjoint = 1;
  for (uint32_t i = 0; i < nargs && disjoint; ++i) {
    if (!is_buf(args[i].kind) || !args[i].bytes)
      continue;
    uintptr_t a0 = (uintptr_t)args[i].ptr, a1 = a0 + args[i].bytes;
    for (uint32_t j = i + 1; j < nargs; ++j)
      if (is_buf(args[j].kind) && args[j].bytes &&
          overlaps(a0, a1, (uintptr_t)args[j].ptr,
                   (uintptr_t)args[j].ptr + args[j].bytes))
        disjoint = 0;
  }
  /* Phase 1: entries that overlap an argument without containing it (or
     any overlapping entry, without residency) go back to the host, unless
     they could be grown on the device to hold it (hold_range). */
  for (uint32_t i = 0; i < nargs; ++i) {
    if (!is_buf(args[i].kind) || !args[i].bytes)
      continue;
    uintptr_t a0 = (uintptr_t)args[i].ptr, a1 = a0 + args[i].bytes;
    /* An argument that extends resident ranges (a plane or row sweep: each
       run's range overlaps the last one's) grows them into one entry on
       the device instead of sending them back and filling anew. */
    int zc = c->zc && c->zc[i]; /* no entry: overlapping ones go back */
    if (disjoint && !zc && t->n && table_holding(t, a0, a1) < 0) {
      int same_dev = 1, any = 0;
      for (unsigned k = 0; k < t->n; ++k)
        if (overlaps(a0, a1, t->e[k].lo, t->e[k].hi)) {
          any = 1;
          same_dev &= t->e[k].dev == dev;
        }
      if (any && same_dev && hold_range(t, a0, a1) >= 0)
        __atomic_add_fetch(&g_grown, 1, __ATOMIC_RELAXED);
    }
    for (unsigned k = 0; k < t->n;) {
      resid_entry *x = &t->e[k];
      if (overlaps(a0, a1, x->lo, x->hi) &&
          (zc || !disjoint || x->dev != dev ||
           !(x->lo <= a0 && a1 <= x->hi))) {
        drop_entry(t, k);
        continue;
      }
      ++k;
    }
  }
  if (!disjoint)
    return 1; /* the caller copies in and out as outside a region */
  if (!(c->arg = calloc(nargs ? nargs : 1, sizeof *c->arg))) {
    snprintf(reason, reason_len, "out of host memory");
    return 0;
  }
  c->used = 1;
  /* Room for the new entries: evict the least recently used entries that
     hold none of this run's arguments. */
  unsigned need = 0;
  for (uint32_t i = 0; i < nargs; ++i)
    if (is_buf(args[i].kind) && args[i].bytes && !(c->zc && c->zc[i]) &&
        table_find(t, (uintptr_t)args[i].ptr,
                   (uintptr_t)args[i].ptr + args[i].bytes) < 0)
      ++need;
  while (t->n + need > RESID_MAX_ENTRIES) {
    int victim = -1;
    for (unsigned k = 0; k < t->n; ++k) {
      int holds = 0;
      for (uint32_t i = 0; i < nargs && !holds; ++i)
        holds = is_buf(args[i].kind) && args[i].bytes &&
                overlaps((uintptr_t)args[i].ptr,
                         (uintptr_t)args[i].ptr + args[i].bytes, t->e[k].lo,
                         t->e[k].hi);
      if (!holds && (victim < 0 || t->e[k].last_use < t->e[victim].last_use))
        victim = (int)k;
    }
    if (victim < 0)
      break; /* every entry holds an argument: exceed the bound */
    drop_entry(t, (unsigned)victim);
    __atomic_add_fetch(&g_evicted, 1, __ATOMIC_RELAXED);
  }
  t->clock++;
  /* Phase 2: an entry for every argument. */
  for (uint32_t i = 0; i < nargs; ++i) {
    const idiom_arg *a = &args[i];
    if (!is_buf(a->kind) || !a->bytes || (c->zc && c->zc[i]))
      continue;
    idiomrt_resid_arg *ra = &c->arg[i];
    uintptr_t a0 = (uintptr_t)a->ptr, a1 = a0 + a->bytes;
    int out = is_out(a->kind);
    int dense = (a->flags & IDIOM_ARG_DENSE) != 0;
    int k = table_find(t, a0, a1);
    cl_int err;
    if (k < 0) {
      if (t->n == t->cap) {
        unsigned cap = t->cap ? 2 * t->cap : 8;
        resid_entry *e = realloc(t->e, cap * sizeof *e);
        if (!e) {
          snprintf(reason, reason_len, "out of host memory");
          return 0;
        }
        t->e = e;
        t->cap = cap;
      }
      if (dev->max_alloc && a->bytes > dev->max_alloc) {
        snprintf(reason, reason_len,
                 "buffer larger than the device's maximum allocation");
        return 0;
      }
      resid_entry x = {dev, a0, a1, 0, NULL, 0, NULL, {{0}}};
      if ((err = new_buffer(dev, (size_t)a->bytes, &x.buf)) != CL_SUCCESS)
        goto cl_error;
      t->e[t->n++] = x;
      k = (int)t->n - 1;
      /* A dense OUT range is written whole by the kernels: nothing to copy
         in (a failed run leaves it clean, and a decline drops it). */
      if (!(a->kind == IDIOM_ARG_BUF_OUT && dense) &&
          (err = fill_entry(c, &t->e[k], out && !dense)) != CL_SUCCESS)
        goto cl_error;
    } else {
      c->reused++;
      __atomic_add_fetch(&g_reused, 1, __ATOMIC_RELAXED);
      resid_entry *x = &t->e[k];
      int whole = x->lo == a0 && x->hi == a1;
      /* A clean entry without a snapshot that a run writes only in part
         (or not densely) needs one for a diff copy-back. Clean: the device
         holds the host's bytes (an entry lives inside one region, where no
         host code touches its range), so the host's bytes are the snapshot;
         nothing is copied to the device again. */
      if (out && !x->dirty && !x->snap && !(dense && whole)) {
        size_t n = (size_t)(x->hi - x->lo);
        if (!(x->snap = malloc(n))) {
          snprintf(reason, reason_len, "out of host memory");
          return 0;
        }
        idiomrt_parallel_memcpy(x->snap, (const void *)x->lo, n);
      }
    }
    resid_entry *x = &t->e[k];
    x->last_use = t->clock;
    ra->entry = k;
    ra->off = (size_t)(a0 - x->lo);
    ra->out = out;
    if ((x->lo == a0 && x->hi == a1) ||
        (c->elem && c->elem[i] && ra->off % c->elem[i] == 0)) {
      /* the whole entry, or a sub-range the kernels reach through their
         element offset: the entry's own buffer */
      if ((err = cl->clRetainMemObject(x->buf)) != CL_SUCCESS)
        goto cl_error;
      mems[i] = x->buf;
      ra->direct = !(x->lo == a0 && x->hi == a1);
      if (ra->direct)
        __atomic_add_fetch(&g_offsets, 1, __ATOMIC_RELAXED);
    } else {
      cl_event ev = NULL;
      __atomic_add_fetch(&g_views, 1, __ATOMIC_RELAXED);
      if ((err = spare_buffer(x, ra->off, (size_t)a->bytes, 0, &ra->view,
                              &ra->view_spare)) != CL_SUCCESS)
        goto cl_error;
      if ((err = cl->clEnqueueCopyBuffer(dev->queue, x->buf, ra->view, ra->off,
                                         0, (size_t)a->bytes, 0, NULL, &ev)) !=
          CL_SUCCESS)
        goto cl_error;
      c->sink(c->sink_ctx, ev);
      if ((err = cl->clRetainMemObject(ra->view)) != CL_SUCCESS)
        goto cl_error;
      mems[i] = ra->view;
    }
    if (out && x->dirty && a->kind == IDIOM_ARG_BUF_INOUT) {
      cl_event ev = NULL;
      if ((err = spare_buffer(x, ra->off, (size_t)a->bytes, 1, &ra->backup,
                              &ra->backup_spare)) != CL_SUCCESS)
        goto cl_error;
      if ((err = cl->clEnqueueCopyBuffer(dev->queue, x->buf, ra->backup,
                                         ra->off, 0, (size_t)a->bytes, 0, NULL,
                                         &ev)) != CL_SUCCESS)
        goto cl_error;
      c->sink(c->sink_ctx, ev);
    }
    continue;
  cl_error:
    snprintf(reason, reason_len, "OpenCL error %d (%s) in residency",
             (int)err, idiomrt_cl_error_name(err));
    return 0;
  }
  return 1;
}

int idiomrt_resid_after_kernels(idiomrt_resid_call *c, const idiom_arg *args,
                                char *reason, size_t reason_len) {
  if (!c->used)
    return 1;
  const idiomrt_device *dev = c->dev;
  for (uint32_t i = 0; i < c->nargs; ++i) {
    idiomrt_resid_arg *ra = &c->arg[i];
    if (!ra->out || !ra->view)
      continue;
    cl_event ev = NULL;
    cl_int err = dev->cl->clEnqueueCopyBuffer(
        dev->queue, ra->view, t_tab.e[ra->entry].buf, 0, ra->off,
        (size_t)args[i].bytes, 0, NULL, &ev);
    if (err != CL_SUCCESS) {
      snprintf(reason, reason_len, "OpenCL error %d (%s) in residency",
               (int)err, idiomrt_cl_error_name(err));
      return 0;
    }
    c->sink(c->sink_ctx, ev);
  }
  return 1;
}

/* Releases the run's views and backups. */
static void release_call(idiomrt_resid_call *c) {
  if (!c->arg)
    return;
  for (uint32_t i = 0; i < c->nargs; ++i) {
    idiomrt_resid_arg *ra = &c->arg[i];
    resid_entry *x = c->used && ra->entry >= 0 && (unsigned)ra->entry < t_tab.n
                         ? &t_tab.e[ra->entry]
                         : NULL;
    if (ra->view) {
      if (x)
        spare_done(x, ra->view, ra->view_spare);
      else
        c->dev->cl->clReleaseMemObject(ra->view);
    }
    if (ra->backup) {
      if (x)
        spare_done(x, ra->backup, ra->backup_spare);
      else
        c->dev->cl->clReleaseMemObject(ra->backup);
    }
  }
  free(c->arg);
  c->arg = NULL;
}

void idiomrt_resid_commit(idiomrt_resid_call *c) {
  if (c->used)
    for (uint32_t i = 0; i < c->nargs; ++i)
      if (c->arg[i].out)
        t_tab.e[c->arg[i].entry].dirty = 1;
  release_call(c);
}

void idiomrt_resid_abort(idiomrt_resid_call *c, const idiom_arg *args) {
  if (c->used) {
    const idiomrt_cl *cl = c->dev->cl;
    int any = 0;
    for (uint32_t i = 0; i < c->nargs; ++i) {
      idiomrt_resid_arg *ra = &c->arg[i];
      if (!ra->backup)
        continue;
      cl_int err = cl->clEnqueueCopyBuffer(
          c->dev->queue, ra->backup, t_tab.e[ra->entry].buf, 0, ra->off,
          (size_t)args[i].bytes, 0, NULL, NULL);
      if (err != CL_SUCCESS)
        fatal("clEnqueueCopyBuffer (restore)", err);
      any = 1;
    }
    if (any) {
      cl_int err = cl->clFinish(c->dev->queue);
      if (err != CL_SUCCESS)
        fatal("clFinish (restore)", err);
    }
  }
  release_call(c);
}

void idiomrt_resid_report(void) {
  uint64_t regions = __atomic_load_n(&g_regions, __ATOMIC_RELAXED);
  if (!regions)
    return;
  fprintf(stderr,
          "idiom-stats: residency regions=%llu reused=%llu syncs=%llu "
          "flushed_bytes=%llu evicted=%llu device_copies=%llu grown=%llu "
          "offsets=%llu views=%llu host_loads=%llu host_stores=%llu\n",
          (unsigned long long)regions,
          (unsigned long long)__atomic_load_n(&g_reused, __ATOMIC_RELAXED),
          (unsigned long long)__atomic_load_n(&g_syncs, __ATOMIC_RELAXED),
          (unsigned long long)__atomic_load_n(&g_flush_bytes,
                                              __ATOMIC_RELAXED),
          (unsigned long long)__atomic_load_n(&g_evicted, __ATOMIC_RELAXED),
          (unsigned long long)__atomic_load_n(&g_dev_copies,
                                              __ATOMIC_RELAXED),
          (unsigned long long)__atomic_load_n(&g_grown, __ATOMIC_RELAXED),
          (unsigned long long)__atomic_load_n(&g_offsets, __ATOMIC_RELAXED),
          (unsigned long long)__atomic_load_n(&g_views, __ATOMIC_RELAXED),
          (unsigned long long)__atomic_load_n(&g_host_loads, __ATOMIC_RELAXED),
          (unsigned long long)__atomic_load_n(&g_host_stores,
                                              __ATOMIC_RELAXED));
}

uint64_t idiomrt_resid_bytes(void) {
  const resid_table *t = &t_tab;
  uint64_t b = 0;
  if (t->depth)
    for (unsigned i = 0; i < t->n; ++i)
      b += t->e[i].hi - t->e[i].lo;
  return b;
}

void idiomrt_resid_counts(uint64_t out[6]) {
  out[0] = __atomic_load_n(&g_regions, __ATOMIC_RELAXED);
  out[1] = __atomic_load_n(&g_reused, __ATOMIC_RELAXED);
  out[2] = __atomic_load_n(&g_syncs, __ATOMIC_RELAXED);
  out[3] = __atomic_load_n(&g_flush_bytes, __ATOMIC_RELAXED);
  out[4] = __atomic_load_n(&g_evicted, __ATOMIC_RELAXED);
  out[5] = __atomic_load_n(&g_dev_copies, __ATOMIC_RELAXED);
}
