/*===- devwait.c - The first heavy call of a class waits for the device ---===*
 *
 * Issue 12 items 3 and 4 (start-up off the critical path; the cost model).
 * The model learns a class's host time from its first call, which runs the
 * original loop ("host-explore", costmodel.c step 1), and starts the device
 * only once the host time of such runs reaches about one start-up (ski
 * rental, step 3). A call that comes once with huge work therefore ran
 * entirely on the host: PolyBench trmm 2048 spent its first product, 48 s,
 * on the host of the H100 machine while the device would have taken
 * 10-14 ms a product once started (docs/Benchmarks.md, ninth session).
 *
 * This file gives such a call a lower bound of its host time before any
 * host sample exists, from its work alone:
 *
 *  - the call's work figure (workgate.c: the larger of its iterations and
 *    the 8-byte words it reads) and the innermost iterations of the
 *    original nest, when the plugin says them (idiom_work_hint: a map of
 *    inner reductions runs its inner loop per iteration), each at least
 *    WORK_FLOOR_NS: 32 single-precision multiply-adds a cycle (two 16-lane
 *    FMA units, the widest a core issues today) at 6 GHz; a unit of the
 *    work figure is at least one element read or written, so no core
 *    does one faster;
 *  - with IDIOM_WORK_FP_CHAIN (a floating-point reduction carried by the
 *    innermost loop in program order: no compiler may vectorize or
 *    interleave it), each innermost iteration at least FP_CHAIN_FLOOR_NS:
 *    one dependent floating-point add, 2 cycles on the fastest cores (Intel
 *    Golden Cove's FADD; 3 on AMD Zen 4 and Apple M-series, 4 for a
 *    multiply-add), at 8 GHz, beyond any shipping clock.
 *
 * When that bound is large (idiomrt_devwait_worth), the cost model starts
 * the device at once and the call waits for it and for its kernels
 * ("device-wait", launch.c), at most the bound: a wait that fails or runs
 * long costs at most the loop's time again, once per class, and the
 * original loop runs. (Half the bound timed out on the H200: trmm 1536's
 * bound is 453 ms against a 14 s loop, and the device and variant 0 came
 * after 315 ms, docs/Benchmarks.md, tenth session.)
 * The run does not time kernel variants (variant 0, the default lowering;
 * later calls of the class tune as before). Calls whose bound is small
 * decide exactly as before.
 *
 * The figures only steer a speed decision: a wrong hint never changes a
 * result.
 *
 *===----------------------------------------------------------------------===*/
#include "rt_internal.h"

#define WORK_FLOOR_NS 0.005   /* ns per unit of work: 32 FMAs a cycle, 6 GHz */
#define FP_CHAIN_FLOOR_NS 0.25 /* ns per chained FP operation: 2 cycles, 8 GHz */
#define WAIT_FACTOR 2.0        /* the bound must be this many times the
                                  start-up still expected (the wait's
                                  deadline, the bound, then exceeds it
                                  twice over) */

/* The calling thread's hint for its next idiom_run. */
static _Thread_local const idiom_kernel_desc *t_work_desc;
static _Thread_local uint64_t t_work_iters;
static _Thread_local uint32_t t_work_flags;

void idiom_work_hint(const idiom_kernel_desc *desc, uint64_t iters,
                     uint32_t flags) {
  t_work_desc = desc;
  t_work_iters = iters;
  t_work_flags = flags;
}

void idiomrt_work_take(const idiom_kernel_desc *desc, uint64_t *iters,
                       uint32_t *flags) {
  int mine = desc && desc == t_work_desc;
  *iters = mine ? t_work_iters : 0;
  *flags = mine ? t_work_flags & IDIOM_WORK_FP_CHAIN : 0;
  t_work_desc = NULL;
}

double idiomrt_host_bound_ns(uint64_t work, uint64_t iters, uint32_t flags) {
  double units = (double)(work > iters ? work : iters);
  double lb = units * WORK_FLOOR_NS;
  if (flags & IDIOM_WORK_FP_CHAIN) {
    double chain = (double)iters * FP_CHAIN_FLOOR_NS;
    lb = chain > lb ? chain : lb;
  }
  return lb;
}

int idiomrt_devwait_worth(double host_lb) {
  if (!(host_lb > 0) || idiomrt_config_get()->test_host ||
      idiomrt_fruitless_hold())
    return 0; /* IDIOM_TEST_HOST, fruitless.c's hold: no start-up */
  if (idiomrt_device_state(NULL) < 0)
    return 0; /* no device: the loop, as before */
  /* at least one start-up's worth of host time (the default 200 ms, or the
     last process's start-up): below, the device's one-time costs of a
     first run (a first launch compiles on PoCL) are not paid back; and the
     remaining start-up expected within half the wait's deadline (the
     deadline is the bound: a driver slower than its last start-up by up to
     2x still comes in time, as the H200's first process did not at 1x) */
  double startup = (double)idiomrt_calib_start_after_ns();
  double remaining = idiomrt_device_state(NULL) == 1
                         ? 0.0
                         : (double)idiomrt_startup_remaining_ns();
  return host_lb > startup && host_lb > WAIT_FACTOR * remaining;
}
