/*===- rt_costmodel.h - Device or original loop ----------------------------===*
 *
 * Private to runtime/lib (rt_internal.h includes it).
 *
 * The cost model (costmodel.c): per call site and size class, the device,
 * the second device or the original loop; its measurements of the queue
 * (calibration.c), the samples kept across runs (profile.c) and when those
 * are stale (stale.c).
 *
 *===----------------------------------------------------------------------===*/
#ifndef IDIOMRT_COSTMODEL_H
#define IDIOMRT_COSTMODEL_H

#include "rt_device.h"
#include "rt_registry.h"
#include "rt_stats.h"
#include "idiomrt.h"
#include <stddef.h>
#include <stdint.h>

/*--- costmodel.c: device or original loop, per call site and size class ---*/

/* Bytes a run moves between host and device: IN buffers once, OUT and
   INOUT buffers twice (copied in, then back); 0 inside a residency region
   (residency.c), where buffers are copied in once per region. On a
   zero-copy device a range read in place moves nothing: one whose start is
   aligned, or, with offsets (a map entry's element bytes per buffer
   argument, idiomrt_entry.offsets; NULL: none), a multiple of its
   element's size (zerocopy.c's plan). */
uint64_t idiomrt_cost_bytes(const idiom_arg *args, uint32_t nargs,
                            const char *offsets);
/* The same outside any region: what the run moves when none of its ranges
   is resident (region_hold.c). */
uint64_t idiomrt_cost_bytes_moved(const idiom_arg *args, uint32_t nargs,
                                  const char *offsets);
/* A device run's lower bound in ns when it moves bytes: the calibrated
   latency plus bytes at the calibrated bandwidth (before calibration,
   bounds no device beats: 5 us, 64 GB/s). */
double idiomrt_cost_floor_ns(uint64_t bytes);

/*--- region_hold.c: a region's sites wait for each other's kernels ---*/

/* Notes that e's run inside the calling thread's residency region declined
   because e's kernels are still building on the runtime thread (launch.c,
   primary device). */
void idiomrt_hold_note_building(idiomrt_entry *e);
/* NULL when e's run of trip iterations on args may go to the device; else
   the reason it runs its loop instead: another site noted in the calling
   thread's region is still building, and this run pays on the device only
   with its ranges resident (its host time is below the device floor of its
   bytes moved), which that site's host runs break (the region's sites go
   to the device together). Never with IDIOM_REGION_HOLD=off. */
const char *idiomrt_hold_reason(idiomrt_entry *e, uint64_t trip,
                                const idiom_arg *args, uint32_t nargs);

/*--- calibration.c: latency, bandwidth and start-up time, kept on disk ---*/

/* On a runtime thread, once the device is ready: measures the queue's
   round-trip latency and the host-to-device bandwidth (a few small writes
   and two 8 MiB writes), or takes them from the record when it names this
   device and was measured fewer than 8 processes ago, and writes them, with
   start_ns (the time the start-up took) and their age, to IDIOM_CACHE_DIR
   for later processes. */
void idiomrt_cost_calibrate(const idiomrt_device *dev, uint64_t start_ns);
/* Latency (ns) and bandwidth (bytes per ns) measured in this process, else
   read from the last process's file; 0 when neither exists. */
int idiomrt_calib_get(double *lat_ns, double *bw_bytes_per_ns);
/* A staged host-to-device write (staging.c) of bytes took ns: the
   process's staged bandwidth becomes the fastest such write, and is kept
   in the record at exit when it differs from the record's by a quarter or
   more (calibration.c). */
void idiomrt_calib_stage_sample(uint64_t bytes, uint64_t ns);
/* The staged host-to-device bandwidth in bytes per ns: this process's,
   else the record's; 0 when neither exists. */
double idiomrt_calib_stage_bw(void);
/* Host time (ns) worth one device start-up: the last process's measured
   start-up time from the file (at least 50 ms), else 200 ms. */
uint64_t idiomrt_calib_start_after_ns(void);
/* 1 when the start-up record names a device that shares the host's memory
   (its `unified 1` line): before this process's device is started, the
   floor counts no copies for ranges it would read in place (zero-copy). */
int idiomrt_calib_unified(void);
/* The least idiomrt_calib_start_after_ns returns, whatever the start-up
   record says (50 ms): a bound that decides without reading the record
   when it cannot matter (profile.c's early start). */
#define IDIOMRT_MIN_START_NS 50000000ull
/* Device (IDIOMRT_DEC_DEVICE, _EXPLORE_DEVICE, _UNTIMED, _DEVICE_WAIT) or
   host (_EXPLORE_HOST, _HOST_FASTER, _CANNOT_WIN) for a run of trip
   iterations moving bytes, host_lb a lower bound of its host time in ns
   (devwait.c; used only while its class has no host sample), counted in
   the stats; a host decision is also counted as a
   decline with the reason it returns in *reason (a static string) and asks
   the calling thread's idiom_host_begin for a measurement. One acquisition
   of e->stats_lock: the path of a loop kept on the host is short. */
int idiomrt_cost_decide(idiomrt_entry *e, uint64_t trip, uint64_t bytes,
                        double host_lb, const char **reason);
/* The calling thread's next idiomrt_cost_decide runs inside a region and
   its host run would sync only its own ranges (resid_sync.c): back dirty
   bytes copied back, refill bytes of released copies filled again. The
   host's estimate is charged for those, not for the whole region; used
   once. */
void idiomrt_cost_own_sync(uint64_t back, uint64_t refill);
/* The calling thread's next idiomrt_cost_decide is for a run whose buffer
   ranges span at most `pages` pages of 4 KiB (launch.c, from the ranges
   the run's loop reads and writes): fewer than COLD_MIN_FAULTS, its host
   run cannot be a cold one, and its page faults are not read (two
   getrusage calls per timed run: bench/policy_tiny.c made six). Not
   called: the faults are read as before. */
void idiomrt_cost_pages(uint64_t pages);
/* A device-wait run of e's class of trip iterations found no device ready
   by its deadline: the class does not wait again before it has a sample. */
void idiomrt_cost_wait_missed(idiomrt_entry *e, uint64_t trip);
/* 1 for the decisions that run a device (either one). */
int idiomrt_cost_is_device(int decision);
/* 1 for the decisions that run the second (CPU) device. */
int idiomrt_cost_is_second(int decision);
/* What the three-way choice sees of one run (costmodel.c). Times in ns. */
typedef struct idiomrt_cost_inputs {
  uint64_t trip;
  double host;     /* the host's estimate of this run (region syncs in) */
  double floor_ns; /* the primary device's floor: latency + bytes / bw */
  double lat;      /* launch latency, also the second device's floor */
  int second;      /* the second device: 1 open and e's kernels built, 0
                      allowed but not ready, -1 not allowed or failed */
  double cpu_par;  /* the second device's optimistic speed-up over the
                      host loop (0: not bounded) */
  double explore_ns; /* what exploring it costs (build, first-launch
                        compiles, tuning; 0: explore at once) */
} idiomrt_cost_inputs;
/* Steps 2, 4 and 5 of the model for class c once the host is measured:
   among the host, the primary device and the second device (the lowest
   estimate wins; a device must be 10% below the host), exploring an
   unmeasured device first; sets *want_second when the second device
   should be opened (it is then not chosen by this call). Pure but for c's
   re-measurement schedule: the unit tests call it with faked samples. */
int idiomrt_cost_choose(idiomrt_cost_class *c, const idiomrt_cost_inputs *in,
                        int *want_second);
/* How far apart the host's and a device's estimates are, given the spread
   of their samples (the lowest and highest of each side's last
   IDIOMRT_COST_RING, in ns per iteration, around the estimate): for class
   c, dev_side 1 (the primary device) or 3 (the second one), host and dev
   the two estimates of this run in ns (host with its region charge, dev
   with the latency), trip its iterations; a side with fewer than 2
   samples is given -+25% (PRIOR_SPREAD). IDIOMRT_SEP_HOST: the host's
   highest beats the device's lowest; _DEVICE: the device's highest beats
   the host's lowest by DEVICE_MARGIN (10%); else _OVERLAP (within noise),
   or _UNKNOWN when a side's spread was the prior (that side is measured).
   A winner changes side, and a host hint is given, only when separated
   (runtime/README.md, "Start-up and cost model", step 5). */
enum { IDIOMRT_SEP_UNKNOWN, IDIOMRT_SEP_HOST, IDIOMRT_SEP_DEVICE,
       IDIOMRT_SEP_OVERLAP };
int idiomrt_cost_separation(const idiomrt_cost_class *c, int dev_side,
                            double host, double dev, double trip);
/* A successful run of the second device (see idiomrt_cost_device_sample);
   tuned: not a sample, a try (launch.c also counts a failed run so). */
void idiomrt_cost_second_sample(idiomrt_entry *e, uint64_t trip,
                                uint64_t wall_ns, int tuned);
/* The cost of exploring the second device for one size class, in ns: the
   longest warm-up run of it in this process (first-launch compiles,
   tuning), at least IDIOM_CPU_EXPLORE_MS (default 1000; 0: no
   ski rental, every class explored as soon as its floor allows). */
double idiomrt_cost_explore_ns(void);
/* Counts decision dec for e (stats), in place of decision `from` already
   counted by idiomrt_cost_decide (-1: none). Takes e->stats_lock. */
void idiomrt_cost_count(idiomrt_entry *e, int from, int dec);
/* After a policy decline: asks the calling thread's next idiom_host_begin
   for desc to time the original loop of trip iterations. */
void idiomrt_cost_want_host(idiomrt_entry *e, uint64_t trip);
/* Forgets the calling thread's pending host-timing request. */
void idiomrt_cost_clear_want(void);
/* With e->stats_lock held: counts the calls that e's host hint skipped
   since the last count (decision "host-hint", declines, calls). */
void idiomrt_cost_hint_fold_locked(idiomrt_entry *e);
/* A decline by the work gate (workgate.c: work below IDIOM_MIN_TRIP) of e
   for a call of trip iterations: lets the caller's idiom_host_hint write a
   hint, so that the next calls of the size class run the loop without
   calling idiom_run, as a host hint's do. Only with the cost model on and
   while the region (if any) holds nothing on the device; the hint is
   written only when every trip count of the key's size class is below
   IDIOM_MIN_TRIP. */
void idiomrt_cost_gate_hint(idiomrt_entry *e, uint64_t trip);
/* A successful device run of trip iterations took wall_ns in idiom_run;
   tuned: it timed kernel variants first (not a sample then); filled: inside
   a region it filled device copies (not a sample, and not a try for the
   class's first few such runs). */
void idiomrt_cost_device_sample(idiomrt_entry *e, uint64_t trip,
                                uint64_t wall_ns, int tuned, int filled);
/* Name of a decision for the stats ("device", "host-cost", ...). */
const char *idiomrt_decision_name(int dec);
/* Appends the site's decisions and estimates to a stats line (with
   e->stats_lock held). */
int idiomrt_cost_report(const idiomrt_entry *e, char *buf, size_t n);
/* The same as members of the JSON object of the site (with e->stats_lock
   held): "decisions" {name: count}, "host_ms" (null when never measured),
   "cost" [{"class", "host_us", "device_us"}]. */
void idiomrt_cost_json(const idiomrt_entry *e, idiomrt_json *j);
/* The class's host estimate for a run of trip iterations, in ns (0 when
   the host was never measured). */
double idiomrt_cost_host_ns(idiomrt_entry *e, uint64_t trip);
/* Host time (ns, estimated) of every run so far that the model sent, or
   would have sent, to the device: the profile keeps it for the next run's
   start-up decision. */
uint64_t idiomrt_cost_worthy_total_ns(void);
/* calibration.c: CLOCK_MONOTONIC in nanoseconds. */
uint64_t idiomrt_now_ns(void);
/* calibration.c: the calling thread's minor page faults so far
   (getrusage RUSAGE_THREAD; 0 when it fails). One system call. */
uint64_t idiomrt_thread_faults(void);

/*--- devwait.c: the first heavy call of a class waits for the device ----*/

/* The calling thread's idiom_work_hint for desc (0 and 0 when it named
   another descriptor or there was none); forgets it either way. */
void idiomrt_work_take(const idiom_kernel_desc *desc, uint64_t *iters,
                       uint32_t *flags);
/* A lower bound of a call's host time in ns: its work figure (workgate.c)
   and the nest's innermost iterations (idiom_work_hint) at the fastest
   plausible host rates; 0 when both are 0. */
double idiomrt_host_bound_ns(uint64_t work, uint64_t iters, uint32_t flags);
/* 1 when a call whose host time is at least host_lb ns is worth starting
   the device for and waiting (at most host_lb / 2): a device may still
   come, host_lb exceeds one start-up and twice the start-up still
   expected. Never under IDIOM_TEST_HOST. */
int idiomrt_devwait_worth(double host_lb);
/*--- stale.c: device samples carried over from earlier runs --------------*/

/* What stale.c knows of a class's seeded device sample (its `stale`). */
enum idiomrt_stale_state {
  IDIOMRT_STALE_UNKNOWN = 0, /* not looked at in this run yet */
  IDIOMRT_STALE_PENDING,     /* stale or suspect: the credit is building */
  IDIOMRT_STALE_REPROBE,     /* re-probing: device runs until a sample */
  IDIOMRT_STALE_DONE,        /* the seed stands, or was replaced */
  IDIOMRT_STALE_TRIED        /* re-probed without a sample: it stands */
};
/* The calling thread's CPU time (CLOCK_THREAD_CPUTIME_ID), ns; 0 when it
   cannot be read. About 1 us a read in the VMs here: read only around host
   loops of at least IDIOMRT_CLOCK_MIN_LOOP_NS (costmodel.c). */
uint64_t idiomrt_thread_cpu_ns(void);
#define IDIOMRT_CLOCK_MIN_LOOP_NS 50000.0
/* A timed host loop took wall_ns, of which the thread ran cpu_ns. */
void idiomrt_stale_host_clock(uint64_t wall_ns, uint64_t cpu_ns);
/* This run's contention so far, in percent (0-100): the share of its timed
   host loops' wall time in which the thread waited for a CPU; -1 before
   5 ms of them were timed. */
int idiomrt_stale_contention(void);
/* With the class's stats_lock held, for a class whose device estimate is
   the profile's seed (c->dev_seed): the decision dec of the model, or
   IDIOMRT_DEC_REPROBE when the seed is stale and the host time spent on
   stale classes in this run pays for re-measuring it (runtime/README.md,
   "Stale device samples"). host, dev: the run's estimates (ns); begun:
   the device start-up has begun; loc, cls: for IDIOM_DEBUG. Sets *hold
   while the class builds its credit (no host hint then). */
int idiomrt_stale_decide(idiomrt_cost_class *c, int dec, double host,
                         double dev, int begun, const char *loc,
                         unsigned cls, int *hold);
/* The first device sample of this run: the seed leaves the ring (dn = 0)
   before it is pushed. */
void idiomrt_stale_fresh(idiomrt_cost_class *c);
/* profile.c, reading: the seed's age (runs since it was measured), the
   measuring runs in a row it lost, and its run's contention (-1: unknown). */
void idiomrt_stale_seed(idiomrt_cost_class *c, unsigned age, unsigned losses,
                        int load);
/* profile.c, writing: the same three for class c at the end of this run
   (age 0 and this run's contention when it was measured here). */
void idiomrt_stale_line(const idiomrt_cost_class *c, unsigned *age,
                        unsigned *losses, int *load);

/*--- profile.c: per-site cost samples kept across runs -------------------*/

/* A new entry's cost classes start from the last process's medians for its
   site (one sample of each side), when the profile has them. Called before
   the entry is published. */
void idiomrt_profile_seed(idiomrt_entry *e);
/* CLOCK_MONOTONIC ns at the runtime's constructor (program start). */
uint64_t idiomrt_profile_t0_ns(void);
/* The last process's idiomrt_cost_worthy_total_ns at its exit, from the
   profile; -1 when unknown (no profile, an older file, IDIOM_PROFILE=off). */
int64_t idiomrt_profile_last_worthy_ns(void);
/* The last process's time from start to exit in ns (its wall line), and
   in *build_ns (may be NULL) the longest build step of its runtime thread
   (0: none measured); -1 when unknown (no profile, a file without the
   line, IDIOM_PROFILE=off). */
int64_t idiomrt_profile_last_wall_ns(int64_t *build_ns);

/*--- region_lap.c: a region's sites decided together on a zero-copy device */

#define IDIOMRT_LAP_MAX 8         /* sites (and size classes) of one lap */
#define IDIOMRT_LAP_RING 5        /* lap times kept per way of running */
#define IDIOMRT_LAP_SITE_LAPS 3   /* laps per site before the first trial */
#define IDIOMRT_LAP_HOST_TRIAL 5  /* laps of a trial all on the host */
#define IDIOMRT_LAP_DEV_TRIAL 10  /* laps of a trial all on the device */
#define IDIOMRT_LAP_TRIAL_MAX 20  /* laps a trial may take to time its laps */
#define IDIOMRT_LAP_GAP0 16       /* laps before the next trial ... */
#define IDIOMRT_LAP_GAP_MAX 1024  /* ... doubling to at most this */
#define IDIOMRT_LAP_STALE_CALLS 16 /* calls a site without the first's: a
                                      new lap */

/* The ways a lap runs, each with its ring of lap times. */
enum {
  IDIOMRT_LAP_WAY_SITE = 0, /* each site as the per-site model decides */
  IDIOMRT_LAP_WAY_HOST,     /* every site on the host */
  IDIOMRT_LAP_WAY_DEVICE,   /* every site on the device */
  IDIOMRT_LAP_WAYS
};

enum {
  IDIOMRT_LAP_MODE_SITE = 0,   /* the per-site model (and while learning) */
  IDIOMRT_LAP_MODE_HOST_TRIAL, /* every site on the host, timed */
  IDIOMRT_LAP_MODE_DEV_TRIAL,  /* every site on the device, timed */
  IDIOMRT_LAP_MODE_DEVICE,     /* every site on the device */
  IDIOMRT_LAP_MODE_HOST,       /* every site on the host */
  IDIOMRT_LAP_MODE_OFF         /* too many sites: the per-site model */
};

/* A region's lap state (region_lap.c keeps one per thread). Times in ns. */
typedef struct {
  uint64_t rid;    /* idiomrt_resid_region_id it is for; 0: none */
  int mode;        /* IDIOMRT_LAP_MODE_* */
  unsigned n;      /* sites, in the order of their first call */
  const void *e[IDIOMRT_LAP_MAX]; /* each site's entry ... */
  unsigned cls[IDIOMRT_LAP_MAX];  /* ... and size class */
  uint32_t hn[IDIOMRT_LAP_MAX];   /* its host samples at its latest call */
  unsigned cur;    /* the site of the latest decision */
  int cur_dev;     /* that decision was the device's */
  unsigned laps;   /* laps in this mode */
  unsigned gap;    /* laps before the next trial */
  int tried;       /* a trial ended */
  uint64_t t0;     /* the current lap's start; 0: none */
  unsigned calls;  /* the current lap's calls so far */
  unsigned seen;   /* ... and its sites called (bit i: site i) */
  unsigned n0;     /* sites when it began (0: the first lap) */
  int pure;        /* ... each ran as the mode says */
  uint64_t ring[IDIOMRT_LAP_WAYS][IDIOMRT_LAP_RING];
  unsigned rn[IDIOMRT_LAP_WAYS]; /* lap times taken per way */
} idiomrt_lap;

/* Sets L to the start of region rid. */
void idiomrt_lap_reset(idiomrt_lap *L, uint64_t rid);
/* The lap state machine (no clock, no lock): a call of site (e, cls), hn
   host samples, at time now, which the per-site model decided dec;
   returns the decision of the lap (dec where it leaves it to the model),
   with *reason set for a host decision of the lap's (else NULL). A call of
   the lap's first site ends a lap. */
int idiomrt_lap_step(idiomrt_lap *L, const void *e, unsigned cls, uint32_t hn,
                     int dec, uint64_t now, const char **reason);
/* Site (e, cls) leaves L's lap (the device cannot win it): the lap is
   another one, timed from its next start. */
void idiomrt_lap_leave(idiomrt_lap *L, const void *e, unsigned cls);
/* The latest decision of L, e's, ran on the other side (a decline). */
void idiomrt_lap_fell_back(idiomrt_lap *L, const void *e);
/* costmodel.c, under e->stats_lock: idiomrt_lap_step on the calling
   thread's state for e's class cls (c its samples) when the thread is in a
   residency region on a ready zero-copy device; else dec. *no_hint: the
   lap decides e's calls (no host hint, which would hide them); *reason as
   idiomrt_lap_step's. */
int idiomrt_lap_decide(idiomrt_entry *e, const idiomrt_cost_class *c,
                       unsigned cls, int dec, int *no_hint,
                       const char **reason);
/* launch.c: e's run declined (idiomrt_lap_fell_back on the thread's
   state, in its region). */
void idiomrt_lap_declined(const idiomrt_entry *e);
/* The "idiom-stats: region-laps" line (stats.c), when a lap was timed: laps
   timed per way, trials begun, and the verdicts that changed a lap's way. */
void idiomrt_lap_report(void);

/*--- fruitless.c: device start-ups that served no run, across runs -------*/

/* The profile's `fruitless STARTS HELD` line (0 0 without one): the runs in
   a row that started the device and saved less than a start-up on it (no
   run at all, or runs that did not win), and the runs held
   since; same_env: the file's IDIOM_* environment is this process's (no
   hold otherwise). Decides once whether this process holds the device. */
void idiomrt_fruitless_read(uint64_t starts, uint64_t held, int same_env);
/* 1 when this process keeps the device from starting (after FRUITLESS_MIN
   fruitless starts in a row, for 2, 4, ... at most 64 runs): the ski
   rental, the device-wait and the early start at program start treat it as
   IDIOM_TEST_HOST does. One load. */
int idiomrt_fruitless_hold(void);
/* At exit: the line the profile gets for the next process, given the host
   time (ns) this process saved on the devices (profile.c: each class's
   host median less the device's, times its iterations and device runs).
   A start-up is fruitless when that is not more than one start-up
   (idiomrt_calib_start_after_ns). */
void idiomrt_fruitless_next(double saved_ns, uint64_t *starts,
                            uint64_t *held);

#endif /* IDIOMRT_COSTMODEL_H */
