/*===- costmodel.c - Device or original loop, per call site and size class -===*
 *
 * With the cost model on (IDIOM_COST, config.c), every run that passed the
 * cheap checks is decided here, per descriptor and size class
 * floor(log2(iteration count)):
 *
 *  1. no host time measured yet for the class: run the original loop and
 *     time it ("exploring the host"): the first call of a class never pays
 *     for the device; except inside a residency region that holds device
 *     copies, where a host run would sync the region: the device runs;
 *     and except a call whose host time has a large lower bound from its
 *     work (devwait.c): it runs on a device measured below that bound, or
 *     starts the device and waits for it ("device-wait");
 *  2. the device's floor, latency + bytes / bandwidth (calibrated once on
 *     the start-up thread; before that 5 us + bytes at 64 GB/s, which no
 *     device beats), is not below the host time: the device cannot win,
 *     the loop runs ("transfers and launch exceed the host time");
 *     a nest launched once per iteration of an outer loop with microseconds
 *     of work stays on the host this way without ever being launched;
 *  3. the device not started yet: the loop runs until the host time of the
 *     runs that would go to the device reaches about one start-up (ski
 *     rental; "too little host time yet to start the device"), then the
 *     start-up begins in the background (startup.c). When the profile
 *     (profile.c) says the last run had between one and two start-ups of
 *     such host time in all, the start waits until this run has more than
 *     the last: started at one start-up, it would be ready too late to pay;
 *  4. no device time measured yet: run on the device and time it (a run
 *     that timed kernel variants first is not a sample, nor is the class's
 *     first run unless it already beats the host: one-time costs such as
 *     PoCL compiling the kernel for its work-group size at the first
 *     launch); at most MAX_DEV_TRIES such runs in a row;
 *  5. otherwise the device runs when its estimate is at least 10% below the
 *     host's, else the loop. The side that lost is measured again after
 *     `gap` decisions (4, doubling each time it loses again) and only once
 *     the winner's estimated time since the last measurement is 30 times
 *     what one more loss costs, so re-measuring costs at most ~3%.
 *     While the device is not started, a loser due to be measured again
 *     is not (a probe neither counts toward the start-up nor starts it),
 *     nor a measured device within noise that does not win by the margin.
 *     Inside a residency region that holds device copies, the host's
 *     estimate includes copying them back and in again (at the calibrated
 *     bandwidth): a host run there syncs the region; once a sync emptied
 *     the region, refilling its bytes (idiomrt_resid_region_bytes): the
 *     region's sites are decided together. A site whose host run syncs
 *     only its own ranges (idiom_region_sync_args, resid_sync.c) is
 *     charged only for those: their device-newer bytes back and the copies
 *     its outputs release in again (idiomrt_cost_own_sync). A device run
 *     that filled device copies inside a region is not a sample the first
 *     time in each region (its copy is paid once per region); a second
 *     filled run of the class in the same region is (a refill that
 *     recurs), as are all past MAX_FILL_RUNS.
 *     Noise: the winner changes side only for a side clearly faster, beyond
 *     the spread of both sides' samples (idiomrt_cost_separation); within
 *     noise it stays, and a side with fewer than 2 samples is measured
 *     first.
 *
 * Estimates: the median of the last IDIOMRT_COST_RING samples of each side,
 * in ns per iteration, times this run's iteration count (device: plus the
 * latency). Host samples come from the caller: after a decline by the model
 * (or while the device starts or kernels build) the caller's
 * idiom_host_begin / idiom_host_end around the original loop read the clock
 * once each (the plugin emits both, passes/Stitching.cpp). A caller that
 * never answers (an object built before these entry points, a hand-written
 * caller) is detected after 3 unanswered requests per descriptor and runs
 * on the device as without the model (IDIOMRT_DEC_UNTIMED).
 *
 * Host hints (idiom_host_hint, idiomrt.h): when a decline is one the model
 * would repeat on the next calls of the class (the device cannot win, or
 * the host measured clearly faster, beyond the spread of the samples, and
 * the device is not due to be measured again), the caller's declined path
 * may ask for a hint: the runtime
 * writes the site's hint word, and the stitched code runs the original
 * loop without calling idiom_run for the next HINT_CALLS calls of the same
 * size class (fewer when the device is due to be measured sooner; those
 * calls count as decisions of the re-measurement schedule). A call of
 * another size class, or the first after the hint's calls, comes here
 * again: a site whose size grows is decided afresh. Inside a residency
 * region a hint is given only while the region has held nothing on the
 * device (a site that syncs only its own ranges: while those hold
 * nothing); a hinted call takes the fallback's path, which syncs the region
 * (or the site's ranges) as a declined call does. The skipped calls are counted lazily, from the
 * hint word, as "host-hint".
 *
 *===----------------------------------------------------------------------===*/
#include "rt_internal.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#define DEVICE_MARGIN 1.1   /* device must be 10% faster */
#define RETRY_GAP0 4        /* decisions before the loser is measured again */
#define RETRY_BUDGET 30.0   /* winner time per unit of re-measurement loss */
#define UNTIMED_AFTER 3     /* unanswered host requests: caller never times */
#define HOST_SAMPLE_EVERY 16 /* host runs per measurement once RING are kept */
/* A host run with COLD_MIN_FAULTS minor page faults or more (256 KiB of
   4 KiB pages first touched) is cold: it paid for the first touch of its
   memory (a grid malloc'd and first written by the loop: nas-parboil/mg.c's
   first finest-level resid ran 22 ms against 9 ms warm, 1,377 faults;
   a fault cost 1-10 us here, so no fixed cost per fault tells how much of
   a run they took), which a device run of the same call would pay as well
   (zero-copy writes, or the write-back). A class's first run, cold, is its
   sample until a warm run replaces it (a one-shot loop that first touches
   its output keeps a host time for the profile: mri-q's ComputeQ goes to
   the device from the second run by it); a cold run after it is not a
   sample, for the class's first COLD_RUNS_MAX such runs (the class is
   measured again at its next host run); past that, faulting is the steady
   state (a buffer allocated per call) and samples count again. The faults are read (one system call
   each side) only while the class has fewer than IDIOMRT_COST_RING
   samples. */
#define COLD_MIN_FAULTS 64
#define COLD_RUNS_MAX 2
#define MAX_DEV_TRIES 4     /* device explorations without a sample */
#define MAX_CPU_TRIES 2     /* second-device runs without a sample, once
                               its exploration is rationed: a warm-up and
                               one more (one exploration per class) */
#define CPU_PAR_SIMD 2.0    /* optimistic speed-up of the second device per
                               core over the host loop (vector lanes across
                               work-items) */
#define CPU_EXPLORE_MS 1000.0 /* IDIOM_CPU_EXPLORE_MS default: PoCL compiles
                                 every variant at its first launch (about
                                 half a second a kernel, runtime/README.md) */
#define MAX_FILL_RUNS 24    /* region runs that filled copies, not tries
                               (at most one per region entered) */
#define STATIC_LAT_NS 5000.0 /* floor before calibration: 5 us ... */
#define STATIC_BW_BPS 64e9   /* ... plus bytes at 64 GB/s */
#define HINT_CALLS 64        /* calls a host hint skips (its first) */
/* Host-floor hints of a class in a row double: 64, 128, ..., 64 << 4 =
   1024 calls. A host-floor decline says the device's floor alone (launch
   latency and transfers) exceeds the host loop, which the next decision
   of the same size class repeats unless the class's host samples or the
   floor move; each decision at the end of a hint costs a call into
   idiom_run (the descriptor lookup, checks, the decision under a lock,
   two clock reads around a sampled loop: bench/policy_tiny.c made 47 of
   them in 3000 calls, 6 now). Any other decision of the class starts the
   run of doublings again; a class of another size is decided at its first
   call as before. */
#define HINT_GROW_MAX 4
#define PRIOR_SPREAD 0.25    /* a side's spread until it has 2 samples */
#define HINT_TAG_BITS IDIOM_HINT_TAG_BITS /* the word: size tag, then the calls */
#define HINT_TAG_MASK ((1ull << HINT_TAG_BITS) - 1)

/* Host time (ns) of runs the model would have sent to a device not yet
   started: the start-up begins once it reaches idiomrt_calib_start_after_ns
   (all descriptors together). Both with the start state (rt_config.h): a
   host-prestart decision writes them in runs that never start the device. */
IDIOMRT_START_DATA static uint64_t g_worthy_ns;
/* The same over the whole process, the device started or not. */
IDIOMRT_START_DATA static uint64_t g_worthy_total_ns;
/* the longest warm-up run of the second device so far (ns, atomic) */
static uint64_t g_cpu_warm_ns;

double idiomrt_cost_host_ns(idiomrt_entry *e, uint64_t trip) {
  pthread_mutex_lock(&e->stats_lock);
  const idiomrt_cost_class *c =
      idiomrt_cost_class_peek(&e->cost, idiomrt_size_class(trip));
  double h = c->hn ? c->host_est * (double)trip : 0.0;
  pthread_mutex_unlock(&e->stats_lock);
  return h;
}

uint64_t idiomrt_cost_worthy_total_ns(void) {
  return __atomic_load_n(&g_worthy_total_ns, __ATOMIC_RELAXED);
}

/* Host time of device-worthy runs after which the start-up begins: about
   one start-up (ski rental), unless the profile says the last run of this
   program had between one and two start-ups' worth in all. Started at one
   start-up, that run's device was ready when too little work was left to
   pay for it (and exit waited for the start-up): this run starts it only
   once it has gone past the last run's total (then it is another run). */
static uint64_t start_threshold_ns(void) {
  uint64_t s = idiomrt_calib_start_after_ns();
  int64_t last = idiomrt_profile_last_worthy_ns();
  if (last >= 0 && (uint64_t)last < 2 * s) {
    uint64_t past = (uint64_t)last + (uint64_t)last / 8 + 1;
    return past > s ? past : s;
  }
  return s;
}

static double lat_ns(void) {
  double lat, bw;
  idiomrt_calib_get(&lat, &bw);
  return lat;
}

/* The calling thread's pending host-timing request and measurement. */
static _Thread_local const idiom_kernel_desc *t_want_desc;
static _Thread_local idiomrt_entry *t_want_entry;
static _Thread_local uint64_t t_want_trip;
static _Thread_local int t_want_clock; /* also the thread's CPU time (stale.c) */
static _Thread_local int t_want_faults; /* also its page faults (cold runs) */
static _Thread_local const idiom_kernel_desc *t_time_desc;
static _Thread_local idiomrt_entry *t_time_entry;
static _Thread_local uint64_t t_time_trip;
static _Thread_local uint64_t t_time_t0;
static _Thread_local uint64_t t_time_cpu0; /* 0: the CPU clock not read */
static _Thread_local uint64_t t_time_flt0; /* faults + 1; 0: not read */
/* The site (hint word) of the latest idiom_host_hint call and of the
   pending measurement (idiom_host_end_site). */
static _Thread_local const idiom_kernel_desc *t_site_desc;
static _Thread_local const uint64_t *t_site_word;
static _Thread_local const uint64_t *t_time_word;
/* The calling thread's latest decline that may become a host hint. */
static _Thread_local const idiom_kernel_desc *t_hint_desc;
static _Thread_local idiomrt_entry *t_hint_entry;
static _Thread_local uint64_t t_hint_trip;
static _Thread_local int t_hint_dec;
/* t_hint_dec of a work-gate decline (idiomrt_cost_gate_hint): no decision
   of the model. */
#define HINT_GATE (-1)
/* The entries this thread gave a host hint inside a residency region, which
   then held nothing on the device: the hints are cut short once the region
   holds bytes there (cancel_region_hints). Other sites of the region may
   go to the device right after the hint (the device just started): a
   hinted call then syncs the region at each call, for the hint's calls.
   A CG on the H200 (bench/cg_csr.c 2048 120) had its SpMV hinted for 64
   iterations at the device's start (the matrix not yet on the device, the
   host's 36 ms beat its transfer), while the dot products and updates ran
   on the device: 64 syncs of 100 MB, 3.7 s against 0.9 s forced. */
#define REGION_HINTS 16
static _Thread_local idiomrt_entry *t_region_hinted[REGION_HINTS];
static _Thread_local unsigned t_nregion_hinted;

/* Cuts every hint of t_region_hinted short (its calls so far counted; the
   word keeps its tag with no calls left, so the site's next call reaches
   idiom_run and is decided with the region's bytes charged). */
static void cancel_region_hints(void) {
  unsigned kept = 0;
  for (unsigned i = 0; i < t_nregion_hinted; ++i) {
    idiomrt_entry *e = t_region_hinted[i];
    /* never wait (as idiom_host_hint): a busy one is cut at the next call */
    if (pthread_mutex_trylock(&e->stats_lock) != 0) {
      t_region_hinted[kept++] = e;
      continue;
    }
    idiomrt_cost_hint_fold_locked(e);
    if (e->hint && e->hint_set >> HINT_TAG_BITS) {
      uint64_t w = e->hint_set & HINT_TAG_MASK;
      __atomic_store_n(e->hint, w, __ATOMIC_RELAXED);
      e->hint_set = w;
      idiomrt_debug("%s: host hint cut short: the residency region holds "
                    "bytes on the device now",
                    e->desc->loc ? e->desc->loc : "?");
    }
    pthread_mutex_unlock(&e->stats_lock);
  }
  t_nregion_hinted = kept;
}

uint64_t idiomrt_cost_bytes(const idiom_arg *args, uint32_t nargs,
                            const char *offsets) {
  /* Inside a residency region the buffers stay on the device: the copy in
     is paid once per region and nothing goes back per call, so a run's
     floor is its launch latency. The device's samples (each the whole
     idiom_run, copies included) correct the estimate after its first
     calls. */
  if (idiomrt_resid_active())
    return 0;
  return idiomrt_cost_bytes_moved(args, nargs, offsets);
}

uint64_t idiomrt_cost_bytes_moved(const idiom_arg *args, uint32_t nargs,
                                  const char *offsets) {
  uint64_t b = 0;
  /* On a zero-copy device (zerocopy.c) an aligned range moves nothing; an
     INOUT one is copied aside (a host memcpy) only under
     IDIOM_ZERO_COPY_BACKUP=always or by a run that tunes, whose sample is
     not the steady state anyway (zerocopy.c, "failure") */
  /* (before the device is started: the one the start-up record names,
     whose floor would otherwise count copies that it never makes) */
  const idiomrt_device *dev = idiomrt_device_peek();
  int zc = dev ? idiomrt_zc_device(dev) : idiomrt_zc_expected();
  size_t align = zc ? idiomrt_zc_align() : 1;
  const char *p = zc ? offsets : NULL; /* (read only for a zero-copy one) */
  for (uint32_t i = 0; i < nargs; ++i) {
    uint64_t n = args[i].bytes;
    uint32_t elem =
        idiomrt_arg_is_buffer(args[i].kind) ? idiomrt_offsets_next(&p) : 0;
    uintptr_t at = (uintptr_t)args[i].ptr;
    if (zc && (at % align == 0 || (elem && at % elem == 0))) {
      b += args[i].kind == IDIOM_ARG_BUF_INOUT && idiomrt_zc_backup_always()
               ? n
               : 0;
      continue;
    }
    switch (args[i].kind) {
    case IDIOM_ARG_BUF_IN:
      b += n;
      break;
    case IDIOM_ARG_BUF_OUT:
    case IDIOM_ARG_BUF_INOUT:
      b += n > UINT64_MAX / 2 ? UINT64_MAX / 2 : 2 * n;
      break;
    default:
      break;
    }
  }
  return b;
}

/* Median of the last min(n, RING) samples of ring (RING is 3). */
static double median(const double *ring, uint32_t n) {
  _Static_assert(IDIOMRT_COST_RING == 3, "median of 3");
  if (n == 1)
    return ring[0];
  if (n == 2)
    return 0.5 * (ring[0] + ring[1]);
  double a = ring[0], b = ring[1], c = ring[2];
  double lo = a < b ? a : b, hi = a < b ? b : a;
  return c < lo ? lo : c > hi ? hi : c;
}

/* Adds v to ring (n samples so far) and returns the new median. */
static double push(double *ring, uint32_t *n, double v) {
  ring[*n % IDIOMRT_COST_RING] = v;
  if (*n < UINT32_MAX)
    (*n)++;
  return median(ring, *n);
}

/* Lower bound of a device run moving bytes, in ns: from the calibration
   (this process's, else the last one's on disk, calibration.c), or else
   from optimistic bounds no device beats (STATIC_LAT_NS, and STATIC_BW_BPS,
   above pinned PCIe 5 transfers). */
static double device_floor(uint64_t bytes) {
  double lat, bw;
  if (idiomrt_config_get()->test_host == IDIOMRT_TEST_HOST_FLOOR)
    return __builtin_inf(); /* test knob IDIOM_TEST_HOST=floor */
  if (!idiomrt_calib_get(&lat, &bw)) {
    lat = STATIC_LAT_NS;
    bw = STATIC_BW_BPS / 1e9;
  }
  /* copies the staging slots carry run at their measured rate, not at the
     pageable one the calibration measures (8-10 against 17-36 GB/s on the
     H200: a floor two to four times too high for large copies) */
  double staged = idiomrt_calib_stage_bw();
  if (staged > bw && idiomrt_stage_applies(idiomrt_device_peek(), bytes))
    bw = staged;
  return lat + (double)bytes / bw;
}

double idiomrt_cost_floor_ns(uint64_t bytes) { return device_floor(bytes); }

int idiomrt_cost_is_device(int dec) {
  return dec == IDIOMRT_DEC_FORCED || dec == IDIOMRT_DEC_DEVICE ||
         dec == IDIOMRT_DEC_EXPLORE_DEVICE || dec == IDIOMRT_DEC_UNTIMED ||
         dec == IDIOMRT_DEC_DEVICE_WAIT || dec == IDIOMRT_DEC_REPROBE ||
         idiomrt_cost_is_second(dec);
}

int idiomrt_cost_is_second(int dec) {
  return dec == IDIOMRT_DEC_CPU_DEVICE || dec == IDIOMRT_DEC_EXPLORE_CPU;
}

/* Winner w (1 device, 2 host) for class c; resets the re-measurement
   schedule when it changes. */
static void set_winner(idiomrt_cost_class *c, int w) {
  if (c->winner != w) {
    c->winner = w;
    c->since = 0;
    c->gap = RETRY_GAP0;
    c->win_ns = 0;
  }
}

/* 1 when the loser is due to be measured again (and starts a new period). */
static int loser_due(idiomrt_cost_class *c, double win_est, double lose_est) {
  double loss = lose_est - win_est;
  if (c->since < c->gap || c->win_ns < RETRY_BUDGET * (loss > 0 ? loss : 0)) {
    c->since++;
    c->win_ns += win_est;
    return 0;
  }
  c->since = 0;
  c->win_ns = 0;
  if (c->gap < (UINT64_MAX >> 2))
    c->gap *= 2;
  return 1;
}

/* Set by idiomrt_cost_choose when the device that lost to the host is due
   to be measured again (for IDIOM_DEBUG: idiomrt_cost_decide reads it). */
static _Thread_local int t_loser_due;

/* Ski rental for the second device's exploration (issue 12: a program
   that never profits from it pays no more than noise). Its first runs of a
   class pay one-time costs on the calling thread (PoCL compiles a kernel
   for its work-group size at its first launch; the variants are timed):
   0.3-4 s for nas-parboil/mg.c's sites on a 16-core PoCL. A class is
   explored only when the second device's optimistic estimate, the host
   time over in->cpu_par plus the latency, beats the best known time
   (best: the host, or the measured primary device) by DEVICE_MARGIN, and
   once what it could have saved over the calls so far reaches
   in->explore_ns. A warm-up under way is finished (no credit needed). */
static int cpu_worth_exploring(idiomrt_cost_class *c,
                               const idiomrt_cost_inputs *in, double best) {
  if (in->explore_ns <= 0 || c->cpu_tries > 0)
    return 1;
  double pred = in->lat + (in->cpu_par > 0 ? in->host / in->cpu_par : 0.0);
  double gain = best - pred * DEVICE_MARGIN;
  if (!(gain > 0))
    return 0;
  c->cpu_credit += gain;
  return c->cpu_credit >= in->explore_ns;
}

static pthread_once_t g_explore_once = PTHREAD_ONCE_INIT;
static double g_explore_prior_ns; /* IDIOM_CPU_EXPLORE_MS, read once */

static void read_explore_prior(void) {
  const char *v = getenv("IDIOM_CPU_EXPLORE_MS");
  char *end = NULL;
  double ms = v && *v ? strtod(v, &end) : CPU_EXPLORE_MS;
  if (v && *v && (!end || *end || !(ms >= 0)))
    ms = CPU_EXPLORE_MS;
  g_explore_prior_ns = ms * 1e6;
}

double idiomrt_cost_explore_ns(void) {
  pthread_once(&g_explore_once, read_explore_prior);
  double prior = g_explore_prior_ns;
  if (prior == 0)
    return 0;
  double seen = (double)__atomic_load_n(&g_cpu_warm_ns, __ATOMIC_RELAXED);
  return seen > prior ? seen : prior;
}

/* The second device's optimistic speed-up over the host loop: its compute
   units (the host's online CPUs before it is open) times CPU_PAR_SIMD. */
static double cpu_parallelism(void) {
  const idiomrt_device *d2 = idiomrt_device2_peek();
  double cu = d2 ? (double)d2->compute_units : 0;
  if (cu < 1) {
    long n = sysconf(_SC_NPROCESSORS_ONLN);
    cu = n > 0 ? (double)n : 1;
  }
  return cu * CPU_PAR_SIMD;
}

int idiomrt_cost_choose(idiomrt_cost_class *c, const idiomrt_cost_inputs *in,
                        int *want_second) {
  const double inf = __builtin_inf();
  double host = in->host, trip = (double)in->trip;
  int gpu_can = in->floor_ns < host;
  /* the second device runs on the program's memory (zero-copy): its floor
     is the launch latency */
  int cpu_can = in->second >= 0 && in->lat < host;
  if (!gpu_can && !cpu_can)
    return IDIOMRT_DEC_CANNOT_WIN;
  if (gpu_can && c->dn == 0 && c->dev_tries < MAX_DEV_TRIES)
    return IDIOMRT_DEC_EXPLORE_DEVICE;
  double gpu = gpu_can && c->dn ? in->lat + c->dev_est * trip : inf;
  unsigned max_cpu = in->explore_ns > 0 ? MAX_CPU_TRIES : MAX_DEV_TRIES;
  if (cpu_can && c->cn == 0 && c->cpu_tries < max_cpu &&
      cpu_worth_exploring(c, in, gpu < host ? gpu : host)) {
    if (in->second == 1)
      return IDIOMRT_DEC_EXPLORE_CPU;
    *want_second = 1; /* opened in the background; meanwhile two-way */
  }
  /* a class the profile says the second device wins: open it */
  if (cpu_can && c->cn && in->second == 0 &&
      (in->lat + c->cpu_est * trip) * DEVICE_MARGIN < (gpu < host ? gpu : host))
    *want_second = 1;
  double cpu = in->second == 1 && c->cn ? in->lat + c->cpu_est * trip : inf;
  if (gpu == inf && cpu == inf) {
    c->hint_ok = 1; /* no device can be measured */
    return IDIOMRT_DEC_HOST_FASTER;
  }
  int best = gpu <= cpu ? 1 : 3;
  double dev = best == 1 ? gpu : cpu, other = best == 1 ? cpu : gpu;
  int other_dec = best == 1 ? IDIOMRT_DEC_EXPLORE_CPU
                            : IDIOMRT_DEC_EXPLORE_DEVICE;
  int explore_best = best == 1 ? IDIOMRT_DEC_EXPLORE_DEVICE
                               : IDIOMRT_DEC_EXPLORE_CPU;
  /* Noise (the sample spread of both sides, idiomrt_cost_separation): a
     side with too few samples to know its spread, within reach of the
     other, is measured first (the winner is left as it is); a winner is
     replaced only by a side clearly faster than it. */
  int sep = idiomrt_cost_separation(c, best, host, dev, trip);
  c->hint_ok = sep == IDIOMRT_SEP_HOST;
  if (sep == IDIOMRT_SEP_UNKNOWN) {
    uint32_t dn = best == 1 ? c->dn : c->cn;
    uint32_t tries = best == 1 ? c->dev_tries : c->cpu_tries;
    if (dn < 2 && tries < (best == 1 ? MAX_DEV_TRIES : max_cpu))
      return explore_best;
    /* (not inside a region that holds device copies: a host run there
       syncs the region) */
    if (c->hn < 2 && host <= c->host_est * trip)
      return IDIOMRT_DEC_EXPLORE_HOST;
  }
  int dev_wins = dev * DEVICE_MARGIN < host;
  int noise = sep == IDIOMRT_SEP_OVERLAP || sep == IDIOMRT_SEP_UNKNOWN;
  if (noise && c->winner == 2)
    dev_wins = 0; /* the host stays: the device is within noise of it */
  else if (noise && c->winner == best)
    dev_wins = 1; /* the device stays */
  if (dev_wins) {
    set_winner(c, best);
    /* two losers: the host and the other device, measured in turn */
    int host_next = other == inf || (c->remeasure & 1) == 0;
    if (loser_due(c, dev, host_next ? host : other)) {
      c->remeasure++;
      return host_next ? IDIOMRT_DEC_EXPLORE_HOST : other_dec;
    }
    return best == 1 ? IDIOMRT_DEC_DEVICE : IDIOMRT_DEC_CPU_DEVICE;
  }
  set_winner(c, 2);
  if (loser_due(c, host, dev)) {
    t_loser_due = 1;
    return explore_best;
  }
  return IDIOMRT_DEC_HOST_FASTER;
}

/* The lowest and highest of the samples in a ring of n (ns per iteration)
   around their median est; with fewer than 2 (the spread not known: a
   class seeded by the profile has one sample a side) est -+ PRIOR_SPREAD,
   and 0. */
static int ring_range(const double *ring, uint32_t n, double est, double *lo,
                      double *hi) {
  uint32_t k = n < IDIOMRT_COST_RING ? n : IDIOMRT_COST_RING;
  if (k < 2) {
    *lo = est * (1 - PRIOR_SPREAD);
    *hi = est * (1 + PRIOR_SPREAD);
    return 0;
  }
  *lo = *hi = ring[0];
  for (uint32_t i = 1; i < k; ++i) {
    *lo = ring[i] < *lo ? ring[i] : *lo;
    *hi = ring[i] > *hi ? ring[i] : *hi;
  }
  return 1;
}

int idiomrt_cost_separation(const idiomrt_cost_class *c, int dev_side,
                            double host, double dev, double trip) {
  const double *ring = dev_side == 3 ? c->cpu_pi : c->dev_pi;
  uint32_t n = dev_side == 3 ? c->cn : c->dn;
  double est = dev_side == 3 ? c->cpu_est : c->dev_est;
  double hlo, hhi, dlo, dhi;
  int known = ring_range(c->host_pi, c->hn, c->host_est, &hlo, &hhi);
  known &= ring_range(ring, n, est, &dlo, &dhi);
  /* each side's interval around its estimate (host: region syncs in) */
  double host_lo = host - (c->host_est - hlo) * trip;
  double host_hi = host + (hhi - c->host_est) * trip;
  double dev_lo = dev - (est - dlo) * trip;
  double dev_hi = dev + (dhi - est) * trip;
  if (host_hi < dev_lo)
    return IDIOMRT_SEP_HOST;
  if (dev_hi * DEVICE_MARGIN < host_lo)
    return IDIOMRT_SEP_DEVICE;
  return known ? IDIOMRT_SEP_OVERLAP : IDIOMRT_SEP_UNKNOWN;
}

/* What a host run costs a residency region in copies (ns, at the
   calibrated bandwidth): with held bytes on the device, copying them back
   and in again at the next device run; with none held now but region
   bytes held earlier in this region (a sync emptied it: another site ran
   on the host), filling them again. The region's sites are so decided
   together: a site kept on the host pays for the copies its choice makes
   the others' device runs repeat. */
static double region_charge(uint64_t held, uint64_t region) {
  if (held)
    return device_floor(2 * held) - device_floor(0);
  return region ? device_floor(region) - device_floor(0) : 0.0;
}

/* idiomrt_cost_own_sync's figures for the calling thread's next decision:
   a host run that syncs only its own ranges (resid_sync.c) costs copying
   back their device-newer bytes and filling the released copies again,
   not the region's other copies, which stay. */
static _Thread_local struct {
  int set;
  uint64_t back, refill;
} t_own;

/* idiomrt_cost_pages for the thread's next decision (0: not told). */
static _Thread_local uint64_t t_pages_told; /* pages + 1 */

void idiomrt_cost_pages(uint64_t pages) {
  t_pages_told = pages < UINT64_MAX ? pages + 1 : pages;
}

void idiomrt_cost_own_sync(uint64_t back, uint64_t refill) {
  t_own.set = 1;
  t_own.back = back;
  t_own.refill = refill;
}

static const char *host_reason(int dec) {
  switch (dec) {
  case IDIOMRT_DEC_EXPLORE_HOST:
    return "cost model: measuring the host loop";
  case IDIOMRT_DEC_CANNOT_WIN:
    return "cost model: transfers and launch exceed the host time";
  case IDIOMRT_DEC_HOST_FASTER:
    return "cost model: host faster";
  case IDIOMRT_DEC_PRESTART:
    return "cost model: too little host time yet to start the device";
  default:
    return NULL;
  }
}

int idiomrt_cost_decide(idiomrt_entry *e, uint64_t trip, uint64_t bytes,
                        double host_lb, const char **reason) {
  if (t_nregion_hinted && idiomrt_resid_bytes())
    cancel_region_hints();
  /* A host run that syncs only its own ranges: what it copies instead of
     the region's bytes (held: the bytes the decision charges for). */
  int own = t_own.set;
  uint64_t own_bytes = t_own.back + t_own.refill;
  t_own.set = 0;
  t_loser_due = 0;
  /* a run over fewer pages than a cold one faults (idiomrt_cost_pages) */
  int few_pages = t_pages_told && t_pages_told - 1 < COLD_MIN_FAULTS;
  t_pages_told = 0;
  unsigned cls = idiomrt_size_class(trip);
  double floor_ns = device_floor(bytes);
  double lat = lat_ns();
  int dec, want_second = 0;
  /* The second device: never inside a residency region (its device copies
     stay on the primary device, docs/ARCHITECTURE.md), nor for the first
     kernel of a pair (pair.c: both run where the first does). */
  int second = -1;
  if (!idiomrt_resid_active() && !idiomrt_defer_wanted(e->desc) &&
      idiomrt_device_state(NULL) == 1 && idiomrt_device2_wanted())
    second = idiomrt_startup_second_ready(e);
  pthread_mutex_lock(&e->stats_lock);
  idiomrt_cost_site *s = &e->cost;
  idiomrt_cost_class *c = idiomrt_cost_class_get(s, cls);
  if (!c) { /* no memory for the class's samples: the loop runs */
    s->decisions[IDIOMRT_DEC_EXPLORE_HOST]++;
    *reason = "cost model: out of host memory";
    idiomrt_stats_decline_locked(e, *reason);
    pthread_mutex_unlock(&e->stats_lock);
    t_hint_desc = NULL;
    return IDIOMRT_DEC_EXPLORE_HOST;
  }
  uint64_t held = idiomrt_resid_bytes();
  uint64_t region = idiomrt_resid_region_bytes();
  double charge = own ? (own_bytes ? device_floor(own_bytes) - device_floor(0)
                                   : 0.0)
                      : region_charge(held, region);
  if (own) {
    held = own_bytes;
    region = own_bytes;
  }
  if (s->host_got == 0 && s->host_wanted >= UNTIMED_AFTER) {
    dec = IDIOMRT_DEC_UNTIMED;
  } else if (c->hn == 0 && held) {
    /* Timing the loop on the host inside a region that holds device copies
       would sync the region (every copy back, and in again at the next
       device run) to learn what the device makes moot: the device runs
       (a small boundary-row map between the sweeps of a time loop). */
    dec = c->dn == 0 ? IDIOMRT_DEC_EXPLORE_DEVICE : IDIOMRT_DEC_DEVICE;
  } else if (c->hn == 0) {
    /* No host time yet: the loop runs and is measured, unless a lower
       bound of its host time (devwait.c) says that it is long: then the
       device, measured already below the bound (no host run can beat it),
       or started now and waited for (launch.c). */
    dec = IDIOMRT_DEC_EXPLORE_HOST;
    double dev = c->dn ? lat + c->dev_est * (double)trip : 0.0;
    if (c->dn && dev * DEVICE_MARGIN < host_lb &&
        floor_ns * DEVICE_MARGIN < host_lb)
      dec = IDIOMRT_DEC_DEVICE;
    else if (!c->dn && c->dev_tries == 0 &&
             floor_ns * DEVICE_MARGIN < host_lb &&
             idiomrt_devwait_worth(host_lb))
      dec = IDIOMRT_DEC_DEVICE_WAIT;
  } else {
    /* Inside a region that holds device copies, running the loop on the
       host syncs first: every copy goes back, and comes in again at the
       next device run. That is part of the host's cost. */
    double host = c->host_est * (double)trip + charge;
    idiomrt_cost_inputs in = {trip,   host,
                              floor_ns, lat,
                              second, second >= 0 ? cpu_parallelism() : 0,
                              second >= 0 ? idiomrt_cost_explore_ns() : 0};
    int before = c->winner;
    dec = idiomrt_cost_choose(c, &in, &want_second);
    if (c->winner != before) /* IDIOM_DEBUG: why a site changes side */
      idiomrt_debug("%s: size class %u: %s wins (host %.1f us, device "
                    "%.1f us, cpu-device %.1f us; 0: not measured)",
                    e->desc->loc ? e->desc->loc : "?", cls,
                    c->winner == 1   ? "device"
                    : c->winner == 3 ? "cpu-device"
                                     : "host",
                    host / 1e3,
                    c->dn ? (lat + c->dev_est * (double)trip) / 1e3 : 0.0,
                    c->cn ? (lat + c->cpu_est * (double)trip) / 1e3 : 0.0);
  }
  /* The losing device measured again (loser_due) while it is not started:
     the probe would save nothing, so it neither counts as worthy nor
     starts the device (0.2-0.35 s of a core) for itself; the loop runs. A
     device started for other runs is probed as before. */
  if (dec == IDIOMRT_DEC_EXPLORE_DEVICE && !idiomrt_startup_begun() &&
      (c->winner == 2 ||
       /* nor does a second sample of a device within noise (a class
          seeded by the profile) whose estimate does not beat the host's
          by the margin: nas-parboil/jds.c's SpMV, 13 ms on the host
          against 15 ms on PoCL, started PoCL for it */
       (c->dn && (lat + c->dev_est * (double)trip) * DEVICE_MARGIN >=
                     c->host_est * (double)trip))) {
    if (t_loser_due) /* (once per re-measurement period) */
      idiomrt_debug("%s: size class %u: the device lost and is due to be "
                    "measured again, but is not started: the loop runs",
                    e->desc->loc ? e->desc->loc : "?", cls);
    dec = IDIOMRT_DEC_HOST_FASTER;
  }
  /* A device estimate that is only an earlier run's sample, and lost: it
     may be stale (an old or loaded run's), and is re-measured within a
     budget (stale.c); meanwhile no host hint. */
  int stale_hold = 0;
  if (c->dev_seed && c->dn)
    dec = idiomrt_stale_decide(c, dec, c->host_est * (double)trip,
                               lat + c->dev_est * (double)trip,
                               idiomrt_startup_begun(), e->desc->loc, cls,
                               &stale_hold);
  /* inside a region on a zero-copy device the sites are decided together
     (region_lap.c) */
  int lap_no_hint = 0;
  const char *lap_reason = NULL;
  dec = idiomrt_lap_decide(e, c, cls, dec, &lap_no_hint, &lap_reason);
  uint64_t add = (uint64_t)(c->host_est * (double)trip);
  /* fruitless.c: a process that holds the device back starts it for no
     run (a first device run, a stale seed's re-probe, an untimed caller):
     each declines as before a start-up (counted as worthy below), and,
     as this process will not start the device, the next calls of the
     class may skip idiom_run (a host hint) */
  int kept = idiomrt_fruitless_hold() && idiomrt_cost_is_device(dec) &&
             !idiomrt_startup_begun(); /* (the hold first: one load) */
  if (dec == IDIOMRT_DEC_DEVICE_WAIT) /* (no host estimate: its bound) */
    __atomic_add_fetch(&g_worthy_total_ns, (uint64_t)host_lb,
                       __ATOMIC_RELAXED);
  if (idiomrt_cost_is_second(dec))
    __atomic_add_fetch(&g_worthy_total_ns, add, __ATOMIC_RELAXED);
  if (dec == IDIOMRT_DEC_EXPLORE_DEVICE || dec == IDIOMRT_DEC_DEVICE) {
    __atomic_add_fetch(&g_worthy_total_ns, add, __ATOMIC_RELAXED);
    /* Ski rental: starting the device costs about one start-up (and an
       exit in the middle of it waits for a step of it); it is started once
       the host time it could have saved reaches that. */
    if (!idiomrt_startup_begun() &&
        (__atomic_add_fetch(&g_worthy_ns, add, __ATOMIC_RELAXED) <
             start_threshold_ns() ||
         idiomrt_config_get()->test_host)) /* IDIOM_TEST_HOST: never */
      dec = IDIOMRT_DEC_PRESTART;
  }
  if (kept)
    dec = IDIOMRT_DEC_PRESTART;
  s->decisions[dec]++;
  *reason = lap_reason ? lap_reason : host_reason(dec);
  /* a host run is measured while the class has fewer than RING samples,
     then one in HOST_SAMPLE_EVERY (two clock reads are a tenth of a loop
     of a microsecond) */
  int want = *reason && (c->hn < IDIOMRT_COST_RING ||
                         ++c->host_skip % HOST_SAMPLE_EVERY == 0);
  /* the thread's CPU time too around a loop long enough (stale.c) */
  int clock = want && c->hn &&
              c->host_est * (double)trip >= IDIOMRT_CLOCK_MIN_LOOP_NS;
  int faults = want && c->hn < IDIOMRT_COST_RING &&
               c->host_cold < COLD_RUNS_MAX && !few_pages;
  if (*reason) {
    idiomrt_stats_decline_locked(e, *reason);
    s->host_wanted += want;
  }
  /* a decline the next calls of the class would repeat may become a host
     hint (idiom_host_hint); a host-cost one only when the host is
     clearly faster (hint_ok); inside a region only while it has held none
     of its bytes on the device (a hinted call syncs the region as a
     declined one does, and its sites are decided together), or, for a
     site that syncs only its own ranges, while its sync would copy
     nothing (region is then those bytes, idiomrt_cost_own_sync) */
  int hintable = !region && !stale_hold && !lap_no_hint &&
                 (dec == IDIOMRT_DEC_CANNOT_WIN ||
                  (dec == IDIOMRT_DEC_HOST_FASTER && c->hint_ok) || kept);
  if (!hintable || dec != IDIOMRT_DEC_CANNOT_WIN)
    c->hint_grow = 0; /* the doubling of host-floor hints starts again */
  pthread_mutex_unlock(&e->stats_lock);
  t_hint_desc = hintable ? e->desc : NULL;
  if (hintable) {
    t_hint_entry = e;
    t_hint_trip = trip;
    t_hint_dec = dec;
  }
  if (want_second)
    idiomrt_startup_second_request(e);
  if (want) {
    t_want_desc = e->desc;
    t_want_entry = e;
    t_want_trip = trip;
    t_want_clock = clock;
    t_want_faults = faults;
  }
  return dec;
}

void idiomrt_cost_count(idiomrt_entry *e, int from, int dec) {
  if (dec < 0 || dec >= IDIOMRT_NDECISIONS)
    return;
  pthread_mutex_lock(&e->stats_lock);
  if (from >= 0 && from < IDIOMRT_NDECISIONS && e->cost.decisions[from])
    e->cost.decisions[from]--;
  e->cost.decisions[dec]++;
  pthread_mutex_unlock(&e->stats_lock);
}

void idiomrt_cost_wait_missed(idiomrt_entry *e, uint64_t trip) {
  pthread_mutex_lock(&e->stats_lock);
  idiomrt_cost_class *c =
      idiomrt_cost_class_get(&e->cost, idiomrt_size_class(trip));
  if (c && c->dev_tries < UINT32_MAX)
    c->dev_tries++;
  pthread_mutex_unlock(&e->stats_lock);
}

void idiomrt_cost_want_host(idiomrt_entry *e, uint64_t trip) {
  t_want_desc = e->desc;
  t_want_entry = e;
  t_want_trip = trip;
  t_want_clock = 0;
  t_want_faults = 1; /* (a class without a sample) */
  pthread_mutex_lock(&e->stats_lock);
  /* the class that idiom_host_end, which allocates nothing, samples */
  idiomrt_cost_class_get(&e->cost, idiomrt_size_class(trip));
  e->cost.host_wanted++;
  pthread_mutex_unlock(&e->stats_lock);
}

void idiomrt_cost_clear_want(void) {
  t_want_desc = NULL;
  t_hint_desc = NULL;
}

void idiomrt_cost_hint_fold_locked(idiomrt_entry *e) {
  if (!e->hint)
    return;
  uint64_t w = __atomic_load_n(e->hint, __ATOMIC_RELAXED);
  uint64_t set = e->hint_set;
  /* the calls left of what was set or last counted (another tag: the word
     was rewritten, every call of the old one is over) */
  uint64_t left = (w & HINT_TAG_MASK) == (set & HINT_TAG_MASK)
                      ? w >> HINT_TAG_BITS
                      : 0;
  uint64_t had = set >> HINT_TAG_BITS;
  if (had > left) {
    uint64_t n = had - left;
    if (e->hint_gate) { /* declined by the gate, as the calls it skipped */
      idiomrt_stats_declines_locked(e, idiomrt_work_gate_reason, n);
    } else {
      e->cost.decisions[IDIOMRT_DEC_HOST_HINT] += n;
      idiomrt_stats_declines_locked(e, "cost model: host hint (idiom_run not "
                                       "called)", n);
    }
  }
  e->hint_set = (set & HINT_TAG_MASK) | left << HINT_TAG_BITS;
}

void idiomrt_cost_gate_hint(idiomrt_entry *e, uint64_t trip) {
  if (!idiomrt_config_get()->cost || idiomrt_resid_region_bytes())
    return;
  t_hint_desc = e->desc;
  t_hint_entry = e;
  t_hint_trip = trip;
  t_hint_dec = HINT_GATE;
}

/* The length of the next hint of a kind whose hints double in a row:
   HINT_CALLS << *grow, *grow counting up to HINT_GROW_MAX (relaxed
   atomics: run_checked resets the entry's gate_grow without the stats
   lock). */
static uint64_t doubling_hint(unsigned char *grow) {
  unsigned char g = __atomic_load_n(grow, __ATOMIC_RELAXED);
  if (g < HINT_GROW_MAX)
    __atomic_store_n(grow, (unsigned char)(g + 1), __ATOMIC_RELAXED);
  return (uint64_t)HINT_CALLS << g;
}

void idiom_host_hint(const idiom_kernel_desc *desc, uint64_t *hint,
                     uint64_t key) {
  t_site_desc = desc; /* for idiom_host_begin and idiom_host_end_site */
  t_site_word = hint;
  if (!desc || !hint || key == 0 || desc != t_hint_desc)
    return;
  t_hint_desc = NULL;
  idiomrt_entry *e = t_hint_entry;
  /* never wait (a signal handler may have interrupted a report) */
  if (!e || pthread_mutex_trylock(&e->stats_lock) != 0)
    return;
  idiomrt_cost_hint_fold_locked(e);
  if (e->hint && e->hint != hint) {
    /* another site shares the descriptor: count from its word no more */
    e->hint = NULL;
  }
  uint64_t n = HINT_CALLS;
  uint64_t tag = 64 - (uint64_t)__builtin_clzll(key); /* key's class */
  if (t_hint_dec == HINT_GATE) {
    /* Every call the hint skips has a key of the declined call's size
       class, below 2^tag: all of them below the gate's threshold by their
       trip counts only when 2^tag - 1 is. Work-gate hints in a row double
       as host-floor ones do (their calls cost the same walk into
       idiom_run). */
    if (tag >= 64 || ((uint64_t)1 << tag) - 1 >= idiomrt_config_get()->min_trip) {
      pthread_mutex_unlock(&e->stats_lock);
      return;
    }
    n = doubling_hint(&e->gate_grow);
  }
  /* the class the decline was decided in (no allocation here) */
  idiomrt_cost_class *c =
      idiomrt_cost_class_find(&e->cost, idiomrt_size_class(t_hint_trip));
  if (t_hint_dec == IDIOMRT_DEC_CANNOT_WIN && c)
    n = doubling_hint(&c->hint_grow);
  if (t_hint_dec == IDIOMRT_DEC_HOST_FASTER && c && c->winner == 2 &&
      idiomrt_startup_begun()) {
    /* the device is measured again once gap decisions have passed and the
       host's time since is RETRY_BUDGET times the loss (loser_due): the
       hint's calls are decisions too, and end no later than that (with
       the device not started, the loser is never measured: any n) */
    double host = c->host_est * (double)t_hint_trip;
    double loss = lat_ns() + c->dev_est * (double)t_hint_trip - host;
    uint64_t due = c->gap > c->since ? c->gap - c->since : 0;
    double short_ns = RETRY_BUDGET * loss - c->win_ns;
    if (host > 0 && short_ns > 0 && short_ns / host > (double)due)
      due = short_ns / host >= (double)HINT_CALLS
                ? HINT_CALLS
                : (uint64_t)(short_ns / host) + 1;
    n = due < n ? due : n;
  }
  if (t_hint_dec == IDIOMRT_DEC_HOST_FASTER && c && c->winner == 2) {
    c->since += n;
    c->win_ns += c->host_est * (double)t_hint_trip * (double)n;
  }
  if (n && idiomrt_resid_active()) {
    /* (hintable: the region holds nothing on the device) */
    unsigned k = 0;
    while (k < t_nregion_hinted && t_region_hinted[k] != e)
      ++k;
    if (k == t_nregion_hinted && k < REGION_HINTS)
      t_region_hinted[t_nregion_hinted++] = e;
    else if (k == REGION_HINTS)
      n = 0; /* no room to cut it short: no hint */
  }
  if (n) {
    if (t_hint_dec == HINT_GATE) /* every class below the threshold */
      tag = IDIOM_HINT_BELOW |
            (63 - (uint64_t)__builtin_clzll(idiomrt_config_get()->min_trip));
    uint64_t w = tag | n << HINT_TAG_BITS;
    __atomic_store_n(hint, w, __ATOMIC_RELAXED);
    e->hint = hint;
    e->hint_set = w;
    e->hint_gate = t_hint_dec == HINT_GATE;
  }
  pthread_mutex_unlock(&e->stats_lock);
}

/* A successful run of the primary device, or of the second one (second:
   its own ring, runs and tries; never inside regions, so never filled). */
static void device_sample(idiomrt_entry *e, uint64_t trip, uint64_t wall_ns,
                          int tuned, int filled, int second) {
  if (trip == 0)
    return;
  double lat = lat_ns();
  double v = (double)wall_ns - lat;
  double pi = (v > 0 ? v : 0) / (double)trip;
  pthread_mutex_lock(&e->stats_lock);
  idiomrt_cost_class *c =
      idiomrt_cost_class_get(&e->cost, idiomrt_size_class(trip));
  if (!c) {
    pthread_mutex_unlock(&e->stats_lock);
    return;
  }
  double *ring = second ? c->cpu_pi : c->dev_pi;
  double *est = second ? &c->cpu_est : &c->dev_est;
  uint32_t *n = second ? &c->cn : &c->dn;
  uint32_t *tries = second ? &c->cpu_tries : &c->dev_tries;
  uint32_t *runs = second ? &c->cpu_runs : &c->dev_runs;
  /* The class's first run may pay one-time costs (PoCL compiles a kernel
     for each work-group size at its first launch; drivers fault in their
     buffers): a sample only when it already beats the host. */
  int warmup = (*runs)++ == 0 && c->hn && pi * DEVICE_MARGIN >= c->host_est;
  /* A run that filled a region's device copies paid a copy that the
     region's later runs may not: for the class's first MAX_FILL_RUNS such
     runs neither a sample nor a try, one per region (the region's first
     use of the ranges). Past that, refilling is the steady state: samples
     again. */
  /* Only the class's first filled run in each region is left out: a
     second one in the same region refilled what a sync of the region
     released (a host run of this or another site), which recurs every
     iteration: a sample, so that the device's estimate pays for it. */
  uint64_t rid = second ? 0 : idiomrt_resid_region_id();
  if (filled && !tuned && c->fill_runs < MAX_FILL_RUNS &&
      (c->fill_region != rid || !idiomrt_config_get()->partial_sync)) {
    c->fill_runs++;
    c->fill_region = rid;
    pthread_mutex_unlock(&e->stats_lock);
    return;
  }
  if (!tuned && !warmup) {
    if (!second)
      idiomrt_stale_fresh(c); /* a seed from an earlier run leaves */
    *est = push(ring, n, pi);
    *tries = 0;
  } else if (*tries < UINT32_MAX) {
    (*tries)++;
    /* what exploring the second device costs (ski rental, above) */
    uint64_t seen = __atomic_load_n(&g_cpu_warm_ns, __ATOMIC_RELAXED);
    while (second && wall_ns > seen &&
           !__atomic_compare_exchange_n(&g_cpu_warm_ns, &seen, wall_ns, 0,
                                        __ATOMIC_RELAXED, __ATOMIC_RELAXED))
      ;
  }
  pthread_mutex_unlock(&e->stats_lock);
}

void idiomrt_cost_device_sample(idiomrt_entry *e, uint64_t trip,
                                uint64_t wall_ns, int tuned, int filled) {
  device_sample(e, trip, wall_ns, tuned, filled, 0);
}

void idiomrt_cost_second_sample(idiomrt_entry *e, uint64_t trip,
                                uint64_t wall_ns, int tuned) {
  device_sample(e, trip, wall_ns, tuned, 0, 1);
}

uint64_t idiom_host_begin(const idiom_kernel_desc *desc) {
  if (!desc || desc != t_want_desc)
    return 0;
  t_want_desc = NULL;
  if (!t_time_desc) /* a measurement begins (none replaced): pending.c */
    idiomrt_pending_timing(1);
  t_time_desc = desc;
  t_time_entry = t_want_entry;
  t_time_trip = t_want_trip;
  t_time_word = desc == t_site_desc ? t_site_word : NULL;
  t_time_cpu0 = t_want_clock ? idiomrt_thread_cpu_ns() : 0;
  t_time_flt0 = t_want_faults ? idiomrt_thread_faults() + 1 : 0;
  t_time_t0 = idiomrt_now_ns() | 1; /* never 0, which means "not timed" */
  return t_time_t0;
}

void idiom_host_end(const idiom_kernel_desc *desc, uint64_t token) {
  if (!token)
    return;
  uint64_t t1 = idiomrt_now_ns();
  if (desc != t_time_desc || token != t_time_t0 || t1 < token ||
      t_time_trip == 0)
    return; /* another (nested or re-entered) measurement took the slot */
  t_time_desc = NULL;
  uint64_t cpu0 = t_time_cpu0, cpu1 = cpu0 ? idiomrt_thread_cpu_ns() : 0;
  uint64_t flt0 = t_time_flt0, flt1 = flt0 ? idiomrt_thread_faults() + 1 : 0;
  uint64_t faults = flt0 && flt1 > flt0 ? flt1 - flt0 : 0;
  idiomrt_pending_timing(0);
  /* idiom_run holds no lock here, but a signal handler of this thread may
     interrupt a report or another sample: never wait for the lock. */
  idiomrt_entry *e = t_time_entry;
  if (!e || pthread_mutex_trylock(&e->stats_lock) != 0)
    return;
  /* the class of the decline (idiomrt_cost_want_host made it) */
  idiomrt_cost_class *c =
      idiomrt_cost_class_find(&e->cost, idiomrt_size_class(t_time_trip));
  /* While the background thread starts the device or builds kernels it
     takes a core: on a machine with few, the loop runs slower than it
     will, which would favour the device. Not a sample (the class is
     measured again once the thread is done). */
  /* a cold run (first-touch page faults, COLD_MIN_FAULTS) */
  int cold = c && faults >= COLD_MIN_FAULTS && c->host_cold < COLD_RUNS_MAX;
  int first = c && c->hn == 0;
  if (cold && !first)
    c->host_cold++;
  if (c && (!cold || first) && !idiomrt_startup_running()) {
    if (!cold && c->host_cold_only)
      c->hn = 0; /* a warm run replaces the cold one */
    c->host_cold_only = (unsigned char)(cold && first);
    c->host_est =
        push(c->host_pi, &c->hn, (double)(t1 - token) / (double)t_time_trip);
    if (cpu0 && cpu1 >= cpu0) /* the run's contention (stale.c) */
      idiomrt_stale_host_clock(t1 - token, cpu1 - cpu0);
  }
  e->cost.host_got++;
  e->cost.host_ns += t1 - token;
  pthread_mutex_unlock(&e->stats_lock);
}

void idiom_host_end_site(const uint64_t *hint) {
  if (hint && hint == t_time_word && t_time_desc) {
    t_time_word = NULL;
    idiom_host_end(t_time_desc, t_time_t0);
  }
}

const char *idiomrt_decision_name(int dec) {
  switch (dec) {
  case IDIOMRT_DEC_FORCED:
    return "device-forced";
  case IDIOMRT_DEC_DEVICE:
    return "device";
  case IDIOMRT_DEC_EXPLORE_DEVICE:
    return "device-explore";
  case IDIOMRT_DEC_UNTIMED:
    return "device-untimed";
  case IDIOMRT_DEC_STARTING:
    return "device-starting";
  case IDIOMRT_DEC_BUILDING:
    return "kernels-building";
  case IDIOMRT_DEC_PRESTART:
    return "host-prestart";
  case IDIOMRT_DEC_EXPLORE_HOST:
    return "host-explore";
  case IDIOMRT_DEC_HOST_FASTER:
    return "host-cost";
  case IDIOMRT_DEC_CANNOT_WIN:
    return "host-floor";
  case IDIOMRT_DEC_CPU_DEVICE:
    return "cpu-device";
  case IDIOMRT_DEC_EXPLORE_CPU:
    return "cpu-explore";
  case IDIOMRT_DEC_HOST_HINT:
    return "host-hint";
  case IDIOMRT_DEC_DEVICE_WAIT:
    return "device-wait";
  case IDIOMRT_DEC_REPROBE:
    return "device-reprobe";
  default:
    return "?";
  }
}

int idiomrt_cost_report(const idiomrt_entry *e, char *buf, size_t n) {
  const idiomrt_cost_site *s = &e->cost;
  size_t len = 0;
  int any = 0;
#define APPEND(...)                                                            \
  do {                                                                         \
    if (len < n) {                                                             \
      int k_ = snprintf(buf + len, n - len, __VA_ARGS__);                      \
      if (k_ > 0)                                                              \
        len += (size_t)k_;                                                     \
    }                                                                          \
  } while (0)
  for (int d = 0; d < IDIOMRT_NDECISIONS; ++d) {
    if (!s->decisions[d])
      continue;
    APPEND("%s%s x%llu", any ? "; " : " decisions=\"",
           idiomrt_decision_name(d), (unsigned long long)s->decisions[d]);
    any = 1;
  }
  if (any)
    APPEND("\"");
  if (s->host_got)
    APPEND(" host_ms=%.3f", (double)s->host_ns / 1e6);
  any = 0;
  double lat = lat_ns();
  for (unsigned c = 0; c < IDIOMRT_SIZE_CLASSES; ++c) {
    const idiomrt_cost_class *k = idiomrt_cost_class_find(s, c);
    if (!k || (!k->hn && !k->dn && !k->cn))
      continue;
    /* estimates at the class's lower bound 2^c iterations */
    double trip = (double)((uint64_t)1 << c);
    APPEND("%sclass %u:", any ? "; " : " cost=\"", c);
    if (k->hn)
      APPEND(" host %.1f us", median(k->host_pi, k->hn) * trip / 1e3);
    if (k->dn)
      APPEND(" device %.1f us", (lat + median(k->dev_pi, k->dn) * trip) / 1e3);
    if (k->cn)
      APPEND(" cpu-device %.1f us",
             (lat + median(k->cpu_pi, k->cn) * trip) / 1e3);
    any = 1;
  }
  if (any)
    APPEND("\"");
#undef APPEND
  return (int)(len < n ? len : n ? n - 1 : 0);
}

void idiomrt_cost_json(const idiomrt_entry *e, idiomrt_json *j) {
  const idiomrt_cost_site *s = &e->cost;
  idiomrt_json_key(j, "decisions");
  idiomrt_json_begin_object(j);
  for (int d = 0; d < IDIOMRT_NDECISIONS; ++d) {
    if (!s->decisions[d])
      continue;
    idiomrt_json_key(j, idiomrt_decision_name(d));
    idiomrt_json_uint(j, s->decisions[d]);
  }
  idiomrt_json_end_object(j);
  idiomrt_json_key(j, "host_ms");
  if (s->host_got)
    idiomrt_json_ms(j, s->host_ns);
  else
    idiomrt_json_null(j);
  idiomrt_json_key(j, "host_runs"); /* the timed host runs in host_ms */
  idiomrt_json_uint(j, s->host_got);
  idiomrt_json_key(j, "cost");
  idiomrt_json_begin_array(j);
  double lat = lat_ns();
  for (unsigned c = 0; c < IDIOMRT_SIZE_CLASSES; ++c) {
    const idiomrt_cost_class *k = idiomrt_cost_class_find(s, c);
    if (!k || (!k->hn && !k->dn && !k->cn))
      continue;
    double trip = (double)((uint64_t)1 << c);
    idiomrt_json_begin_object(j);
    idiomrt_json_key(j, "class");
    idiomrt_json_uint(j, c);
    idiomrt_json_key(j, "host_us");
    if (k->hn)
      idiomrt_json_double(j, median(k->host_pi, k->hn) * trip / 1e3);
    else
      idiomrt_json_null(j);
    idiomrt_json_key(j, "device_us");
    if (k->dn)
      idiomrt_json_double(j, (lat + median(k->dev_pi, k->dn) * trip) / 1e3);
    else
      idiomrt_json_null(j);
    if (k->cn) { /* the second (CPU) device, when it ran */
      idiomrt_json_key(j, "cpu_device_us");
      idiomrt_json_double(j, (lat + median(k->cpu_pi, k->cn) * trip) / 1e3);
    }
    idiomrt_json_end_object(j);
  }
  idiomrt_json_end_array(j);
}
