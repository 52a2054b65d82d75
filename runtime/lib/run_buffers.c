/*===- run_buffers.c - A run's device buffers -----------------------------===*
 *
 * Inputs copied in (staged through pinned memory, staging.c, or
 * enqueued), outputs copied in from a host snapshot so that only the bytes
 * the kernel changed are written back (writeback.c), buffers over the
 * program's memory (zerocopy.c) or resident ones (residency.c), element
 * offsets of a map's kernels, outputs mapped back for reading, and the
 * descriptor's reduction scratch.
 *
 *===----------------------------------------------------------------------===*/
#include "rt_internal.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* residency.c's events join the run's. */
static void sink_event(void *ctx, cl_event ev) {
  idiomrt_run_add_event((idiomrt_run *)ctx, ev, IDIOMRT_EV_TRANSFER);
}

/* A device buffer of max(bytes, 1) bytes; copies host bytes in when given. */
int idiomrt_run_make_buffer(idiomrt_run *r, cl_mem_flags flags,
                            const void *host, uint64_t bytes, cl_mem *out) {
  if (r->dev->max_alloc && bytes > r->dev->max_alloc)
    return idiomrt_run_fail(
        r, "buffer larger than the device's maximum allocation");
  if (bytes > (uint64_t)SIZE_MAX)
    return idiomrt_run_fail(r, "buffer larger than the address space");
  cl_int err = CL_SUCCESS;
  *out = r->cl->clCreateBuffer(r->dev->ctx, flags, bytes ? (size_t)bytes : 1,
                               NULL, &err);
  if (!*out || err != CL_SUCCESS) {
    *out = NULL;
    return idiomrt_run_cl_fail(r, "clCreateBuffer", err);
  }
  if (host && bytes) {
    int staged = 0; /* through pinned memory (staging.c), synchronously */
    uint64_t t0 = idiomrt_now_ns();
    err = idiomrt_stage_write(r->dev, *out, 0, host, (size_t)bytes, &staged);
    if (err != CL_SUCCESS)
      return idiomrt_run_cl_fail(r, "staged clEnqueueWriteBuffer", err);
    if (staged) {
      r->host_copy_ns += idiomrt_now_ns() - t0;
    } else {
      cl_event ev = NULL;
      err = r->cl->clEnqueueWriteBuffer(r->dev->queue, *out, CL_FALSE, 0,
                                        (size_t)bytes, host, 0, NULL, &ev);
      if (err != CL_SUCCESS)
        return idiomrt_run_cl_fail(r, "clEnqueueWriteBuffer", err);
      idiomrt_run_add_event(r, ev, IDIOMRT_EV_TRANSFER);
    }
    r->bytes_in += bytes;
  }
  return 1;
}

/* In-place inputs (inplace.c): the output's buffer, offset and zero-copy
   state for each input that aliases it. */
static void bind_aliases(idiomrt_run *r) {
  for (uint32_t i = 0; r->alias && i < r->nargs; ++i) {
    if (!r->alias[i])
      continue;
    uint32_t j = r->alias[i] - 1;
    if (r->mems[i])
      r->cl->clReleaseMemObject(r->mems[i]);
    r->mems[i] = r->mems[j];
    if (r->mems[i])
      r->cl->clRetainMemObject(r->mems[i]);
    if (r->zc) {
      r->zc[i] = r->zc[j];
      r->zc_base[i] = r->zc_base[j];
    }
    if (r->rc.used && r->rc.arg) {
      r->rc.arg[i] = r->rc.arg[j];
      r->rc.arg[i].out = 0;
      r->rc.arg[i].view = NULL;
      r->rc.arg[i].backup = NULL;
    }
  }
}

int idiomrt_run_create_buffers(idiomrt_run *r) {
  int inplace = idiomrt_inplace_view(r->args, r->nargs, &r->view, &r->alias);
  if (inplace < 0)
    return idiomrt_run_fail(r, "out of host memory");
  if (inplace)
    r->args = r->view;
  if (idiomrt_zc_device(r->dev)) {
    r->zc = calloc(r->nargs ? r->nargs : 1, 1);
    r->zc_base = calloc(r->nargs ? r->nargs : 1, sizeof *r->zc_base);
    if (!r->zc || !r->zc_base)
      return idiomrt_run_fail(r, "out of host memory");
    /* the first run of a pair must not write the host: outputs copied */
    idiomrt_zc_plan(r->dev, r->args, r->nargs, r->off_elem,
                    idiomrt_defer_wanted(r->d), r->zc, r->zc_base);
    r->rc.zc = r->zc;
  }
  if (idiomrt_resid_active()) {
    if (r->zc)
      idiomrt_resid_snapshot_zc(r->args, r->nargs, r->zc);
    r->rc.dev = r->dev;
    r->rc.sink = sink_event;
    r->rc.sink_ctx = r;
    if (!idiomrt_resid_acquire(&r->rc, r->args, r->nargs, r->mems, r->reason,
                               r->reason_len))
      return 0;
  }
  if (r->zc && !idiomrt_zc_buffers(r->dev, r->args, r->nargs, r->zc, r->zc_base,
                                   r->mems, r->zc_backup, &r->host_copy_ns))
    return idiomrt_run_fail(r, "out of host memory");
  for (uint32_t i = 0; i < r->nargs; ++i) {
    const idiom_arg *a = &r->args[i];
    if (!idiomrt_arg_is_buffer(a->kind) || r->mems[i] || /* mems[i]: resident */
        (r->alias && r->alias[i]))
      continue;
    cl_mem_flags f =
        a->kind == IDIOM_ARG_BUF_IN ? CL_MEM_READ_ONLY : CL_MEM_READ_WRITE;
    const void *src = a->ptr;
    if (a->kind == IDIOM_ARG_BUF_OUT && (a->flags & IDIOM_ARG_DENSE))
      src = NULL;
    else if (idiomrt_arg_is_output(a->kind) && a->bytes &&
             !(a->flags & IDIOM_ARG_DENSE)) {
      if (a->bytes > (uint64_t)SIZE_MAX)
        return idiomrt_run_fail(r, "buffer larger than the address space");
      if (!r->snap && !(r->snap = calloc(r->nargs, sizeof *r->snap)))
        return idiomrt_run_fail(r, "out of host memory");
      uint64_t t0 = idiomrt_now_ns();
      if (!(r->snap[i] = malloc((size_t)a->bytes)))
        return idiomrt_run_fail(r, "out of host memory");
      idiomrt_parallel_memcpy(r->snap[i], a->ptr, (size_t)a->bytes);
      r->host_copy_ns += idiomrt_now_ns() - t0;
      src = r->snap[i];
    }
    if (!idiomrt_run_make_buffer(r, f, src, a->bytes, &r->mems[i]))
      return 0;
  }
  bind_aliases(r);
  return 1;
}

/* Byte offset of argument i's range in r->mems[i]: a sub-range of a
   resident entry passed as the entry's buffer (residency.c), else 0. */
size_t idiomrt_run_mem_off(const idiomrt_run *r, uint32_t i) {
  if (r->zc && r->zc[i] == 1)
    return r->zc_base[i];
  return r->rc.used && r->rc.arg && r->rc.arg[i].direct ? r->rc.arg[i].off : 0;
}

/* The source's element bytes per buffer argument (e->offsets) into
   r->off_elem; a missing or odd number is 0 (that argument is never passed
   at an offset: a view, residency.c). */
int idiomrt_run_parse_offsets(idiomrt_run *r) {
  const char *p = r->e->offsets;
  if (!p || r->d->kind != IDIOM_MAP)
    return 1;
  if (!(r->off_elem = calloc(r->nargs ? r->nargs : 1, sizeof *r->off_elem)))
    return idiomrt_run_fail(r, "out of host memory");
  for (uint32_t i = 0; i < r->nargs; ++i) {
    if (!idiomrt_arg_is_buffer(r->args[i].kind))
      continue;
    r->noffs++;
    r->off_elem[i] = idiomrt_offsets_next(&p);
  }
  r->rc.elem = r->off_elem;
  return 1;
}

/* Maps [off, off + bytes) of mem for reading; its bytes go to host once
   the run succeeded. A zero-copy buffer (zc) is mapped for coherence only:
   the map returns host itself and nothing is copied or counted. */
static int map_back(idiomrt_run *r, cl_mem mem, void *host,
                    const unsigned char *snap, size_t off, size_t bytes,
                    int zc) {
  cl_int err = CL_SUCCESS;
  cl_event ev = NULL;
  void *p = r->cl->clEnqueueMapBuffer(r->dev->queue, mem, CL_FALSE, CL_MAP_READ,
                                      off, bytes, 0, NULL, &ev, &err);
  if (!p || err != CL_SUCCESS)
    return idiomrt_run_cl_fail(r, "clEnqueueMapBuffer",
                               err ? err : CL_MAP_FAILURE);
  idiomrt_run_add_event(r, ev, IDIOMRT_EV_TRANSFER);
  if (!zc || p != host)
    r->bytes_out += bytes;
  r->maps[r->nmaps].mem = mem;
  r->maps[r->nmaps].dev_ptr = p;
  r->maps[r->nmaps].host = host;
  r->maps[r->nmaps].snap = snap;
  r->maps[r->nmaps].bytes = bytes;
  r->nmaps++;
  return 1;
}

/* Maps every OUT / INOUT argument buffer back for reading, except those
   that stay on the device (residency.c). */
int idiomrt_run_map_outputs(idiomrt_run *r) {
  for (uint32_t i = 0; i < r->nargs; ++i) {
    const idiom_arg *a = &r->args[i];
    int zc = r->zc ? r->zc[i] : 0; /* 2: copied outside the table */
    if (!idiomrt_arg_is_output(a->kind) || !a->bytes || (r->rc.used && !zc))
      continue;
    if (!map_back(r, r->mems[i], a->ptr, r->snap ? r->snap[i] : NULL,
                  idiomrt_run_mem_off(r, i), (size_t)a->bytes, zc == 1))
      return 0;
  }
  return 1;
}

/* Maps the reduction results back; they land in results + 8 * k. */
int idiomrt_run_map_results(idiomrt_run *r, void *results) {
  for (unsigned k = 0; k < r->d->nresults; ++k)
    if (!map_back(r, r->outs[k], (char *)results + 8 * k, NULL, 0,
                  r->d->result_bytes[k], 0))
      return 0;
  return idiomrt_run_map_outputs(r);
}

/* part_k (IDIOMRT_REDUCE_MAX_G elements) and out_k for every accumulator: the
   descriptor's scratch buffers on this device (made at its first run, kept
   under e->lock, which the run holds), one more reference each for the run
   (cleanup releases it). */
int idiomrt_run_reduce_buffers(idiomrt_run *r) {
  idiomrt_entry *e = r->e;
  if (e->scratch_dev != r->dev) {
    for (unsigned k = 0; k < IDIOM_MAX_RESULTS; ++k) {
      if (e->scratch_parts[k])
        e->scratch_dev->cl->clReleaseMemObject(e->scratch_parts[k]);
      if (e->scratch_outs[k])
        e->scratch_dev->cl->clReleaseMemObject(e->scratch_outs[k]);
      e->scratch_parts[k] = e->scratch_outs[k] = NULL;
    }
    e->scratch_dev = r->dev;
  }
  for (unsigned k = 0; k < r->d->nresults; ++k) {
    size_t rb = r->d->result_bytes[k];
    if (!e->scratch_parts[k] &&
        !idiomrt_run_make_buffer(r, CL_MEM_READ_WRITE, NULL,
                                 (uint64_t)IDIOMRT_REDUCE_MAX_G * rb,
                                 &e->scratch_parts[k]))
      return 0;
    if (!e->scratch_outs[k] &&
        !idiomrt_run_make_buffer(r, CL_MEM_READ_WRITE, NULL, rb,
                                 &e->scratch_outs[k]))
      return 0;
    cl_int err = r->cl->clRetainMemObject(e->scratch_parts[k]);
    if (err != CL_SUCCESS)
      return idiomrt_run_cl_fail(r, "clRetainMemObject", err);
    r->parts[k] = e->scratch_parts[k];
    if ((err = r->cl->clRetainMemObject(e->scratch_outs[k])) != CL_SUCCESS)
      return idiomrt_run_cl_fail(r, "clRetainMemObject", err);
    r->outs[k] = e->scratch_outs[k];
  }
  return 1;
}
