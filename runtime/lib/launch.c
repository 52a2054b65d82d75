/*===- launch.c - idiom_run: maps and two-stage reductions ----------------===*
 *
 * One run: check what can be checked without a device (IDIOM_DEVICE=seq;
 * descriptor, trip count, overlapping ranges: checks.c), then take the
 * device and the descriptor's program, copy every buffer in, launch, map
 * the outputs back, and copy them to the host only once every command has
 * completed without error. Any failure releases what the run allocated and
 * declines, with nothing written to the host.
 *
 * Outputs: an OUT / INOUT argument without IDIOM_ARG_DENSE is copied in
 * from a host snapshot, and only the bytes whose device value differs from
 * the snapshot are written back (writeback.c), so bytes of the range that
 * the loop does not write are never stored to. With IDIOM_ARG_DENSE the
 * whole range is copied back.
 *
 * Entry: a run re-entered on the same thread (a signal handler that runs an
 * offloadable loop while its thread is inside the runtime) declines at once
 * with "runtime busy", taking no lock and allocating nothing. A run that
 * finds the descriptor, the device or the runtime thread held by another
 * thread declines likewise (trylock), instead of waiting.
 *
 * A descriptor with several variants runs the one chosen for the size class
 * (tuning.c); when none is chosen yet, every usable variant is timed on
 * this run's device buffers first (outputs restored from a copy before each
 * launch), the fastest is recorded, and it then runs for real.
 *
 *===----------------------------------------------------------------------===*/
#include "rt_internal.h"

#include <errno.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

/* Keeps lsan.c's member in every link (see there). */
extern const char *__lsan_default_suppressions(void);
__attribute__((used)) static const char *(*const keep_lsan_suppressions)(
    void) = __lsan_default_suppressions;

#define MAX_RESULTS IDIOM_MAX_RESULTS
#define MAP_LOCAL_1D 64
#define REDUCE_MAX_L 256
#define REDUCE_MAX_G 1024
#define TUNE_REPS 3
#define TUNE_LONG_MS 20.0 /* a variant's run this long is not repeated */
#define TUNE_FILL_GROUPS 16 /* work-groups per compute unit in a sample */

static _Thread_local char t_reason[IDIOMRT_REASON_LEN];
static _Thread_local const char *t_reason_static; /* else t_reason */
/* The entry of the last descriptor this thread ran (entries live as long
   as the process): no registry lock for a call site called again. */
static _Thread_local const idiom_kernel_desc *t_last_desc;
static _Thread_local idiomrt_entry *t_last_entry;
static _Thread_local int t_declined;
static _Thread_local double t_kernel_ms = -1.0;
static _Thread_local int t_variant = -1;
static _Thread_local int t_depth; /* > 0 while this thread is in idiom_run */

enum { EV_TRANSFER = 0, EV_KERNEL = 1 };

typedef struct run {
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
  cl_mem parts[MAX_RESULTS];     /* reductions: part_k, G elements */
  cl_mem outs[MAX_RESULTS];      /* reductions: out_k, one element */
  cl_event *ev;                  /* every command this run enqueued */
  unsigned char *ev_kind;
  unsigned nev, ev_cap;
  struct mapping {
    cl_mem mem;
    void *dev_ptr;               /* what clEnqueueMapBuffer returned */
    void *host;                  /* where the bytes go on success */
    const unsigned char *snap;   /* write only bytes that differ, or NULL */
    size_t bytes;
  } *maps;
  unsigned nmaps;
  uint64_t host_copy_ns;
  uint64_t sample;               /* tuning a map: iterations launched, 0 all */
  uint64_t work;                 /* the size class counts this when larger
                                    than the iterations: a CSR SpMV's
                                    nonzeros (0: the iterations) */
  uint64_t bytes_in, bytes_out;  /* host-to-device, device-to-host */
  const idiom_csr *csr;          /* a CSR SpMV's matrix, else NULL */
  cl_mem blocks_mem;             /* row blocks of the load-balanced variant */
  const int64_t *blocks;         /* their host copy (csr.c's memo or owned) */
  int64_t *blocks_owned;         /* freed by cleanup */
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
} run;

static int cl_fail(run *r, const char *what, cl_int err) {
  snprintf(r->reason, r->reason_len, "OpenCL error %d (%s) in %s", (int)err,
           idiomrt_cl_error_name(err), what);
  return 0;
}

static int fail(run *r, const char *why) {
  snprintf(r->reason, r->reason_len, "%s", why);
  return 0;
}

static void add_event(run *r, cl_event ev, int kind) {
  /* ev_cap is sized up front for every command a run can enqueue. */
  r->ev[r->nev] = ev;
  r->ev_kind[r->nev] = (unsigned char)kind;
  r->nev++;
}

/* residency.c's events join the run's. */
static void sink_event(void *ctx, cl_event ev) {
  add_event((run *)ctx, ev, EV_TRANSFER);
}

static int is_buffer(uint32_t kind) { return kind <= IDIOM_ARG_BUF_INOUT; }

/* A kernel's wait list: the run's gate, when it has one. */
#define GATE(r) (r)->gate ? 1u : 0u, (r)->gate ? &(r)->gate : NULL

/* The gate of a run that copies no INOUT zero-copy bytes aside
   (zerocopy.c, "failure"): its kernels wait for it, and it opens only once
   every command of the run is enqueued. */
static int gate_make(run *r) {
  cl_int err = CL_SUCCESS;
  r->gate = r->cl->clCreateUserEvent(r->dev->ctx, &err);
  if (!r->gate || err != CL_SUCCESS) {
    r->gate = NULL;
    return cl_fail(r, "clCreateUserEvent", err);
  }
  return 1;
}

static int gate_open(run *r) {
  r->gate_open = 1; /* even when the call fails: the kernels may run */
  cl_int err = r->cl->clSetUserEventStatus(r->gate, CL_COMPLETE);
  return err == CL_SUCCESS ? 1 : cl_fail(r, "clSetUserEventStatus", err);
}

/* A failed run's closed gate: set to an error, so that the commands
   waiting for it are terminated unrun (OpenCL 1.2, clSetUserEventStatus).
   Where even that fails the kernels may run: counted as opened. */
static void gate_fail(run *r) {
  if (r->gate && !r->gate_open &&
      r->cl->clSetUserEventStatus(r->gate, CL_INVALID_EVENT) != CL_SUCCESS)
    r->gate_open = 1;
}
static int is_output(uint32_t kind) {
  return kind == IDIOM_ARG_BUF_OUT || kind == IDIOM_ARG_BUF_INOUT;
}

static size_t pow2_floor(size_t x) {
  size_t p = 1;
  while (p <= x / 2)
    p *= 2;
  return p;
}

static size_t min_sz(size_t a, size_t b) { return a < b ? a : b; }

/* A device buffer of max(bytes, 1) bytes; copies host bytes in when given. */
static int make_buffer(run *r, cl_mem_flags flags, const void *host,
                       uint64_t bytes, cl_mem *out) {
  if (r->dev->max_alloc && bytes > r->dev->max_alloc)
    return fail(r, "buffer larger than the device's maximum allocation");
  if (bytes > (uint64_t)SIZE_MAX)
    return fail(r, "buffer larger than the address space");
  cl_int err = CL_SUCCESS;
  *out = r->cl->clCreateBuffer(r->dev->ctx, flags, bytes ? (size_t)bytes : 1,
                               NULL, &err);
  if (!*out || err != CL_SUCCESS) {
    *out = NULL;
    return cl_fail(r, "clCreateBuffer", err);
  }
  if (host && bytes) {
    int staged = 0; /* through pinned memory (staging.c), synchronously */
    uint64_t t0 = idiomrt_now_ns();
    err = idiomrt_stage_write(r->dev, *out, 0, host, (size_t)bytes, &staged);
    if (err != CL_SUCCESS)
      return cl_fail(r, "staged clEnqueueWriteBuffer", err);
    if (staged) {
      r->host_copy_ns += idiomrt_now_ns() - t0;
    } else {
      cl_event ev = NULL;
      err = r->cl->clEnqueueWriteBuffer(r->dev->queue, *out, CL_FALSE, 0,
                                        (size_t)bytes, host, 0, NULL, &ev);
      if (err != CL_SUCCESS)
        return cl_fail(r, "clEnqueueWriteBuffer", err);
      add_event(r, ev, EV_TRANSFER);
    }
    r->bytes_in += bytes;
  }
  return 1;
}

/* In-place inputs (inplace.c): the output's buffer, offset and zero-copy
   state for each input that aliases it. */
static void bind_aliases(run *r) {
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

static int create_buffers(run *r) {
  int inplace = idiomrt_inplace_view(r->args, r->nargs, &r->view, &r->alias);
  if (inplace < 0)
    return fail(r, "out of host memory");
  if (inplace)
    r->args = r->view;
  if (idiomrt_zc_device(r->dev)) {
    r->zc = calloc(r->nargs ? r->nargs : 1, 1);
    r->zc_base = calloc(r->nargs ? r->nargs : 1, sizeof *r->zc_base);
    if (!r->zc || !r->zc_base)
      return fail(r, "out of host memory");
    /* the first run of a pair must not write the host: outputs copied */
    idiomrt_zc_plan(r->dev, r->args, r->nargs, r->off_elem,
                    idiomrt_defer_wanted(r->d), r->zc, r->zc_base);
    r->rc.zc = r->zc;
  }
  if (idiomrt_resid_active()) {
    r->rc.dev = r->dev;
    r->rc.sink = sink_event;
    r->rc.sink_ctx = r;
    if (!idiomrt_resid_acquire(&r->rc, r->args, r->nargs, r->mems, r->reason,
                               r->reason_len))
      return 0;
  }
  if (r->zc && !idiomrt_zc_buffers(r->dev, r->args, r->nargs, r->zc,
                                   r->zc_base, r->mems, r->zc_backup,
                                   &r->host_copy_ns))
    return fail(r, "out of host memory");
  for (uint32_t i = 0; i < r->nargs; ++i) {
    const idiom_arg *a = &r->args[i];
    if (!is_buffer(a->kind) || r->mems[i] || /* mems[i]: resident */
        (r->alias && r->alias[i]))
      continue;
    cl_mem_flags f =
        a->kind == IDIOM_ARG_BUF_IN ? CL_MEM_READ_ONLY : CL_MEM_READ_WRITE;
    const void *src = a->ptr;
    if (a->kind == IDIOM_ARG_BUF_OUT && (a->flags & IDIOM_ARG_DENSE))
      src = NULL;
    else if (is_output(a->kind) && a->bytes && !(a->flags & IDIOM_ARG_DENSE)) {
      if (a->bytes > (uint64_t)SIZE_MAX)
        return fail(r, "buffer larger than the address space");
      if (!r->snap && !(r->snap = calloc(r->nargs, sizeof *r->snap)))
        return fail(r, "out of host memory");
      uint64_t t0 = idiomrt_now_ns();
      if (!(r->snap[i] = malloc((size_t)a->bytes)))
        return fail(r, "out of host memory");
      idiomrt_parallel_memcpy(r->snap[i], a->ptr, (size_t)a->bytes);
      r->host_copy_ns += idiomrt_now_ns() - t0;
      src = r->snap[i];
    }
    if (!make_buffer(r, f, src, a->bytes, &r->mems[i]))
      return 0;
  }
  bind_aliases(r);
  return 1;
}

/* Byte offset of argument i's range in r->mems[i]: a sub-range of a
   resident entry passed as the entry's buffer (residency.c), else 0. */
static size_t mem_off(const run *r, uint32_t i) {
  if (r->zc && r->zc[i] == 1)
    return r->zc_base[i];
  return r->rc.used && r->rc.arg && r->rc.arg[i].direct ? r->rc.arg[i].off : 0;
}

/* Sets args 0..nargs-1 of k and, for kernels that take them, the element
   offsets that follow (idiomrt.h, "Element offsets"). */
static int set_idiom_args(run *r, cl_kernel k) {
  for (uint32_t i = 0; i < r->nargs; ++i) {
    const idiom_arg *a = &r->args[i];
    cl_int err;
    if (is_buffer(a->kind)) {
      err = r->cl->clSetKernelArg(k, i, sizeof(cl_mem), &r->mems[i]);
    } else {
      size_t sz = (a->kind == IDIOM_ARG_I32 || a->kind == IDIOM_ARG_F32) ? 4 : 8;
      err = r->cl->clSetKernelArg(k, i, sz, &a->value);
    }
    if (err != CL_SUCCESS) {
      char what[64];
      snprintf(what, sizeof what, "clSetKernelArg(%u)", (unsigned)i);
      return cl_fail(r, what, err);
    }
  }
  uint32_t j = 0;
  for (uint32_t i = 0; r->off_elem && i < r->nargs; ++i) {
    if (!is_buffer(r->args[i].kind))
      continue;
    cl_long off = r->off_elem[i] ? (cl_long)(mem_off(r, i) / r->off_elem[i]) : 0;
    cl_int err = r->cl->clSetKernelArg(k, r->nargs + j++, sizeof off, &off);
    if (err != CL_SUCCESS)
      return cl_fail(r, "clSetKernelArg(offset)", err);
  }
  return 1;
}

/* The source's element bytes per buffer argument (e->offsets) into
   r->off_elem; a missing or odd number is 0 (that argument is never passed
   at an offset: a view, residency.c). */
static int parse_offsets(run *r) {
  const char *p = r->e->offsets;
  if (!p || r->d->kind != IDIOM_MAP)
    return 1;
  if (!(r->off_elem = calloc(r->nargs ? r->nargs : 1, sizeof *r->off_elem)))
    return fail(r, "out of host memory");
  for (uint32_t i = 0; i < r->nargs; ++i) {
    if (!is_buffer(r->args[i].kind))
      continue;
    r->noffs++;
    while (*p == ' ')
      ++p;
    char *end = NULL;
    unsigned long b = *p >= '0' && *p <= '9' ? strtoul(p, &end, 10) : 0;
    if (end && end != p) {
      p = end;
      if (b == 1 || b == 2 || b == 4 || b == 8 || b == 16)
        r->off_elem[i] = (uint32_t)b;
    }
  }
  r->rc.elem = r->off_elem;
  return 1;
}

/* Maps [off, off + bytes) of mem for reading; its bytes go to host once
   the run succeeded. A zero-copy buffer (zc) is mapped for coherence only:
   the map returns host itself and nothing is copied or counted. */
static int map_back(run *r, cl_mem mem, void *host, const unsigned char *snap,
                    size_t off, size_t bytes, int zc) {
  cl_int err = CL_SUCCESS;
  cl_event ev = NULL;
  void *p = r->cl->clEnqueueMapBuffer(r->dev->queue, mem, CL_FALSE,
                                      CL_MAP_READ, off, bytes, 0, NULL, &ev,
                                      &err);
  if (!p || err != CL_SUCCESS)
    return cl_fail(r, "clEnqueueMapBuffer", err ? err : CL_MAP_FAILURE);
  add_event(r, ev, EV_TRANSFER);
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
static int map_outputs(run *r) {
  for (uint32_t i = 0; i < r->nargs; ++i) {
    const idiom_arg *a = &r->args[i];
    int zc = r->zc ? r->zc[i] : 0; /* 2: copied outside the table */
    if (!is_output(a->kind) || !a->bytes || (r->rc.used && !zc))
      continue;
    if (!map_back(r, r->mems[i], a->ptr, r->snap ? r->snap[i] : NULL,
                  mem_off(r, i), (size_t)a->bytes, zc == 1))
      return 0;
  }
  return 1;
}

/* Waits for every command of the run; fails when any of them failed. */
static int wait_all(run *r) {
  if (r->nev == 0)
    return 1;
  cl_int err = r->cl->clFlush(r->dev->queue);
  if (err != CL_SUCCESS)
    return cl_fail(r, "clFlush", err);
  err = r->cl->clWaitForEvents(r->nev, r->ev);
  for (unsigned i = 0; i < r->nev; ++i) {
    cl_int st = CL_COMPLETE;
    cl_int e2 = r->cl->clGetEventInfo(r->ev[i],
                                      CL_EVENT_COMMAND_EXECUTION_STATUS,
                                      sizeof st, &st, NULL);
    if (e2 != CL_SUCCESS)
      return cl_fail(r, "clGetEventInfo", e2);
    if (st != CL_COMPLETE)
      return cl_fail(r, r->ev_kind[i] == EV_KERNEL ? "kernel execution"
                                                   : "transfer",
                     st < 0 ? st : CL_INVALID_EVENT);
  }
  if (err != CL_SUCCESS)
    return cl_fail(r, "clWaitForEvents", err);
  return 1;
}

static void profile(run *r, uint64_t *kernel_ns, uint64_t *transfer_ns) {
  *kernel_ns = 0;
  *transfer_ns = r->host_copy_ns;
  for (unsigned i = 0; i < r->nev; ++i) {
    cl_ulong t0 = 0, t1 = 0;
    if (r->cl->clGetEventProfilingInfo(r->ev[i], CL_PROFILING_COMMAND_START,
                                       sizeof t0, &t0, NULL) != CL_SUCCESS ||
        r->cl->clGetEventProfilingInfo(r->ev[i], CL_PROFILING_COMMAND_END,
                                       sizeof t1, &t1, NULL) != CL_SUCCESS ||
        t1 < t0)
      continue;
    if (r->ev_kind[i] == EV_KERNEL)
      *kernel_ns += t1 - t0;
    else
      *transfer_ns += t1 - t0;
  }
}

/* Releases everything the run made. On failure first waits for each command
   already enqueued, so no command still reads host memory once idiom_run has
   returned. */
static void cleanup(run *r) {
  const idiomrt_cl *cl = r->cl;
  for (unsigned i = 0; i < r->nev; ++i)
    cl->clWaitForEvents(1, &r->ev[i]);
  cl_event unmap_ev[2 * MAX_RESULTS + 64];
  unsigned nun = 0;
  for (unsigned i = 0; i < r->nmaps; ++i) {
    cl_event ev = NULL;
    if (cl->clEnqueueUnmapMemObject(r->dev->queue, r->maps[i].mem,
                                    r->maps[i].dev_ptr, 0, NULL,
                                    &ev) == CL_SUCCESS &&
        ev) {
      if (nun < sizeof unmap_ev / sizeof unmap_ev[0])
        unmap_ev[nun++] = ev;
      else {
        cl->clWaitForEvents(1, &ev);
        cl->clReleaseEvent(ev);
      }
    }
  }
  if (nun) {
    cl->clFlush(r->dev->queue);
    cl->clWaitForEvents(nun, unmap_ev);
    for (unsigned i = 0; i < nun; ++i)
      cl->clReleaseEvent(unmap_ev[i]);
  }
  for (unsigned i = 0; i < r->nev; ++i)
    cl->clReleaseEvent(r->ev[i]);
  if (r->gate)
    cl->clReleaseEvent(r->gate);
  if (r->mems)
    for (uint32_t i = 0; i < r->nargs; ++i)
      if (r->mems[i])
        cl->clReleaseMemObject(r->mems[i]);
  if (r->pristine)
    for (uint32_t i = 0; i < r->nargs; ++i)
      if (r->pristine[i])
        cl->clReleaseMemObject(r->pristine[i]);
  free(r->pristine);
  if (r->snap)
    for (uint32_t i = 0; i < r->nargs; ++i)
      free(r->snap[i]);
  free(r->snap);
  for (int k = 0; k < MAX_RESULTS; ++k) {
    if (r->parts[k])
      cl->clReleaseMemObject(r->parts[k]);
    if (r->outs[k])
      cl->clReleaseMemObject(r->outs[k]);
  }
  if (r->blocks_mem)
    cl->clReleaseMemObject(r->blocks_mem);
  free(r->blocks_owned);
  free(r->off_elem);
  free(r->view);
  free(r->alias);
  free(r->zc);
  free(r->zc_base);
  free(r->mems);
  free(r->ev);
  free(r->ev_kind);
  free(r->maps);
}

/* Global size: n rounded up to a multiple of local. */
static int round_up(run *r, uint64_t n, size_t local, size_t *out) {
  if (n > (uint64_t)SIZE_MAX - local)
    return fail(r, "iteration space too large for the device");
  *out = (size_t)((n + local - 1) / local * local);
  return 1;
}

/* The local size of map variant v, or 0 with the reason when its
   reqd_work_group_size does not fit the device. A 3-D map's work-groups
   are 2-D tiles of one plane (local[2] = 1). */
static int map_local(run *r, const idiomrt_variant *v, size_t local[3]) {
  const idiomrt_device *dev = r->dev;
  unsigned nd = r->d->ndims;
  size_t kmax = min_sz(v->kernel_wg[0], dev->max_wg);
  local[0] = local[1] = local[2] = 1;
  if (v->kernel_reqd[0][0]) {
    local[0] = v->kernel_reqd[0][0];
    local[1] = v->kernel_reqd[0][1] ? v->kernel_reqd[0][1] : 1;
    local[2] = v->kernel_reqd[0][2] ? v->kernel_reqd[0][2] : 1;
    if (local[0] * local[1] * local[2] > kmax || local[0] > dev->max_item[0] ||
        (nd >= 2 && local[1] > dev->max_item[1]) || (nd == 1 && local[1] != 1) ||
        (nd == 3 && local[2] > dev->max_item[2]) || (nd < 3 && local[2] != 1))
      return fail(r, "work-group size required by the kernel does not fit "
                     "the device");
  } else if (v->wg[0] && (nd >= 2 || v->wg[1] <= 1)) {
    local[0] = v->wg[0];
    local[1] = nd >= 2 && v->wg[1] ? v->wg[1] : 1;
    if (local[0] * local[1] > kmax || local[0] > dev->max_item[0] ||
        (nd >= 2 && local[1] > dev->max_item[1]))
      return fail(r, "work-group size of the variant does not fit the device");
  } else if (nd == 1) {
    local[0] = pow2_floor(min_sz(min_sz(MAP_LOCAL_1D, kmax), dev->max_item[0]));
  } else {
    /* dimension 0 iterates the inner loop (sizes[nd-1]), dimension 1 the
       loop around it */
    uint64_t inner = r->sizes[nd - 1], outer = r->sizes[nd - 2];
    if (outer < 16) {
      local[0] = 64;
      local[1] = 1;
    } else if (inner < 16) {
      local[0] = 1;
      local[1] = 64;
    } else {
      local[0] = 16;
      local[1] = 16;
    }
    local[0] = pow2_floor(min_sz(local[0], dev->max_item[0]));
    local[1] = pow2_floor(min_sz(local[1], dev->max_item[1]));
    while (local[0] * local[1] > kmax) {
      if (local[1] >= local[0] && local[1] > 1)
        local[1] /= 2;
      else if (local[0] > 1)
        local[0] /= 2;
      else
        break;
    }
  }
  return 1;
}

/* Enqueues kernel k on a 1-D NDRange; its event goes to evs[*nev]. */
static int enqueue_1d(run *r, cl_kernel k, size_t global, const size_t *local,
                      cl_event *evs, unsigned *nev) {
  cl_event ev = NULL;
  cl_int err = r->cl->clEnqueueNDRangeKernel(r->dev->queue, k, 1, NULL,
                                             &global, local, GATE(r), &ev);
  if (err != CL_SUCCESS)
    return cl_fail(r, "clEnqueueNDRangeKernel", err);
  evs[(*nev)++] = ev;
  return 1;
}

/* The load-balanced variant (ept=blocks/G): a work-group of G per row
   block (csr.c, idiomrt_csr_row_blocks, built once per run), the blocks as
   the kernel's last argument; enqueued as one work-group per block (with a
   tuning sample: the blocks that start in it). */
static int launch_row_blocks(run *r, const idiomrt_variant *v, cl_event *evs,
                             unsigned *nev) {
  cl_kernel k = v->kernel[0];
  size_t local[3], global;
  if (!map_local(r, v, local) || !set_idiom_args(r, k))
    return 0;
  if (r->d->ndims != 1 || local[0] != v->row_blocks)
    return fail(r, "row blocks need a 1-D kernel of the blocks' work-group "
                   "size");
  if (!r->blocks_mem) {
    if (r->sizes[0] > (uint64_t)INT64_MAX)
      return fail(r, "iteration space too large for the device");
    r->blocks = idiomrt_csr_row_blocks(r->csr, (int64_t)r->sizes[0],
                                       v->row_blocks, &r->nblocks,
                                       &r->blocks_owned);
    if (!r->blocks)
      return fail(r, "out of host memory");
    if (!make_buffer(r, CL_MEM_READ_ONLY, r->blocks,
                     (uint64_t)(r->nblocks + 1) * sizeof *r->blocks,
                     &r->blocks_mem))
      return 0;
  }
  cl_int err = r->cl->clSetKernelArg(k, r->nargs + r->noffs, sizeof(cl_mem),
                                     &r->blocks_mem);
  if (err != CL_SUCCESS)
    return cl_fail(r, "clSetKernelArg(row blocks)", err);
  uint64_t groups = (uint64_t)r->nblocks;
  if (r->sample) { /* the blocks that start in the sample's rows */
    uint64_t lo = 0, hi = groups;
    while (lo < hi) {
      uint64_t mid = lo + (hi - lo) / 2;
      if ((uint64_t)r->blocks[mid] < r->sample)
        lo = mid + 1;
      else
        hi = mid;
    }
    groups = lo;
  }
  if (!groups)
    return 1; /* no rows: nothing to launch */
  if (groups > (uint64_t)SIZE_MAX / local[0])
    return fail(r, "iteration space too large for the device");
  global = (size_t)groups * local[0];
  return enqueue_1d(r, k, global, local, evs, nev);
}

/* The row walk (ept=*xR) of a 2-D map: a 1-D NDRange of chunks of R
   whole rows (the outer loop), each work-item running the inner loop
   itself; on a tuning sample, the chunks of the sample's first rows. */
static int launch_row_walk(run *r, const idiomrt_variant *v, cl_event *evs,
                           unsigned *nev) {
  cl_kernel k = v->kernel[0];
  size_t local[3], global;
  if (!map_local(r, v, local) || !set_idiom_args(r, k))
    return 0;
  if (r->d->ndims != 2)
    return fail(r, "a row walk needs a 2-D map");
  uint64_t rows = r->sizes[0];
  if (r->sample && r->sizes[1]) {
    uint64_t s = r->sample / r->sizes[1];
    if (s < 1)
      s = 1;
    if (s < rows)
      rows = s;
  }
  if (!rows)
    return 1; /* no rows: nothing to launch */
  if (!round_up(r, rows / v->row_walk + (rows % v->row_walk != 0), local[0],
                &global))
    return 0;
  return enqueue_1d(r, k, global, local, evs, nev);
}

/* Enqueues map variant v; its kernel event goes to evs[0]. */
static int launch_map(run *r, const idiomrt_variant *v, cl_event *evs,
                      unsigned *nev) {
  if (v->row_blocks)
    return launch_row_blocks(r, v, evs, nev);
  if (v->row_walk)
    return launch_row_walk(r, v, evs, nev);
  cl_kernel k = v->kernel[0];
  unsigned nd = r->d->ndims;
  size_t local[3], global[3] = {1, 1, 1};
  if (!map_local(r, v, local) || !set_idiom_args(r, k))
    return 0;
  for (unsigned i = 0; i < nd; ++i) {
    uint64_t n = r->sizes[nd - 1 - i];
    if (r->sample && i == nd - 1) {
      /* tuning on a sample: the first rows (outermost loop) only; every
         work-item computes its own elements, so a shorter NDRange computes
         a prefix of the map (the outputs are restored afterwards) */
      uint64_t inner = 1;
      for (unsigned d = 1; d < nd; ++d)
        inner = inner > UINT64_MAX / r->sizes[d] ? UINT64_MAX : inner * r->sizes[d];
      uint64_t rows = r->sample / inner;
      if (rows < 1)
        rows = 1;
      if (rows < n)
        n = rows;
    }
    uint32_t ept = i == 0 ? v->ept : i == 1 ? v->ept1 : v->ept2;
    if (ept > 1)
      n = n / ept + (n % ept != 0);
    if (i == 0 && v->lanes > 1) { /* ept=1/W: W work-items per element */
      if (n > UINT64_MAX / v->lanes)
        return fail(r, "iteration space too large for the device");
      n *= v->lanes;
    }
    if (!round_up(r, n, local[i], &global[i]))
      return 0;
  }
  cl_event ev = NULL;
  cl_int err = r->cl->clEnqueueNDRangeKernel(r->dev->queue, k, nd, NULL,
                                             global, local, GATE(r), &ev);
  if (err != CL_SUCCESS)
    return cl_fail(r, "clEnqueueNDRangeKernel", err);
  evs[(*nev)++] = ev;
  return 1;
}

/* Work-group size of reduction variant v, or 0 with the reason. */
static int reduce_local(run *r, const idiomrt_variant *v, size_t *out) {
  const idiomrt_device *dev = r->dev;
  const idiom_kernel_desc *d = r->d;
  size_t L;
  size_t reqd_p = v->kernel_reqd[0][0], reqd_f = v->kernel_reqd[1][0];
  size_t rbytes = 0;
  for (unsigned k = 0; k < d->nresults; ++k)
    rbytes += d->result_bytes[k];
  cl_ulong fixed = v->kernel_local[0] > v->kernel_local[1] ? v->kernel_local[0]
                                                           : v->kernel_local[1];
  size_t kmax = min_sz(min_sz(dev->max_wg, dev->max_item[0]),
                       min_sz(v->kernel_wg[0], v->kernel_wg[1]));
  if (reqd_p || reqd_f) {
    L = reqd_p ? reqd_p : reqd_f;
    if ((reqd_p && reqd_f && reqd_p != reqd_f) || (L & (L - 1)) != 0)
      return fail(r, "reduction kernels require an unusable work-group size");
    if (L > kmax || fixed + (cl_ulong)L * rbytes > dev->local_mem)
      return fail(r, "work-group size required by the kernel does not fit "
                     "the device");
  } else {
    L = pow2_floor(min_sz(REDUCE_MAX_L, kmax));
    while (L > 1 && fixed + (cl_ulong)L * rbytes > dev->local_mem)
      L /= 2;
  }
  *out = L;
  return 1;
}

/* part_k (REDUCE_MAX_G elements) and out_k for every accumulator: the
   descriptor's scratch buffers on this device (made at its first run, kept
   under e->lock, which the run holds), one more reference each for the run
   (cleanup releases it). */
static int create_reduce_buffers(run *r) {
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
        !make_buffer(r, CL_MEM_READ_WRITE, NULL, (uint64_t)REDUCE_MAX_G * rb,
                     &e->scratch_parts[k]))
      return 0;
    if (!e->scratch_outs[k] &&
        !make_buffer(r, CL_MEM_READ_WRITE, NULL, rb, &e->scratch_outs[k]))
      return 0;
    cl_int err = r->cl->clRetainMemObject(e->scratch_parts[k]);
    if (err != CL_SUCCESS)
      return cl_fail(r, "clRetainMemObject", err);
    r->parts[k] = e->scratch_parts[k];
    if ((err = r->cl->clRetainMemObject(e->scratch_outs[k])) != CL_SUCCESS)
      return cl_fail(r, "clRetainMemObject", err);
    r->outs[k] = e->scratch_outs[k];
  }
  return 1;
}

/* Enqueues reduction variant v: partial then final; events to evs. */
static int launch_reduce(run *r, const idiomrt_variant *v, cl_event *evs,
                         unsigned *nev) {
  const idiomrt_device *dev = r->dev;
  const idiomrt_cl *cl = r->cl;
  const idiom_kernel_desc *d = r->d;
  unsigned nres = d->nresults;
  cl_kernel kp = v->kernel[0], kf = v->kernel[1];
  size_t L;
  if (!reduce_local(r, v, &L))
    return 0;

  uint64_t n = r->sizes[0];
  uint64_t per = (uint64_t)L * (v->ept ? v->ept : 1);
  uint64_t groups = n / per + (n % per != 0);
  uint64_t cap = (uint64_t)dev->compute_units * 32;
  if (cap > REDUCE_MAX_G)
    cap = REDUCE_MAX_G;
  if (cap < 1)
    cap = 1;
  size_t G = (size_t)(groups < cap ? groups : cap);
  if (G < 1)
    G = 1;

  if (!set_idiom_args(r, kp))
    return 0;
  cl_uint base = r->nargs;
  cl_int err;
  for (unsigned k = 0; k < nres; ++k) {
    size_t rb = d->result_bytes[k];
    if ((err = cl->clSetKernelArg(kp, base + k, sizeof(cl_mem),
                                  &r->parts[k])) != CL_SUCCESS ||
        (err = cl->clSetKernelArg(kp, base + nres + k, L * rb, NULL)) !=
            CL_SUCCESS)
      return cl_fail(r, "clSetKernelArg(partial)", err);
  }
  cl_long m = (cl_long)G;
  if ((err = cl->clSetKernelArg(kf, 0, sizeof m, &m)) != CL_SUCCESS)
    return cl_fail(r, "clSetKernelArg(final)", err);
  for (unsigned k = 0; k < nres; ++k) {
    size_t rb = d->result_bytes[k];
    if ((err = cl->clSetKernelArg(kf, 1 + k, sizeof(cl_mem), &r->parts[k])) !=
            CL_SUCCESS ||
        (err = cl->clSetKernelArg(kf, 1 + nres + k, sizeof(cl_mem),
                                  &r->outs[k])) != CL_SUCCESS ||
        (err = cl->clSetKernelArg(kf, 1 + 2 * nres + k, L * rb, NULL)) !=
            CL_SUCCESS)
      return cl_fail(r, "clSetKernelArg(final)", err);
  }

  size_t gp = G * L, lp = L;
  cl_event ev = NULL;
  err = cl->clEnqueueNDRangeKernel(dev->queue, kp, 1, NULL, &gp, &lp, GATE(r),
                                   &ev);
  if (err != CL_SUCCESS)
    return cl_fail(r, "clEnqueueNDRangeKernel(partial)", err);
  evs[(*nev)++] = ev;
  size_t gf = L, lf = L;
  ev = NULL;
  err = cl->clEnqueueNDRangeKernel(dev->queue, kf, 1, NULL, &gf, &lf, GATE(r),
                                   &ev);
  if (err != CL_SUCCESS)
    return cl_fail(r, "clEnqueueNDRangeKernel(final)", err);
  evs[(*nev)++] = ev;
  return 1;
}

/* A kernel keeps its arguments between runs: a count that does not match
   would launch with a stale buffer of an earlier run. */
static int check_nargs(run *r, const idiomrt_variant *v) {
  unsigned nres = r->d->nresults;
  if (r->d->kind == IDIOM_MAP ? v->kernel_nargs[0] !=
                                    r->nargs + r->noffs + (v->row_blocks != 0)
                              : (v->kernel_nargs[0] != r->nargs + 2 * nres ||
                                 v->kernel_nargs[1] != 1 + 3 * nres))
    return fail(r, "kernel parameter count does not match the arguments");
  return 1;
}

static int launch_variant(run *r, const idiomrt_variant *v, cl_event *evs,
                          unsigned *nev) {
  if (r->e->second && !v->launched) { /* under r->e->lock */
    ((idiomrt_variant *)v)->launched = 1;
    idiomrt_test_slow_build(1); /* PoCL's first-launch compile, slowed */
  }
  return check_nargs(r, v) &&
         (r->d->kind == IDIOM_MAP ? launch_map(r, v, evs, nev)
                                  : launch_reduce(r, v, evs, nev));
}

/* Maps the reduction results back; they land in results + 8 * k. */
static int map_results(run *r, void *results) {
  for (unsigned k = 0; k < r->d->nresults; ++k)
    if (!map_back(r, r->outs[k], (char *)results + 8 * k, NULL, 0,
                  r->d->result_bytes[k], 0))
      return 0;
  return map_outputs(r);
}

/* Tuning: copies of every OUT / INOUT buffer, so that each timed launch and
   the real one start from the host's contents. */
static int save_outputs(run *r) {
  for (uint32_t i = 0; i < r->nargs; ++i) {
    const idiom_arg *a = &r->args[i];
    if (!is_output(a->kind) || !a->bytes)
      continue;
    if (!r->pristine && !(r->pristine = calloc(r->nargs, sizeof *r->pristine)))
      return fail(r, "out of host memory");
    if (!make_buffer(r, CL_MEM_READ_WRITE, NULL, a->bytes, &r->pristine[i]))
      return 0;
    cl_int err = r->cl->clEnqueueCopyBuffer(r->dev->queue, r->mems[i],
                                            r->pristine[i], mem_off(r, i), 0,
                                            (size_t)a->bytes, 0, NULL, NULL);
    if (err != CL_SUCCESS)
      return cl_fail(r, "clEnqueueCopyBuffer", err);
  }
  return 1;
}

static int restore_outputs(run *r) {
  if (!r->pristine)
    return 1;
  for (uint32_t i = 0; i < r->nargs; ++i) {
    if (!r->pristine[i])
      continue;
    cl_int err = r->cl->clEnqueueCopyBuffer(r->dev->queue, r->pristine[i],
                                            r->mems[i], 0, mem_off(r, i),
                                            (size_t)r->args[i].bytes, 0, NULL,
                                            NULL);
    if (err != CL_SUCCESS)
      return cl_fail(r, "clEnqueueCopyBuffer", err);
  }
  return 1;
}

/* Waits for evs and returns their summed kernel time in ns, or -1 when one
   of them failed. Releases the events. */
static double finish_timed(run *r, cl_event *evs, unsigned nev) {
  const idiomrt_cl *cl = r->cl;
  double ns = 0;
  cl->clFlush(r->dev->queue);
  if (nev && cl->clWaitForEvents(nev, evs) != CL_SUCCESS)
    ns = -1;
  for (unsigned i = 0; i < nev; ++i) {
    cl_int st = CL_COMPLETE;
    cl_ulong t0 = 0, t1 = 0;
    if (ns >= 0 &&
        (cl->clGetEventInfo(evs[i], CL_EVENT_COMMAND_EXECUTION_STATUS,
                            sizeof st, &st, NULL) != CL_SUCCESS ||
         st != CL_COMPLETE ||
         cl->clGetEventProfilingInfo(evs[i], CL_PROFILING_COMMAND_START,
                                     sizeof t0, &t0, NULL) != CL_SUCCESS ||
         cl->clGetEventProfilingInfo(evs[i], CL_PROFILING_COMMAND_END,
                                     sizeof t1, &t1, NULL) != CL_SUCCESS ||
         t1 < t0))
      ns = -1;
    if (ns >= 0)
      ns += (double)(t1 - t0);
    cl->clReleaseEvent(evs[i]);
  }
  return ns;
}

static int cmp_double(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return x < y ? -1 : x > y;
}

/* Times every usable variant and records the fastest, returning it (-1
   when none ran). The variants are timed in rounds, each round launching
   every variant still in the race once, and each variant's time is the
   median of its rounds: a GPU whose clocks ramp up during the first
   launches of a process, or whose cache still holds the freshly copied
   input, then biases no variant more than another. TUNE_REPS rounds; a
   variant whose first launch is 4x slower than the best first launch
   leaves the race, and one whose launch takes TUNE_LONG_MS or more runs
   once. A map over more than
   IDIOM_TUNE_SAMPLE iterations is timed on its first rows only
   (r->sample), enough of them to fill the device with every variant. */
static int tune(run *r, unsigned cls) {
  idiomrt_entry *e = r->e;
  double ms[IDIOMRT_MAX_VARIANTS];
  double t[IDIOMRT_MAX_VARIANTS][TUNE_REPS];
  unsigned nt[IDIOMRT_MAX_VARIANTS];
  int racing[IDIOMRT_MAX_VARIANTS];
  double best = -1;
  int best_k = -1;
  char scratch[IDIOMRT_REASON_LEN];
  char *saved_reason = r->reason;
  size_t saved_len = r->reason_len;
  if (!save_outputs(r))
    return -1;
  r->reason = scratch; /* a variant's failure is not the run's */
  r->reason_len = sizeof scratch;
  uint64_t cap = idiomrt_config_get()->tune_sample;
  uint64_t trip = idiomrt_trip_count(r->d, r->sizes);
  if (r->d->kind == IDIOM_MAP && cap && trip > cap) {
    /* A sample must give every variant the device's full-size shape: at
       least TUNE_FILL_GROUPS work-groups per compute unit, and whole plane
       walks. Otherwise a variant with many elements per work-item (a
       privatised histogram: 64 keys per work-item, local bins cleared and
       merged once per work-group) runs a few under-occupied groups on the
       sample and looks 3x slower than one with 16 keys per work-item, which
       is 1.7x slower at full size (2^26 keys into 4096 bins on an H200); a
       3-D plane walk of 16 planes got 5 walks of a 65-plane sample, a
       quarter of a wave on an H200, and lost to a 69% variant. */
    idiomrt_sample_shape shapes[IDIOMRT_MAX_VARIANTS];
    unsigned ns = 0;
    for (unsigned k = 0; k < e->nvariants; ++k) {
      idiomrt_sample_shape *s = &shapes[ns];
      if (!e->var[k].ready || !map_local(r, &e->var[k], s->local))
        continue;
      s->ept[0] = e->var[k].ept;
      s->ept[1] = e->var[k].ept1;
      s->ept[2] = e->var[k].ept2;
      s->lanes = e->var[k].lanes;
      ns++;
    }
    r->sample = idiomrt_tune_sample(
        r->sizes, r->d->ndims, cap, shapes, ns,
        (uint64_t)TUNE_FILL_GROUPS * r->dev->compute_units);
    idiomrt_debug("%s: tuning sample %llu of %llu iterations", r->d->loc,
                  (unsigned long long)r->sample, (unsigned long long)trip);
  }
  for (unsigned k = 0; k < e->nvariants; ++k) {
    nt[k] = 0;
    racing[k] = e->var[k].ready;
    if (racing[k] && (e->var[k].lanes > 1 || e->var[k].row_blocks) &&
        (r->dev->type & CL_DEVICE_TYPE_CPU)) {
      /* row lanes (ept=1/W, and row blocks: ept=blocks/G) serve devices
         with SIMT lanes; a CPU runs a work-group's work-items one after
         another, and timing them costs more than it can find (IDIOM_VARIANT
         still forces one) */
      idiomrt_debug("%s: variant %u not timed on a CPU (row lanes)", r->d->loc,
                    k);
      racing[k] = 0;
    }
    if (racing[k] && e->var[k].row_walk &&
        !(r->dev->type & CL_DEVICE_TYPE_CPU)) {
      /* row walks (ept=*xR) serve CPU devices: one work-item per chunk of
         whole rows reads uncoalesced on a GPU */
      idiomrt_debug("%s: variant %u not timed on this device (row walk)",
                    r->d->loc, k);
      racing[k] = 0;
    }
  }
  double best_first = -1;
  for (unsigned rep = 0; rep < TUNE_REPS; ++rep) {
    for (unsigned k = 0; k < e->nvariants; ++k) {
      if (!racing[k])
        continue;
      cl_event evs[2];
      unsigned nev = 0;
      scratch[0] = '\0';
      if (!restore_outputs(r) || !launch_variant(r, &e->var[k], evs, &nev)) {
        for (unsigned i = 0; i < nev; ++i) {
          r->cl->clWaitForEvents(1, &evs[i]);
          r->cl->clReleaseEvent(evs[i]);
        }
        nt[k] = 0;
        racing[k] = 0;
        idiomrt_debug("%s: variant %u skipped: %s", r->d->loc, k,
                      scratch[0] ? scratch : "failed");
        continue;
      }
      double ns = finish_timed(r, evs, nev);
      if (ns < 0) {
        nt[k] = 0;
        racing[k] = 0;
        idiomrt_debug("%s: variant %u skipped: kernel execution failed",
                      r->d->loc, k);
        continue;
      }
      e->tune_ns += (uint64_t)ns;
      t[k][nt[k]++] = ns / 1e6;
      if (rep == 0 && (best_first < 0 || t[k][0] < best_first))
        best_first = t[k][0];
      if (t[k][nt[k] - 1] >= TUNE_LONG_MS)
        racing[k] = 0; /* one run of a long kernel is median enough */
    }
    /* After the first round: variants 4x slower than the best first
       launch leave the race (kept with their one time). */
    if (rep == 0)
      for (unsigned k = 0; k < e->nvariants; ++k)
        if (racing[k] && nt[k] && t[k][0] > 4 * best_first)
          racing[k] = 0;
  }
  for (unsigned k = 0; k < e->nvariants; ++k) {
    ms[k] = -1;
    if (nt[k] == 0)
      continue;
    char all[16 * TUNE_REPS] = "";
    for (unsigned i = 0, o = 0; i < nt[k] && o < sizeof all; ++i)
      o += (unsigned)snprintf(all + o, sizeof all - o, " %.4f", t[k][i]);
    qsort(t[k], nt[k], sizeof t[k][0], cmp_double);
    ms[k] = t[k][nt[k] / 2];
    idiomrt_debug("%s: size class %u: variant %u: %.4f ms (rounds:%s)",
                  r->d->loc, cls, k, ms[k], all);
    if (best_k < 0 || ms[k] < best) {
      best = ms[k];
      best_k = (int)k;
    }
  }
  r->reason = saved_reason;
  r->reason_len = saved_len;
  r->sample = 0;
  if (best_k < 0) {
    fail(r, "no kernel variant ran");
    return -1;
  }
  if (!restore_outputs(r))
    return -1;
  idiomrt_tune_record(e, r->dev, cls, best_k, ms);
  return best_k;
}

/* Everything after the device and the program are ready. */
/* Part [lo, hi) of a mapping's copy into the host (only the bytes that
   changed when it has a snapshot). */
static void write_back_part(void *p, size_t lo, size_t hi) {
  const struct mapping *m = p;
  if (m->snap)
    idiomrt_write_changed((char *)m->host + lo,
                          (const char *)m->dev_ptr + lo, m->snap + lo, hi - lo);
  else
    memcpy((char *)m->host + lo, (const char *)m->dev_ptr + lo, hi - lo);
}

static int execute(run *r, void *results, int *variant) {
  uint32_t nargs = r->nargs;
  /* per argument: a write and a map, or (residency.c) a fill, a view copy,
     a backup and a copy back into the entry */
  unsigned cap = 4 * nargs + 4 * MAX_RESULTS + 9; /* + the row blocks */
  r->mems = calloc(nargs ? nargs : 1, sizeof *r->mems);
  r->ev = calloc(cap, sizeof *r->ev);
  r->ev_kind = calloc(cap, 1);
  r->maps = calloc(nargs + MAX_RESULTS + 1, sizeof *r->maps);
  r->ev_cap = cap;
  if (!r->mems || !r->ev || !r->ev_kind || !r->maps)
    return fail(r, "out of host memory");

  idiomrt_entry *e = r->e;
  uint64_t trip = idiomrt_trip_count(r->d, r->sizes);
  unsigned cls = idiomrt_size_class(r->work > trip ? r->work : trip);
  int k = idiomrt_tune_lookup(e, r->dev, cls);
  if (k == -2)
    return fail(r, "IDIOM_VARIANT names no usable variant");
  /* Tuning runs variants in place before the real run: only then, or when
     asked, are INOUT zero-copy bytes copied aside (zerocopy.c). */
  r->zc_backup = k < 0 || idiomrt_zc_backup_always();
  if (!parse_offsets(r) || !create_buffers(r) ||
      (r->d->kind == IDIOM_REDUCE && !create_reduce_buffers(r)))
    return 0;
  r->t_buffers = idiomrt_now_ns();
  if (k < 0 && (k = tune(r, cls)) < 0)
    return 0;
  *variant = k;
  if (!r->zc_backup && idiomrt_zc_inout(r->args, r->nargs, r->zc) &&
      !gate_make(r))
    return 0;

  cl_event evs[2];
  unsigned nev = 0;
  r->launched = 1;
  int ok = launch_variant(r, &e->var[k], evs, &nev);
  for (unsigned i = 0; i < nev; ++i)
    add_event(r, evs[i], EV_KERNEL);
  if (!ok)
    return 0;
  if (r->rc.used && !idiomrt_resid_after_kernels(&r->rc, r->args, r->reason,
                                                 r->reason_len))
    return 0;
  if (r->d->kind == IDIOM_MAP ? !map_outputs(r) : !map_results(r, results))
    return 0;
  if (idiomrt_zc_test_fail() == 2)
    return fail(r, "IDIOM_ZERO_COPY_TEST_FAIL=enqueued: failed before the "
                   "kernels could start");
  if (r->gate && !gate_open(r))
    return 0;
  r->t_launched = idiomrt_now_ns();
  if (!wait_all(r))
    return 0;
  if (idiomrt_zc_test_fail() == 1)
    return fail(r, "IDIOM_ZERO_COPY_TEST_FAIL=1: failed after the kernels");
  r->t_waited = idiomrt_now_ns();
  /* Every command completed: now, and only now, write the host (or, in
     the first runs of idiom_run_pair, private copies of it that pair.c
     writes only once every run of the pair succeeded). */
  uint64_t t0 = idiomrt_now_ns();
  for (unsigned i = 0; i < r->nmaps; ++i)
    if (idiomrt_defer_wanted(r->d) &&
        !(r->maps[i].host = idiomrt_defer_copy(r->maps[i].host,
                                               r->maps[i].bytes)))
      return fail(r, "out of host memory");
  for (unsigned i = 0; i < r->nmaps; ++i)
    if (r->maps[i].dev_ptr != r->maps[i].host) /* zero-copy: already there */
      idiomrt_parallel_range(r->maps[i].bytes, write_back_part, &r->maps[i]);
  r->host_copy_ns = idiomrt_now_ns() - t0;
  return 1;
}

/*--- entry points ---------------------------------------------------------*/

static int decline(idiomrt_entry *e, const idiom_kernel_desc *d,
                   const char *reason) {
  snprintf(t_reason, sizeof t_reason, "%s", reason);
  t_reason_static = NULL;
  t_declined = 1;
  t_kernel_ms = -1.0;
  t_variant = -1;
  if (e)
    idiomrt_stats_decline(e, t_reason);
  idiomrt_debug("%s: declined: %s", d && d->loc ? d->loc : "?", t_reason);
  return 0;
}

/* idiom_run_pair's own declines (pair.c), before either run. */
int idiomrt_decline_pair(const idiom_kernel_desc *d, const char *reason) {
  return decline(d ? idiomrt_entry_get(d) : NULL, d, reason);
}

/* A decline that the cost model has counted already; reason is static. */
static int decline_counted(const idiom_kernel_desc *d, const char *reason) {
  t_reason_static = reason;
  t_declined = 1;
  t_kernel_ms = -1.0;
  t_variant = -1;
  idiomrt_debug("%s: declined: %s", d->loc ? d->loc : "?", reason);
  return 0;
}

/* A decline by the background start-up after the model chose the device
   (decision `from`): counted as the decision dec instead, and the caller's
   idiom_host_begin / idiom_host_end are asked to time the original loop. */
static int decline_policy(idiomrt_entry *e, const idiom_kernel_desc *d,
                          int from, int dec, uint64_t trip,
                          const char *reason) {
  idiomrt_cost_count(e, from, dec);
  decline(e, d, reason);
  idiomrt_cost_want_host(e, trip);
  return 0;
}

/* A run re-entered on this thread: no lock is waited for, nothing is
   allocated, the trace goes out with write(2). */
static int decline_reentered(const idiom_kernel_desc *d) {
  snprintf(t_reason, sizeof t_reason, "%s", idiomrt_busy_reason);
  t_reason_static = NULL;
  t_declined = 1;
  t_kernel_ms = -1.0;
  t_variant = -1;
  idiomrt_stats_busy(d);
  const idiomrt_config *cfg = idiomrt_config_peek();
  if (cfg && cfg->debug) {
    char line[256];
    int n = snprintf(line, sizeof line, "idiom: %s: declined: %s (re-entered)\n",
                     d && d->loc ? d->loc : "?", t_reason);
    if (n > 0 && write(2, line, (size_t)n < sizeof line ? (size_t)n
                                                        : sizeof line - 1) < 0)
      t_declined = 1;
  }
  return 0;
}

typedef struct build_job {
  idiomrt_entry *e;
  const idiomrt_device *dev;
  char *reason;
  size_t n;
  int ok;
} build_job;

static void build_job_main(void *p) {
  build_job *j = p;
  j->ok = idiomrt_program_ensure(j->e, j->dev, j->reason, j->n);
}

/* With e->lock held: the program, built on the runtime thread the first
   time. 1 when ready, else 0 with the reason. */
static int program_ready(idiomrt_entry *e, const idiomrt_device *dev,
                         char *reason, size_t n) {
  if (e->build_state != 0)
    return idiomrt_program_ensure(e, dev, reason, n);
  build_job j = {e, dev, reason, n, 0};
  int ran = idiomrt_worker_run(build_job_main, &j);
  if (ran < 0)
    snprintf(reason, n, "%s", idiomrt_busy_reason);
  else if (ran == 0)
    snprintf(reason, n, "cannot create the runtime thread");
  return ran > 0 && j.ok;
}

static int run_checked(const idiom_kernel_desc *desc, const idiom_arg *args,
                       uint32_t nargs, const uint64_t *sizes, void *results,
                       const idiom_csr *csr);

/* IDIOM_TEST_SECOND_CPU=alternate or fail with the cost model off: every
   other run of the calling thread outside residency regions (and not of a
   pair) runs on the second device (under fail: declines); =regions: inside
   regions too (the range table then holds entries of both devices). */
static int alternate_second(const idiom_kernel_desc *d) {
  static _Thread_local unsigned t_alt;
  int knob = idiomrt_device2_knob();
  return !idiomrt_config_get()->cost && knob >= IDIOMRT_SECOND_ALTERNATE &&
         (!idiomrt_resid_active() || knob == IDIOMRT_SECOND_REGIONS) &&
         !idiomrt_pair_forced(d) &&
         !idiomrt_defer_wanted(d) && (t_alt++ & 1);
}

int idiom_run(const idiom_kernel_desc *desc, const idiom_arg *args,
              uint32_t nargs, const uint64_t *sizes, void *results) {
  return idiom_run_csr(desc, args, nargs, sizes, results, NULL);
}

int idiom_run_csr(const idiom_kernel_desc *desc, const idiom_arg *args,
                  uint32_t nargs, const uint64_t *sizes, void *results,
                  const idiom_csr *csr) {
  /* The loop this call replaces never writes errno (a libm call that may
     is checked first, passes/Stitching.h), but OpenCL, the loader and the
     caches do (ENOENT from a cache lookup, EEXIST from mkdir): the caller's
     errno is kept on every path. */
  int saved_errno = errno;
  if (t_depth) {
    int r = decline_reentered(desc);
    errno = saved_errno;
    return r;
  }
  t_depth = 1;
  idiomrt_cost_clear_want();
  int ok = run_checked(desc, args, nargs, sizes, results, csr);
  /* Declined, whatever the path: inside a region the original loop runs
     next, on host memory, so every device-valid range goes back first and
     no device copy stays (residency.c). */
  if (!ok)
    idiomrt_resid_sync();
  t_depth = 0;
  errno = saved_errno;
  return ok;
}

/* r: a run of e's descriptor on dev with args (nothing else set). */
static void run_init(run *r, const idiomrt_device *dev, idiomrt_entry *e,
                     const idiom_arg *args, uint32_t nargs,
                     const uint64_t *sizes, char *reason, size_t n) {
  memset(r, 0, sizeof *r);
  r->dev = dev;
  r->cl = dev->cl;
  r->e = e;
  r->d = e->desc;
  r->args = args;
  r->nargs = nargs;
  r->sizes = sizes;
  r->reason = reason;
  r->reason_len = n;
  reason[0] = '\0';
}

/* The end of run r, ok or not: residency ranges committed, or else the
   gate closed, zero-copy in-place bytes put back (or, without a backup,
   the abort when a kernel may have written: only when program_args, the
   arguments being the program's own), residency ranges dropped. */
static void settle(run *r, int ok, int program_args) {
  if (ok) {
    idiomrt_resid_commit(&r->rc);
    return;
  }
  gate_fail(r);
  if (r->zc && r->mems)
    idiomrt_zc_abort(r->dev, r->args, r->nargs, r->zc, r->zc_backup,
                     program_args && r->launched &&
                         (!r->gate || r->gate_open),
                     r->d->loc);
  idiomrt_resid_abort(&r->rc, r->args);
}

static int run_checked(const idiom_kernel_desc *desc, const idiom_arg *args,
                       uint32_t nargs, const uint64_t *sizes, void *results,
                       const idiom_csr *csr) {
  if (!desc)
    return decline(NULL, NULL, "invalid descriptor");
  const idiomrt_config *cfg = idiomrt_config_get();
  idiomrt_entry *e = desc == t_last_desc ? t_last_entry : NULL;
  if (!e) {
    e = idiomrt_entry_get(desc);
    if (!e)
      return decline(NULL, desc, "out of host memory");
    t_last_desc = desc;
    t_last_entry = e;
  }
  if (cfg->device_pref == IDIOMRT_DEV_SEQ)
    return decline(e, desc, "IDIOM_DEVICE=seq");
  if (idiomrt_forked_child())
    return decline(e, desc, "forked child");
  const char *why = idiomrt_check_desc(desc, args, nargs, sizes, results);
  if (why)
    return decline(e, desc, why);
  /* Work below IDIOM_MIN_TRIP: the loop runs, except inside a region that
     holds device copies with the cost model on (workgate.c). */
  uint64_t trip = idiomrt_trip_count(desc, sizes);
  if ((why = idiomrt_work_gate(trip, args, nargs, csr)))
    return decline(e, desc, why);
  int snapshot = 0;
  if (idiomrt_args_overlap_snapshot(args, nargs, &snapshot))
    return decline(e, desc, "overlapping input/output ranges");
  if (snapshot && idiomrt_resid_active())
    return decline(e, desc, "snapshot input overlapping an output inside a "
                            "residency region");
  int dec = IDIOMRT_DEC_FORCED;
  /* The second kernel of a pair whose first ran (pair.c): the model decided
     for the pair with the first. */
  int pair_forced = idiomrt_pair_forced(desc);
  if (cfg->cost && !pair_forced) {
    /* the model first: a loop kept on the host pays for nothing else, and
       the device is started only when it is wanted */
    dec = idiomrt_cost_decide(e, trip,
                              idiomrt_cost_bytes(args, nargs) +
                                  idiomrt_csr_bytes_estimate(csr),
                              &why);
    if (!idiomrt_cost_is_device(dec))
      return decline_counted(desc, why);
  }
  /* A CSR SpMV: the data-dependent ranges, checked and filled in only now
     that the kernel is to run (a loop kept on the host never pays). Its
     variants are chosen per size class of its nonzeros (the work), not of
     its rows. */
  uint64_t work = 0;
  if (csr) {
    /* per thread, not on the stack (small stacks: rt-small-stack.c); a run
       is never re-entered on one thread (t_depth) */
    static _Thread_local idiom_arg csr_args[IDIOMRT_CSR_MAX_ARGS];
    if ((why = idiomrt_csr_patch(csr, args, nargs, csr_args)))
      return decline(e, desc, why);
    args = csr_args;
    if (csr->val_arg < nargs && csr->val_bytes)
      work = args[csr->val_arg].bytes / csr->val_bytes;
    if ((why = idiomrt_check_desc(desc, args, nargs, sizes, results)))
      return decline(e, desc, why);
    if (idiomrt_args_overlap(args, nargs))
      return decline(e, desc, "overlapping input/output ranges");
  }
  unsigned fp_bits = __atomic_load_n(&e->fp_bits, __ATOMIC_RELAXED);
  if (!fp_bits) {
    fp_bits = idiomrt_fp_scan(desc->source);
    __atomic_store_n(&e->fp_bits, fp_bits, __ATOMIC_RELAXED);
  }
  if ((fp_bits & (IDIOMRT_FP_FLOAT | IDIOMRT_FP_DOUBLE)) &&
      (why = idiomrt_host_fp_check()))
    return decline(e, desc, why);
  if (idiomrt_address_space_too_small())
    return decline(e, desc, "address-space limit too small");
  /* With the cost model a run that comes while the device starts or its
     kernels build declines, unless its loop is long enough to wait for
     them (startup.c). */
  /* The second (CPU) device (issue 12 item 4): chosen by the cost model
     once open and built, or, under the test knob
     IDIOM_TEST_SECOND_CPU=alternate with the model off, every other run
     outside residency regions. Its program, variants, tuning and scratch
     are those of e's second entry (registry.c). */
  /* The second device's first run of a class in this process
     (first-launch compiles, tuning) runs on the runtime thread on a copy
     of the arguments (startup_warm.c); this call runs the loop meanwhile. */
  if ((dec == IDIOMRT_DEC_EXPLORE_CPU || dec == IDIOMRT_DEC_CPU_DEVICE) &&
      !csr) {
    const char *wwhy = idiomrt_warm_request(e, args, nargs, sizes, trip);
    if (wwhy)
      return decline_policy(e, desc, dec, IDIOMRT_DEC_BUILDING, trip, wwhy);
  }
  int second = idiomrt_cost_is_second(dec) || alternate_second(desc);
  const idiomrt_device *dev =
      cfg->cost && !second ? idiomrt_startup_wait_for_run(e, trip, &why)
      : second && idiomrt_device_peek() ? idiomrt_device_peek()
                                        : idiomrt_device_get(&why);
  if (dev && second && !(dev = idiomrt_device2_get(&why)))
    return decline(e, desc, why);
  if (!dev) {
    if (why == idiomrt_starting_reason)
      return decline_policy(e, desc, dec, IDIOMRT_DEC_STARTING, trip, why);
    if (why == idiomrt_building_reason)
      return decline_policy(e, desc, dec, IDIOMRT_DEC_BUILDING, trip, why);
    return decline(e, desc, why);
  }
  if ((why = idiomrt_device_fp_check(dev, fp_bits)))
    return decline(e, desc, why);
  if (!cfg->cost || pair_forced)
    idiomrt_cost_count(e, -1, dec);
  uint64_t t_start = idiomrt_now_ns();

  char reason[IDIOMRT_REASON_LEN];
  run r;
  run_init(&r, dev, e, args, nargs, sizes, reason, sizeof reason);
  r.work = work;
  r.csr = csr;

  uint64_t kernel_ns = 0, transfer_ns = 0;
  int variant = -1;
  idiomrt_entry *pe = second ? idiomrt_entry_second(e) : e;
  if (!pe)
    return decline(e, desc, "out of host memory");
  r.e = pe;
  if (pthread_mutex_trylock(&pe->lock) != 0)
    return decline(e, desc, idiomrt_busy_reason);
  if (!second)
    e->device_name = dev->name;
  uint64_t tune_before = pe->tune_ns;
  int fresh_build = pe->build_state == 0;
  int ok = program_ready(pe, dev, reason, sizeof reason) &&
           execute(&r, results, &variant);
  int tuned = fresh_build || pe->tune_ns != tune_before;
  /* Inside a region, a run that filled device copies paid a copy that later
     runs do not: not a sample of the device's steady state either. */
  int filled = idiomrt_resid_active() && (r.bytes_in || r.rc.bytes_in);
  if (ok)
    profile(&r, &kernel_ns, &transfer_ns);
  settle(&r, ok, 1);
  /* Whatever happened, the run may have written its outputs (on the device
     or by copying back): checks remembered for those ranges are void. */
  for (uint32_t i = 0; i < nargs; ++i)
    if (is_output(args[i].kind))
      idiomrt_csr_forget(args[i].ptr, args[i].bytes);
  idiomrt_count_transfer(r.bytes_in + r.rc.bytes_in, r.bytes_out);
  idiomrt_stats_bytes(e, r.bytes_in + r.rc.bytes_in, r.bytes_out);
  if (r.ev || r.mems || r.maps || r.ev_kind)
    cleanup(&r);
  if (!ok && variant >= 0 && pe->nvariants > 1) {
    /* The chosen variant failed for real: never choose it again. */
    pe->var[variant].ready = 0;
    snprintf(pe->var[variant].why, sizeof pe->var[variant].why, "%s", reason);
    for (unsigned c = 0; c < IDIOMRT_SIZE_CLASSES; ++c)
      if (pe->chosen[c] == variant)
        pe->chosen[c] = -1;
  }
  pthread_mutex_unlock(&pe->lock);

  t_kernel_ms = -1.0;
  t_variant = -1;
  if (!ok && second && cfg->cost) /* a try without a sample: a second
                                      device that keeps failing is left */
    idiomrt_cost_second_sample(e, trip, 0, 1);
  if (!ok)
    return decline(e, desc, reason[0] ? reason : "unknown failure");
  t_declined = 0;
  t_reason[0] = '\0';
  t_reason_static = NULL;
  t_kernel_ms = (double)kernel_ns / 1e6;
  t_variant = variant;
  uint64_t t_end = idiomrt_now_ns(), run_ns = t_end - t_start;
  if (cfg->debug_time)
    idiomrt_debug("%s: device run %.1f us: buffers %.1f, enqueue %.1f, "
                  "wait %.1f (kernels %.1f, transfers %.1f), write-back and "
                  "release %.1f",
                  desc->loc ? desc->loc : "?", (double)run_ns / 1e3,
                  (double)(r.t_buffers - t_start) / 1e3,
                  (double)(r.t_launched - r.t_buffers) / 1e3,
                  (double)(r.t_waited - r.t_launched) / 1e3,
                  (double)kernel_ns / 1e3, (double)transfer_ns / 1e3,
                  (double)(t_end - r.t_waited) / 1e3);
  idiomrt_stats_success(e, kernel_ns, transfer_ns, run_ns);
  if (cfg->cost && second)
    idiomrt_cost_second_sample(e, trip, run_ns, tuned);
  else if (cfg->cost)
    idiomrt_cost_device_sample(e, trip, run_ns, tuned, filled);
  return 1;
}

int idiomrt_launch_detached(idiomrt_entry *pe, const idiomrt_device *dev,
                            const idiom_arg *args, uint32_t nargs,
                            const uint64_t *sizes, void *results, int variant,
                            char *reason, size_t n) {
  run r;
  run_init(&r, dev, pe, args, nargs, sizes, reason, n);
  int ran = -1;
  pthread_mutex_lock(&pe->lock);
  unsigned cls = idiomrt_size_class(idiomrt_trip_count(pe->desc, sizes));
  signed char chosen = pe->chosen[cls];
  unsigned char tuned = pe->tuned[cls];
  if (variant >= 0) /* this variant, whatever is chosen (restored below) */
    pe->chosen[cls] = (signed char)variant;
  int ok = idiomrt_program_ensure(pe, dev, reason, n) &&
           execute(&r, results, &ran);
  if (variant >= 0) {
    pe->chosen[cls] = chosen;
    pe->tuned[cls] = tuned;
  }
  /* The arguments are the warm-up's private copy (startup_warm.c):
     nothing of the program's to restore, never an abort. */
  settle(&r, ok, 0);
  if (r.ev || r.mems || r.maps || r.ev_kind)
    cleanup(&r);
  pthread_mutex_unlock(&pe->lock);
  if (!ok && !reason[0])
    snprintf(reason, n, "unknown failure");
  return ok;
}

void idiom_note_fallback(const idiom_kernel_desc *desc, const char *reason) {
  if (!desc)
    return;
  if (t_depth) /* re-entered from a signal handler: take no lock */
    return;
  int saved_errno = errno; /* as in idiom_run */
  t_depth = 1;
  idiomrt_config_get();
  idiomrt_entry *e = idiomrt_entry_get(desc);
  if (e)
    idiomrt_stats_note(e, reason && *reason ? reason : "unspecified");
  t_depth = 0;
  errno = saved_errno;
}

int idiomrt_in_runtime(void) { return t_depth; }

const char *idiom_last_reason(void) {
  return !t_declined ? NULL : t_reason_static ? t_reason_static : t_reason;
}

double idiom_last_kernel_ms(void) { return t_kernel_ms; }

void idiomrt_set_last_kernel_ms(double ms) { t_kernel_ms = ms; }

int idiom_last_variant(void) { return t_variant; }

const char *idiom_device_name(void) {
  if (t_depth || idiomrt_config_get()->device_pref == IDIOMRT_DEV_SEQ ||
      idiomrt_forked_child() || idiomrt_address_space_too_small())
    return NULL;
  const idiomrt_device *dev = idiomrt_config_get()->cost
                                  ? idiomrt_startup_wait(NULL)
                                  : idiomrt_device_get(NULL);
  return dev ? dev->name : NULL;
}
