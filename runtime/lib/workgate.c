/*===- workgate.c - The IDIOM_MIN_TRIP gate: a call's work, not outputs ---===*
 *
 * The cheap first filter of idiom_run (launch.c), before the cost model
 * (costmodel.c) or, with the model off, before the device: a call whose
 * work is below IDIOM_MIN_TRIP (default 4096) runs the original loop
 * ("work below threshold") without paying for a decision.
 *
 * A call's work is the larger of
 *  - its iteration count (the product of the sizes: its outputs for a map,
 *    its elements for a reduction), and
 *  - the 8-byte words of the ranges its kernel reads: IN and INOUT buffers,
 *    and a sparse matrix's nonzeros with their column indices and x
 *    elements (csr.c's estimate; the ranges themselves are filled in only
 *    later).
 * A map whose iterations each run an inner loop (a GEMV^T's 1199 outputs,
 * each a 1000-term dot product, PolyBench Gram-Schmidt at LARGE size) thus
 * counts its 1.2M reads, not its 1199 outputs (issue 12). Words of 8
 * bytes: a lower bound of the elements read for any element type of at
 * most 8 bytes, so an element-wise map of floats over N iterations reading
 * two arrays counts N (float saxpy: 8 bytes an iteration), and no call
 * counts more than the elements it reads.
 *
 * Inside a residency region that holds device copies, with the cost model
 * on, the gate does not apply: running the loop on the host there would
 * sync the region (every copy back, and in again at the next device run),
 * while on the device only scalars move; the model decides (costmodel.c,
 * step 1). IDIOM_MIN_TRIP=0 lets every call through, as before.
 *
 *===----------------------------------------------------------------------===*/
#include "rt_internal.h"

#include <stdint.h>

const char idiomrt_work_gate_reason[] = "work below threshold";

/* Saturating a + b. */
static uint64_t add_sat(uint64_t a, uint64_t b) {
  return a > UINT64_MAX - b ? UINT64_MAX : a + b;
}

uint64_t idiomrt_call_work(uint64_t trip, const idiom_arg *args,
                           uint32_t nargs, const idiom_csr *csr) {
  uint64_t read = 0;
  for (uint32_t i = 0; i < nargs; ++i)
    if (args[i].kind == IDIOM_ARG_BUF_IN ||
        args[i].kind == IDIOM_ARG_BUF_INOUT)
      read = add_sat(read, args[i].bytes);
  if (csr)
    read = add_sat(read, idiomrt_csr_bytes_estimate(csr));
  uint64_t words = read / 8;
  return words > trip ? words : trip;
}

const char *idiomrt_work_gate(uint64_t trip, const idiom_arg *args,
                              uint32_t nargs, const idiom_csr *csr) {
  const idiomrt_config *cfg = idiomrt_config_get();
  if (trip >= cfg->min_trip)
    return NULL; /* the common case: no need to sum the ranges */
  if (cfg->cost && idiomrt_resid_bytes() > 0)
    return NULL;
  if (idiomrt_call_work(trip, args, nargs, csr) >= cfg->min_trip)
    return NULL;
  return idiomrt_work_gate_reason;
}
