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
 * dropped). Entries are pairwise disjoint, at most RESID_MAX_ENTRIES
 * (resid_run.c) of them (least recently used ones are evicted). A run's
 * buffer argument [a, b):
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
 *     dropped, and the run copies in and out as outside a region;
 *   - except an IN argument flagged IDIOM_ARG_SNAPSHOT over an output (read
 *     as before the run): the run keeps the table, and the snapshot gets a
 *     view of the entry that holds it, filled by a device-side copy before
 *     the kernels (resid_run.c, phase 3); when no entry holds it whole,
 *     the entries overlapping it are copied back first (kept, clean) and
 *     it is copied from the host.
 * Only state that the host cannot have changed is reused: the plugin places
 * a region only where no host code touches the region's buffers (see
 * docs/ARCHITECTURE.md, "Residency"), and every way back to the host inside
 * a region (a decline, idiom_region_sync before a fallback loop) copies
 * every dirty entry back and empties the table first; a site whose loop is
 * known to touch only its own arguments' ranges syncs only the entries
 * that overlap them (idiom_region_sync_args, resid_sync.c).
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
 * This file holds the table (rt_resid_table.h): entries, copy-back, the
 * merging of entries on the device, epochs, the region ABI and counters; a
 * run's use of the table is in resid_run.c, host code on region memory
 * (idiom_region_memmove/memset, idiom_region_load/store) in resid_host.c.
 *
 *===----------------------------------------------------------------------===*/
#include "rt_internal.h"

#include <errno.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

_Thread_local idiomrt_resid_table idiomrt_resid_tab;

/* Process-wide counters (IDIOM_STATS and idiom_transfer_bytes). */
static uint64_t g_to_device, g_to_host;
IDIOMRT_START_DATA idiomrt_resid_counters idiomrt_resid_n;

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

int idiomrt_resid_active(void) { return idiomrt_resid_tab.depth > 0; }

uint64_t idiomrt_resid_region_id(void) {
  return idiomrt_resid_tab.depth ? idiomrt_resid_tab.region_id : 0;
}

/* Epochs of all threads come from one counter, so that no two epochs of a
   thread (or of two threads) are ever equal. */
IDIOMRT_START_DATA static uint64_t g_epoch;

static void new_epoch(idiomrt_resid_table *t) {
  t->epoch = t->depth ? __atomic_add_fetch(&g_epoch, 1, __ATOMIC_RELAXED) : 0;
  t->epoch_read = 0;
}

void idiomrt_resid_new_epoch(void) { new_epoch(&idiomrt_resid_tab); }

/* An epoch nobody has read cannot be remembered anywhere, so a sync may
   keep it rather than begin a new one (idiom_region_sync's fast path). */
uint64_t idiomrt_resid_epoch(void) {
  if (idiomrt_resid_tab.epoch != 0 && !idiomrt_resid_tab.epoch_read)
    idiomrt_pending_device(); /* idiom_region_sync retires it (pending.c) */
  idiomrt_resid_tab.epoch_read |= idiomrt_resid_tab.epoch != 0;
  return idiomrt_resid_tab.epoch;
}

void idiomrt_resid_fatal(const char *what, cl_int err) {
  fprintf(stderr,
          "idiom: fatal: copying device-resident results back to the host "
          "failed (%s: OpenCL error %d, %s); the program's memory would be "
          "stale\n",
          what, (int)err, idiomrt_cl_error_name(err));
  abort();
}

/* staging.c's consumer: one chunk of entry x's device bytes to the host. */
typedef struct chunk_job {
  const idiomrt_resid_entry *x;
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
void idiomrt_resid_flush_entry(const idiomrt_device *dev,
                               idiomrt_resid_entry *x) {
  if (!x->dirty)
    return;
  uint64_t t0 = idiomrt_now_ns();
  const idiomrt_cl *cl = dev->cl;
  size_t n = (size_t)(x->hi - x->lo);
  int staged = 0;
  cl_int err = idiomrt_stage_read(dev, x->buf, 0, n, consume_chunk, x, &staged);
  if (err != CL_SUCCESS)
    idiomrt_resid_fatal("staged clEnqueueReadBuffer", err);
  if (staged) {
    /* consume_chunk has stored the bytes */
  } else if (!x->snap) {
    err = cl->clEnqueueReadBuffer(dev->queue, x->buf, CL_TRUE, 0, n,
                                  (void *)x->lo, 0, NULL, NULL);
    if (err != CL_SUCCESS)
      idiomrt_resid_fatal("clEnqueueReadBuffer", err);
  } else {
    unsigned char *tmp = malloc(n);
    if (!tmp)
      idiomrt_resid_fatal("out of host memory", CL_OUT_OF_HOST_MEMORY);
    err = cl->clEnqueueReadBuffer(dev->queue, x->buf, CL_TRUE, 0, n, tmp, 0,
                                  NULL, NULL);
    if (err != CL_SUCCESS)
      idiomrt_resid_fatal("clEnqueueReadBuffer", err);
    idiomrt_write_changed((void *)x->lo, tmp, x->snap, n);
    free(tmp);
  }
  /* Device and host now agree on every byte: a snapshot of the old host
     bytes would hide later changes back to them from a diff copy-back. */
  free(x->snap);
  x->snap = NULL;
  x->dirty = 0;
  idiomrt_count_transfer(0, n);
  idiomrt_debug("residency: copied %zu bytes back in %.1f ms%s", n,
                (double)(idiomrt_now_ns() - t0) / 1e6,
                staged ? " (staged)" : "");
  __atomic_add_fetch(&idiomrt_resid_n.flush_bytes, n, __ATOMIC_RELAXED);
}

/* Releases entry x's spare views and backups. */
static void release_spares(idiomrt_resid_entry *x) {
  for (unsigned k = 0; k < IDIOMRT_RESID_SPARES; ++k) {
    if (x->spare[k].buf)
      x->dev->cl->clReleaseMemObject(x->spare[k].buf);
    x->spare[k].buf = NULL;
  }
}

void idiomrt_resid_drop_entry(idiomrt_resid_table *t, unsigned i) {
  idiomrt_resid_entry *x = &t->e[i];
  idiomrt_resid_flush_entry(x->dev, x);
  release_spares(x);
  if (x->buf)
    x->dev->cl->clReleaseMemObject(x->buf);
  free(x->snap);
  t->e[i] = t->e[--t->n];
}

/* Copies every dirty entry back and empties the table. The host may write
   the region's buffers next (a fallback loop): a new epoch. */
static void flush_all(void) {
  idiomrt_resid_table *t = &idiomrt_resid_tab;
  uint64_t held = idiomrt_resid_bytes();
  if (held > t->synced)
    t->synced = held;
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
    idiomrt_resid_flush_entry(t->e[i].dev, &t->e[i]);
  while (t->n)
    idiomrt_resid_drop_entry(t, t->n - 1);
}

void idiomrt_resid_sync(void) {
  if (idiomrt_resid_tab.n == 0) {
    if (idiomrt_resid_tab.epoch_read)
      new_epoch(&idiomrt_resid_tab);
    return;
  }
  __atomic_add_fetch(&idiomrt_resid_n.syncs, 1, __ATOMIC_RELAXED);
  flush_all();
}

/*--- the public ABI --------------------------------------------------------*/

IDIOMRT_START_DATA int idiom_regions_open;

void idiom_region_begin(void) {
  if (idiomrt_in_runtime())
    return; /* a signal handler interrupted the runtime: see idiomrt.h */
  if (idiomrt_resid_tab.depth++ == 0) {
    idiomrt_resid_tab.synced = 0;
    idiomrt_resid_tab.region_id =
        __atomic_add_fetch(&idiomrt_resid_n.regions, 1, __ATOMIC_RELAXED);
    __atomic_add_fetch(&idiom_regions_open, 1, __ATOMIC_SEQ_CST);
    new_epoch(&idiomrt_resid_tab);
  }
}

void idiom_region_end(void) {
  if (idiomrt_in_runtime() || idiomrt_resid_tab.depth == 0)
    return;
  if (--idiomrt_resid_tab.depth == 0) {
    int saved_errno = errno; /* the program's errno, as in idiom_run */
    flush_all();
    free(idiomrt_resid_tab.e);
    idiomrt_resid_tab.e = NULL;
    idiomrt_resid_tab.cap = 0;
    idiomrt_resid_tab.epoch = 0;
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
  if (idiomrt_resid_tab.n != 0 || idiomrt_resid_tab.epoch_read)
    region_sync_slow();
}

cl_int idiomrt_resid_new_buffer(const idiomrt_device *dev, size_t n,
                                cl_mem *out) {
  cl_int err = CL_SUCCESS;
  *out = dev->cl->clCreateBuffer(dev->ctx, CL_MEM_READ_WRITE, n ? n : 1, NULL,
                                 &err);
  if (!*out && err == CL_SUCCESS)
    err = CL_MEM_OBJECT_ALLOCATION_FAILURE;
  if (err != CL_SUCCESS)
    *out = NULL;
  return err;
}

/* The entry that holds all of [a0, a1), or -1. */
int idiomrt_resid_holding(const idiomrt_resid_table *t, uintptr_t a0,
                          uintptr_t a1) {
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
int idiomrt_resid_hold_range(idiomrt_resid_table *t, uintptr_t r0,
                             uintptr_t r1) {
  int k = idiomrt_resid_holding(t, r0, r1);
  if (k >= 0)
    return k;
  const idiomrt_device *dev = NULL;
  uintptr_t u0 = r0, u1 = r1;
  int dirty = 0, grown = 1;
  while (grown) {
    grown = 0;
    for (unsigned i = 0; i < t->n; ++i) {
      idiomrt_resid_entry *x = &t->e[i];
      if (!idiomrt_ranges_overlap(u0, u1, x->lo, x->hi))
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
  idiomrt_resid_entry m = {dev, u0, u1, ++t->clock, NULL, dirty, NULL, {{0}}};
  if (idiomrt_resid_new_buffer(dev, n, &m.buf) != CL_SUCCESS)
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
        idiomrt_resid_entry *x = &t->e[i];
        if (!idiomrt_ranges_overlap(u0, u1, x->lo, x->hi))
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
    idiomrt_resid_entry *x = &t->e[i];
    if (idiomrt_ranges_overlap(u0, u1, x->lo, x->hi) &&
        cl->clEnqueueCopyBuffer(dev->queue, x->buf, m.buf, 0,
                                (size_t)(x->lo - u0), (size_t)(x->hi - x->lo),
                                0, NULL, NULL) != CL_SUCCESS)
      goto fail;
  }
  /* Only now drop the old entries, without copying them back. */
  for (unsigned i = 0; i < t->n;) {
    idiomrt_resid_entry *x = &t->e[i];
    if (!idiomrt_ranges_overlap(u0, u1, x->lo, x->hi)) {
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

/* A counter of idiomrt_resid_n, read once. */
static unsigned long long counter(const uint64_t *c) {
  return (unsigned long long)__atomic_load_n(c, __ATOMIC_RELAXED);
}

void idiomrt_resid_report(void) {
  const idiomrt_resid_counters *n = &idiomrt_resid_n;
  unsigned long long regions = counter(&n->regions);
  if (!regions)
    return;
  fprintf(stderr,
          "idiom-stats: residency regions=%llu reused=%llu syncs=%llu "
          "flushed_bytes=%llu evicted=%llu device_copies=%llu grown=%llu "
          "offsets=%llu views=%llu host_loads=%llu host_stores=%llu "
          "snapshots=%llu\n",
          regions, counter(&n->reused), counter(&n->syncs),
          counter(&n->flush_bytes), counter(&n->evicted),
          counter(&n->dev_copies), counter(&n->grown), counter(&n->offsets),
          counter(&n->views), counter(&n->host_loads),
          counter(&n->host_stores), counter(&n->snapshots));
  /* A line of its own (the line above is parsed by scripts and tests as
     it was): the syncs of host runs' own ranges (resid_sync.c). */
  if (counter(&n->partial_syncs))
    fprintf(stderr,
            "idiom-stats: residency partial_syncs=%llu released=%llu\n",
            counter(&n->partial_syncs), counter(&n->sync_released));
}

uint64_t idiomrt_resid_region_bytes(void) {
  const idiomrt_resid_table *t = &idiomrt_resid_tab;
  uint64_t held = idiomrt_resid_bytes();
  return t->depth && t->synced > held ? t->synced : held;
}

uint64_t idiomrt_resid_bytes(void) {
  const idiomrt_resid_table *t = &idiomrt_resid_tab;
  uint64_t b = 0;
  if (t->depth)
    for (unsigned i = 0; i < t->n; ++i)
      b += t->e[i].hi - t->e[i].lo;
  return b;
}

void idiomrt_resid_counts(uint64_t out[6]) {
  const idiomrt_resid_counters *n = &idiomrt_resid_n;
  out[0] = counter(&n->regions);
  out[1] = counter(&n->reused);
  out[2] = counter(&n->syncs);
  out[3] = counter(&n->flush_bytes);
  out[4] = counter(&n->evicted);
  out[5] = counter(&n->dev_copies);
}
