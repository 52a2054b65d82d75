/*===- stats.c - Per-descriptor counters and the IDIOM_STATS report -------===*
 *
 * Counters are kept whether or not IDIOM_STATS is set (they are cheap); the
 * report is printed on stderr at exit only when it is. One line per
 * descriptor that reached the runtime (idiom_run or idiom_note_fallback):
 *
 *   idiom-stats: LOC IDIOM calls=N offloaded=N device="NAME"
 *                kernel_ms=X transfer_ms=X run_ms=X fallbacks=N reasons="R" xN; ...
 *                bytes_in=N bytes_out=N
 *
 *   [variants=N tune_ms=X tuning="class C: variant K tuned=HOW; ..."
 *    variants_left_out=N left_out_why="R"]
 *   [decisions="NAME xN; ..."] [host_ms=X] [cost="class C: host X us
 *    device X us; ..."]
 *
 * kernel_ms: sum of CL_PROFILING_COMMAND_START..END of the kernels.
 * transfer_ms: the same for host-to-device writes and device-to-host maps,
 * plus the host copy out of the mapped buffers.
 * run_ms: wall time of the runs that offloaded, from the device being ready
 * to the results in place (kernels, transfers, waits and the runtime's own
 * work: run_ms - kernel_ms - transfer_ms is the overhead).
 * bytes_in / bytes_out: bytes its runs copied to / from the device (inside a
 * residency region only what the range table lacked; the copies back at the
 * region's end are counted on the "idiom-stats: residency" line).
 * variants (only for descriptors with several): the variant count, the
 * kernel time spent timing them (tune_ms), and per size class (floor(log2)
 * of the iteration count) the variant that ran and how it was chosen:
 * timed (in this process), cache (tuning file), off (IDIOM_TUNE=off) or
 * single (one usable variant); variants_left_out and left_out_why: the
 * variants after variant 0 that were not built (a staged rest the process
 * was not expected to live past, startup.c, or one not built yet when the
 * report is made).
 * decisions: what the cost model (costmodel.c) chose, per decision kind;
 * host_ms: the original loop's time measured after its declines; cost: per
 * size class the host and device estimates at 2^C iterations.
 *
 *===----------------------------------------------------------------------===*/
#include "rt_internal.h"

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* Declines of re-entered runs, counted without a lock or an allocation:
   a fixed table of descriptors claimed with compare-and-swap; the report
   merges them into their descriptor's line. */
#define BUSY_SLOTS 64
static struct {
  const idiom_kernel_desc *desc;
  uint64_t count;
} g_busy[BUSY_SLOTS];
static uint64_t g_busy_overflow; /* declines of descriptors beyond the table */

/* With e->lock held: the variants of e's staged rest (program_cache.c)
   not built, in *out, and why: left out (startup.c's rest_too_late), or
   still queued or building when the report is made (at exit: never
   built). */
static const char *rest_left_out(const idiomrt_entry *e, unsigned *out) {
  *out = 0;
  if (e->rest_left) {
    *out = e->rest_left;
    return e->rest_why ? e->rest_why : "left out";
  }
  if (e->rest_pending && e->rest_next < e->nvariants) {
    *out = e->nvariants - e->rest_next;
    return "not built yet: the rest is built after every site's variant 0";
  }
  return NULL;
}

void idiomrt_stats_success(idiomrt_entry *e, uint64_t kernel_ns,
                           uint64_t transfer_ns, uint64_t run_ns) {
  pthread_mutex_lock(&e->stats_lock);
  e->calls++;
  e->offloaded++;
  e->kernel_ns += kernel_ns;
  e->transfer_ns += transfer_ns;
  e->run_ns += run_ns;
  pthread_mutex_unlock(&e->stats_lock);
}

static void add_reason(idiomrt_entry *e, const char *reason, uint64_t n) {
  e->fallbacks += n;
  for (unsigned i = 0; i < e->nreasons; ++i) {
    if (strcmp(e->reasons[i].text, reason) == 0) {
      e->reasons[i].count += n;
      return;
    }
  }
  if (e->nreasons < IDIOMRT_MAX_REASONS) {
    /* (copied by hand: snprintf here was the only formatted output of a
       run whose sites stay on the host, two pages of libc code at its
       first decline, bench/fixed_cost.sh) */
    char *t = e->reasons[e->nreasons].text;
    size_t k = 0;
    for (; k < IDIOMRT_REASON_LEN - 1 && reason[k]; ++k)
      t[k] = reason[k];
    t[k] = '\0';
    e->reasons[e->nreasons].count = n;
    e->nreasons++;
  } else {
    e->other_reasons += n;
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
  add_reason(e, reason, 1);
}

void idiomrt_stats_declines_locked(idiomrt_entry *e, const char *reason,
                                   uint64_t n) {
  e->calls += n;
  add_reason(e, reason, n);
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

static void report_text(void) {
  const idiomrt_device *dev = idiomrt_device_peek();
  for (idiomrt_entry *e = idiomrt_entry_first(); e; e = idiomrt_entry_next(e)) {
    /* The tuning fields are guarded by e->lock, which a run on another
       thread may hold: report them only when it is free. */
    int have_lock = pthread_mutex_trylock(&e->lock) == 0;
    pthread_mutex_lock(&e->stats_lock);
    idiomrt_cost_hint_fold_locked(e);
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
           "kernel_ms=%.3f transfer_ms=%.3f run_ms=%.3f fallbacks=%llu",
           or_unknown(e->desc->loc), or_unknown(e->desc->idiom),
           (unsigned long long)(e->calls + busy),
           (unsigned long long)e->offloaded, devname,
           (double)e->kernel_ns / 1e6, (double)e->transfer_ns / 1e6,
           (double)e->run_ns / 1e6,
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
      unsigned out = 0;
      const char *why = rest_left_out(e, &out);
      if (out)
        APPEND(" variants_left_out=%u left_out_why=\"%s\"", out, why);
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
  idiomrt_zc_report();
  idiomrt_lap_report();
  /* the second (CPU) device, when it was opened (cpu-device decisions) */
  const idiomrt_device *dev2 = idiomrt_device2_peek();
  if (dev2)
    fprintf(stderr, "idiom-stats: second-device=\"%s\" platform=\"%s\"\n",
            dev2->name, dev2->platform_name);
  uint64_t csr[2];
  idiomrt_csr_counts(csr);
  if (csr[0] || csr[1])
    fprintf(stderr, "idiom-stats: csr-checks passes=%llu reused=%llu\n",
            (unsigned long long)csr[0], (unsigned long long)csr[1]);
  fflush(stderr);
}

static const char *device_pref_name(int pref) {
  switch (pref) {
  case IDIOMRT_DEV_GPU:
    return "gpu";
  case IDIOMRT_DEV_CPU:
    return "cpu";
  case IDIOMRT_DEV_SEQ:
    return "seq";
  default:
    return "auto";
  }
}

/* Sums over the sites for "totals". */
typedef struct {
  uint64_t sites, calls, offloaded, fallbacks, kernel_ns, transfer_ns,
      tune_ns, host_ns, bytes_in, bytes_out;
} stats_totals;

/* The "sites" element of one descriptor that only declined re-entered. */
static void json_busy_site(idiomrt_json *j, const idiom_kernel_desc *d,
                           const char *devname, uint64_t n,
                           stats_totals *t) {
  idiomrt_json_begin_object(j);
  idiomrt_json_key(j, "site");
  idiomrt_json_string(j, d->loc);
  idiomrt_json_key(j, "idiom");
  idiomrt_json_string(j, d->idiom);
  idiomrt_json_key(j, "calls");
  idiomrt_json_uint(j, n);
  idiomrt_json_key(j, "offloaded");
  idiomrt_json_uint(j, 0);
  idiomrt_json_key(j, "device");
  idiomrt_json_string(j, devname);
  idiomrt_json_key(j, "kernel_ms");
  idiomrt_json_ms(j, 0);
  idiomrt_json_key(j, "transfer_ms");
  idiomrt_json_ms(j, 0);
  idiomrt_json_key(j, "run_ms");
  idiomrt_json_ms(j, 0);
  idiomrt_json_key(j, "fallbacks");
  idiomrt_json_uint(j, n);
  idiomrt_json_key(j, "reasons");
  idiomrt_json_begin_object(j);
  idiomrt_json_key(j, "runtime busy (re-entered)");
  idiomrt_json_uint(j, n);
  idiomrt_json_end_object(j);
  idiomrt_json_key(j, "bytes_in");
  idiomrt_json_uint(j, 0);
  idiomrt_json_key(j, "bytes_out");
  idiomrt_json_uint(j, 0);
  idiomrt_json_end_object(j);
  t->sites++;
  t->calls += n;
  t->fallbacks += n;
}

/* The "sites" element of entry e (the same fields as its text line). */
static void json_site(idiomrt_json *j, idiomrt_entry *e,
                      const idiomrt_device *dev, stats_totals *t) {
  int have_lock = pthread_mutex_trylock(&e->lock) == 0;
  pthread_mutex_lock(&e->stats_lock);
  idiomrt_cost_hint_fold_locked(e);
  uint64_t busy = busy_count(e->desc);
  idiomrt_json_begin_object(j);
  idiomrt_json_key(j, "site");
  idiomrt_json_string(j, e->desc->loc);
  idiomrt_json_key(j, "idiom");
  idiomrt_json_string(j, e->desc->idiom);
  idiomrt_json_key(j, "calls");
  idiomrt_json_uint(j, e->calls + busy);
  idiomrt_json_key(j, "offloaded");
  idiomrt_json_uint(j, e->offloaded);
  idiomrt_json_key(j, "device");
  idiomrt_json_string(j, e->device_name ? e->device_name
                                        : (dev ? dev->name : NULL));
  idiomrt_json_key(j, "kernel_ms");
  idiomrt_json_ms(j, e->kernel_ns);
  idiomrt_json_key(j, "transfer_ms");
  idiomrt_json_ms(j, e->transfer_ns);
  idiomrt_json_key(j, "run_ms");
  idiomrt_json_ms(j, e->run_ns);
  idiomrt_json_key(j, "fallbacks");
  idiomrt_json_uint(j, e->fallbacks + busy);
  /* The tuning fields are guarded by e->lock (see report_text). */
  idiomrt_json_key(j, "variants");
  if (have_lock && e->nvariants)
    idiomrt_json_uint(j, e->nvariants);
  else
    idiomrt_json_null(j);
  idiomrt_json_key(j, "tune_ms");
  idiomrt_json_ms(j, have_lock ? e->tune_ns : 0);
  {
    unsigned out = 0;
    const char *why = have_lock ? rest_left_out(e, &out) : NULL;
    idiomrt_json_key(j, "variants_left_out");
    idiomrt_json_uint(j, out);
    idiomrt_json_key(j, "left_out_why");
    idiomrt_json_string(j, out ? why : NULL);
  }
  char tuning[2048];
  size_t len = 0;
  tuning[0] = '\0';
  idiomrt_json_key(j, "tuning_classes");
  idiomrt_json_begin_array(j);
  for (unsigned c = 0; have_lock && c < IDIOMRT_SIZE_CLASSES; ++c) {
    if (e->chosen[c] < 0 || e->tuned[c] == IDIOMRT_TUNED_NONE)
      continue;
    const char *how = idiomrt_tuned_name(e->tuned[c]);
    idiomrt_json_begin_object(j);
    idiomrt_json_key(j, "class");
    idiomrt_json_uint(j, c);
    idiomrt_json_key(j, "variant");
    idiomrt_json_uint(j, (uint64_t)e->chosen[c]);
    idiomrt_json_key(j, "tuned");
    idiomrt_json_string(j, how);
    idiomrt_json_end_object(j);
    if (len < sizeof tuning) {
      int k = snprintf(tuning + len, sizeof tuning - len,
                       "%sclass %u: variant %d tuned=%s", len ? "; " : "", c,
                       (int)e->chosen[c], how);
      if (k > 0)
        len += (size_t)k;
    }
  }
  idiomrt_json_end_array(j);
  idiomrt_json_key(j, "tuning");
  idiomrt_json_string(j, len ? tuning : NULL);
  idiomrt_cost_json(e, j);
  idiomrt_json_key(j, "reasons");
  idiomrt_json_begin_object(j);
  for (unsigned i = 0; i < e->nreasons; ++i) {
    idiomrt_json_key(j, e->reasons[i].text);
    idiomrt_json_uint(j, e->reasons[i].count);
  }
  if (busy) {
    idiomrt_json_key(j, "runtime busy (re-entered)");
    idiomrt_json_uint(j, busy);
  }
  if (e->other_reasons) {
    idiomrt_json_key(j, "(other)");
    idiomrt_json_uint(j, e->other_reasons);
  }
  idiomrt_json_end_object(j);
  idiomrt_json_key(j, "bytes_in");
  idiomrt_json_uint(j, e->bytes_in);
  idiomrt_json_key(j, "bytes_out");
  idiomrt_json_uint(j, e->bytes_out);
  idiomrt_json_end_object(j);
  t->sites++;
  t->calls += e->calls + busy;
  t->offloaded += e->offloaded;
  t->fallbacks += e->fallbacks + busy;
  t->kernel_ns += e->kernel_ns;
  t->transfer_ns += e->transfer_ns;
  t->tune_ns += have_lock ? e->tune_ns : 0;
  t->host_ns += e->cost.host_ns;
  t->bytes_in += e->bytes_in;
  t->bytes_out += e->bytes_out;
  pthread_mutex_unlock(&e->stats_lock);
  if (have_lock)
    pthread_mutex_unlock(&e->lock);
}

/* The whole report as one JSON document (schema: README.md, "Statistics
   as JSON"; idiom_stats_version 1). */
static void report_json(FILE *f) {
  const idiomrt_config *cfg = idiomrt_config_get();
  const idiomrt_device *dev = idiomrt_device_peek();
  idiomrt_json j;
  idiomrt_json_init(&j, f);
  idiomrt_json_begin_object(&j);
  idiomrt_json_key(&j, "idiom_stats_version");
  idiomrt_json_uint(&j, 1);
  idiomrt_json_key(&j, "program");
  idiomrt_json_string(&j, program_invocation_name && *program_invocation_name
                              ? program_invocation_name
                              : NULL);
  idiomrt_json_key(&j, "pid");
  idiomrt_json_uint(&j, (uint64_t)getpid());
  idiomrt_json_key(&j, "device");
  idiomrt_json_string(&j, dev ? dev->name : NULL);
  idiomrt_json_key(&j, "platform");
  idiomrt_json_string(&j, dev ? dev->platform_name : NULL);
  if (idiomrt_device2_peek()) { /* the second (CPU) device, when opened */
    idiomrt_json_key(&j, "second_device");
    idiomrt_json_string(&j, idiomrt_device2_peek()->name);
  }
  idiomrt_json_key(&j, "device_preference");
  idiomrt_json_string(&j, device_pref_name(cfg->device_pref));
  idiomrt_json_key(&j, "cost_model");
  idiomrt_json_bool(&j, cfg->cost);
  stats_totals t;
  memset(&t, 0, sizeof t);
  idiomrt_json_key(&j, "sites");
  idiomrt_json_begin_array(&j);
  for (idiomrt_entry *e = idiomrt_entry_first(); e; e = idiomrt_entry_next(e))
    json_site(&j, e, dev, &t);
  for (unsigned i = 0; i < BUSY_SLOTS; ++i) {
    const idiom_kernel_desc *d =
        __atomic_load_n(&g_busy[i].desc, __ATOMIC_ACQUIRE);
    if (!d || idiomrt_entry_try(d))
      continue;
    json_busy_site(&j, d, dev ? dev->name : NULL,
                   __atomic_load_n(&g_busy[i].count, __ATOMIC_RELAXED), &t);
  }
  idiomrt_json_end_array(&j);
  uint64_t over = __atomic_load_n(&g_busy_overflow, __ATOMIC_RELAXED);
  idiomrt_json_key(&j, "totals");
  idiomrt_json_begin_object(&j);
  idiomrt_json_key(&j, "sites");
  idiomrt_json_uint(&j, t.sites);
  idiomrt_json_key(&j, "calls");
  idiomrt_json_uint(&j, t.calls + over);
  idiomrt_json_key(&j, "offloaded");
  idiomrt_json_uint(&j, t.offloaded);
  idiomrt_json_key(&j, "fallbacks");
  idiomrt_json_uint(&j, t.fallbacks + over);
  idiomrt_json_key(&j, "kernel_ms");
  idiomrt_json_ms(&j, t.kernel_ns);
  idiomrt_json_key(&j, "transfer_ms");
  idiomrt_json_ms(&j, t.transfer_ns);
  idiomrt_json_key(&j, "tune_ms");
  idiomrt_json_ms(&j, t.tune_ns);
  idiomrt_json_key(&j, "host_ms");
  idiomrt_json_ms(&j, t.host_ns);
  idiomrt_json_key(&j, "bytes_in");
  idiomrt_json_uint(&j, t.bytes_in);
  idiomrt_json_key(&j, "bytes_out");
  idiomrt_json_uint(&j, t.bytes_out);
  idiomrt_json_key(&j, "busy_declines_untracked");
  idiomrt_json_uint(&j, over);
  idiomrt_json_end_object(&j);
  uint64_t r[6];
  idiomrt_resid_counts(r);
  static const char *const rnames[6] = {"regions", "reused",  "syncs",
                                        "flushed_bytes", "evicted",
                                        "device_copies"};
  idiomrt_json_key(&j, "residency");
  idiomrt_json_begin_object(&j);
  for (int i = 0; i < 6; ++i) {
    idiomrt_json_key(&j, rnames[i]);
    idiomrt_json_uint(&j, r[i]);
  }
  idiomrt_json_end_object(&j);
  idiomrt_json_end_object(&j);
  fflush(f);
}

/* Writes the JSON report to path, replacing "%p" by the process id:
   written to a temporary file beside it, then renamed, so a reader never
   sees half a document. Returns 0, or -1 with a message on stderr. */
static int report_json_file(const char *path) {
  char name[PATH_MAX], tmp[PATH_MAX];
  size_t n = 0;
  for (const char *p = path; *p && n + 24 < sizeof name; ++p) {
    if (p[0] == '%' && p[1] == 'p') {
      n += (size_t)snprintf(name + n, sizeof name - n, "%ld", (long)getpid());
      ++p;
    } else {
      name[n++] = *p;
    }
  }
  name[n] = '\0';
  int k = snprintf(tmp, sizeof tmp, "%s.tmp.%ld", name, (long)getpid());
  if (k <= 0 || (size_t)k >= sizeof tmp) {
    fprintf(stderr, "idiom: IDIOM_STATS: file name too long: %s\n", path);
    return -1;
  }
  FILE *f = fopen(tmp, "w");
  if (!f) {
    fprintf(stderr, "idiom: IDIOM_STATS: cannot write %s: %s\n", tmp,
            strerror(errno));
    return -1;
  }
  report_json(f);
  int bad = ferror(f);
  if (fclose(f) != 0 || bad || rename(tmp, name) != 0) {
    fprintf(stderr, "idiom: IDIOM_STATS: cannot write %s: %s\n", name,
            strerror(errno));
    remove(tmp);
    return -1;
  }
  return 0;
}

void idiomrt_stats_report(void) {
  const idiomrt_config *cfg = idiomrt_config_get();
  switch (cfg->stats) {
  case IDIOMRT_STATS_JSON:
    report_json(stderr);
    break;
  case IDIOMRT_STATS_JSON_FILE:
    report_json_file(cfg->stats_file);
    break;
  default:
    report_text();
    break;
  }
}

int idiom_stats_write_json(const char *path) {
  if (!path || !*path) {
    report_json(stderr);
    return ferror(stderr) ? -1 : 0;
  }
  return report_json_file(path);
}
