/*===- stale.c - Device samples carried over from earlier runs ------------===*
 *
 * The profile (profile.c) seeds each size class with the last process's
 * medians, one sample a side. A device sample that lost is then never
 * measured again while the device is not started (costmodel.c, step 5: a
 * probe alone must not start the device): a slow sample from a loaded run
 * (PoCL's 2-thread kernels on a 2-core machine shared with compiles: 13-20
 * ms for a 5 ms Jacobi sweep) kept bench/jacobi2d.c on the host in every
 * later run (helper hintnoise, docs/Benchmarks.md). This file decides when
 * such a seed is stale, and re-measures ("re-probes") it within a budget:
 *
 *  - Age, in runs. The profile keeps, per class, the runs since its device
 *    side was last measured (AGE) and the measuring runs in a row in which
 *    the device lost (LOSSES: its median not 10% below the host's). A seed
 *    that lost is stale once AGE >= 2^(LOSSES-1) (1, 2, 4, ... at most 64
 *    runs): a device that keeps losing is measured in O(log n) of n runs
 *    (exponential back-off), one that lost once is measured again in the
 *    run after the next (the next one trusts a fresh sample: a device that
 *    clearly lost in a quiet run is not started again at once).
 *  - Load. The profile also keeps the contention of the run that measured
 *    the device (LOAD): the share of the wall time of its timed host loops
 *    in which the thread waited for a CPU (1 - thread CPU time / wall time;
 *    0% on a quiet machine, 31% beside 2 busy processes on 2 cores, 62%
 *    beside 4). A seed that lost once (LOSSES 1: that run is the only
 *    evidence against the device), measured at STALE_LOAD_MARGIN points or
 *    more above this run's contention, is stale whatever its age: a loaded
 *    run's sample is discounted in the next quieter run, once per losing
 *    streak (a device that lost again is left to the age rule: a slow
 *    SpMV such as nas-parboil/jds.c's, measured in a loaded run, is not
 *    re-probed in every quieter run after it). (Not the thread's run-queue
 *    share over the whole process: on a CPU device the kernels' own worker
 *    threads take the cores, 41% in a quiet forced Jacobi run here.)
 *  - Ski rental within the run. Re-probing costs a start-up (when the
 *    device is not started: idiomrt_calib_start_after_ns) and
 *    STALE_PROBE_RUNS device runs at the seed's loss (a warm-up and two
 *    samples). A stale class runs on the host, without host hints, and its
 *    host time is added to a credit shared by every stale class; once the
 *    credit reaches that cost the class is re-probed (decision
 *    "device-reprobe"). Its host time before the decision counts, not the
 *    call's own: a program that calls the loop once never pays for a
 *    re-probe, and a re-probe that finds the device losing costs at most
 *    the host time already spent on stale classes.
 *
 * The first fresh device sample replaces the seed (costmodel.c), so the
 * class decides on this run's samples only; the profile then writes AGE 0,
 * LOSSES + 1 or 0, and this run's LOAD. A re-probe that got no sample (the
 * run ended first) writes AGE 0 and LOSSES + 1 with the seed's times, so
 * that it too backs off. A seed that is not re-measured is written back
 * one run older (age stops at the back-off's threshold, so that the file
 * is not rewritten for it, profile.c).
 *
 *===----------------------------------------------------------------------===*/
#include "rt_internal.h"

#include <stdio.h>
#include <time.h>

#define STALE_AGE_CAP 64       /* runs: the longest back-off */
#define STALE_LOSSES_CAP 16    /* kept in the profile */
#define STALE_LOAD_MARGIN 25   /* contention points a seed's run was above */
#define STALE_PROBE_RUNS 3.0   /* a re-probe: a warm-up and two samples */
#define STALE_MAX_TRIES 4      /* device runs without a sample (costmodel.c's
                                  MAX_DEV_TRIES): the re-probe gives up */
#define STALE_MARGIN 1.1       /* costmodel.c's DEVICE_MARGIN */
#define CLOCK_MIN_WALL_NS 5000000ull /* timed host time before the run's
                                        contention is known */

/* Host time (ns) of the decisions that kept stale classes on the host. */
static uint64_t g_stale_ns;
/* Wall and thread-CPU time (ns) of the timed host loops of this run. */
IDIOMRT_START_DATA static uint64_t g_clock_wall_ns, g_clock_cpu_ns;

uint64_t idiomrt_thread_cpu_ns(void) {
  struct timespec ts;
  if (clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts) != 0)
    return 0;
  return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

void idiomrt_stale_host_clock(uint64_t wall_ns, uint64_t cpu_ns) {
  if (!wall_ns)
    return;
  __atomic_add_fetch(&g_clock_wall_ns, wall_ns, __ATOMIC_RELAXED);
  __atomic_add_fetch(&g_clock_cpu_ns, cpu_ns < wall_ns ? cpu_ns : wall_ns,
                     __ATOMIC_RELAXED);
}

int idiomrt_stale_contention(void) {
  uint64_t wall = __atomic_load_n(&g_clock_wall_ns, __ATOMIC_RELAXED);
  uint64_t cpu = __atomic_load_n(&g_clock_cpu_ns, __ATOMIC_RELAXED);
  if (wall < CLOCK_MIN_WALL_NS)
    return -1;
  if (cpu > wall)
    cpu = wall;
  return (int)((100 * (wall - cpu) + wall / 2) / wall);
}

/* Runs after which a seed that lost `losses` times in a row is stale. */
static unsigned age_due(unsigned losses) {
  return losses >= 7 ? STALE_AGE_CAP : 1u << (losses ? losses - 1 : 0);
}

static int stale_by_age(const idiomrt_cost_class *c) {
  return c->seed_losses && c->seed_age >= age_due(c->seed_losses);
}

/* A seed that lost once, in a run with at least STALE_LOAD_MARGIN points
   of contention: stale if this run turns out that much quieter. */
static int load_suspect(const idiomrt_cost_class *c) {
  return c->seed_losses == 1 && c->seed_load >= STALE_LOAD_MARGIN;
}

void idiomrt_stale_fresh(idiomrt_cost_class *c) {
  if (!c->dev_seed)
    return;
  c->dev_seed = 0;
  c->dn = 0; /* the seed leaves the ring: the next push is the only one */
  c->stale = IDIOMRT_STALE_DONE;
}

int idiomrt_stale_decide(idiomrt_cost_class *c, int dec, double host,
                         double dev, int begun, const char *loc,
                         unsigned cls, int *hold) {
  if (c->stale == IDIOMRT_STALE_REPROBE) {
    if (c->dev_tries < STALE_MAX_TRIES)
      return IDIOMRT_DEC_REPROBE;
    c->stale = IDIOMRT_STALE_TRIED; /* gave up: the seed stands */
    return dec;
  }
  /* only a class the seed keeps on the host (not one the model sends to
     the device anyway, nor one whose floor exceeds its host time) */
  if (c->stale == IDIOMRT_STALE_DONE || c->stale == IDIOMRT_STALE_TRIED ||
      dec != IDIOMRT_DEC_HOST_FASTER)
    return dec;
  if (c->stale == IDIOMRT_STALE_UNKNOWN)
    c->stale = stale_by_age(c) || load_suspect(c) ? IDIOMRT_STALE_PENDING
                                                  : IDIOMRT_STALE_DONE;
  if (c->stale != IDIOMRT_STALE_PENDING)
    return dec;
  *hold = 1; /* no host hint: the calls build the credit */
  double loss = dev > host ? dev - host : 0.0;
  double cost = (begun ? 0.0 : (double)idiomrt_calib_start_after_ns()) +
                STALE_PROBE_RUNS * loss;
  double credit = (double)__atomic_load_n(&g_stale_ns, __ATOMIC_RELAXED);
  if (credit < cost) {
    __atomic_add_fetch(&g_stale_ns, host > 0 ? (uint64_t)host : 0,
                       __ATOMIC_RELAXED);
    return dec;
  }
  int now = idiomrt_stale_contention();
  int by_age = stale_by_age(c);
  char why[96]; /* for IDIOM_DEBUG */
  if (!by_age && !(load_suspect(c) && now >= 0 &&
                   c->seed_load - now >= STALE_LOAD_MARGIN)) {
    /* the seed's run was loaded, but so is this one: the seed stands */
    c->stale = IDIOMRT_STALE_DONE;
    *hold = 0;
    snprintf(why, sizeof why, "from a run with %d%% contention stands (this "
             "one %d%%)", (int)c->seed_load, now);
    idiomrt_debug("%s: size class %u: the device's estimate (%.1f us against "
                  "the host's %.1f) %s", loc ? loc : "?", cls, dev / 1e3,
                  host / 1e3, why);
    return dec;
  }
  c->stale = IDIOMRT_STALE_REPROBE;
  c->dev_tries = 0;
  if (by_age)
    snprintf(why, sizeof why, "is %u runs old and lost %u runs in a row",
             (unsigned)c->seed_age, (unsigned)c->seed_losses);
  else
    snprintf(why, sizeof why, "is from a run with %d%% contention, this one "
             "%d%%", (int)c->seed_load, now);
  idiomrt_debug("%s: size class %u: re-probing the device: its estimate "
                "(%.1f us against the host's %.1f) %s", loc ? loc : "?", cls,
                dev / 1e3, host / 1e3, why);
  return IDIOMRT_DEC_REPROBE;
}

void idiomrt_stale_line(const idiomrt_cost_class *c, unsigned *age,
                        unsigned *losses, int *load) {
  *age = 0;
  *losses = 0;
  *load = -1;
  if (!c->dn)
    return;
  if (!c->dev_seed) { /* measured in this run */
    int lost = !(c->dev_est * STALE_MARGIN < c->host_est);
    unsigned l = c->seed_losses + 1u;
    *losses = lost ? (l < STALE_LOSSES_CAP ? l : STALE_LOSSES_CAP) : 0;
    *load = idiomrt_stale_contention();
    return;
  }
  *losses = c->seed_losses;
  *load = c->seed_load;
  if (c->stale == IDIOMRT_STALE_REPROBE || c->stale == IDIOMRT_STALE_TRIED) {
    /* re-probed in this run, but no sample came (the run ended first, or
       the device's runs were no samples): a try that did not show the
       device winning, so the back-off grows as after a loss; otherwise a
       class whose re-probe comes too late in every run would start the
       device in every run */
    unsigned l = c->seed_losses + 1u;
    *losses = l < STALE_LOSSES_CAP ? l : STALE_LOSSES_CAP;
    return;
  }
  /* the seed, one run older (up to the back-off's threshold) */
  if (c->seed_losses) {
    unsigned a = c->seed_age + 1u, due = age_due(c->seed_losses);
    *age = a < due ? a : due;
  }
}

void idiomrt_stale_seed(idiomrt_cost_class *c, unsigned age, unsigned losses,
                        int load) {
  c->dev_seed = 1;
  c->seed_age = (unsigned char)(age < 255 ? age : 255);
  c->seed_losses = (unsigned char)(losses < STALE_LOSSES_CAP
                                       ? losses
                                       : STALE_LOSSES_CAP);
  c->seed_load = (signed char)(load >= 0 && load <= 100 ? load : -1);
  c->stale = IDIOMRT_STALE_UNKNOWN;
}
