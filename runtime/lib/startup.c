/*===- startup.c - Device start-up and kernel builds in the background ----===*
 *
 * With the cost model on (IDIOM_COST, config.c) the first run that passes
 * the cheap checks starts a detached runtime thread (worker.c: 16 MiB of
 * stack, every signal blocked) that
 *
 *  1. initializes the device (platform, context, queue: device.c),
 *  2. calibrates the cost model (latency and bandwidth, costmodel.c),
 *  3. builds the kernels of every descriptor that asked for them, those
 *     whose runs came while the device started included (the disk cache of
 *     program_cache.c makes this a load when it has the binary); on a
 *     device whose builds go one variant per step, variant 0 of each, and
 *     the other variants (the rests) only once no variant 0 is waiting,
 *     one variant per step, and only when the process is expected to live
 *     past them (rest_too_late; else left out: the site runs variant 0);
 *     the pinned staging slots (staging.c) once the first builds are done.
 *
 * Runs made meanwhile decline at once ("device starting", "kernels
 * building") and the original loop runs, timed for the cost model. The
 * thread exits when its queue is empty; a later build request starts a new
 * one.
 *
 * With the cost model off (an explicit IDIOM_DEVICE=gpu|cpu, IDIOM_MIN_TRIP
 * or IDIOM_COST=off) none of this is used: the first run initializes the
 * device and builds its kernels while it waits, as before.
 *
 * The thread is started only when the cost model wants the device and the
 * host time of the runs it wanted it for has reached about one start-up
 * (costmodel.c, calibration.c), so a program whose loops are all small, run
 * once, or short in total never loads OpenCL.
 *
 * Exit: a thread_local destructor of the thread that started the thread
 * (run first by exit()) and an atexit handler tell the thread to stop at
 * its next step (between platform enumeration, device query, context
 * creation, calibration and each build; a program of several variants not
 * in the disk cache builds one variant per step, program_cache.c) and
 * wait for the step it is in
 * (and join the thread, so that the driver's thread-local destructors are
 * over too). That step is the only cost of a start-up cut short: on PoCL
 * here platform enumeration, which loads PoCL and its LLVM, is the longest,
 * 50-120 ms. An exit() from another thread while the thread is loading the
 * driver is not covered (the driver's destructors, registered during the
 * load, run before the atexit handler).
 *
 * Why wait rather than detach: a step in the driver (a clBuildProgram) cannot
 * be cut short, and returning from the destructor or the handler while it
 * runs lets exit run the driver's and its LLVM's destructors under it
 * (some registered lazily, during that very build), the crash above;
 * leaving through _exit after a bound would skip the handlers the program
 * registered before ours (and whatever else exit does after them), so its
 * output could change. So the wait stays, and the steps are kept short: on
 * a CPU device a build is the build alone, the binary for the disk cache
 * not fetched (program_cache.c's save_binary: PoCL compiled every kernel
 * for it, and syrk.c's exit waited 6-29 s); what remains is one build from
 * source, 0.4-3.8 s on PoCL here when its own kernel cache is empty. And
 * a build is not begun (nor the start-up) when the profile says the
 * process ends before it would (too_late), unless it is a load from the
 * disk cache: after its first device start, syrk.c's exit waits for
 * nothing.
 *
 *===----------------------------------------------------------------------===*/
#include "rt_internal.h"

#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

const char idiomrt_starting_reason[] = "device starting";
const char idiomrt_building_reason[] = "kernels building";
const char idiomrt_exiting_reason[] = "process exiting";
const char idiomrt_late_reason[] =
    "kernels not built: the process is expected to end first";
const char idiomrt_rest_late_reason[] =
    "left out: the process is expected to end before its build";

static pthread_mutex_t g_lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t g_cond = PTHREAD_COND_INITIALIZER;
IDIOMRT_START_DATA static int g_started; /* the start-up thread was started
                                            (read by every decision) */
static int g_thread_failed;    /* it could not be created */
IDIOMRT_START_DATA static int g_running; /* a background thread is running
                                            (read by host decisions) */
static int g_exiting;          /* exit() has begun (atomic) */
static int g_atexit_done;
static idiomrt_entry *g_queue; /* kernels to build, oldest first */
static idiomrt_entry *g_rest;  /* rests to build (variant 0 ready), oldest
                                  first: served when g_queue is empty */
static uint64_t g_kick_ns;     /* when the start-up was started */
static pthread_t g_thread;     /* the last thread started, */
static int g_joinable;         /* not joined yet */
static int g_want2;            /* the second device is wanted (atomic) */
/* (both read by host decisions and at exit: with the start state) */
IDIOMRT_START_DATA static uint64_t g_exit_ns;  /* when exit() began (atomic;
                                                  0: not yet) */
IDIOMRT_START_DATA static uint64_t g_build_ns; /* the longest driver build so
                                                  far (atomic) */
static int g_loaded;           /* a program came from the disk cache */
static int g_stage_done;       /* the staging slots were prepared (the
                                  runtime thread's) */
#define MAX_WARM 32
static idiomrt_warm_job *g_warm[MAX_WARM]; /* warm-up jobs (startup_warm.c), */
static unsigned g_nwarm;                   /* oldest first */

/* With g_lock held and g_running 0: joins the finished thread, so that its
   end (the thread-local destructors of the driver's code included) is over
   before a new one starts or the process exits. */
static void join_locked(void) {
  if (g_joinable) {
    pthread_join(g_thread, NULL);
    g_joinable = 0;
  }
}

/* exit(): the thread stops at its next step, and the process waits for
   the step it is in. Not waiting is not an option: the destructors of the
   OpenCL implementation's libraries race with a thread still inside the
   driver; on PoCL an exit during the first 100 ms crashed 1 time in 3
   (SIGSEGV, "double free", LLVM's "pure virtual method called"), which
   would change the program's exit status. Those libraries, loaded by the
   thread, register their C++ destructors with __cxa_atexit after any
   atexit handler of ours, so exit runs them before it: the wait must come
   first. exit() runs the calling thread's thread_local destructors before
   every atexit handler, so the thread that starts the start-up registers
   one (stop_and_wait_tls); the atexit handler covers an exit() from
   another thread once the libraries are loaded. */
static void stop_and_wait(int stop) {
  if (stop) {
    uint64_t none = 0;
    __atomic_compare_exchange_n(&g_exit_ns, &none, idiomrt_now_ns(), 0,
                                __ATOMIC_RELAXED, __ATOMIC_RELAXED);
    __atomic_store_n(&g_exiting, 1, __ATOMIC_RELEASE);
  }
  pthread_mutex_lock(&g_lock);
  if (g_running)
    idiomrt_debug("%s: waiting for the start-up thread%s",
                  stop ? "exit" : "thread end",
                  stop ? "'s current step" : "");
  while (g_running)
    pthread_cond_wait(&g_cond, &g_lock);
  join_locked();
  pthread_mutex_unlock(&g_lock);
}

static void at_exit(void) { stop_and_wait(1); }

/* Thread-local destructor of a thread that started the start-up: run by
   exit() before any atexit handler when that thread calls it, or when the
   thread ends. The main thread's ends only with the process (exit, or
   pthread_exit of main, after which the start-up stays stopped: the
   program runs on, on the host); another thread waits for the start-up
   without stopping it, as it cannot tell its own end from an exit. */
static void stop_and_wait_tls(void *unused) {
  (void)unused;
  stop_and_wait(gettid() == getpid());
}

extern int __cxa_thread_atexit_impl(void (*fn)(void *), void *obj,
                                    void *dso_symbol);
extern char __dso_handle __attribute__((weak));
static _Thread_local int t_guarded;

/* With g_lock held and no start-up thread running (registering takes the
   dynamic loader's lock, which the thread holds while it loads a library):
   the calling thread's destructor above. */
static void guard_thread_locked(void) {
  if (t_guarded)
    return;
  t_guarded = 1;
  if (__cxa_thread_atexit_impl(stop_and_wait_tls, NULL, &__dso_handle) != 0)
    idiomrt_debug("cannot register the start-up's thread-exit wait");
}

static int exiting(void) {
  return __atomic_load_n(&g_exiting, __ATOMIC_ACQUIRE);
}

int idiomrt_startup_exiting(void) { return exiting(); }

int idiomrt_startup_running(void) {
  return __atomic_load_n(&g_running, __ATOMIC_RELAXED);
}

int idiomrt_startup_begun(void) {
  return __atomic_load_n(&g_started, __ATOMIC_ACQUIRE);
}

uint64_t idiomrt_startup_exit_ns(void) {
  return __atomic_load_n(&g_exit_ns, __ATOMIC_RELAXED);
}

void idiomrt_startup_note_load(void) {
  __atomic_store_n(&g_loaded, 1, __ATOMIC_RELAXED);
}

/* The start of the build from source in progress (0: none), for the
   profile's wall line (idiomrt_startup_build_running_ns). */
static uint64_t g_build_begun;

void idiomrt_startup_note_build_begin(void) {
  __atomic_store_n(&g_build_begun, idiomrt_now_ns(), __ATOMIC_RELAXED);
}

uint64_t idiomrt_startup_build_running_ns(void) {
  uint64_t t0 = __atomic_load_n(&g_build_begun, __ATOMIC_RELAXED);
  uint64_t now = idiomrt_now_ns();
  return t0 && now > t0 ? now - t0 : 0;
}

void idiomrt_startup_note_build(uint64_t ns) {
  __atomic_store_n(&g_build_begun, 0, __ATOMIC_RELAXED);
  uint64_t seen = __atomic_load_n(&g_build_ns, __ATOMIC_RELAXED);
  while (ns > seen &&
         !__atomic_compare_exchange_n(&g_build_ns, &seen, ns, 0,
                                      __ATOMIC_RELAXED, __ATOMIC_RELAXED))
    ;
}

int idiomrt_startup_loaded_from_disk(void) {
  return __atomic_load_n(&g_loaded, __ATOMIC_RELAXED);
}

uint64_t idiomrt_startup_longest_build_ns(void) {
  return __atomic_load_n(&g_build_ns, __ATOMIC_RELAXED);
}

/* The time the process is expected to run on (too_late's rule); 0 when
   no profile says (then nothing is left out). Past the last process's
   wall time W but before 1.5 W the process is taken to be that run a
   little slower, ending now (0 left): a CG on the H200 whose last call,
   a checksum, came at 440 ms against a W of 406 ms began a 150-230 ms
   build from source there in every run, and its exit waited for it.
   From 1.5 W on it is another, longer run, as likely to end soon as not:
   the time it has run. */
static int expected_left_ns(uint64_t *left) {
  int64_t wall = idiomrt_profile_last_wall_ns(NULL);
  uint64_t t0 = idiomrt_profile_t0_ns();
  if (wall <= 0 || !t0)
    return 0;
  uint64_t ran = idiomrt_now_ns() - t0, w = (uint64_t)wall;
  *left = ran < w ? w - ran : ran < w + w / 2 ? 0 : ran;
  return 1;
}

/* The longest build step measured: this process's, or the profile's last
   run's, at least a start-up. */
static uint64_t longest_build_ns(void) {
  int64_t build = -1;
  idiomrt_profile_last_wall_ns(&build);
  uint64_t need = idiomrt_calib_start_after_ns();
  uint64_t mine = __atomic_load_n(&g_build_ns, __ATOMIC_RELAXED);
  need = build > 0 && (uint64_t)build > need ? (uint64_t)build : need;
  return mine > need ? mine : need;
}

/* 1 when a build begun now would most likely end after the process, and
   so serve no call: the process is expected to end at W ns from its start,
   W the profile's last process's time from start to exit (the same
   program and IDIOM_* environment), between W and 1.5 W now, or, once it
   has outlived that, at twice the time it has run (it is as likely to end
   soon as not; expected_left_ns); a build
   is expected to take the longest single program build the runtime has
   measured (this process's, or the profile's: the last run's longest, or
   half the one before when it built nothing), at least a start-up
   (idiomrt_calib_start_after_ns). Measured on nas-parboil/syrk.c: six
   sites called once each, 0.15-0.4 s in all, the device up after
   0.13-0.2 s and its first build from source 1.3-3.8 s with PoCL's kernel
   cache empty, which exit waited for in every run. Without a profile,
   nothing changes; a run longer than the last loses at most the longest
   build's time of device use, and a slow build holds the device back for
   a few runs. A site's build that is a load from the disk cache is never
   left out (entry_late). */
static int too_late(void) {
  uint64_t left = 0;
  return expected_left_ns(&left) && left < longest_build_ns();
}

/* 1 when the rest of r (its variants after variant 0, one build each:
   program_cache.c's staged builds) would most likely end after the
   process, as too_late for a build: the time the process is expected to
   run on against the variants left to build from source (not in the disk
   cache) times one variant's build, the last one measured for r (its
   variant 0's, or the rest's latest) else the longest build step known.
   Then the site keeps variant 0 alone (a GPU's rest: 80-260 ms a variant
   on the H200, 1.5 s for nas-parboil/adi.c:92's eight, which a process of
   about a second cannot use, and which its exit waited for). *left and
   *need: the two times, for the trace. */
static int rest_too_late(idiomrt_entry *r, const idiomrt_device *dev,
                         uint64_t *left, uint64_t *need, unsigned *todo) {
  if (!expected_left_ns(left))
    return 0;
  *todo = idiomrt_program_rest_to_build(r, dev);
  uint64_t per = r->rest_ns ? r->rest_ns : longest_build_ns();
  *need = per * *todo;
  return *left < *need;
}

/* Whether e's first build would be a load from the disk cache, a few ms
   (3 ms a program on the H200), not the build from source too_late guards
   against: 1 yes, -1 no, 0 not known yet. Known once e's device is up (the
   cache's key names the device), then kept in e. */
static int first_load_state(idiomrt_entry *e) {
  int k = __atomic_load_n(&e->disk_first, __ATOMIC_RELAXED);
  if (k)
    return k;
  const idiomrt_device *d =
      e->second ? idiomrt_device2_peek() : idiomrt_device_peek();
  if (!d)
    return 0;
  k = idiomrt_program_first_on_disk(e, d) ? 1 : -1;
  __atomic_store_n(&e->disk_first, k, __ATOMIC_RELAXED);
  return k;
}

/* too_late for e's first build, which is never late when it is a load
   from the disk cache; while e's device starts, not known, so not late:
   the site is queued, and the runtime thread asks again once the device
   is up (a start-up not begun is too_late's own, idiomrt_startup_poll).
   Without that, a warm Jacobi 4096^2 x 150 on the H200 left its three
   loads out at 268 ms (the last run's 0.7 s of wall time, against a build
   taken to cost at least a start-up, 365 ms), ran 11 more sweeps on the
   host, 0.33 s, and loaded the binaries only once it had outlived the
   estimate (test/lit/run/late-load.c). */
static int entry_late(idiomrt_entry *e) {
  return too_late() && first_load_state(e) < 0;
}

static int stop_now(void) { return 1; }

/* With g_lock held: r leaves the head of the rest queue. */
static void rest_pop_locked(idiomrt_entry *r) {
  idiomrt_entry **p = &g_rest;
  while (*p && *p != r)
    p = &(*p)->rest_q_next;
  if (*p)
    *p = r->rest_q_next;
  r->rest_q_next = NULL;
}

/* One step of the rest queue: one variant of r built (or loaded), or r's
   whole rest left out when the process is not expected to live past it
   (rest_too_late). */
static void rest_step(idiomrt_entry *r, const idiomrt_device *dev) {
  uint64_t left = 0, need = 0;
  unsigned todo = 0;
  unsigned more = 1;
  if (rest_too_late(r, dev, &left, &need, &todo)) {
    unsigned nv = r->nvariants, next = r->rest_next;
    idiomrt_program_leave_rest(r, idiomrt_rest_late_reason);
    idiomrt_debug("%s: %u of %u variants left out (%u ready): the process "
                  "is expected to end in %.0f ms, their builds take "
                  "%.0f ms (%u from source)",
                  r->desc->loc ? r->desc->loc : "?", nv - next, nv,
                  r->rest_ready, (double)left / 1e6, (double)need / 1e6,
                  todo);
    more = 0;
  } else {
    more = idiomrt_program_build_rest_one(r, dev);
  }
  if (!more) {
    pthread_mutex_lock(&g_lock);
    rest_pop_locked(r);
    pthread_mutex_unlock(&g_lock);
  }
}

/* The background thread: the device (once), then the build queue, then
   the second device's warm-ups (startup_warm.c), then the rest queue: every
   entry's variant 0 goes before any entry's rest, built one variant per
   step, so that a variant-0 request waits for one variant's build at
   most. */
static void background(void *unused) {
  (void)unused;
  if (!exiting() && idiomrt_device_state(NULL) == 0) {
    idiomrt_device_init_here();
    const idiomrt_device *dev = idiomrt_device_peek();
    if (dev && !exiting())
      idiomrt_cost_calibrate(dev, idiomrt_now_ns() - g_kick_ns);
    pthread_mutex_lock(&g_lock);
    pthread_cond_broadcast(&g_cond);
    pthread_mutex_unlock(&g_lock);
  }
  const idiomrt_device *dev = idiomrt_device_peek();
  /* the second device (device.c), once the cost model wants it */
  if (dev && !exiting() && __atomic_load_n(&g_want2, __ATOMIC_ACQUIRE) &&
      idiomrt_device2_state() == 0)
    idiomrt_device2_init_here();
  for (;;) {
    pthread_mutex_lock(&g_lock);
    idiomrt_entry *e = g_queue;
    if (!e && dev && !g_stage_done && !exiting()) {
      /* the staging slots, before a region's first fill needs them */
      g_stage_done = 1;
      pthread_mutex_unlock(&g_lock);
      idiomrt_stage_prepare(dev);
      continue;
    }
    if (!e && g_nwarm) {
      /* builds first (a call waits for them), then the second device's
         warm-ups (startup_warm.c); one step each; at exit or without a
         device each job is only freed */
      idiomrt_warm_job *j = g_warm[0];
      memmove(g_warm, g_warm + 1, --g_nwarm * sizeof *g_warm);
      pthread_mutex_unlock(&g_lock);
      idiomrt_warm_run(j, dev ? exiting : stop_now);
      continue;
    }
    /* then the rests (tuning's other candidates), lowest */
    idiomrt_entry *r = !e && dev && !exiting() ? g_rest : NULL;
    if (r) {
      pthread_mutex_unlock(&g_lock);
      rest_step(r, dev);
      continue;
    }
    if (!e || exiting() || !dev) {
      /* a rest still queued stays not built (rest_pending: the stats
         report says so) */
      g_running = 0;
      pthread_cond_broadcast(&g_cond);
      pthread_mutex_unlock(&g_lock);
      return;
    }
    g_queue = e->bg_next;
    e->bg_next = NULL;
    if (entry_late(e)) {
      /* left out: a later request (a call once the process has outlived
         the last one) queues it again */
      e->bg_build = 0;
      pthread_mutex_unlock(&g_lock);
      idiomrt_debug("%s: build left out: the process is expected to end "
                    "before it would",
                    e->desc->loc ? e->desc->loc : "?");
      continue;
    }
    pthread_mutex_unlock(&g_lock);
    char reason[IDIOMRT_REASON_LEN];
    /* an entry of the second device (registry.c) builds there */
    if (e->second && !exiting() && idiomrt_device2_state() == 0)
      idiomrt_device2_init_here();
    const idiomrt_device *bdev = e->second ? idiomrt_device2_peek() : dev;
    /* the primary device's builds: variant 0 first (its rest later, from
       the rest queue); a device-wait run waits for it (devwait.c) */
    int waited = __atomic_load_n(&e->bg_first, __ATOMIC_ACQUIRE);
    pthread_mutex_lock(&e->lock);
    if (bdev && e->build_state == 0 &&
        !(e->second ? idiomrt_program_ensure_staged(e, bdev, reason,
                                                    sizeof reason, exiting)
                    : idiomrt_program_ensure_first(e, bdev, reason,
                                                   sizeof reason, exiting,
                                                   waited)))
      idiomrt_debug("%s: background build %s: %s",
                    e->desc->loc ? e->desc->loc : "?",
                    exiting() ? "stopped" : "failed", reason);
    int rest = !e->second && e->rest_pending;
    pthread_mutex_unlock(&e->lock);
    if (rest) {
      /* (only this thread queues rests: at most once per entry) */
      pthread_mutex_lock(&g_lock);
      idiomrt_entry **p = &g_rest;
      while (*p)
        p = &(*p)->rest_q_next;
      e->rest_q_next = NULL;
      *p = e;
      pthread_mutex_unlock(&g_lock);
    }
    __atomic_store_n(&e->bg_build, 2, __ATOMIC_RELEASE);
  }
}

/* With g_lock held: starts the background thread unless it runs. */
static void start_locked(void) {
  if (g_running || g_thread_failed || exiting())
    return; /* (an atexit handler of the program may still run loops) */
  if (!g_atexit_done) {
    atexit(at_exit);
    g_atexit_done = 1;
  }
  idiomrt_note_opencl_started();
  join_locked();
  guard_thread_locked();
  g_running = 1;
  if (!g_started)
    g_kick_ns = idiomrt_now_ns();
  __atomic_store_n(&g_started, 1, __ATOMIC_RELEASE);
  if (idiomrt_worker_start(background, NULL, &g_thread)) {
    g_joinable = 1;
  } else {
    g_running = 0;
    g_thread_failed = 1;
    pthread_cond_broadcast(&g_cond);
  }
}

const idiomrt_device *idiomrt_startup_poll(const char **reason) {
  const char *why = NULL;
  int st = idiomrt_device_state(&why);
  if (st == 1)
    return idiomrt_device_peek();
  if (st < 0) {
    *reason = why ? why : "no matching device";
    return NULL;
  }
  pthread_mutex_lock(&g_lock);
  /* not started when no build could be begun (too_late) */
  int late = !g_started && too_late();
  if (!g_started && !late)
    start_locked();
  int failed = g_thread_failed && idiomrt_device_state(NULL) == 0;
  pthread_mutex_unlock(&g_lock);
  *reason = failed ? "cannot create the runtime thread"
            : late ? idiomrt_late_reason
                   : idiomrt_starting_reason;
  return NULL;
}

const idiomrt_device *idiomrt_startup_wait(const char **reason) {
  const char *why = NULL;
  pthread_mutex_lock(&g_lock);
  if (!g_started)
    start_locked();
  while (idiomrt_device_state(&why) == 0 && !g_thread_failed && g_running)
    pthread_cond_wait(&g_cond, &g_lock);
  int st = idiomrt_device_state(&why);
  pthread_mutex_unlock(&g_lock);
  if (st == 1)
    return idiomrt_device_peek();
  if (reason)
    *reason = st < 0 && why ? why : "cannot create the runtime thread";
  return NULL;
}

void idiomrt_startup_kick(void) {
  pthread_mutex_lock(&g_lock);
  if (!g_started)
    start_locked();
  pthread_mutex_unlock(&g_lock);
}

/* With g_lock held: e joins the end of the build queue, once. First come,
   first built: a time loop calls its sites in the same order again. */
static void queue_locked(idiomrt_entry *e) {
  if (e->bg_build != 0)
    return;
  e->bg_build = 1;
  e->bg_next = NULL;
  idiomrt_entry **p = &g_queue;
  while (*p)
    p = &(*p)->bg_next;
  *p = e;
}

int idiomrt_startup_built(idiomrt_entry *e) {
  int st = __atomic_load_n(&e->bg_build, __ATOMIC_ACQUIRE);
  if (st == 2)
    return 1;
  pthread_mutex_lock(&g_lock);
  if (g_thread_failed) { /* no background thread: the run builds, or fails */
    pthread_mutex_unlock(&g_lock);
    return 1;
  }
  if (e->bg_build == 0 && entry_late(e)) { /* not queued: the loop runs */
    pthread_mutex_unlock(&g_lock);
    return 0;
  }
  queue_locked(e);
  start_locked();
  pthread_mutex_unlock(&g_lock);
  return 0;
}

uint64_t idiomrt_startup_remaining_ns(void) {
  uint64_t expect = idiomrt_calib_start_after_ns();
  uint64_t kick = __atomic_load_n(&g_kick_ns, __ATOMIC_RELAXED);
  uint64_t now = idiomrt_now_ns();
  uint64_t spent = kick && now > kick ? now - kick : 0;
  return spent < expect ? expect - spent : 0;
}

/* ns until e's kernels are expected ready: the start-up's remainder, plus,
   while e's build has not ended, one build (longest_build_ns).
   A run waits for them only when its loop is 4 times as long: counting
   the start-up alone, every call of a site whose build was under way
   waited half its loop's time (at least one 1 ms sleep) before it ran it:
   nas-parboil/adi.c's first run on the H200, 15 sites a time step, spent
   35-42 ms a step so against 15 ms, 2.0 s against 0.85 s in all.
   A first build that is a load from the disk cache (0.1-3 ms a program on
   the H200) counts as none: known once the device is up
   (first_load_state), and while it starts from the profile, whose last
   run built nothing from source (its disk cache served every program),
   but only until the start-up is overdue (then it may take as long
   again, and every call would wait half its loop); a miss costs one
   wait's deadline, half a loop. Counted as a build, it
   kept a warm Jacobi 4096^2 x 150's stencil (36 ms on the host) from
   waiting 0.4 ms for the H200 (device up at 244 ms, estimated 248 ms):
   the build term was at least a start-up, 248 ms. */
static uint64_t expected_ready_ns(idiomrt_entry *e) {
  uint64_t r = idiomrt_startup_remaining_ns();
  if (__atomic_load_n(&e->bg_build, __ATOMIC_ACQUIRE) == 2)
    return r;
  int k = first_load_state(e);
  int64_t last_build = -1;
  if (k == 0)
    idiomrt_profile_last_wall_ns(&last_build);
  if (k > 0 || (last_build == 0 && r > 0))
    return r;
  return r + longest_build_ns();
}

/* The start-up thread builds e's kernels right after the device, with
   every other site that wanted the device meanwhile: queued one by one
   after it, each build would wait for its site's next call, a host run of
   the loop later (three sites of a Jacobi sweep: 60-90 ms). */
static void queue_while_starting(idiomrt_entry *e, const idiomrt_device *dev,
                                 const char *reason) {
  if (!dev && reason == idiomrt_starting_reason &&
      __atomic_load_n(&e->bg_build, __ATOMIC_ACQUIRE) == 0) {
    pthread_mutex_lock(&g_lock);
    if (g_running && !entry_late(e))
      queue_locked(e);
    pthread_mutex_unlock(&g_lock);
  }
}

int idiomrt_startup_late(idiomrt_entry *e) {
  return __atomic_load_n(&e->bg_build, __ATOMIC_ACQUIRE) != 2 &&
         entry_late(e);
}

/* After a poll that did not give a device with e's kernels built: 1, with
   *reason idiomrt_late_reason, when no build is to be begun (entry_late). */
static int late(idiomrt_entry *e, const char **reason) {
  if (*reason != idiomrt_late_reason && !entry_late(e))
    return 0;
  *reason = idiomrt_late_reason;
  return 1;
}

/* Polls (1 ms) until the device is up and e's kernels are built, the
   device fails, or the clock passes deadline; dev: the device if already
   up. The device, or NULL with *reason (starting, building, or why there
   is no device). why: the trace's words for the wait. */
static const idiomrt_device *poll_until(idiomrt_entry *e,
                                        const idiomrt_device *dev,
                                        uint64_t t0, uint64_t deadline,
                                        const char **reason,
                                        const char *why, double host_ns) {
  struct timespec ms = {0, 1000000};
  for (;;) {
    if (!dev)
      dev = idiomrt_startup_poll(reason);
    if (!dev && *reason != idiomrt_starting_reason)
      return NULL; /* no device after all */
    if (dev && idiomrt_startup_built(e)) {
      idiomrt_debug("%s: waited %.1f ms for the device (%s %.1f ms on the "
                    "host)",
                    e->desc->loc ? e->desc->loc : "?",
                    (double)(idiomrt_now_ns() - t0) / 1e6, why,
                    host_ns / 1e6);
      return dev;
    }
    if (entry_late(e)) { /* no build comes: no wait either */
      *reason = idiomrt_late_reason;
      return NULL;
    }
    uint64_t now = idiomrt_now_ns();
    if (now >= deadline) {
      *reason = dev ? idiomrt_building_reason : idiomrt_starting_reason;
      idiomrt_debug("%s: waited %.1f ms for the device, not ready (%s %.1f "
                    "ms on the host)",
                    e->desc->loc ? e->desc->loc : "?",
                    (double)(now - t0) / 1e6, why, host_ns / 1e6);
      return NULL;
    }
    /* never past the deadline by more than the clock's slack */
    if (deadline - now < 1000000)
      ms.tv_nsec = (long)(deadline - now);
    nanosleep(&ms, NULL);
  }
}

const idiomrt_device *idiomrt_startup_wait_for_run(idiomrt_entry *e,
                                                   uint64_t trip,
                                                   const char **reason) {
  const idiomrt_device *dev = idiomrt_startup_poll(reason);
  if (dev && idiomrt_startup_built(e))
    return dev; /* every run once the device is up: nothing else here */
  if (late(e, reason))
    return NULL;
  queue_while_starting(e, dev, *reason);
  uint64_t t0 = idiomrt_now_ns();
  double remaining = (double)expected_ready_ns(e);
  double host_ns = idiomrt_cost_host_ns(e, trip);
  if (host_ns <= 0 || 4.0 * remaining > host_ns) {
    if (dev) /* decline as before */
      *reason = idiomrt_building_reason;
    return NULL;
  }
  return poll_until(e, dev, t0, t0 + (uint64_t)(host_ns / 2), reason,
                    "the loop: about", host_ns);
}

const idiomrt_device *idiomrt_startup_wait_bounded(idiomrt_entry *e,
                                                   double host_lb,
                                                   const char **reason) {
  uint64_t t0 = idiomrt_now_ns();
  __atomic_store_n(&e->bg_first, 1, __ATOMIC_RELEASE);
  const idiomrt_device *dev = idiomrt_startup_poll(reason); /* starts it */
  if (dev && idiomrt_startup_built(e))
    return dev;
  if (late(e, reason))
    return NULL;
  queue_while_starting(e, dev, *reason);
  return poll_until(e, dev, t0, t0 + (uint64_t)host_lb, reason,
                    "device-wait; the loop: at least", host_lb);
}

int idiomrt_startup_second_ready(idiomrt_entry *e) {
  int st = idiomrt_device2_state();
  if (st < 0)
    return -1;
  idiomrt_entry *a = __atomic_load_n(&e->alt, __ATOMIC_ACQUIRE);
  if (!a || __atomic_load_n(&a->bg_build, __ATOMIC_ACQUIRE) != 2)
    return 0;
  /* kernels that do not build there: as a device that failed to open */
  if (__atomic_load_n(&a->build_state, __ATOMIC_RELAXED) < 0)
    return -1;
  return st == 1;
}

void idiomrt_startup_second_request(idiomrt_entry *e) {
  if (!idiomrt_device2_wanted())
    return;
  idiomrt_entry *a = idiomrt_entry_second(e);
  if (!a)
    return;
  __atomic_store_n(&g_want2, 1, __ATOMIC_RELEASE);
  pthread_mutex_lock(&g_lock);
  if (!g_thread_failed && a->bg_build == 0) {
    queue_locked(a);
    start_locked();
  }
  pthread_mutex_unlock(&g_lock);
}

int idiomrt_startup_queue_warm(idiomrt_warm_job *job) {
  pthread_mutex_lock(&g_lock);
  int ok = !g_thread_failed && !exiting() && g_nwarm < MAX_WARM;
  if (ok) {
    g_warm[g_nwarm++] = job;
    start_locked();
  }
  pthread_mutex_unlock(&g_lock);
  return ok;
}

void idiomrt_startup_after_fork(void) {
  pthread_mutex_init(&g_lock, NULL);
  pthread_cond_init(&g_cond, NULL);
  /* the thread does not exist in the child; a child of a process that began
     OpenCL declines every run ("forked child") before reaching here */
  g_running = 0;
  g_joinable = 0;
  g_queue = NULL;
  g_rest = NULL; /* (the child's entries keep rest_pending: never built) */
  g_nwarm = 0; /* the parent's jobs (their copies stay allocated) */
}
