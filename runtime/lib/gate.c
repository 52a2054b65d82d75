/*===- gate.c - The zero-copy failure gate --------------------------------===*
 *
 * A run over the program's own memory (zerocopy.c) whose INOUT bytes are
 * not copied aside must never let a kernel write them unless the run can
 * succeed: its kernels wait for a user event, the gate, which opens only
 * once every command of the run is enqueued; a run that fails before sets
 * it to an error, and the commands waiting for it are terminated unrun
 * (OpenCL 1.2, clSetUserEventStatus). Where even that fails the kernels may
 * have run: the run then counts the gate as opened (idiomrt_run_settle
 * aborts as zerocopy.c says).
 *
 *===----------------------------------------------------------------------===*/
#include "rt_internal.h"

/* The gate of a run that copies no INOUT zero-copy bytes aside
   (zerocopy.c, "failure"): its kernels wait for it, and it opens only once
   every command of the run is enqueued. */
int idiomrt_gate_make(idiomrt_run *r) {
  cl_int err = CL_SUCCESS;
  r->gate = r->cl->clCreateUserEvent(r->dev->ctx, &err);
  if (!r->gate || err != CL_SUCCESS) {
    r->gate = NULL;
    return idiomrt_run_cl_fail(r, "clCreateUserEvent", err);
  }
  return 1;
}

int idiomrt_gate_open(idiomrt_run *r) {
  r->gate_open = 1; /* even when the call fails: the kernels may run */
  cl_int err = r->cl->clSetUserEventStatus(r->gate, CL_COMPLETE);
  return err == CL_SUCCESS
             ? 1
             : idiomrt_run_cl_fail(r, "clSetUserEventStatus", err);
}

/* A failed run's closed gate: set to an error, so that the commands
   waiting for it are terminated unrun (OpenCL 1.2, clSetUserEventStatus).
   Where even that fails the kernels may run: counted as opened. */
void idiomrt_gate_fail(idiomrt_run *r) {
  if (r->gate && !r->gate_open &&
      r->cl->clSetUserEventStatus(r->gate, CL_INVALID_EVENT) != CL_SUCCESS)
    r->gate_open = 1;
}
