/*===- enqueue.c - A run's kernels: maps and two-stage reductions ---------===*
 *
 * The kernel arguments and the NDRange of a variant (docs: runtime/README.md,
 * "Kernel variants and tuning"): a map's work-group size and global size
 * from its elements per work-item (ept=E, ExE1, ExE1xE2, 1/W), the row
 * blocks of the load-balanced CSR SpMV (ept=blocks/G), the row walk of a
 * 2-D map (ept=*xR); a reduction's partial stage of G work-groups and its
 * final stage of one. Every kernel waits for the run's gate (gate.c).
 *
 *===----------------------------------------------------------------------===*/
#include "rt_internal.h"

#include <stdint.h>
#include <stdio.h>

#define MAP_LOCAL_1D 64
#define REDUCE_MAX_L 256

static size_t pow2_floor(size_t x) {
  size_t p = 1;
  while (p <= x / 2)
    p *= 2;
  return p;
}

static size_t min_sz(size_t a, size_t b) { return a < b ? a : b; }

/* Sets args 0..nargs-1 of k and, for kernels that take them, the element
   offsets that follow (idiomrt.h, "Element offsets"). */
static int set_idiom_args(idiomrt_run *r, cl_kernel k) {
  for (uint32_t i = 0; i < r->nargs; ++i) {
    const idiom_arg *a = &r->args[i];
    cl_int err;
    if (idiomrt_arg_is_buffer(a->kind)) {
      err = r->cl->clSetKernelArg(k, i, sizeof(cl_mem), &r->mems[i]);
    } else {
      size_t sz =
          (a->kind == IDIOM_ARG_I32 || a->kind == IDIOM_ARG_F32) ? 4 : 8;
      err = r->cl->clSetKernelArg(k, i, sz, &a->value);
    }
    if (err != CL_SUCCESS) {
      char what[64];
      snprintf(what, sizeof what, "clSetKernelArg(%u)", (unsigned)i);
      return idiomrt_run_cl_fail(r, what, err);
    }
  }
  uint32_t j = 0;
  for (uint32_t i = 0; r->off_elem && i < r->nargs; ++i) {
    if (!idiomrt_arg_is_buffer(r->args[i].kind))
      continue;
    cl_long off = r->off_elem[i]
                      ? (cl_long)(idiomrt_run_mem_off(r, i) / r->off_elem[i])
                      : 0;
    cl_int err = r->cl->clSetKernelArg(k, r->nargs + j++, sizeof off, &off);
    if (err != CL_SUCCESS)
      return idiomrt_run_cl_fail(r, "clSetKernelArg(offset)", err);
  }
  return 1;
}

/* Global size: n rounded up to a multiple of local. */
static int round_up(idiomrt_run *r, uint64_t n, size_t local, size_t *out) {
  if (n > (uint64_t)SIZE_MAX - local)
    return idiomrt_run_fail(r, "iteration space too large for the device");
  *out = (size_t)((n + local - 1) / local * local);
  return 1;
}

/* The local size of map variant v, or 0 with the reason when its
   reqd_work_group_size does not fit the device. A 3-D map's work-groups
   are 2-D tiles of one plane (local[2] = 1). */
int idiomrt_map_local(idiomrt_run *r, const idiomrt_variant *v,
                      size_t local[3]) {
  const idiomrt_device *dev = r->dev;
  unsigned nd = r->d->ndims;
  size_t kmax = min_sz(v->kernel_wg[0], dev->max_wg);
  local[0] = local[1] = local[2] = 1;
  if (v->kernel_reqd[0][0]) {
    local[0] = v->kernel_reqd[0][0];
    local[1] = v->kernel_reqd[0][1] ? v->kernel_reqd[0][1] : 1;
    local[2] = v->kernel_reqd[0][2] ? v->kernel_reqd[0][2] : 1;
    if (local[0] * local[1] * local[2] > kmax || local[0] > dev->max_item[0] ||
        (nd >= 2 && local[1] > dev->max_item[1]) ||
        (nd == 1 && local[1] != 1) ||
        (nd == 3 && local[2] > dev->max_item[2]) || (nd < 3 && local[2] != 1))
      return idiomrt_run_fail(
          r, "work-group size required by the kernel does not fit "
             "the device");
  } else if (v->wg[0] && (nd >= 2 || v->wg[1] <= 1)) {
    local[0] = v->wg[0];
    local[1] = nd >= 2 && v->wg[1] ? v->wg[1] : 1;
    if (local[0] * local[1] > kmax || local[0] > dev->max_item[0] ||
        (nd >= 2 && local[1] > dev->max_item[1]))
      return idiomrt_run_fail(
          r, "work-group size of the variant does not fit the device");
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

/* Enqueues kernel k on an nd-D NDRange after r's gate; its event goes to
   evs[*nev]. what names the call in a failure's reason. */
static int enqueue(idiomrt_run *r, cl_kernel k, unsigned nd,
                   const size_t *global, const size_t *local, const char *what,
                   cl_event *evs, unsigned *nev) {
  cl_event ev = NULL;
  cl_int err = r->cl->clEnqueueNDRangeKernel(r->dev->queue, k, nd, NULL, global,
                                             local, IDIOMRT_GATE(r), &ev);
  if (err != CL_SUCCESS)
    return idiomrt_run_cl_fail(r, what, err);
  evs[(*nev)++] = ev;
  return 1;
}

/* The load-balanced variant (ept=blocks/G): a work-group of G per row
   block (csr.c, idiomrt_csr_row_blocks, built once per run), the blocks as
   the kernel's last argument; enqueued as one work-group per block (with a
   tuning sample: the blocks that start in it). */
static int launch_row_blocks(idiomrt_run *r, const idiomrt_variant *v,
                             cl_event *evs, unsigned *nev) {
  cl_kernel k = v->kernel[0];
  size_t local[3], global;
  if (!idiomrt_map_local(r, v, local) || !set_idiom_args(r, k))
    return 0;
  if (r->d->ndims != 1 || local[0] != v->row_blocks)
    return idiomrt_run_fail(
        r, "row blocks need a 1-D kernel of the blocks' work-group "
           "size");
  if (!r->blocks_mem) {
    if (r->sizes[0] > (uint64_t)INT64_MAX)
      return idiomrt_run_fail(r, "iteration space too large for the device");
    r->blocks =
        idiomrt_csr_row_blocks(r->csr, (int64_t)r->sizes[0], v->row_blocks,
                               &r->nblocks, &r->blocks_owned);
    if (!r->blocks)
      return idiomrt_run_fail(r, "out of host memory");
    if (!idiomrt_run_make_buffer(r, CL_MEM_READ_ONLY, r->blocks,
                                 (uint64_t)(r->nblocks + 1) * sizeof *r->blocks,
                                 &r->blocks_mem))
      return 0;
  }
  cl_int err = r->cl->clSetKernelArg(k, r->nargs + r->noffs, sizeof(cl_mem),
                                     &r->blocks_mem);
  if (err != CL_SUCCESS)
    return idiomrt_run_cl_fail(r, "clSetKernelArg(row blocks)", err);
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
    return idiomrt_run_fail(r, "iteration space too large for the device");
  global = (size_t)groups * local[0];
  return enqueue(r, k, 1, &global, local, "clEnqueueNDRangeKernel", evs, nev);
}

/* The row walk (ept=*xR) of a 2-D map: a 1-D NDRange of chunks of R
   whole rows (the outer loop), each work-item running the inner loop
   itself; on a tuning sample, the chunks of the sample's first rows. */
static int launch_row_walk(idiomrt_run *r, const idiomrt_variant *v,
                           cl_event *evs, unsigned *nev) {
  cl_kernel k = v->kernel[0];
  size_t local[3], global;
  if (!idiomrt_map_local(r, v, local) || !set_idiom_args(r, k))
    return 0;
  if (r->d->ndims != 2)
    return idiomrt_run_fail(r, "a row walk needs a 2-D map");
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
  return enqueue(r, k, 1, &global, local, "clEnqueueNDRangeKernel", evs, nev);
}

/* Enqueues map variant v; its kernel event goes to evs[0]. */
static int launch_map(idiomrt_run *r, const idiomrt_variant *v, cl_event *evs,
                      unsigned *nev) {
  if (v->row_blocks)
    return launch_row_blocks(r, v, evs, nev);
  if (v->row_walk)
    return launch_row_walk(r, v, evs, nev);
  cl_kernel k = v->kernel[0];
  unsigned nd = r->d->ndims;
  size_t local[3], global[3] = {1, 1, 1};
  if (!idiomrt_map_local(r, v, local) || !set_idiom_args(r, k))
    return 0;
  for (unsigned i = 0; i < nd; ++i) {
    uint64_t n = r->sizes[nd - 1 - i];
    if (r->sample && i == nd - 1) {
      /* tuning on a sample: the first rows (outermost loop) only; every
         work-item computes its own elements, so a shorter NDRange computes
         a prefix of the map (the outputs are restored afterwards) */
      uint64_t inner = 1;
      for (unsigned d = 1; d < nd; ++d)
        inner =
            inner > UINT64_MAX / r->sizes[d] ? UINT64_MAX : inner * r->sizes[d];
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
        return idiomrt_run_fail(r, "iteration space too large for the device");
      n *= v->lanes;
    }
    if (!round_up(r, n, local[i], &global[i]))
      return 0;
  }
  return enqueue(r, k, nd, global, local, "clEnqueueNDRangeKernel", evs, nev);
}

/* Work-group size of reduction variant v, or 0 with the reason. */
static int reduce_local(idiomrt_run *r, const idiomrt_variant *v, size_t *out) {
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
      return idiomrt_run_fail(
          r, "reduction kernels require an unusable work-group size");
    if (L > kmax || fixed + (cl_ulong)L * rbytes > dev->local_mem)
      return idiomrt_run_fail(
          r, "work-group size required by the kernel does not fit "
             "the device");
  } else {
    L = pow2_floor(min_sz(REDUCE_MAX_L, kmax));
    while (L > 1 && fixed + (cl_ulong)L * rbytes > dev->local_mem)
      L /= 2;
  }
  *out = L;
  return 1;
}

/* Enqueues reduction variant v: partial then final; events to evs. */
static int launch_reduce(idiomrt_run *r, const idiomrt_variant *v,
                         cl_event *evs, unsigned *nev) {
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
  if (cap > IDIOMRT_REDUCE_MAX_G)
    cap = IDIOMRT_REDUCE_MAX_G;
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
      return idiomrt_run_cl_fail(r, "clSetKernelArg(partial)", err);
  }
  cl_long m = (cl_long)G;
  if ((err = cl->clSetKernelArg(kf, 0, sizeof m, &m)) != CL_SUCCESS)
    return idiomrt_run_cl_fail(r, "clSetKernelArg(final)", err);
  for (unsigned k = 0; k < nres; ++k) {
    size_t rb = d->result_bytes[k];
    if ((err = cl->clSetKernelArg(kf, 1 + k, sizeof(cl_mem), &r->parts[k])) !=
            CL_SUCCESS ||
        (err = cl->clSetKernelArg(kf, 1 + nres + k, sizeof(cl_mem),
                                  &r->outs[k])) != CL_SUCCESS ||
        (err = cl->clSetKernelArg(kf, 1 + 2 * nres + k, L * rb, NULL)) !=
            CL_SUCCESS)
      return idiomrt_run_cl_fail(r, "clSetKernelArg(final)", err);
  }

  size_t gp = G * L, gf = L;
  return enqueue(r, kp, 1, &gp, &L, "clEnqueueNDRangeKernel(partial)", evs,
                 nev) &&
         enqueue(r, kf, 1, &gf, &L, "clEnqueueNDRangeKernel(final)", evs, nev);
}

/* A kernel keeps its arguments between runs: a count that does not match
   would launch with a stale buffer of an earlier run. */
static int check_nargs(idiomrt_run *r, const idiomrt_variant *v) {
  unsigned nres = r->d->nresults;
  if (r->d->kind == IDIOM_MAP
          ? v->kernel_nargs[0] != r->nargs + r->noffs + (v->row_blocks != 0)
          : (v->kernel_nargs[0] != r->nargs + 2 * nres ||
             v->kernel_nargs[1] != 1 + 3 * nres))
    return idiomrt_run_fail(
        r, "kernel parameter count does not match the arguments");
  return 1;
}

int idiomrt_launch_variant(idiomrt_run *r, unsigned k, cl_event *evs,
                           unsigned *nev) {
  idiomrt_variant *v = &r->e->var[k];
  if (r->e->second && !v->launched) { /* under r->e->lock */
    v->launched = 1;
    idiomrt_test_slow_build(1); /* PoCL's first-launch compile, slowed */
  }
  return check_nargs(r, v) &&
         (r->d->kind == IDIOM_MAP ? launch_map(r, v, evs, nev)
                                  : launch_reduce(r, v, evs, nev));
}
