/*===- stats.c - Per-descriptor counters and the IDIOM_STATS report -------===*
 *
 * Counters are kept whether or not IDIOM_STATS is set (they are cheap); the
 * report is printed on stderr at exit only when it is. One line per
 * descriptor that reached the runtime (idiom_run or idiom_note_fallback):
 *
 *   idiom-stats: LOC IDIOM calls=N offloaded=N device="NAME"
 *                kernel_ms=X transfer_ms=X fallbacks=N reasons="R" xN; ...
 *                bytes_in=N bytes_out=N
 *
 *   [variants=N tune_ms=X tuning="class C: variant K tuned=HOW; ..."]
 *   [decisions="NAME xN; ..."] [host_ms=X] [cost="class C: host X us
 *    device X us; ..."]
 *
 * kernel_ms: sum of CL_PROFILING_COMMAND_START..END of the kernels.
 * transfer_ms: the same for host-to-device writes and device-to-host maps,
 * plus the host copy out of the mapped buffers.
 * bytes_in / bytes_out: bytes its runs copied to / from the device (inside a
 * residency region only what the range table lacked; the copies back at the
 * region's end are counted on the "idiom-stats: residency" line).
 * variants (only for descriptors with several): the variant count, the
 * kernel time spent timing them (tune_ms), and per size class (floor(log2)
 * of the iteration count) the variant that ran and how it was chosen:
 * timed (in this process), cache (tuning file), off (IDIOM_TUNE=off) or
 * single (one usable variant).
 * decisions: what the cost model (costmodel.c) chose, per decision kind;
 * host_ms: the original loop's time measured after its declines; cost: per
 * size class the host and device estimates at 2^C iterations.
 *
 *===----------------------------------------------------------------------===*/
#include "rt_internal.h"

#include <stdio.h>
#include <string.h>

/* Declines of re-entered runs, counted without a lock or an allocation:
   a fixed table of descriptors claimed with compare-and-swap; the report
   merges them into their descriptor's line. */
#define BUSY_SLOTS 64
static struct {
  const idiom_kernel_desc *desc;
  uint64_t count;
} g_busy[BUSY_SLOTS];
static uint64_t g_busy_overflow; /* declines of descriptors beyond the table */

void idiomrt_stats_success(idiomrt_entry *e, uint64_t kernel_ns,
                           uint64_t transfer_ns) {
  pthread_mutex_lock(&e->stats_lock);
  e->calls++;
  e->offloaded++;
  e->kernel_ns += kernel_ns;
  e->transfer_ns += transfer_ns;
  pthread_mutex_unlock(&e->stats_lock);
}

static void add_reason(idiomrt_entry *e, const char *reason) {
  e->fallbacks++;
  for (unsigned i = 0; i < e->nreasons; ++i) {
    if (strcmp(e->reasons[i].text, reason) == 0) {
      e->reasons[i].count++;
      return;
    }
  }
  if (e->nreasons < IDIOMRT_MAX_REASONS) {
    snprintf(e->reasons[e->nreasons].text, IDIOMRT_REASON_LEN, "%s", reason);
    e->reasons[e->nreasons].count = 1;
    e->nreasons++;
  } else {
    e->other_reasons++;
  }
}

void idiomrt_stats_bytes(idiomrt_entry *e, uint64_t to_device,
                         uint64_t to_host) {
  pthread_mutex_lock(&e->stats_lock);
  e->bytes_in += to_device;
  e->bytes_out += to_host;
  pthread_mutex_unlock(&e->stats_lock);
}

void idiomrt_stats_decline_locked(idiomrt_entry *e, const char *reason) {
  e->calls++;
  add_reason(e, reason);
}

void idiomrt_stats_decline(idiomrt_entry *e, const char *reason) {
  pthread_mutex_lock(&e->stats_lock);
  idiomrt_stats_decline_locked(e, reason);
  pthread_mutex_unlock(&e->stats_lock);
}

void idiomrt_stats_busy(const idiom_kernel_desc *d) {
  for (unsigned i = 0; d && i < BUSY_SLOTS; ++i) {
    const idiom_kernel_desc *cur =
        __atomic_load_n(&g_busy[i].desc, __ATOMIC_ACQUIRE);
    if (!cur) {
      const idiom_kernel_desc *expected = NULL;
      if (__atomic_compare_exchange_n(&g_busy[i].desc, &expected, d, 0,
                                      __ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE))
        cur = d;
      else
        cur = expected;
    }
    if (cur == d) {
      __atomic_add_fetch(&g_busy[i].count, 1, __ATOMIC_RELAXED);
      return;
    }
  }
  __atomic_add_fetch(&g_busy_overflow, 1, __ATOMIC_RELAXED);
}

/* Re-entered declines of d (0 when none). */
static uint64_t busy_count(const idiom_kernel_desc *d) {
  for (unsigned i = 0; i < BUSY_SLOTS; ++i)
    if (__atomic_load_n(&g_busy[i].desc, __ATOMIC_ACQUIRE) == d)
      return __atomic_load_n(&g_busy[i].count, __ATOMIC_RELAXED);
  return 0;
}

void idiomrt_stats_note(idiomrt_entry *e, const char *reason) {
  idiomrt_stats_decline(e, reason);
}

static const char *or_unknown(const char *s) { return s ? s : "?"; }

void idiomrt_stats_report(void) {
  const idiomrt_device *dev = idiomrt_device_peek();
  for (idiomrt_entry *e = idiomrt_entry_first(); e; e = idiomrt_entry_next(e)) {
    /* The tuning fields are guarded by e->lock, which a run on another
       thread may hold: report them only when it is free. */
    int have_lock = pthread_mutex_trylock(&e->lock) == 0;
    pthread_mutex_lock(&e->stats_lock);
    uint64_t busy = busy_count(e->desc);
    const char *devname =
        e->device_name ? e->device_name : (dev ? dev->name : "none");
    char line[4096];
    size_t len = 0;
#define APPEND(...)                                                            \
  do {                                                                         \
    if (len < sizeof line) {                                                   \
      int k_ = snprintf(line + len, sizeof line - len, __VA_ARGS__);           \
      if (k_ > 0)                                                              \
        len += (size_t)k_;                                                     \
    }                                                                          \
  } while (0)
    APPEND("idiom-stats: %s %s calls=%llu offloaded=%llu device=\"%s\" "
           "kernel_ms=%.3f transfer_ms=%.3f fallbacks=%llu",
           or_unknown(e->desc->loc), or_unknown(e->desc->idiom),
           (unsigned long long)(e->calls + busy),
           (unsigned long long)e->offloaded, devname,
           (double)e->kernel_ns / 1e6, (double)e->transfer_ns / 1e6,
           (unsigned long long)(e->fallbacks + busy));
    if (have_lock && e->nvariants > 1) {
      APPEND(" variants=%u tune_ms=%.3f", e->nvariants,
             (double)e->tune_ns / 1e6);
      int any = 0;
      for (unsigned c = 0; c < IDIOMRT_SIZE_CLASSES; ++c) {
        if (e->chosen[c] < 0 || e->tuned[c] == IDIOMRT_TUNED_NONE)
          continue;
        APPEND("%sclass %u: variant %d tuned=%s", any ? "; " : " tuning=\"", c,
               (int)e->chosen[c], idiomrt_tuned_name(e->tuned[c]));
        any = 1;
      }
      if (any)
        APPEND("\"");
    }
    {
      char cost[1024];
      int n = idiomrt_cost_report(e, cost, sizeof cost);
      if (n > 0)
        APPEND("%.*s", n, cost);
    }
    if (e->nreasons || busy) {
      APPEND(" reasons=");
      for (unsigned i = 0; i < e->nreasons; ++i)
        APPEND("%s\"%s\" x%llu", i ? "; " : "", e->reasons[i].text,
               (unsigned long long)e->reasons[i].count);
      if (busy)
        APPEND("%s\"runtime busy (re-entered)\" x%llu",
               e->nreasons ? "; " : "", (unsigned long long)busy);
      if (e->other_reasons)
        APPEND("; (other) x%llu", (unsigned long long)e->other_reasons);
    }
    APPEND(" bytes_in=%llu bytes_out=%llu", (unsigned long long)e->bytes_in,
           (unsigned long long)e->bytes_out);
#undef APPEND
    pthread_mutex_unlock(&e->stats_lock);
    if (have_lock)
      pthread_mutex_unlock(&e->lock);
    if (len >= sizeof line)
      len = sizeof line - 1;
    fprintf(stderr, "%.*s\n", (int)len, line);
  }
  /* Descriptors that only ever declined re-entered (no entry). */
  for (unsigned i = 0; i < BUSY_SLOTS; ++i) {
    const idiom_kernel_desc *d =
        __atomic_load_n(&g_busy[i].desc, __ATOMIC_ACQUIRE);
    if (!d || idiomrt_entry_try(d))
      continue;
    unsigned long long n = __atomic_load_n(&g_busy[i].count, __ATOMIC_RELAXED);
    fprintf(stderr,
            "idiom-stats: %s %s calls=%llu offloaded=0 device=\"%s\" "
            "kernel_ms=0.000 transfer_ms=0.000 fallbacks=%llu "
            "reasons=\"runtime busy (re-entered)\" x%llu\n",
            or_unknown(d->loc), or_unknown(d->idiom), n,
            dev ? dev->name : "none", n, n);
  }
  uint64_t over = __atomic_load_n(&g_busy_overflow, __ATOMIC_RELAXED);
  if (over)
    fprintf(stderr, "idiom-stats: other re-entered runs declined (runtime "
                    "busy): %llu\n",
            (unsigned long long)over);
  idiomrt_resid_report();
  fflush(stderr);
}
