/*===- test_hint.c - Per-site host hints of the cost model ----------------===*
 *
 * Cases of idiomrt_test (listed in test_idiomrt.c's table) for the host
 * hint (idiomrt.h, idiom_host_hint): the caller below follows the contract
 * the plugin's stitched code follows (passes/Stitching.cpp): it reads the
 * site's hint word before idiom_run and, while its size tag matches and
 * calls are left, runs the loop without calling the runtime (after the
 * fallback's region sync). A tiny call repeated 3000 times reaches
 * idiom_run 7 times (hints of 64 calls, doubling up to 1024); the stats
 * count every call; inside a residency region that holds nothing on the device the same; a site whose size grows
 * is decided afresh and goes to the device when the device wins (the host
 * loop made slow on purpose, as case_policy_starting does).
 *
 *===----------------------------------------------------------------------===*/
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include "rt_internal.h"
#include "test_common.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

/* y[i] = a * x[i] + y[i];  args: n, a, x (IN), y (INOUT) */
static const char hscale_src[] =
    "__kernel void hscale(const int n, const float a,\n"
    "                     __global const float *x, __global float *y) {\n"
    "  size_t i = get_global_id(0);\n"
    "  if (i < (size_t)n) y[i] = a * x[i] + y[i];\n"
    "}\n";
static const idiom_kernel_desc hscale_desc = {
    "hscale", "test_hint.c:hscale", "map", hscale_src, IDIOM_MAP, 1, 0, 0,
    NULL};

static double now_s(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static uint64_t g_word; /* the site's hint word */
static int g_runs;      /* idiom_run calls made */

/* 1, counted in *calls (may be NULL), while idiom_pending_work is nonzero:
   a guarded call is made (passes/PendingGuards.h). */
static int pending_call(int *calls) {
  if (!__atomic_load_n(&idiom_pending_work, __ATOMIC_RELAXED))
    return 0;
  if (calls)
    ++*calls;
  return 1;
}

/* The site as the plugin stitches it (test_common.h). */
int hint_site(float *x, float *y, int n, unsigned extra_host_us, int guarded,
              int *calls) {
  uint64_t key = (uint64_t)n;
  uint64_t tag = 64 - (uint64_t)__builtin_clzll(key);
  uint64_t one = 1ull << IDIOM_HINT_TAG_BITS;
  uint64_t h = __atomic_load_n(&g_word, __ATOMIC_RELAXED);
  uint64_t t = h & (one - 1); /* as passes/Stitching.cpp emits it */
  int skip = (t == tag || t >= tag + IDIOM_HINT_BELOW) && h >= one;
  if (skip) {
    __atomic_store_n(&g_word, h - one, __ATOMIC_RELAXED);
  } else {
    idiom_arg args[4] = {i32(n), f32(2.0f),
                         buf(IDIOM_ARG_BUF_IN, x, 4ull * n),
                         buf(IDIOM_ARG_BUF_INOUT, y, 4ull * n)};
    uint64_t sizes[1] = {(uint64_t)n};
    g_runs++;
    if (idiom_run(&hscale_desc, args, 4, sizes, NULL))
      return 1;
    idiom_host_hint(&hscale_desc, &g_word, key);
    idiom_host_begin(&hscale_desc);
  }
  /* the fallback's, inside a region */
  if (!guarded || pending_call(calls))
    idiom_region_sync();
  for (int i = 0; i < n; ++i)
    y[i] = 2.0f * x[i] + y[i];
  if (extra_host_us) {
    double until = now_s() + extra_host_us / 1e6;
    while (now_s() < until)
      ;
  }
  /* on every path, as the plugin does */
  if (!guarded || pending_call(calls))
    idiom_host_end_site(&g_word);
  return 0;
}

/* The site of the cases below: unguarded. */
static int site(float *x, float *y, int n, unsigned extra_host_us) {
  return hint_site(x, y, n, extra_host_us, 0, NULL);
}

const idiom_kernel_desc *hint_desc(void) { return &hscale_desc; }
uint64_t *hint_word(void) { return &g_word; }
int hint_runs(void) { return g_runs; }

/* Small integers: every sum below is exact in float. */
void hint_fill(float *x, float *y, int n) {
  for (int i = 0; i < n; ++i) {
    x[i] = (float)(i % 64);
    y[i] = (float)(i % 13);
  }
}

/* 1 when y[i] = y0[i] + k * 2 * x[i] for every i < n, y0 and x as fill
   makes them (k applications of y = 2x + y). */
int hint_check_y(const float *y, int n, int k) {
  for (int i = 0; i < n; ++i) {
    float want = (float)(i % 13) + (float)k * 2.0f * (float)(i % 64);
    if (y[i] != want) {
      fprintf(stderr, "y[%d] = %g, want %g\n", i, y[i], want);
      return 0;
    }
  }
  return 1;
}

/* The JSON report's count of decision `name` for the site, or -1. */
static long long json_decision(const char *name) {
  const char *path = "hint-stats.json";
  if (idiom_stats_write_json(path) != 0)
    return -1;
  FILE *f = fopen(path, "r");
  if (!f)
    return -1;
  static char text[1 << 16];
  size_t len = fread(text, 1, sizeof text - 1, f);
  fclose(f);
  remove(path);
  text[len] = '\0';
  char key[64];
  snprintf(key, sizeof key, "\"%s\":", name);
  const char *p = strstr(text, key);
  return p ? atoll(p + strlen(key)) : 0;
}

enum { TINY = 4096, TINY_CALLS = 3000 };

/* What the cost model guarantees of the tiny site's calls (its loop about a
   microsecond, no device started), and no more: the first call measures
   the host (host-explore); a decision on a host estimate below the device
   floor is host-floor and hints HINT_CALLS (64) calls, which the next calls
   use up; one on an estimate above the floor would explore the device,
   which is not started for a loop this short (host-prestart), and hints
   nothing. The estimate is the first sample, then the mean of two, then
   the median of three: a sample that a preemption or a busy core inflated
   past the floor (about 5.5 us before calibration) makes host-prestart
   decisions until it is outvoted, so how many there are depends on the
   machine's load, and idiom_run's calls with them (7 for 3000 calls
   only when no sample exceeds the floor: CI under load once had 50
   for 3000 calls, the first sample inflated; case_hint_outlier makes that
   happen on purpose). Checked exactly: every call is one decision, those
   that skipped idiom_run are host-hint, those that reached it are
   host-explore (at least the first), host-floor or host-prestart, and the
   hints' calls are at least 64 per host-floor decision (fewer only for the
   last, cut by the end of the calls) and at most 64, 128, 256, 512, then
   1024 for the host-floor decisions in a row (costmodel.c,
   HINT_GROW_MAX). dec: counts per decision
   (IDIOMRT_NDECISIONS). Returns 1 when all hold. */
int hint_check_decisions(const uint64_t *dec, int runs, int calls) {
  uint64_t all = 0;
  for (int d = 0; d < IDIOMRT_NDECISIONS; ++d)
    all += dec[d];
  uint64_t hinted = dec[IDIOMRT_DEC_HOST_HINT];
  uint64_t floor = dec[IDIOMRT_DEC_CANNOT_WIN];
  uint64_t explore = dec[IDIOMRT_DEC_EXPLORE_HOST];
  uint64_t prestart = dec[IDIOMRT_DEC_PRESTART];
  uint64_t most = 0; /* the doubling's hints of `floor` decisions */
  for (uint64_t i = 0; i < floor; ++i)
    most += 64ull << (i < 4 ? i : 4);
  int ok = all == (uint64_t)calls && hinted == (uint64_t)(calls - runs) &&
           explore >= 1 && floor + explore + prestart == (uint64_t)runs &&
           hinted <= most && hinted + 64 >= 64 * floor;
  if (!ok)
    fprintf(stderr,
            "decisions of %d calls, %d of them in idiom_run: %llu in all, "
            "host-hint %llu, host-floor %llu, host-explore %llu, "
            "host-prestart %llu\n",
            calls, runs, (unsigned long long)all,
            (unsigned long long)hinted, (unsigned long long)floor,
            (unsigned long long)explore, (unsigned long long)prestart);
  return ok;
}

/* The tiny site's decisions from the JSON report (every decision's name). */
static void json_decisions(uint64_t *dec) {
  for (int d = 0; d < IDIOMRT_NDECISIONS; ++d) {
    long long v = json_decision(idiomrt_decision_name(d));
    dec[d] = v > 0 ? (uint64_t)v : 0;
  }
}

/* A microsecond of work per call: host-floor after the first call, then a
   hint after every decision (64 calls, doubling up to 1024): idiom_run
   sees 7 of 3000 calls (hint_check_decisions: exactly that when no host
   sample exceeds the device floor), the word holds the class's tag, and
   the stats count all the calls. */
void case_hint_tiny(void) {
  setenv("IDIOM_COST", "on", 1);
  float *x = malloc(4ull * TINY), *y = malloc(4ull * TINY);
  hint_fill(x, y, TINY);
  int off = 0;
  for (int k = 0; k < TINY_CALLS; ++k)
    off += site(x, y, TINY, 0);
  CHECK_MSG(off == 0, "%d tiny calls offloaded", off);
  CHECK(hint_check_y(y, TINY, TINY_CALLS));
  CHECK_MSG((g_word & 255) == 13, "hint word %llx: tag of 4096 is 13",
            (unsigned long long)g_word);
  uint64_t dec[IDIOMRT_NDECISIONS];
  json_decisions(dec);
  CHECK(hint_check_decisions(dec, g_runs, TINY_CALLS));
  free(x);
  free(y);
}

/* The tiny site whose first host sample is inflated, as a preemption under
   load inflates it (20 ms spun inside the measured run: far above any
   device floor): the estimate from it alone and the mean of two are above
   the floor, so the second and third calls decline host-prestart without a
   hint; the median of three outvotes it and the rest is as in
   case_hint_tiny. The guarantees of hint_check_decisions hold, with the
   host-prestart decisions among idiom_run's calls. */
void case_hint_outlier(void) {
  setenv("IDIOM_COST", "on", 1);
  float *x = malloc(4ull * TINY), *y = malloc(4ull * TINY);
  hint_fill(x, y, TINY);
  int off = site(x, y, TINY, 20000);
  for (int k = 1; k < TINY_CALLS; ++k)
    off += site(x, y, TINY, 0);
  CHECK_MSG(off == 0, "%d tiny calls offloaded", off);
  CHECK(hint_check_y(y, TINY, TINY_CALLS));
  uint64_t dec[IDIOMRT_NDECISIONS];
  json_decisions(dec);
  CHECK(hint_check_decisions(dec, g_runs, TINY_CALLS));
  CHECK_MSG(dec[IDIOMRT_DEC_PRESTART] >= 2, "host-prestart %llu",
            (unsigned long long)dec[IDIOMRT_DEC_PRESTART]);
  CHECK_MSG((uint64_t)g_runs >= 3 + dec[IDIOMRT_DEC_CANNOT_WIN],
            "idiom_run called %d times", g_runs);
  free(x);
  free(y);
}

/* Inside a residency region: no hint is given (a host run there syncs the
   region) and a hint given before is not followed while the region is
   open. */
uint64_t idiomrt_resid_bytes(void); /* rt_internal.h */

void case_hint_region(void) {
  setenv("IDIOM_COST", "on", 1);
  float *x = malloc(4ull * TINY), *y = malloc(4ull * TINY);
  hint_fill(x, y, TINY);
  for (int k = 0; k < 10; ++k)
    site(x, y, TINY, 0);
  CHECK_MSG(g_word >> IDIOM_HINT_TAG_BITS, "no hint before the region");
  /* inside a region that holds nothing on the device the hint is given
     and followed as outside (a hinted call syncs the region first, as a
     declined one does) */
  int before = g_runs;
  g_word = 0;
  idiom_region_begin();
  for (int k = 0; k < 100; ++k)
    site(x, y, TINY, 0);
  CHECK_MSG(g_word >> IDIOM_HINT_TAG_BITS, "no hint inside the region");
  CHECK_MSG(g_runs - before < 10, "%d of 100 calls in the region reached "
            "idiom_run", g_runs - before);
  CHECK_MSG(idiomrt_resid_bytes() == 0,
            "the region holds bytes on the device");
  idiom_region_end();
  before = g_runs;
  site(x, y, TINY, 0);
  CHECK_MSG(g_runs - before <= 1, "after the region: runs %d -> %d", before,
            g_runs);
  CHECK(hint_check_y(y, TINY, 111));
  free(x);
  free(y);
}

/* Calls the site at size n with a host loop of 200 ms a call (the device,
   milliseconds, wins) until one call is offloaded (at most 400 calls or
   120 s); returns the calls made. */
static int offload_slow(float *x, float *y, int n) {
  int big_calls = 0, offloaded = 0;
  double deadline = now_s() + 120;
  while (!offloaded && now_s() < deadline && big_calls < 400) {
    offloaded = site(x, y, n, 200000);
    big_calls++;
  }
  CHECK_MSG(offloaded, "the large size never went to the device in %d "
            "calls", big_calls);
  return big_calls;
}

/* A hint given inside a region while it holds nothing on the device is cut
   short once the region holds bytes there (costmodel.c,
   cancel_region_hints): a CG's SpMV hinted at the device's start synced the
   region at each of 64 iterations while the other sites ran on the device.
   With zero-copy off (PoCL then holds device copies in a region), the tiny
   class is hinted inside the region; the large class (a 200 ms host loop)
   then goes to the device and fills the region; the next decision cuts the
   tiny class's hint (its word keeps its tag, no calls left), so its next
   call reaches idiom_run. Without the cut the word still had calls. */
void case_hint_region_cancel(void) {
  setenv("IDIOM_COST", "on", 1);
  setenv("IDIOM_ZERO_COPY", "off", 1);
  enum { BIG = 1 << 20 };
  float *x = malloc(4ull * BIG), *y = malloc(4ull * BIG);
  hint_fill(x, y, BIG);
  idiom_region_begin();
  for (int k = 0; k < 10; ++k)
    site(x, y, TINY, 0);
  CHECK_MSG(g_word >> IDIOM_HINT_TAG_BITS, "no hint inside the region");
  CHECK_MSG(idiomrt_resid_bytes() == 0, "the region holds bytes already");
  int big_calls = offload_slow(x, y, BIG);
  CHECK_MSG(idiomrt_resid_bytes() > 0, "the region holds nothing");
  /* the next decision (another large call) cuts the tiny class's hint */
  big_calls++;
  site(x, y, BIG, 200000);
  CHECK_MSG((g_word & ((1ull << IDIOM_HINT_TAG_BITS) - 1)) == 13 &&
                g_word >> IDIOM_HINT_TAG_BITS == 0,
            "the tiny class's hint was not cut short: word %llx",
            (unsigned long long)g_word);
  int before = g_runs;
  site(x, y, TINY, 0);
  CHECK_MSG(g_runs == before + 1, "the tiny call did not reach idiom_run");
  idiom_region_end();
  CHECK(hint_check_y(y, TINY, 11 + big_calls));
  for (int i = TINY; i < BIG; i += 4099) {
    float want = (float)(i % 13) + (float)big_calls * 2.0f * (float)(i % 64);
    CHECK_MSG(y[i] == want, "y[%d] = %g, want %g", i, y[i], want);
  }
  free(x);
  free(y);
}

/* The size grows: the hint of the small class does not match the large
   one, whose calls reach the model, which sends them to the device once it
   measured the (slowed) host loop and the device; the small class is still
   kept on the host by its hint afterwards. */
void case_hint_grow(void) {
  setenv("IDIOM_COST", "on", 1);
  enum { BIG = 1 << 20 };
  float *x = malloc(4ull * BIG), *y = malloc(4ull * BIG);
  hint_fill(x, y, BIG);
  for (int k = 0; k < 200; ++k)
    site(x, y, TINY, 0);
  CHECK_MSG((g_word & 255) == 13, "small class: word %llx",
            (unsigned long long)g_word);
  int small_runs = g_runs;
  CHECK_MSG(small_runs < 20, "%d small calls reached idiom_run", small_runs);
  int big_calls = offload_slow(x, y, BIG);
  CHECK_MSG(g_runs - small_runs == big_calls,
            "%d of %d large calls reached idiom_run", g_runs - small_runs,
            big_calls);
  /* small again: host, and hinted again */
  int runs = g_runs, off = 0;
  for (int k = 0; k < 200; ++k)
    off += site(x, y, TINY, 0);
  CHECK_MSG(off == 0, "%d small calls offloaded after the large ones", off);
  CHECK_MSG(g_runs - runs < 20, "%d of 200 small calls reached idiom_run",
            g_runs - runs);
  CHECK_MSG((g_word & 255) == 13, "small class again: word %llx",
            (unsigned long long)g_word);
  /* elements below TINY saw every call, the rest only the large ones */
  CHECK(hint_check_y(y, TINY, 400 + big_calls));
  for (int i = TINY; i < BIG; i += 4099) {
    float want = (float)(i % 13) + (float)big_calls * 2.0f * (float)(i % 64);
    CHECK_MSG(y[i] == want, "y[%d] = %g, want %g", i, y[i], want);
  }
  free(x);
  free(y);
}

/* The test knob IDIOM_TEST_HOST (runtime/README.md; bench/host_overhead.sh
   counts a plugin build's instructions with every site on the host): a
   loop of 10 ms a call, which the device wins (case_hint_grow), never
   starts the device. Under `prestart` every call reaches idiom_run and
   declines host-prestart (the first: host-explore); under `floor` the
   first call measures the host, the second declines host-floor and hints,
   and the hint covers the rest. */
int idiomrt_startup_begun(void); /* rt_internal.h */

static void test_host_knob(const char *mode) {
  setenv("IDIOM_COST", "on", 1);
  setenv("IDIOM_TEST_HOST", mode, 1);
  enum { BIG = 1 << 20, CALLS = 40 };
  float *x = malloc(4ull * BIG), *y = malloc(4ull * BIG);
  hint_fill(x, y, BIG);
  int off = 0;
  unsigned long env_reads = 0;
  for (int k = 0; k < CALLS; ++k) {
    unsigned long before = __atomic_load_n(&g_getenv_calls, __ATOMIC_RELAXED);
    off += site(x, y, BIG, 10000);
    if (k >= 2) /* past the first calls (configuration, profile, files) */
      env_reads += __atomic_load_n(&g_getenv_calls, __ATOMIC_RELAXED) - before;
  }
  /* a declined call reads no environment (getenv scans it: tpacf's 512
     host-prestart calls spent 170,000 instructions there) */
  CHECK_MSG(env_reads == 0, "%lu getenv calls in %d declined calls", env_reads,
            CALLS - 2);
  CHECK_MSG(off == 0, "%d calls offloaded", off);
  CHECK_MSG(!idiomrt_startup_begun(), "the device start-up began");
  CHECK_MSG(json_decision("host-explore") == 1, "host-explore %lld",
            json_decision("host-explore"));
  if (strcmp(mode, "prestart") == 0) {
    CHECK_MSG(g_runs == CALLS, "%d of %d calls reached idiom_run", g_runs,
              CALLS);
    CHECK_MSG(json_decision("host-prestart") == CALLS - 1,
              "host-prestart %lld", json_decision("host-prestart"));
  } else {
    CHECK_MSG(g_runs == 2, "%d of %d calls reached idiom_run", g_runs, CALLS);
    CHECK_MSG(json_decision("host-floor") == 1 &&
                  json_decision("host-hint") == CALLS - 2,
              "host-floor %lld, host-hint %lld", json_decision("host-floor"),
              json_decision("host-hint"));
  }
  for (int i = 0; i < BIG; i += 4099) {
    float want = (float)(i % 13) + (float)CALLS * 2.0f * (float)(i % 64);
    CHECK_MSG(y[i] == want, "y[%d] = %g, want %g", i, y[i], want);
  }
  free(x);
  free(y);
}

void case_test_host_prestart(void) { test_host_knob("prestart"); }

void case_test_host_floor(void) { test_host_knob("floor"); }
