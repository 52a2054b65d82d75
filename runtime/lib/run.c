/*===- run.c - The life of one device run ---------------------------------===*
 *
 * What every device run (launch.c: idiom_run and the second device's
 * detached warm-up) does around its buffers and kernels: its decline
 * reason, its events (waited for and checked, profiled), the release of
 * everything it made, and its end: residency ranges committed, or the
 * failure contract of zero-copy in-place ranges (zerocopy.c) and the
 * residency ranges dropped.
 *
 *===----------------------------------------------------------------------===*/
#include "rt_internal.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int idiomrt_run_cl_fail(idiomrt_run *r, const char *what, cl_int err) {
  snprintf(r->reason, r->reason_len, "OpenCL error %d (%s) in %s", (int)err,
           idiomrt_cl_error_name(err), what);
  return 0;
}

int idiomrt_run_fail(idiomrt_run *r, const char *why) {
  snprintf(r->reason, r->reason_len, "%s", why);
  return 0;
}

void idiomrt_run_add_event(idiomrt_run *r, cl_event ev, int kind) {
  /* ev_cap is sized up front for every command a run can enqueue. */
  r->ev[r->nev] = ev;
  r->ev_kind[r->nev] = (unsigned char)kind;
  r->nev++;
}

/* Waits for every command of the run; fails when any of them failed. */
int idiomrt_run_wait_all(idiomrt_run *r) {
  if (r->nev == 0)
    return 1;
  cl_int err = r->cl->clFlush(r->dev->queue);
  if (err != CL_SUCCESS)
    return idiomrt_run_cl_fail(r, "clFlush", err);
  err = r->cl->clWaitForEvents(r->nev, r->ev);
  for (unsigned i = 0; i < r->nev; ++i) {
    cl_int st = CL_COMPLETE;
    cl_int e2 = r->cl->clGetEventInfo(
        r->ev[i], CL_EVENT_COMMAND_EXECUTION_STATUS, sizeof st, &st, NULL);
    if (e2 != CL_SUCCESS)
      return idiomrt_run_cl_fail(r, "clGetEventInfo", e2);
    if (st != CL_COMPLETE)
      return idiomrt_run_cl_fail(
          r,
          r->ev_kind[i] == IDIOMRT_EV_KERNEL ? "kernel execution" : "transfer",
          st < 0 ? st : CL_INVALID_EVENT);
  }
  if (err != CL_SUCCESS)
    return idiomrt_run_cl_fail(r, "clWaitForEvents", err);
  return 1;
}

void idiomrt_run_profile(idiomrt_run *r, uint64_t *kernel_ns,
                         uint64_t *transfer_ns) {
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
    if (r->ev_kind[i] == IDIOMRT_EV_KERNEL)
      *kernel_ns += t1 - t0;
    else
      *transfer_ns += t1 - t0;
  }
}

/* Releases everything the run made. On failure first waits for each command
   already enqueued, so no command still reads host memory once idiom_run has
   returned. */
void idiomrt_run_cleanup(idiomrt_run *r) {
  const idiomrt_cl *cl = r->cl;
  for (unsigned i = 0; i < r->nev; ++i)
    cl->clWaitForEvents(1, &r->ev[i]);
  cl_event unmap_ev[2 * IDIOM_MAX_RESULTS + 64];
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
  for (int k = 0; k < IDIOM_MAX_RESULTS; ++k) {
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

/* r: a run of e's descriptor on dev with args (nothing else set). */
void idiomrt_run_init(idiomrt_run *r, const idiomrt_device *dev,
                      idiomrt_entry *e, const idiom_arg *args, uint32_t nargs,
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
void idiomrt_run_settle(idiomrt_run *r, int ok, int program_args) {
  if (ok) {
    idiomrt_resid_commit(&r->rc);
    return;
  }
  idiomrt_gate_fail(r);
  if (r->zc && r->mems)
    idiomrt_zc_abort(r->dev, r->args, r->nargs, r->zc, r->zc_backup,
                     program_args && r->launched && (!r->gate || r->gate_open),
                     r->d->loc);
  idiomrt_resid_abort(&r->rc, r->args);
}
