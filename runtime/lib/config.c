/*===- config.c - Environment of the Idiom runtime ------------------------===*
 *
 * Every IDIOM_* variable is read once, on the first call into the runtime,
 * in one pass over environ (env_scan): the 18 getenv calls this took walked
 * the environment 18 times, twice per process (the constructor's preview,
 * then the configuration), about 11,000 instructions at every start
 * (bench/fixed_cost.sh).
 *
 *===----------------------------------------------------------------------===*/
#include "rt_internal.h"

#include <errno.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>

IDIOMRT_START_DATA static idiomrt_config g_config;
IDIOMRT_START_DATA static idiomrt_once g_config_once = IDIOMRT_ONCE_INIT;
/* The cache directories read so far (cache_dir_from_env), on the heap at
   their lengths: a PATH_MAX buffer of zero-initialised data was a page of
   its own at every start (bench/tiny_host.sh). Kept for the process, so a
   configuration copied earlier (idiomrt_config_preview) still points to
   its own: the preview's and the configuration's differ only when main
   changed the environment in between. */
#define CACHE_DIRS 4
IDIOMRT_START_DATA static char *g_cache_dirs[CACHE_DIRS];
IDIOMRT_START_DATA static int g_config_ready;

/* The variables the configuration reads (env_scan). */
enum {
  ENV_DEVICE, ENV_STATS, ENV_DEBUG, ENV_MIN_TRIP, ENV_TUNE_MIN,
  ENV_TUNE_SAMPLE, ENV_ROW_BLOCK_ITERS, ENV_COST, ENV_PARTIAL_SYNC,
  ENV_REGION_HOLD, ENV_TEST_HOST, ENV_CACHE_DIR, ENV_OPENCL_LIBRARY,
  ENV_TUNE, ENV_VARIANT, ENV_PROFILE, ENV_XDG_CACHE_HOME, ENV_HOME, ENV_COUNT
};
static const char *const k_env_names[ENV_COUNT] = {
    "IDIOM_DEVICE",    "IDIOM_STATS",          "IDIOM_DEBUG",
    "IDIOM_MIN_TRIP",  "IDIOM_TUNE_MIN",       "IDIOM_TUNE_SAMPLE",
    "IDIOM_ROW_BLOCK_ITERS", "IDIOM_COST",     "IDIOM_PARTIAL_SYNC",
    "IDIOM_REGION_HOLD", "IDIOM_TEST_HOST",    "IDIOM_CACHE_DIR",
    "IDIOM_OPENCL_LIBRARY", "IDIOM_TUNE",      "IDIOM_VARIANT",
    "IDIOM_PROFILE",   "XDG_CACHE_HOME",       "HOME"};

/* The values of k_env_names (NULL: unset; the first of a name given twice,
   as getenv), and the hash of the IDIOM_* variables (hashed_var). */
typedef struct env_snapshot {
  const char *v[ENV_COUNT];
  uint64_t hash;
} env_snapshot;

extern char **environ;

/* 1 when entry e is "IDIOM_...". */
static int idiom_var(const char *e) {
  return e[0] == 'I' && e[1] == 'D' && e[2] == 'I' && e[3] == 'O' &&
         e[4] == 'M' && e[5] == '_';
}

/* The value of entry e when its name is name, else NULL. */
static const char *env_value(const char *e, const char *name) {
  while (*name && *e == *name)
    ++e, ++name;
  return !*name && *e == '=' ? e + 1 : NULL;
}

/* 1 when IDIOM_* entry e counts in the environment's hash: every variable
   but IDIOM_EXIT_DETACH and the diagnostics IDIOM_DEBUG and IDIOM_STATS,
   which print decisions
   and never change one. With them in the hash, a run with IDIOM_STATS=1
   after runs without it was not the last run's environment, so it started
   the device late (no early start, profile.c) and showed the user other
   decisions than the runs it was meant to explain (a warm Jacobi on the
   H200: the device ready at 635 ms instead of about 250 ms). */
static int hashed_var(const char *e) {
  /* IDIOM_EXIT_DETACH (device.c) changes only what happens after the
     last decision; hashed, the first run after a change of it started
     the device late (bench/detach_ab.sh: 600 against 250 ms) */
  return !env_value(e, "IDIOM_DEBUG") && !env_value(e, "IDIOM_STATS") &&
         !env_value(e, "IDIOM_EXIT_DETACH");
}

static void env_scan(env_snapshot *s) {
  memset(s, 0, sizeof *s);
  for (char **e = environ; e && *e; ++e) {
    const char *x = *e;
    int idiom = idiom_var(x);
    if (idiom) {
      if (hashed_var(x))
        s->hash += idiomrt_fnv1a(IDIOMRT_FNV_OFFSET, x, strlen(x));
    } else if (x[0] != 'X' && x[0] != 'H')
      continue;
    for (unsigned i = idiom ? 0 : ENV_XDG_CACHE_HOME;
         i < (idiom ? ENV_XDG_CACHE_HOME : ENV_COUNT); ++i) {
      const char *v;
      if (!s->v[i] && (v = env_value(x, k_env_names[i]))) {
        s->v[i] = v;
        break;
      }
    }
  }
}

uint64_t idiomrt_env_hash(void) {
  uint64_t h = 0;
  for (char **e = environ; e && *e; ++e)
    if (idiom_var(*e) && hashed_var(*e))
      h += idiomrt_fnv1a(IDIOMRT_FNV_OFFSET, *e, strlen(*e));
  return h;
}

static int flag_set(const char *v) { return v && *v && strcmp(v, "0") != 0; }

static int device_pref_from_env(const char *v, int quiet) {
  /* A default linked into the program (idiom-cc --idiom-device=D) when the
     variable is unset or empty. */
  if ((!v || !*v) && idiomrt_default_device)
    v = idiomrt_default_device();
  if (!v || !*v || strcasecmp(v, "auto") == 0)
    return IDIOMRT_DEV_AUTO;
  if (strcasecmp(v, "gpu") == 0)
    return IDIOMRT_DEV_GPU;
  if (strcasecmp(v, "cpu") == 0)
    return IDIOMRT_DEV_CPU;
  if (strcasecmp(v, "seq") == 0)
    return IDIOMRT_DEV_SEQ;
  if (!quiet)
    fprintf(stderr,
          "idiom: warning: IDIOM_DEVICE=%s is not one of auto, gpu, cpu, seq; "
          "using auto\n",
          v);
  return IDIOMRT_DEV_AUTO;
}

static uint64_t count_from_env(const char *name, const char *v, uint64_t dflt,
                               int *given, int quiet) {
  if (given)
    *given = 0;
  if (!v || !*v)
    return dflt;
  char *end = NULL;
  errno = 0;
  unsigned long long n = strtoull(v, &end, 10);
  if (errno != 0 || *end != '\0' || v[0] == '-') {
    if (!quiet)
      fprintf(stderr,
            "idiom: warning: %s=%s is not a number; using %llu\n", name, v,
            (unsigned long long)dflt);
    return dflt;
  }
  if (given)
    *given = 1;
  return (uint64_t)n;
}

/* v followed by suffix, as a kept string (g_cache_dirs): the one kept
   already when equal; NULL when it has PATH_MAX characters or more, on no
   memory, or when CACHE_DIRS others are kept. */
static const char *kept_dir(const char *v, const char *suffix) {
  size_t n = strlen(v), m = strlen(suffix);
  if (n + m >= PATH_MAX)
    return NULL;
  for (unsigned i = 0; i < CACHE_DIRS;) {
    char *k = __atomic_load_n(&g_cache_dirs[i], __ATOMIC_ACQUIRE);
    if (k) {
      if (strncmp(k, v, n) == 0 && strcmp(k + n, suffix) == 0)
        return k;
      ++i;
      continue;
    }
    char *s = malloc(n + m + 1);
    if (!s)
      return NULL;
    memcpy(s, v, n);
    memcpy(s + n, suffix, m + 1);
    if (__atomic_compare_exchange_n(&g_cache_dirs[i], &k, s, 0,
                                    __ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE))
      return s;
    free(s); /* another thread kept one here: look at it */
  }
  return NULL;
}

/* IDIOM_CACHE_DIR, else $XDG_CACHE_HOME/idiom, else $HOME/.cache/idiom. */
static const char *cache_dir_from_env(const env_snapshot *s) {
  const char *v = s->v[ENV_CACHE_DIR];
  if (v && *v)
    return strcmp(v, "off") == 0 ? NULL : kept_dir(v, "");
  if ((v = s->v[ENV_XDG_CACHE_HOME]) && v[0] == '/')
    return kept_dir(v, "/idiom");
  if ((v = s->v[ENV_HOME]) && *v)
    return kept_dir(v, "/.cache/idiom");
  return NULL;
}

static int tune_from_env(const char *v, int quiet) {
  if (!v || !*v || strcasecmp(v, "on") == 0 || strcmp(v, "1") == 0)
    return 1;
  if (strcasecmp(v, "off") == 0 || strcmp(v, "0") == 0)
    return 0;
  if (!quiet)
    fprintf(stderr,
            "idiom: warning: IDIOM_TUNE=%s is not on or off; using on\n", v);
  return 1;
}

/* IDIOM_VARIANT=K (0 .. IDIOMRT_MAX_VARIANTS-1), else -1. */
static int variant_from_env(const char *v, int quiet) {
  if (!v || !*v)
    return -1;
  char *end = NULL;
  long k = strtol(v, &end, 10);
  if (*end || k < 0 || k >= IDIOMRT_MAX_VARIANTS) {
    if (!quiet)
      fprintf(stderr, "idiom: warning: IDIOM_VARIANT=%s is not a variant number; ignored\n",
            v);
    return -1;
  }
  return (int)k;
}

/* IDIOM_COST: "on" or "off"; unset or "auto": on unless IDIOM_DEVICE names
   a device or IDIOM_MIN_TRIP is set (the settings tests use to force
   offloading). Never on under IDIOM_DEVICE=seq. */
static int cost_from_env(const idiomrt_config *c, const char *v, int quiet) {
  int dflt = !c->device_explicit && !c->min_trip_explicit;
  int on = dflt;
  if (!v || !*v || strcasecmp(v, "auto") == 0)
    on = dflt;
  else if (strcasecmp(v, "on") == 0 || strcmp(v, "1") == 0)
    on = 1;
  else if (strcasecmp(v, "off") == 0 || strcmp(v, "0") == 0)
    on = 0;
  else if (!quiet)
    fprintf(stderr,
            "idiom: warning: IDIOM_COST=%s is not on, off or auto; using "
            "auto\n",
            v);
  return on && c->device_pref != IDIOMRT_DEV_SEQ;
}

/* IDIOM_STATS: unset, empty or "0": off; "json": JSON on stderr; a value
   ending in ".json": JSON into that file; anything else: text. */
static int stats_from_env(const char *v, const char **file) {
  if (!v || !*v || strcmp(v, "0") == 0)
    return IDIOMRT_STATS_OFF;
  if (strcasecmp(v, "json") == 0)
    return IDIOMRT_STATS_JSON;
  size_t n = strlen(v);
  if (n > 5 && strcmp(v + n - 5, ".json") == 0) {
    *file = v;
    return IDIOMRT_STATS_JSON_FILE;
  }
  return IDIOMRT_STATS_TEXT;
}

/* IDIOM_TEST_HOST: "prestart" or "floor" (enum idiomrt_test_host); unset,
   empty or "0": off. Only with the cost model on. */
static int test_host_from_env(const char *v, int quiet) {
  if (!v || !*v || strcmp(v, "0") == 0)
    return IDIOMRT_TEST_HOST_OFF;
  if (strcasecmp(v, "prestart") == 0)
    return IDIOMRT_TEST_HOST_PRESTART;
  if (strcasecmp(v, "floor") == 0)
    return IDIOMRT_TEST_HOST_FLOOR;
  if (!quiet)
    fprintf(stderr, "idiom: warning: IDIOM_TEST_HOST=%s is not prestart or "
                    "floor; ignored\n", v);
  return IDIOMRT_TEST_HOST_OFF;
}

/* "off" or "0" (case-insensitive "off"). */
static int is_off(const char *v) {
  return v && (strcasecmp(v, "off") == 0 || strcmp(v, "0") == 0);
}

/* Reads the environment into *c; no side effects but the warnings about
   malformed values, which quiet leaves out. */
static void fill_config(idiomrt_config *c, int quiet) {
  env_snapshot s;
  env_scan(&s);
  const char *const *v = s.v;
  memset(c, 0, sizeof *c);
  c->device_pref = device_pref_from_env(v[ENV_DEVICE], quiet);
  c->device_explicit = c->device_pref == IDIOMRT_DEV_GPU ||
                       c->device_pref == IDIOMRT_DEV_CPU;
  c->stats = stats_from_env(v[ENV_STATS], &c->stats_file);
  c->debug = flag_set(v[ENV_DEBUG]);
  c->debug_time = v[ENV_DEBUG] && strcmp(v[ENV_DEBUG], "time") == 0;
  c->min_trip = count_from_env("IDIOM_MIN_TRIP", v[ENV_MIN_TRIP], 4096,
                               &c->min_trip_explicit, quiet);
  c->tune_min = count_from_env("IDIOM_TUNE_MIN", v[ENV_TUNE_MIN],
                               (uint64_t)1 << 20, NULL, quiet);
  c->tune_sample = count_from_env("IDIOM_TUNE_SAMPLE", v[ENV_TUNE_SAMPLE],
                                  (uint64_t)1 << 22, NULL, quiet);
  c->row_block_iters = (uint32_t)count_from_env(
      "IDIOM_ROW_BLOCK_ITERS", v[ENV_ROW_BLOCK_ITERS],
      IDIOMRT_ROW_BLOCK_ITERS, NULL, quiet);
  if (c->row_block_iters < 1 || c->row_block_iters > 1024) {
    if (!quiet)
      fprintf(stderr, "idiom: warning: IDIOM_ROW_BLOCK_ITERS is not 1 .. 1024; "
                      "using %d\n", IDIOMRT_ROW_BLOCK_ITERS);
    c->row_block_iters = IDIOMRT_ROW_BLOCK_ITERS;
  }
  c->cost = cost_from_env(c, v[ENV_COST], quiet);
  c->partial_sync = !is_off(v[ENV_PARTIAL_SYNC]);
  c->region_hold = !is_off(v[ENV_REGION_HOLD]);
  c->test_host = c->cost ? test_host_from_env(v[ENV_TEST_HOST], quiet)
                         : IDIOMRT_TEST_HOST_OFF;
  c->cache_dir = cache_dir_from_env(&s);
  const char *lib = v[ENV_OPENCL_LIBRARY];
  c->opencl_library = (lib && *lib) ? lib : "libOpenCL.so.1";
  c->opencl_library_explicit = lib && *lib;
  c->tune = tune_from_env(v[ENV_TUNE], quiet);
  c->variant = variant_from_env(v[ENV_VARIANT], quiet);
  c->profile = v[ENV_PROFILE];
  c->env_hash = s.hash;
}

static void config_init(void) {
  fill_config(&g_config, 0);
  if (g_config.stats)
    atexit(idiomrt_stats_report);
  idiomrt_process_init();
  __atomic_store_n(&g_config_ready, 1, __ATOMIC_RELEASE);
}

void idiomrt_config_preview(idiomrt_config *out) {
  const idiomrt_config *c = idiomrt_config_peek();
  if (c)
    *out = *c;
  else
    fill_config(out, 1); /* config_init warns, later */
}

const idiomrt_config *idiomrt_config_get(void) {
  idiomrt_once_run(&g_config_once, config_init);
  return &g_config;
}

const idiomrt_config *idiomrt_config_peek(void) {
  return __atomic_load_n(&g_config_ready, __ATOMIC_ACQUIRE) ? &g_config : NULL;
}

void idiomrt_debug(const char *fmt, ...) {
  if (!idiomrt_config_get()->debug)
    return;
  char line[1024];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(line, sizeof line, fmt, ap);
  va_end(ap);
  if (g_config.debug_time) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    uint64_t t = (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
    fprintf(stderr, "idiom: +%.3f ms: %s\n",
            (double)(t - idiomrt_profile_t0_ns()) / 1e6, line);
    return;
  }
  fprintf(stderr, "idiom: %s\n", line);
}
