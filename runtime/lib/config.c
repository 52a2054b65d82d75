/*===- config.c - Environment of the Idiom runtime ------------------------===*
 *
 * Every IDIOM_* variable is read once, on the first call into the runtime.
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

static idiomrt_config g_config;
static pthread_once_t g_config_once = PTHREAD_ONCE_INIT;
/* The cache directories read so far (cache_dir_from_env), on the heap at
   their lengths: a PATH_MAX buffer of zero-initialised data was a page of
   its own at every start (bench/tiny_host.sh). Kept for the process, so a
   configuration copied earlier (idiomrt_config_preview) still points to
   its own: the preview's and the configuration's differ only when main
   changed the environment in between. */
#define CACHE_DIRS 4
static char *g_cache_dirs[CACHE_DIRS];
static int g_config_ready;

static int env_flag(const char *name) {
  const char *v = getenv(name);
  return v && *v && strcmp(v, "0") != 0;
}

static int device_pref_from_env(int quiet) {
  const char *v = getenv("IDIOM_DEVICE");
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

static uint64_t count_from_env(const char *name, uint64_t dflt, int *given,
                               int quiet) {
  const char *v = getenv(name);
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
static const char *cache_dir_from_env(void) {
  const char *v = getenv("IDIOM_CACHE_DIR");
  if (v && *v)
    return strcmp(v, "off") == 0 ? NULL : kept_dir(v, "");
  if ((v = getenv("XDG_CACHE_HOME")) && v[0] == '/')
    return kept_dir(v, "/idiom");
  if ((v = getenv("HOME")) && *v)
    return kept_dir(v, "/.cache/idiom");
  return NULL;
}

static int tune_from_env(int quiet) {
  const char *v = getenv("IDIOM_TUNE");
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
static int variant_from_env(int quiet) {
  const char *v = getenv("IDIOM_VARIANT");
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
static int cost_from_env(const idiomrt_config *c, int quiet) {
  const char *v = getenv("IDIOM_COST");
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
static int stats_from_env(const char **file) {
  const char *v = getenv("IDIOM_STATS");
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
static int test_host_from_env(int quiet) {
  const char *v = getenv("IDIOM_TEST_HOST");
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

/* Reads the environment into *c; no side effects but the warnings about
   malformed values, which quiet leaves out. */
static void fill_config(idiomrt_config *c, int quiet) {
  memset(c, 0, sizeof *c);
  c->device_pref = device_pref_from_env(quiet);
  c->device_explicit = c->device_pref == IDIOMRT_DEV_GPU ||
                       c->device_pref == IDIOMRT_DEV_CPU;
  c->stats = stats_from_env(&c->stats_file);
  c->debug = env_flag("IDIOM_DEBUG");
  const char *dbg = getenv("IDIOM_DEBUG");
  c->debug_time = dbg && strcmp(dbg, "time") == 0;
  c->min_trip =
      count_from_env("IDIOM_MIN_TRIP", 4096, &c->min_trip_explicit, quiet);
  c->tune_min =
      count_from_env("IDIOM_TUNE_MIN", (uint64_t)1 << 20, NULL, quiet);
  c->tune_sample =
      count_from_env("IDIOM_TUNE_SAMPLE", (uint64_t)1 << 22, NULL, quiet);
  c->row_block_iters = (uint32_t)count_from_env(
      "IDIOM_ROW_BLOCK_ITERS", IDIOMRT_ROW_BLOCK_ITERS, NULL, quiet);
  if (c->row_block_iters < 1 || c->row_block_iters > 1024) {
    if (!quiet)
      fprintf(stderr, "idiom: warning: IDIOM_ROW_BLOCK_ITERS is not 1 .. 1024; "
                      "using %d\n", IDIOMRT_ROW_BLOCK_ITERS);
    c->row_block_iters = IDIOMRT_ROW_BLOCK_ITERS;
  }
  c->cost = cost_from_env(c, quiet);
  {
    const char *ps = getenv("IDIOM_PARTIAL_SYNC");
    c->partial_sync = !(ps && (strcasecmp(ps, "off") == 0 ||
                               strcmp(ps, "0") == 0));
    const char *rh = getenv("IDIOM_REGION_HOLD");
    c->region_hold = !(rh && (strcasecmp(rh, "off") == 0 ||
                              strcmp(rh, "0") == 0));
  }
  c->test_host = c->cost ? test_host_from_env(quiet) : IDIOMRT_TEST_HOST_OFF;
  c->cache_dir = cache_dir_from_env();
  const char *lib = getenv("IDIOM_OPENCL_LIBRARY");
  c->opencl_library = (lib && *lib) ? lib : "libOpenCL.so.1";
  c->tune = tune_from_env(quiet);
  c->variant = variant_from_env(quiet);
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
  pthread_once(&g_config_once, config_init);
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
