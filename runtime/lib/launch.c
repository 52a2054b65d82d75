/*===- launch.c - idiom_run: the entry points of a device run -------------===*
 *
 * One run: check what can be checked without a device (IDIOM_DEVICE=seq;
 * descriptor, trip count, overlapping ranges: checks.c), then take the
 * device and the descriptor's program, copy every buffer in, launch, map
 * the outputs back, and copy them to the host only once every command has
 * completed without error. Any failure releases what the run allocated and
 * declines, with nothing written to the host.
 *
 * This file holds the entry points, the calling thread's state (the last
 * decline reason, kernel time and variant) and the order of a run's steps
 * (execute); the steps are in run.c (a run's life and end), gate.c (the
 * zero-copy failure gate), run_buffers.c (device buffers), enqueue.c
 * (kernels) and tune_race.c (timing the variants): rt_run.h.
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
 * this run's device buffers first (tune_race.c), the fastest is recorded,
 * and it then runs for real.
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

/* Part [lo, hi) of a mapping's copy into the host (only the bytes that
   changed when it has a snapshot). */
static void write_back_part(void *p, size_t lo, size_t hi) {
  const idiomrt_mapping *m = p;
  if (m->snap)
    idiomrt_write_changed((char *)m->host + lo,
                          (const char *)m->dev_ptr + lo, m->snap + lo, hi - lo);
  else
    memcpy((char *)m->host + lo, (const char *)m->dev_ptr + lo, hi - lo);
}

/* Everything after the device and the program are ready. */
static int execute(idiomrt_run *r, void *results, int *variant) {
  uint32_t nargs = r->nargs;
  /* per argument: a write and a map, or (residency.c) a fill, a view copy,
     a backup and a copy back into the entry */
  unsigned cap = 4 * nargs + 4 * IDIOM_MAX_RESULTS + 9; /* + the row blocks */
  r->mems = calloc(nargs ? nargs : 1, sizeof *r->mems);
  r->ev = calloc(cap, sizeof *r->ev);
  r->ev_kind = calloc(cap, 1);
  r->maps = calloc(nargs + IDIOM_MAX_RESULTS + 1, sizeof *r->maps);
  r->ev_cap = cap;
  if (!r->mems || !r->ev || !r->ev_kind || !r->maps)
    return idiomrt_run_fail(r, "out of host memory");

  idiomrt_entry *e = r->e;
  uint64_t trip = idiomrt_trip_count(r->d, r->sizes);
  unsigned cls = idiomrt_size_class(r->work > trip ? r->work : trip);
  int k = idiomrt_tune_lookup(e, r->dev, cls, r->hint_iters);
  if (k == -1 && r->untuned)
    k = idiomrt_tune_default(e);
  if (k == -2)
    return idiomrt_run_fail(r, "IDIOM_VARIANT names no usable variant");
  /* Tuning runs variants in place before the real run: only then, or when
     asked, are INOUT zero-copy bytes copied aside (zerocopy.c). */
  r->zc_backup = k < 0 || idiomrt_zc_backup_always();
  if (!idiomrt_run_parse_offsets(r) || !idiomrt_run_create_buffers(r) ||
      (r->d->kind == IDIOM_REDUCE && !idiomrt_run_reduce_buffers(r)))
    return 0;
  r->t_buffers = idiomrt_now_ns();
  if (k < 0 && (k = idiomrt_tune_variants(r, cls)) < 0)
    return 0;
  *variant = k;
  if (!r->zc_backup && idiomrt_zc_inout(r->args, r->nargs, r->zc) &&
      !idiomrt_gate_make(r))
    return 0;

  cl_event evs[2];
  unsigned nev = 0;
  r->launched = 1;
  int ok = idiomrt_launch_variant(r, (unsigned)k, evs, &nev);
  for (unsigned i = 0; i < nev; ++i)
    idiomrt_run_add_event(r, evs[i], IDIOMRT_EV_KERNEL);
  if (!ok)
    return 0;
  if (r->rc.used && !idiomrt_resid_after_kernels(&r->rc, r->args, r->reason,
                                                 r->reason_len))
    return 0;
  if (r->d->kind == IDIOM_MAP ? !idiomrt_run_map_outputs(r)
                              : !idiomrt_run_map_results(r, results))
    return 0;
  if (idiomrt_zc_test_fail() == 2)
    return idiomrt_run_fail(
        r, "IDIOM_ZERO_COPY_TEST_FAIL=enqueued: failed before the "
           "kernels could start");
  if (r->gate && !idiomrt_gate_open(r))
    return 0;
  r->t_launched = idiomrt_now_ns();
  if (!idiomrt_run_wait_all(r))
    return 0;
  if (idiomrt_zc_test_fail() == 1)
    return idiomrt_run_fail(
        r, "IDIOM_ZERO_COPY_TEST_FAIL=1: failed after the kernels");
  r->t_waited = idiomrt_now_ns();
  /* Every command completed: now, and only now, write the host (or, in
     the first runs of idiom_run_pair, private copies of it that pair.c
     writes only once every run of the pair succeeded). */
  uint64_t t0 = idiomrt_now_ns();
  for (unsigned i = 0; i < r->nmaps; ++i)
    if (idiomrt_defer_wanted(r->d) &&
        !(r->maps[i].host = idiomrt_defer_copy(r->maps[i].host,
                                               r->maps[i].bytes)))
      return idiomrt_run_fail(r, "out of host memory");
  for (unsigned i = 0; i < r->nmaps; ++i)
    if (r->maps[i].dev_ptr != r->maps[i].host) /* zero-copy: already there */
      idiomrt_parallel_range(r->maps[i].bytes, write_back_part, &r->maps[i]);
  r->host_copy_ns = idiomrt_now_ns() - t0;
  return 1;
}

/*--- entry points ---------------------------------------------------------*/

/* Copies reason into t_reason, cut to fit (snprintf's "%s" walked
   vfprintf at every decline: a third of a tiny declined call). */
static void set_reason(const char *reason) {
  size_t n = strnlen(reason, sizeof t_reason - 1);
  memcpy(t_reason, reason, n);
  t_reason[n] = '\0';
}

static int decline(idiomrt_entry *e, const idiom_kernel_desc *d,
                   const char *reason) {
  set_reason(reason);
  t_reason_static = NULL;
  t_declined = 1;
  t_kernel_ms = -1.0;
  t_variant = -1;
  if (e) {
    idiomrt_stats_decline(e, t_reason);
    idiomrt_lap_declined(e);
  }
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
  set_reason(idiomrt_busy_reason);
  t_reason_static = NULL;
  t_declined = 1;
  t_kernel_ms = -1.0;
  t_variant = -1;
  idiomrt_stats_busy(d);
  const idiomrt_config *cfg = idiomrt_config_peek();
  if (cfg && cfg->debug) {
    char line[256];
    int n =
        snprintf(line, sizeof line, "idiom: %s: declined: %s (re-entered)\n",
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
     no device copy stays (residency.c); for a caller that syncs its own
     ranges at the loop (idiom_region_sync_args), only the copies of this
     run's ranges (resid_sync.c). */
  if (!ok)
    idiomrt_resid_decline_sync(desc, desc == t_last_desc ? t_last_entry : NULL,
                               args, nargs);
  t_depth = 0;
  errno = saved_errno;
  return ok;
}


static int run_checked(const idiom_kernel_desc *desc, const idiom_arg *args,
                       uint32_t nargs, const uint64_t *sizes, void *results,
                       const idiom_csr *csr) {
  /* the caller's idiom_work_hint is for this call only, whatever happens */
  uint64_t hint_iters;
  uint32_t hint_flags;
  idiomrt_work_take(desc, &hint_iters, &hint_flags);
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
  if ((why = idiomrt_work_gate(trip, args, nargs, csr))) {
    /* the next calls of the class would be declined the same way: a hint
       keeps them out of idiom_run (GLPK's LU solves: 65 million calls of
       a few iterations each, every one walking in here; costmodel.c) */
    decline(e, desc, why);
    idiomrt_cost_gate_hint(e, trip);
    return 0;
  }
  /* past the gate: its hints start again at 64 (relaxed atomics: the
     doubling is written under the entry's stats lock, costmodel.c's
     doubling_hint) */
  if (__atomic_load_n(&e->gate_grow, __ATOMIC_RELAXED))
    __atomic_store_n(&e->gate_grow, 0, __ATOMIC_RELAXED);
  /* A snapshot input overlapping an output runs, in a region too (its
     device copy: resid_run.c, phase 3). */
  int snapshot = 0;
  if (idiomrt_args_overlap_snapshot(args, nargs, &snapshot))
    return decline(e, desc, "overlapping input/output ranges");
  int dec = IDIOMRT_DEC_FORCED;
  /* The second kernel of a pair whose first ran (pair.c): the model decided
     for the pair with the first. */
  int pair_forced = idiomrt_pair_forced(desc);
  double host_lb = 0; /* a lower bound of the loop's host time (devwait.c) */
  if (cfg->cost && !pair_forced) {
    /* the model first: a loop kept on the host pays for nothing else, and
       the device is started only when it is wanted */
    host_lb = idiomrt_host_bound_ns(
        idiomrt_call_work(trip, args, nargs, csr), hint_iters, hint_flags);
    if (hint_iters && cfg->debug)
      idiomrt_debug("%s: work hint %llu iterations%s: at least %.3f ms on "
                    "the host",
                    desc->loc ? desc->loc : "?",
                    (unsigned long long)hint_iters,
                    hint_flags & IDIOM_WORK_FP_CHAIN ? ", FP chain" : "",
                    host_lb / 1e6);
    if (idiomrt_resid_active() && idiomrt_resid_syncs_args(desc, e)) {
      uint64_t refill, back = idiomrt_resid_sync_args_bytes(args, nargs,
                                                            &refill);
      idiomrt_cost_own_sync(back, refill);
    }
    /* the pages the host loop can touch: its buffer ranges (a CSR's are
       known only once it runs; the fallback's sync of a region that holds
       device copies may write others back) */
    if (!csr && (!idiomrt_resid_active() || idiomrt_resid_bytes() == 0)) {
      uint64_t pages = 0;
      for (uint32_t i = 0; i < nargs; ++i)
        if (args[i].kind == IDIOM_ARG_BUF_IN ||
            args[i].kind == IDIOM_ARG_BUF_OUT ||
            args[i].kind == IDIOM_ARG_BUF_INOUT)
          pages += args[i].bytes / 4096 + 2; /* spanned at most */
      idiomrt_cost_pages(pages);
    }
    /* (inside a residency region a CSR matrix stays on the device as the
       other buffers do: idiomrt_cost_bytes says 0 for those, and the
       matrix's bytes at every call kept a conjugate gradient's first SpMV
       on the host, 50 ms on the H200) */
    dec = idiomrt_cost_decide(e, trip,
                              idiomrt_cost_bytes(args, nargs,
                                                 desc->kind == IDIOM_MAP
                                                     ? e->offsets
                                                     : NULL) +
                                  (idiomrt_resid_active()
                                       ? 0
                                       : idiomrt_csr_bytes_estimate(csr)),
                              host_lb, &why);
    if (!idiomrt_cost_is_device(dec))
      return decline_counted(desc, why);
    /* no start-up nor build is to come (startup.c): declined before a CSR
       run's ranges are scanned (jds.c: each call scanned its index arrays
       only to decline) */
    if (!idiomrt_cost_is_second(dec) && idiomrt_startup_late(e))
      return decline_policy(e, desc, dec, IDIOMRT_DEC_STARTING, trip,
                            idiomrt_late_reason);
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
  /* device-wait (devwait.c): the device is started now and waited for, at
     most half the loop's lower bound */
  int waited = dec == IDIOMRT_DEC_DEVICE_WAIT;
  const idiomrt_device *dev =
      waited ? idiomrt_startup_wait_bounded(e, host_lb, &why)
      : cfg->cost && !second ? idiomrt_startup_wait_for_run(e, trip, &why)
      : second && idiomrt_device_peek() ? idiomrt_device_peek()
                                        : idiomrt_device_get(&why);
  if (dev && second && !(dev = idiomrt_device2_get(&why)))
    return decline(e, desc, why);
  if (!dev && waited &&
      (why == idiomrt_starting_reason || why == idiomrt_building_reason ||
       why == idiomrt_late_reason)) {
    /* not ready in time: the loop runs (timed), and the class does not
       wait again before it has a sample */
    idiomrt_cost_wait_missed(e, trip);
    decline(e, desc, "cost model: device-wait timed out");
    idiomrt_cost_want_host(e, trip);
    return 0;
  }
  if (!dev) {
    if (why == idiomrt_starting_reason || why == idiomrt_late_reason)
      return decline_policy(e, desc, dec, IDIOMRT_DEC_STARTING, trip, why);
    if (why == idiomrt_building_reason) {
      if (!second)
        idiomrt_hold_note_building(e); /* region_hold.c: in a region only */
      return decline_policy(e, desc, dec, IDIOMRT_DEC_BUILDING, trip, why);
    }
    return decline(e, desc, why);
  }
  /* A region's sites go to the device together: not while another site
     of the region builds, unless this run pays without residency
     (region_hold.c). Not a device-wait run, nor a pair's second kernel. */
  if (cfg->cost && !second && !waited && !pair_forced &&
      (why = idiomrt_hold_reason(e, trip, args, nargs)))
    return decline_policy(e, desc, dec, IDIOMRT_DEC_BUILDING, trip, why);
  if ((why = idiomrt_device_fp_check(dev, fp_bits)))
    return decline(e, desc, why);
  if (!cfg->cost || pair_forced)
    idiomrt_cost_count(e, -1, dec);
  uint64_t t_start = idiomrt_now_ns();

  char reason[IDIOMRT_REASON_LEN];
  idiomrt_run r;
  idiomrt_run_init(&r, dev, e, args, nargs, sizes, reason, sizeof reason);
  r.work = work;
  r.hint_iters = hint_iters;
  r.csr = csr;
  r.untuned = waited; /* a device-wait run times no variants */

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
    idiomrt_run_profile(&r, &kernel_ns, &transfer_ns);
  idiomrt_run_settle(&r, ok, 1);
  /* Whatever happened, the run may have written its outputs (on the device
     or by copying back): checks remembered for those ranges are void. */
  for (uint32_t i = 0; i < nargs; ++i)
    if (idiomrt_arg_is_output(args[i].kind))
      idiomrt_csr_forget(args[i].ptr, args[i].bytes);
  idiomrt_count_transfer(r.bytes_in + r.rc.bytes_in, r.bytes_out);
  idiomrt_stats_bytes(e, r.bytes_in + r.rc.bytes_in, r.bytes_out);
  if (r.ev || r.mems || r.maps || r.ev_kind)
    idiomrt_run_cleanup(&r);
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
  idiomrt_run r;
  idiomrt_run_init(&r, dev, pe, args, nargs, sizes, reason, n);
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
  idiomrt_run_settle(&r, ok, 0);
  if (r.ev || r.mems || r.maps || r.ev_kind)
    idiomrt_run_cleanup(&r);
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
