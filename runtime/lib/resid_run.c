/*===- resid_run.c - A run's use of the residency range table -------------===*
 *
 * idiomrt_resid_acquire / _after_kernels / _commit / _abort (rt_residency.h):
 * the device buffers of a run's buffer arguments inside a region, taken from
 * the calling thread's range table (residency.c) or made and filled there:
 * an argument equal to an entry's range passes its buffer, one strictly
 * inside passes it at an element offset or a view copy, one that overlaps
 * grows the entries into one on the device or replaces them; a snapshot
 * input over an output (IDIOM_ARG_SNAPSHOT) gets a device copy of the
 * entry holding it, made after every other argument has its entry; INOUT
 * bytes of a dirty entry backed up and restored when the run fails. The
 * rules and the coherence states: residency.c.
 *
 *===----------------------------------------------------------------------===*/
#include "rt_internal.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Entries per thread; a run that needs more first evicts (copies back and
   drops) the least recently used ones. Bounds the table's linear scans and
   the device buffers of a loop that touches a new range every iteration
   (an outer loop over rows). */
#define RESID_MAX_ENTRIES 64

/* A buffer of bytes for the sub-range at off of entry x (a view, or a
   backup when backup is 1): a spare of the entry when one fits, else a new
   one kept as a spare when a slot is free (*spare = 1) or owned by the run
   (*spare = 0). */
static cl_int spare_buffer(idiomrt_resid_entry *x, size_t off, size_t bytes,
                           int backup, cl_mem *out, int *spare) {
  int free_slot = -1;
  for (unsigned k = 0; k < IDIOMRT_RESID_SPARES; ++k) {
    idiomrt_resid_spare *p = &x->spare[k];
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
  cl_int err = idiomrt_resid_new_buffer(x->dev, bytes, out);
  if (err != CL_SUCCESS)
    return err;
  *spare = free_slot >= 0;
  if (*spare)
    x->spare[free_slot] = (idiomrt_resid_spare){off, bytes, backup, 1, *out};
  return CL_SUCCESS;
}

/* The run is over with a buffer from spare_buffer. */
static void spare_done(idiomrt_resid_entry *x, cl_mem m, int spare) {
  if (!spare) {
    x->dev->cl->clReleaseMemObject(m);
    return;
  }
  for (unsigned k = 0; k < IDIOMRT_RESID_SPARES; ++k)
    if (x->spare[k].buf == m)
      x->spare[k].busy = 0;
}

static int table_find(const idiomrt_resid_table *t, uintptr_t a0,
                      uintptr_t a1) {
  for (unsigned i = 0; i < t->n; ++i)
    if (idiomrt_ranges_overlap(a0, a1, t->e[i].lo, t->e[i].hi))
      return (int)i;
  return -1;
}

/* Fills entry x's buffer from the host (through a fresh snapshot when
   with_snap). */
static cl_int fill_entry(idiomrt_resid_call *c, idiomrt_resid_entry *x,
                         int with_snap) {
  const idiomrt_device *dev = c->dev;
  size_t n = (size_t)(x->hi - x->lo);
  const void *src = (const void *)x->lo;
  free(x->snap);
  x->snap = NULL;
  uint64_t t0 = idiomrt_now_ns();
  if (with_snap) {
    if (!(x->snap = idiomrt_snapshot_copy((const void *)x->lo, n)))
      return CL_OUT_OF_HOST_MEMORY;
    src = x->snap;
  }
  uint64_t t1 = idiomrt_now_ns();
  int staged = 0;
  cl_int err = idiomrt_stage_write(dev, x->buf, 0, src, n, &staged);
  if (err != CL_SUCCESS)
    return err;
  if (!staged) {
    cl_event ev = NULL;
    err = dev->cl->clEnqueueWriteBuffer(dev->queue, x->buf, CL_FALSE, 0, n, src,
                                        0, NULL, &ev);
    if (err != CL_SUCCESS)
      return err;
    c->sink(c->sink_ctx, ev);
  }
  c->bytes_in += n;
  idiomrt_debug("residency: filled %zu bytes: snapshot %.1f ms, %s %.1f ms",
                n, (double)(t1 - t0) / 1e6,
                staged ? "staged copy" : "write enqueued",
                (double)(idiomrt_now_ns() - t1) / 1e6);
  return CL_SUCCESS;
}

/* a and b are an IN argument flagged IDIOM_ARG_SNAPSHOT and an output, in
   either order: the overlap the flag allows (checks.c). */
static int snapshot_pair(const idiom_arg *a, const idiom_arg *b) {
  return (idiomrt_arg_is_snapshot(a) && idiomrt_arg_is_output(b->kind)) ||
         (idiomrt_arg_is_snapshot(b) && idiomrt_arg_is_output(a->kind));
}

/* Argument i is a snapshot input that overlaps an output of the run: its
   kernels must read its bytes as they were before the run, not the entry
   the run writes. */
static int live_snapshot(const idiom_arg *args, uint32_t nargs, uint32_t i) {
  if (!idiomrt_arg_is_snapshot(&args[i]) || !args[i].bytes)
    return 0;
  uintptr_t a0 = (uintptr_t)args[i].ptr, a1 = a0 + args[i].bytes;
  for (uint32_t j = 0; j < nargs; ++j)
    if (idiomrt_arg_is_output(args[j].kind) && args[j].bytes &&
        idiomrt_ranges_overlap(a0, a1, (uintptr_t)args[j].ptr,
                               (uintptr_t)args[j].ptr + args[j].bytes))
      return 1;
  return 0;
}

void idiomrt_resid_snapshot_zc(const idiom_arg *args, uint32_t nargs,
                               unsigned char *zc) {
  for (uint32_t i = 0; i < nargs; ++i) {
    if (zc[i] != 1 || !live_snapshot(args, nargs, i))
      continue;
    uintptr_t a0 = (uintptr_t)args[i].ptr, a1 = a0 + args[i].bytes;
    for (uint32_t j = 0; j < nargs; ++j)
      if (idiomrt_arg_is_output(args[j].kind) && args[j].bytes &&
          zc[j] != 1 &&
          idiomrt_ranges_overlap(a0, a1, (uintptr_t)args[j].ptr,
                                 (uintptr_t)args[j].ptr + args[j].bytes)) {
        zc[i] = 0;
        idiomrt_zc_count(0, 1);
        break;
      }
  }
}

/* Before phase 2: a live snapshot input that no entry holds whole (its
   range reaches past its output's, and phase 1 grew that output's entry
   over it only in part) will be copied from the host, so the entries that
   overlap it are copied back now (when dirty; kept, clean, so that phase 2
   gives a written one a snapshot for its diff copy-back). */
static void snapshot_sync(const idiom_arg *args, uint32_t nargs) {
  idiomrt_resid_table *t = &idiomrt_resid_tab;
  for (uint32_t i = 0; i < nargs; ++i) {
    if (!live_snapshot(args, nargs, i))
      continue;
    uintptr_t a0 = (uintptr_t)args[i].ptr, a1 = a0 + args[i].bytes;
    if (idiomrt_resid_holding(t, a0, a1) >= 0)
      continue;
    for (unsigned k = 0; k < t->n; ++k)
      if (idiomrt_ranges_overlap(a0, a1, t->e[k].lo, t->e[k].hi))
        idiomrt_resid_flush_entry(t->e[k].dev, &t->e[k]);
  }
}

/* Phase 3: a live snapshot input a (live_snapshot), once every other
   argument has its entry. When one entry holds all of its range: a buffer
   of its own (a view of that entry, ra->view) filled by a device-side copy
   enqueued now, before the kernels on the same in-order queue, so it holds
   the entry's bytes before the run writes them (device-valid or clean:
   the current bytes either way). Otherwise every byte of its range is
   current on the host (entries overlapping it are clean: snapshot_sync,
   or made in phase 2 from the host): *mem stays NULL and the run copies
   the range from the host (run_buffers.c), as outside a region. */
static cl_int snapshot_buffer(idiomrt_resid_call *c, const idiom_arg *a,
                              idiomrt_resid_arg *ra, cl_mem *mem) {
  idiomrt_resid_table *t = &idiomrt_resid_tab;
  const idiomrt_device *dev = c->dev;
  uintptr_t a0 = (uintptr_t)a->ptr, a1 = a0 + a->bytes;
  ra->entry = idiomrt_resid_holding(t, a0, a1);
  ra->out = 0;
  if (ra->entry < 0)
    return CL_SUCCESS;
  idiomrt_resid_entry *x = &t->e[ra->entry];
  x->last_use = t->clock;
  ra->off = (size_t)(a0 - x->lo);
  cl_int err = spare_buffer(x, ra->off, (size_t)a->bytes, 0, &ra->view,
                            &ra->view_spare);
  if (err != CL_SUCCESS)
    return err;
  cl_event ev = NULL;
  err = dev->cl->clEnqueueCopyBuffer(dev->queue, x->buf, ra->view, ra->off, 0,
                                     (size_t)a->bytes, 0, NULL, &ev);
  if (err != CL_SUCCESS)
    return err;
  c->sink(c->sink_ctx, ev);
  if ((err = dev->cl->clRetainMemObject(ra->view)) != CL_SUCCESS)
    return err;
  *mem = ra->view;
  __atomic_add_fetch(&idiomrt_resid_n.snapshots, 1, __ATOMIC_RELAXED);
  return CL_SUCCESS;
}

int idiomrt_resid_acquire(idiomrt_resid_call *c, const idiom_arg *args,
                          uint32_t nargs, cl_mem *mems, char *reason,
                          size_t reason_len) {
  idiomrt_resid_table *t = &idiomrt_resid_tab;
  const idiomrt_device *dev = c->dev;
  const idiomrt_cl *cl = dev->cl;
  c->nargs = nargs;
  c->used = 0;

  /* Two arguments that overlap each other: no residency for this run,
     unless the pair is a snapshot input and an output (phase 3). */
  int disjoint = 1;
  for (uint32_t i = 0; i < nargs && disjoint; ++i) {
    if (!idiomrt_arg_is_buffer(args[i].kind) || !args[i].bytes)
      continue;
    uintptr_t a0 = (uintptr_t)args[i].ptr, a1 = a0 + args[i].bytes;
    for (uint32_t j = i + 1; j < nargs; ++j)
      if (idiomrt_arg_is_buffer(args[j].kind) && args[j].bytes &&
          idiomrt_ranges_overlap(a0, a1, (uintptr_t)args[j].ptr,
                                 (uintptr_t)args[j].ptr + args[j].bytes) &&
          !snapshot_pair(&args[i], &args[j]))
        disjoint = 0;
  }
  /* Phase 1: entries that overlap an argument without containing it (or
     any overlapping entry, without residency) go back to the host, unless
     they could be grown on the device to hold it (hold_range). */
  for (uint32_t i = 0; i < nargs; ++i) {
    if (!idiomrt_arg_is_buffer(args[i].kind) || !args[i].bytes)
      continue;
    uintptr_t a0 = (uintptr_t)args[i].ptr, a1 = a0 + args[i].bytes;
    /* An argument that extends resident ranges (a plane or row sweep: each
       run's range overlaps the last one's) grows them into one entry on
       the device instead of sending them back and filling anew. */
    int zc = c->zc && c->zc[i]; /* no entry: overlapping ones go back */
    if (disjoint && !zc && t->n && idiomrt_resid_holding(t, a0, a1) < 0) {
      int same_dev = 1, any = 0;
      for (unsigned k = 0; k < t->n; ++k)
        if (idiomrt_ranges_overlap(a0, a1, t->e[k].lo, t->e[k].hi)) {
          any = 1;
          same_dev &= t->e[k].dev == dev;
        }
      if (any && same_dev && idiomrt_resid_hold_range(t, a0, a1) >= 0)
        __atomic_add_fetch(&idiomrt_resid_n.grown, 1, __ATOMIC_RELAXED);
    }
    for (unsigned k = 0; k < t->n;) {
      idiomrt_resid_entry *x = &t->e[k];
      if (idiomrt_ranges_overlap(a0, a1, x->lo, x->hi) &&
          (zc || !disjoint || x->dev != dev || !(x->lo <= a0 && a1 <= x->hi))) {
        idiomrt_resid_drop_entry(t, k);
        continue;
      }
      ++k;
    }
  }
  if (!disjoint)
    return 1; /* the caller copies in and out as outside a region */
  snapshot_sync(args, nargs);
  if (!(c->arg = calloc(nargs ? nargs : 1, sizeof *c->arg))) {
    snprintf(reason, reason_len, "out of host memory");
    return 0;
  }
  c->used = 1;
  /* Room for the new entries: evict the least recently used entries that
     hold none of this run's arguments. */
  unsigned need = 0;
  for (uint32_t i = 0; i < nargs; ++i)
    if (idiomrt_arg_is_buffer(args[i].kind) && args[i].bytes &&
        !(c->zc && c->zc[i]) &&
        table_find(t, (uintptr_t)args[i].ptr,
                   (uintptr_t)args[i].ptr + args[i].bytes) < 0)
      ++need;
  while (t->n + need > RESID_MAX_ENTRIES) {
    int victim = -1;
    for (unsigned k = 0; k < t->n; ++k) {
      int holds = 0;
      for (uint32_t i = 0; i < nargs && !holds; ++i)
        holds = idiomrt_arg_is_buffer(args[i].kind) && args[i].bytes &&
                idiomrt_ranges_overlap((uintptr_t)args[i].ptr,
                                       (uintptr_t)args[i].ptr + args[i].bytes,
                                       t->e[k].lo, t->e[k].hi);
      if (!holds && (victim < 0 || t->e[k].last_use < t->e[victim].last_use))
        victim = (int)k;
    }
    if (victim < 0)
      break; /* every entry holds an argument: exceed the bound */
    idiomrt_resid_drop_entry(t, (unsigned)victim);
    __atomic_add_fetch(&idiomrt_resid_n.evicted, 1, __ATOMIC_RELAXED);
  }
  t->clock++;
  /* Phase 2: an entry for every argument but the snapshots (phase 3). */
  for (uint32_t i = 0; i < nargs; ++i) {
    const idiom_arg *a = &args[i];
    if (!idiomrt_arg_is_buffer(a->kind) || !a->bytes || (c->zc && c->zc[i]) ||
        live_snapshot(args, nargs, i))
      continue;
    idiomrt_resid_arg *ra = &c->arg[i];
    uintptr_t a0 = (uintptr_t)a->ptr, a1 = a0 + a->bytes;
    int out = idiomrt_arg_is_output(a->kind);
    int dense = (a->flags & IDIOM_ARG_DENSE) != 0;
    int k = table_find(t, a0, a1);
    cl_int err;
    if (k < 0) {
      if (t->n == t->cap) {
        unsigned cap = t->cap ? 2 * t->cap : 8;
        idiomrt_resid_entry *e = realloc(t->e, cap * sizeof *e);
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
      idiomrt_resid_entry x = {dev, a0, a1, 0, NULL, 0, NULL, {{0}}};
      if ((err = idiomrt_resid_new_buffer(dev, (size_t)a->bytes, &x.buf)) !=
          CL_SUCCESS)
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
      __atomic_add_fetch(&idiomrt_resid_n.reused, 1, __ATOMIC_RELAXED);
      idiomrt_resid_entry *x = &t->e[k];
      int whole = x->lo == a0 && x->hi == a1;
      /* A clean entry without a snapshot that a run writes only in part
         (or not densely) needs one for a diff copy-back. Clean: the device
         holds the host's bytes (an entry lives inside one region, where no
         host code touches its range), so the host's bytes are the snapshot;
         nothing is copied to the device again. */
      if (out && !x->dirty && !x->snap && !(dense && whole)) {
        size_t n = (size_t)(x->hi - x->lo);
        if (!(x->snap = idiomrt_snapshot_copy((const void *)x->lo, n))) {
          snprintf(reason, reason_len, "out of host memory");
          return 0;
        }
      }
    }
    idiomrt_resid_entry *x = &t->e[k];
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
        __atomic_add_fetch(&idiomrt_resid_n.offsets, 1, __ATOMIC_RELAXED);
    } else {
      cl_event ev = NULL;
      __atomic_add_fetch(&idiomrt_resid_n.views, 1, __ATOMIC_RELAXED);
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
    snprintf(reason, reason_len, "OpenCL error %d (%s) in residency", (int)err,
             idiomrt_cl_error_name(err));
    return 0;
  }
  /* Phase 3: the snapshots, once every output has its entry. */
  for (uint32_t i = 0; i < nargs; ++i) {
    if (!(c->zc && c->zc[i]) && live_snapshot(args, nargs, i)) {
      cl_int err = snapshot_buffer(c, &args[i], &c->arg[i], &mems[i]);
      if (err != CL_SUCCESS) {
        snprintf(reason, reason_len, "OpenCL error %d (%s) in residency",
                 (int)err, idiomrt_cl_error_name(err));
        return 0;
      }
    }
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
        dev->queue, ra->view, idiomrt_resid_tab.e[ra->entry].buf, 0, ra->off,
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
    idiomrt_resid_entry *x =
        c->used && ra->entry >= 0 && (unsigned)ra->entry < idiomrt_resid_tab.n
            ? &idiomrt_resid_tab.e[ra->entry]
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
        idiomrt_resid_tab.e[c->arg[i].entry].dirty = 1;
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
          c->dev->queue, ra->backup, idiomrt_resid_tab.e[ra->entry].buf, 0,
          ra->off, (size_t)args[i].bytes, 0, NULL, NULL);
      if (err != CL_SUCCESS)
        idiomrt_resid_fatal("clEnqueueCopyBuffer (restore)", err);
      any = 1;
    }
    if (any) {
      cl_int err = cl->clFinish(c->dev->queue);
      if (err != CL_SUCCESS)
        idiomrt_resid_fatal("clFinish (restore)", err);
    }
  }
  release_call(c);
}
