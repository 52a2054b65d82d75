/*===- startup_warm.c - The second device's first runs, in the background -===*
 *
 * Issue 12: "a first run is never much slower than the sequential build".
 * The second (CPU) device's first run of a size class pays one-time costs:
 * PoCL compiles each kernel for its work-group size at its first launch,
 * and the variants are timed (tuning.c). On the calling thread that took
 * 0.3-4 s per site of nas-parboil/mg.c on a 16-core PoCL (the H100
 * machine), with the program stalled. Here, when the cost model sends a
 * run to explore the second device for a class that has not run there,
 * (or, seeded by the profile, first runs there in this process) the
 * call's arguments are copied (buffers into private page-aligned
 * memory, scalars and sizes by value) and the copy runs on the runtime
 * thread (startup.c) as three steps: the build (a load once the second
 * device's program is built, which the model asked for first), a run that
 * compiles and tunes, and a timed run whose wall time is the cost model's
 * first sample of the class on the second device. The call declines
 * ("second device warming up") and its loop runs, as while the GPU's
 * kernels build. The copy is private: the program's memory is never read
 * after the call returns nor written by the job, so results never depend
 * on it. Exit stops the job between steps (startup.c's rule).
 *
 * Bounds: arguments of more than WARM_MAX_BYTES in all are not copied (the
 * class is then not explored: a copy that large costs the call more than a
 * normal run); a CSR run (idiom_run_csr, whose row blocks point into the
 * caller's arrays) explores on the calling thread as before. The timed run
 * shares the cores with the caller's loop: its sample is pessimistic, and
 * later samples replace it.
 *
 *===----------------------------------------------------------------------===*/
#include "rt_internal.h"

#include <stdlib.h>
#include <string.h>

#define WARM_MAX_BYTES (512ull << 20) /* arguments copied at most */
#define WARM_ALIGN 4096               /* zero-copy on host-unified devices */

struct idiomrt_warm_job {
  idiomrt_entry *e; /* the descriptor's entry (samples, stats) */
  uint64_t trip;
  uint32_t nargs;
  idiom_arg *args; /* buffers point into their own copies */
  uint64_t sizes[3];
  unsigned char results[8 * IDIOM_MAX_RESULTS];
  idiomrt_warm_job *next; /* startup.c's queue */
};

static const char warming_reason[] = "second device warming up";
static const char too_big_reason[] =
    "second device: arguments too large to explore it in the background";

static const char *e_loc(const idiomrt_entry *e) {
  return e->desc->loc ? e->desc->loc : "?";
}

static void job_free(idiomrt_warm_job *j) {
  if (!j)
    return;
  for (uint32_t i = 0; j->args && i < j->nargs; ++i)
    if (j->args[i].kind <= IDIOM_ARG_BUF_INOUT)
      free(j->args[i].ptr);
  free(j->args);
  free(j);
}

/* The copy of one call, or NULL (out of memory). */
static idiomrt_warm_job *snapshot(idiomrt_entry *e, const idiom_arg *args,
                                  uint32_t nargs, const uint64_t *sizes,
                                  uint64_t trip) {
  idiomrt_warm_job *j = calloc(1, sizeof *j);
  if (!j)
    return NULL;
  j->e = e;
  j->trip = trip;
  j->nargs = nargs;
  j->args = calloc(nargs ? nargs : 1, sizeof *j->args);
  if (!j->args) {
    free(j);
    return NULL;
  }
  unsigned nd = e->desc->ndims < 1 ? 1 : e->desc->ndims > 3 ? 3
                                                             : e->desc->ndims;
  memcpy(j->sizes, sizes, nd * sizeof *sizes);
  for (uint32_t i = 0; i < nargs; ++i) {
    j->args[i] = args[i];
    if (args[i].kind > IDIOM_ARG_BUF_INOUT)
      continue;
    void *p = NULL;
    size_t len = args[i].bytes ? (size_t)args[i].bytes : 1;
    if (posix_memalign(&p, WARM_ALIGN, len) != 0) {
      j->args[i].ptr = NULL;
      job_free(j);
      return NULL;
    }
    if (args[i].bytes)
      memcpy(p, args[i].ptr, (size_t)args[i].bytes);
    j->args[i].ptr = p;
  }
  return j;
}

const char *idiomrt_warm_request(idiomrt_entry *e, const idiom_arg *args,
                                 uint32_t nargs, const uint64_t *sizes,
                                 uint64_t trip) {
  pthread_mutex_lock(&e->stats_lock);
  idiomrt_cost_class *c =
      idiomrt_cost_class_get(&e->cost, idiomrt_size_class(trip));
  uint32_t state = c ? c->cpu_warm : 2; /* no memory: no warm-up */
  if (state == 0)
    c->cpu_warm = 1; /* this call queues it */
  pthread_mutex_unlock(&e->stats_lock);
  if (state == 1)
    return warming_reason;
  if (state == 2)
    return NULL; /* warm: the class runs on the calling thread */
  uint64_t bytes = 0;
  for (uint32_t i = 0; i < nargs; ++i)
    if (args[i].kind <= IDIOM_ARG_BUF_INOUT)
      bytes += args[i].bytes;
  idiomrt_warm_job *j =
      bytes <= WARM_MAX_BYTES ? snapshot(e, args, nargs, sizes, trip) : NULL;
  if (j && idiomrt_startup_queue_warm(j)) {
    idiomrt_debug("%s: size class %u: second device warming up in the "
                  "background (%.1f MiB of arguments copied)",
                  e->desc->loc ? e->desc->loc : "?",
                  idiomrt_size_class(trip), (double)bytes / (1 << 20));
    return warming_reason;
  }
  job_free(j);
  /* not explored: two tries without a sample leave the class */
  idiomrt_cost_second_sample(e, trip, 0, 1);
  idiomrt_cost_second_sample(e, trip, 0, 1);
  pthread_mutex_lock(&e->stats_lock);
  c->cpu_warm = 2;
  pthread_mutex_unlock(&e->stats_lock);
  return too_big_reason;
}

/* When the class is to be tuned (no variant chosen, none in the tuning
   file), each variant the tuning times is launched once first, a step
   each: its first launch is where PoCL compiles it (0.3-0.5 s a kernel),
   so an exit waits for one compile, not for every variant's. */
static void warm_variants(idiomrt_warm_job *j, idiomrt_entry *pe,
                          const idiomrt_device *dev, int (*stop)(void)) {
  unsigned cls = idiomrt_size_class(j->trip);
  int timed[IDIOMRT_MAX_VARIANTS];
  pthread_mutex_lock(&pe->lock);
  int k0 = pe->build_state == 1 ? idiomrt_tune_lookup(pe, dev, cls, 0) : -2;
  unsigned nv = pe->nvariants;
  for (unsigned k = 0; k < nv; ++k) {
    const idiomrt_variant *v = &pe->var[k];
    /* as the tuning: row lanes and blocks are not timed on a CPU device */
    timed[k] = v->ready && !((v->lanes > 1 || v->row_blocks) &&
                             (dev->type & CL_DEVICE_TYPE_CPU));
  }
  pthread_mutex_unlock(&pe->lock);
  if (k0 != -1)
    return; /* one variant runs, or none: nothing to compile ahead */
  char why[IDIOMRT_REASON_LEN];
  for (unsigned k = 0; k < nv && !stop(); ++k) {
    if (!timed[k])
      continue;
    uint64_t t0 = idiomrt_now_ns();
    int ok = idiomrt_launch_detached(pe, dev, j->args, j->nargs, j->sizes,
                                     j->results, (int)k, why, sizeof why);
    idiomrt_debug("%s: second device: variant %u warmed up in %.1f ms%s%s",
                  e_loc(j->e), k, (double)(idiomrt_now_ns() - t0) / 1e6,
                  ok ? "" : ": ", ok ? "" : why);
  }
}

void idiomrt_warm_run(idiomrt_warm_job *j, int (*stop)(void)) {
  idiomrt_entry *e = j->e;
  const char *loc = e_loc(e);
  char reason[IDIOMRT_REASON_LEN] = "";
  const idiomrt_device *dev = idiomrt_device2_peek();
  idiomrt_entry *pe = idiomrt_entry_second(e);
  int ok = 0, sampled = 0;
  if (dev && pe && !stop()) {
    /* the build (done already when the model asked for the device) */
    pthread_mutex_lock(&pe->lock);
    ok = idiomrt_program_ensure_staged(pe, dev, reason, sizeof reason, stop);
    pthread_mutex_unlock(&pe->lock);
  }
  uint64_t t0 = idiomrt_now_ns();
  if (ok && !stop())
    warm_variants(j, pe, dev, stop);
  if (ok && !stop()) { /* tuning (or the one variant's first launch) */
    ok = idiomrt_launch_detached(pe, dev, j->args, j->nargs, j->sizes,
                                 j->results, -1, reason, sizeof reason);
    uint64_t warm_ns = idiomrt_now_ns() - t0;
    if (ok)
      idiomrt_cost_second_sample(e, j->trip, warm_ns, 1);
    idiomrt_debug("%s: second device warm-up run %.1f ms%s%s", loc,
                  (double)warm_ns / 1e6, ok ? "" : ": ", ok ? "" : reason);
  }
  if (ok && !stop()) { /* the first sample */
    t0 = idiomrt_now_ns();
    ok = idiomrt_launch_detached(pe, dev, j->args, j->nargs, j->sizes,
                                 j->results, -1, reason, sizeof reason);
    uint64_t run_ns = idiomrt_now_ns() - t0;
    if (ok) {
      idiomrt_cost_second_sample(e, j->trip, run_ns, 0);
      sampled = 1;
      idiomrt_debug("%s: second device timed run %.1f ms", loc,
                    (double)run_ns / 1e6);
    }
  }
  if (!sampled && !stop()) { /* failed: the class is left */
    idiomrt_cost_second_sample(e, j->trip, 0, 1);
    idiomrt_cost_second_sample(e, j->trip, 0, 1);
  }
  pthread_mutex_lock(&e->stats_lock);
  idiomrt_cost_class *c =
      idiomrt_cost_class_get(&e->cost, idiomrt_size_class(j->trip));
  /* cut short by exit: nothing more happens in this process anyway */
  if (c)
    c->cpu_warm = 2;
  pthread_mutex_unlock(&e->stats_lock);
  job_free(j);
}
