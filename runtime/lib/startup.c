/*===- startup.c - Device start-up and kernel builds in the background ----===*
 *
 * With the cost model on (IDIOM_COST, config.c) the first run that passes
 * the cheap checks starts a detached runtime thread (worker.c: 16 MiB of
 * stack, every signal blocked) that
 *
 *  1. initializes the device (platform, context, queue: device.c),
 *  2. calibrates the cost model (latency and bandwidth, costmodel.c),
 *  3. builds the kernels of every descriptor that asked for them (the disk
 *     cache of program_cache.c makes this a load when it has the binary).
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
 * Exit: the process does not wait for the thread. An atexit handler
 * (registered when the thread starts, so it runs before the OpenCL
 * library's destructors) tells the thread to stop at its next step; a
 * step already inside the driver finishes or is cut short by the exit.
 *
 *===----------------------------------------------------------------------===*/
#include "rt_internal.h"

#include <stdlib.h>

const char idiomrt_starting_reason[] = "device starting";
const char idiomrt_building_reason[] = "kernels building";

static pthread_mutex_t g_lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t g_cond = PTHREAD_COND_INITIALIZER;
static int g_started;          /* the start-up thread was started */
static int g_thread_failed;    /* it could not be created */
static int g_running;          /* a background thread is running */
static int g_exiting;          /* exit() has begun (atomic) */
static int g_atexit_done;
static idiomrt_entry *g_queue; /* kernels to build, newest first */

static void at_exit(void) { __atomic_store_n(&g_exiting, 1, __ATOMIC_RELEASE); }

static int exiting(void) {
  return __atomic_load_n(&g_exiting, __ATOMIC_ACQUIRE);
}

/* The background thread: the device (once), then the build queue. */
static void background(void *unused) {
  (void)unused;
  if (!exiting() && idiomrt_device_state(NULL) == 0) {
    idiomrt_device_init_here();
    const idiomrt_device *dev = idiomrt_device_peek();
    if (dev && !exiting())
      idiomrt_cost_calibrate(dev);
    pthread_mutex_lock(&g_lock);
    pthread_cond_broadcast(&g_cond);
    pthread_mutex_unlock(&g_lock);
  }
  const idiomrt_device *dev = idiomrt_device_peek();
  for (;;) {
    pthread_mutex_lock(&g_lock);
    idiomrt_entry *e = g_queue;
    if (!e || exiting() || !dev) {
      g_running = 0;
      pthread_cond_broadcast(&g_cond);
      pthread_mutex_unlock(&g_lock);
      return;
    }
    g_queue = e->bg_next;
    e->bg_next = NULL;
    pthread_mutex_unlock(&g_lock);
    char reason[IDIOMRT_REASON_LEN];
    pthread_mutex_lock(&e->lock);
    if (e->build_state == 0 && !idiomrt_program_ensure(e, dev, reason,
                                                       sizeof reason))
      idiomrt_debug("%s: background build failed: %s",
                    e->desc->loc ? e->desc->loc : "?", reason);
    pthread_mutex_unlock(&e->lock);
    __atomic_store_n(&e->bg_build, 2, __ATOMIC_RELEASE);
  }
}

/* With g_lock held: starts the background thread unless it runs. */
static void start_locked(void) {
  if (g_running || g_thread_failed)
    return;
  if (!g_atexit_done) {
    atexit(at_exit);
    g_atexit_done = 1;
  }
  idiomrt_note_opencl_started();
  g_running = 1;
  g_started = 1;
  if (!idiomrt_worker_start(background, NULL)) {
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
  if (!g_started)
    start_locked();
  int failed = g_thread_failed && idiomrt_device_state(NULL) == 0;
  pthread_mutex_unlock(&g_lock);
  *reason = failed ? "cannot create the runtime thread"
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

int idiomrt_startup_built(idiomrt_entry *e) {
  int st = __atomic_load_n(&e->bg_build, __ATOMIC_ACQUIRE);
  if (st == 2)
    return 1;
  pthread_mutex_lock(&g_lock);
  if (g_thread_failed) { /* no background thread: the run builds, or fails */
    pthread_mutex_unlock(&g_lock);
    return 1;
  }
  if (e->bg_build == 0) {
    e->bg_build = 1;
    e->bg_next = g_queue;
    g_queue = e;
  }
  start_locked();
  pthread_mutex_unlock(&g_lock);
  return 0;
}

void idiomrt_startup_after_fork(void) {
  pthread_mutex_init(&g_lock, NULL);
  pthread_cond_init(&g_cond, NULL);
  /* the thread does not exist in the child; a child of a process that began
     OpenCL declines every run ("forked child") before reaching here */
  g_running = 0;
  g_queue = NULL;
}
