/*===- parcopy.c - Host copies split over helper threads -------------------===*
 *
 * A transfer through pinned staging memory (staging.c) is a host memcpy plus
 * a DMA: the DMA runs at 47-53 GB/s on the lent H200, one core's memcpy at
 * 5-10 GB/s, so the memcpy sets the speed of a region's fills and copies
 * back (issue 12). idiomrt_parallel_range splits such a copy over helper
 * threads: the caller does one part, the helpers the others, and the call
 * returns when every part is done.
 *
 * Copies of IDIOM_COPY_MIN bytes or more (default 4 MiB; tests set less)
 * are split. Helpers: IDIOM_COPY_THREADS (0 or 1: none), default half the
 * online processors, at most 8, none on a machine with fewer than 4; started at
 * the first large copy, every signal blocked (as worker.c's threads), and
 * then kept waiting on a condition variable. One parallel copy at a time:
 * a caller that finds the helpers busy (another thread's copy) does all of
 * its copy itself. A fork's child has no helpers; it copies alone.
 *
 *===----------------------------------------------------------------------===*/
#include "rt_internal.h"

#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#define PAR_MAX_THREADS 8
#define PAR_MIN_BYTES ((size_t)4 << 20) /* smaller copies stay on one core */

static pthread_mutex_t g_busy = PTHREAD_MUTEX_INITIALIZER; /* one copy */
static pthread_mutex_t g_mu = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t g_work = PTHREAD_COND_INITIALIZER;
static pthread_cond_t g_done = PTHREAD_COND_INITIALIZER;
static pthread_once_t g_once = PTHREAD_ONCE_INIT;
static unsigned g_want;        /* helpers wanted (from the environment) */
static unsigned g_started;     /* helpers running */
static uint64_t g_gen;         /* bumped for each copy */
static uint64_t g_gen0;        /* g_gen when the helpers were started */
static unsigned g_left;        /* helper parts not done yet */
static void (*g_fn)(void *, size_t, size_t);
static void *g_ctx;
static size_t g_n, g_parts;
static size_t g_min = PAR_MIN_BYTES; /* IDIOM_COPY_MIN (tests) */

static void read_env(void) {
  const char *v = getenv("IDIOM_COPY_THREADS");
  long n = -1;
  if (v && *v) {
    char *end = NULL;
    n = strtol(v, &end, 10);
    if (*end || n < 0)
      n = -1;
  }
  if (n < 0) {
    long cpus = sysconf(_SC_NPROCESSORS_ONLN);
    n = cpus >= 4 ? cpus / 2 : 1;
  }
  if (n > PAR_MAX_THREADS)
    n = PAR_MAX_THREADS;
  g_want = n > 1 ? (unsigned)n - 1 : 0; /* the caller is one of them */
  const char *m = getenv("IDIOM_COPY_MIN");
  if (m && *m) {
    char *end = NULL;
    unsigned long long b = strtoull(m, &end, 10);
    if (!*end && b >= 64)
      g_min = (size_t)b;
  }
}

/* Part k of [0, g_n) in g_parts parts, cut at 64-byte boundaries. */
static void part(size_t k, size_t *lo, size_t *hi) {
  size_t step = (g_n / g_parts + 63) & ~(size_t)63;
  *lo = k * step < g_n ? k * step : g_n;
  *hi = (k + 1) * step < g_n && k + 1 < g_parts ? (k + 1) * step : g_n;
}

static void *helper(void *p) {
  size_t id = (size_t)(uintptr_t)p; /* 1 .. g_want */
  pthread_mutex_lock(&g_mu);
  uint64_t seen = g_gen0; /* the copies before it was started */
  for (;;) {
    while (g_gen == seen)
      pthread_cond_wait(&g_work, &g_mu);
    seen = g_gen;
    if (id >= g_parts)
      continue;
    void (*fn)(void *, size_t, size_t) = g_fn;
    void *ctx = g_ctx;
    size_t lo, hi;
    part(id, &lo, &hi);
    pthread_mutex_unlock(&g_mu);
    if (lo < hi)
      fn(ctx, lo, hi);
    pthread_mutex_lock(&g_mu);
    if (--g_left == 0)
      pthread_cond_broadcast(&g_done);
  }
  return NULL;
}

/* With g_busy held: starts the helpers not started yet. */
static void start_helpers(void) {
  if (g_started >= g_want)
    return;
  sigset_t all, old;
  sigfillset(&all);
  pthread_sigmask(SIG_SETMASK, &all, &old);
  pthread_attr_t at;
  pthread_attr_init(&at);
  pthread_attr_setdetachstate(&at, PTHREAD_CREATE_DETACHED);
  pthread_attr_setstacksize(&at, 64 << 10);
  g_gen0 = g_gen; /* under g_busy: no copy in flight */
  while (g_started < g_want) {
    pthread_t t;
    if (pthread_create(&t, &at, helper,
                       (void *)(uintptr_t)(g_started + 1)) != 0)
      break;
    g_started++;
  }
  pthread_attr_destroy(&at);
  pthread_sigmask(SIG_SETMASK, &old, NULL);
  if (g_started < g_want)
    idiomrt_debug("copy helpers: %u of %u started", g_started, g_want);
}

void idiomrt_parallel_range(size_t n, void (*fn)(void *ctx, size_t lo,
                                                 size_t hi),
                            void *ctx) {
  pthread_once(&g_once, read_env);
  if (n < g_min || g_want == 0 || idiomrt_forked_child() ||
      pthread_mutex_trylock(&g_busy) != 0) {
    fn(ctx, 0, n);
    return;
  }
  start_helpers();
  if (g_started == 0) {
    pthread_mutex_unlock(&g_busy);
    fn(ctx, 0, n);
    return;
  }
  pthread_mutex_lock(&g_mu);
  g_fn = fn;
  g_ctx = ctx;
  g_n = n;
  g_parts = g_started + 1;
  g_left = g_started;
  g_gen++;
  pthread_cond_broadcast(&g_work);
  pthread_mutex_unlock(&g_mu);
  size_t lo, hi;
  part(0, &lo, &hi);
  fn(ctx, lo, hi);
  pthread_mutex_lock(&g_mu);
  while (g_left)
    pthread_cond_wait(&g_done, &g_mu);
  pthread_mutex_unlock(&g_mu);
  pthread_mutex_unlock(&g_busy);
}

typedef struct copy_job {
  char *dst;
  const char *src;
} copy_job;

static void copy_part(void *p, size_t lo, size_t hi) {
  copy_job *j = p;
  memcpy(j->dst + lo, j->src + lo, hi - lo);
}

void idiomrt_parallel_memcpy(void *dst, const void *src, size_t n) {
  copy_job j = {dst, src};
  idiomrt_parallel_range(n, copy_part, &j);
}

void idiomrt_parcopy_after_fork(void) {
  pthread_mutex_init(&g_busy, NULL);
  pthread_mutex_init(&g_mu, NULL);
  pthread_cond_init(&g_work, NULL);
  pthread_cond_init(&g_done, NULL);
  g_started = 0;
  g_left = 0;
}

/* Huge pages for a snapshot's whole 2 MiB pages: one page fault each
   instead of 512. madvise is advice: where transparent huge pages are off
   (or "never") nothing changes. On the lent H200 ("madvise" mode) a warm
   Jacobi 4096^2 x 150 took 32,000 fewer page faults (88k against 120k
   minor faults), its two 128 MiB copies back 10.6 ms instead of 21.2, and
   552 ms against 600 ms (medians of 7 interleaved runs). */
#define SNAP_HUGE ((uintptr_t)2 << 20)

unsigned char *idiomrt_snapshot_copy(const void *src, size_t n) {
  unsigned char *p = malloc(n ? n : 1);
  if (!p)
    return NULL;
  if (n >= 2 * SNAP_HUGE) {
    uintptr_t a = ((uintptr_t)p + SNAP_HUGE - 1) & ~(SNAP_HUGE - 1);
    uintptr_t b = ((uintptr_t)p + n) & ~(SNAP_HUGE - 1);
    if (b > a)
      (void)madvise((void *)a, b - a, MADV_HUGEPAGE);
  }
  idiomrt_parallel_memcpy(p, src, n);
  return p;
}
