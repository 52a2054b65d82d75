/*===- test_regionhold.c - A region's sites wait for each other's kernels -===*
 *
 * Cases of idiomrt_test for runtime/lib/region_hold.c: the entry points
 * launch.c calls (idiomrt_hold_note_building when a run in a region
 * declines because its kernels build; idiomrt_hold_reason before a device
 * run in a region), with the builds' state (bg_build) and the host
 * estimates set by hand: deterministic, no device and no timing involved.
 *
 *  - hold_region: site A noted building in a region; site B, whose host
 *    time is far below its bytes' device floor, is held (the reason names
 *    the region), A itself is not; once A's build is over (bg_build 2) B
 *    is not held, nor after A queues again (a new note is needed);
 *  - hold_pays: B's host time far above any device floor of its bytes:
 *    not held while A builds (a run that beats its own copies);
 *  - hold_scope: A noted outside a region is not kept; A noted in one
 *    region does not hold B in the next region, nor outside regions;
 *  - hold_off: IDIOM_REGION_HOLD=off (a child process): nothing is held;
 *  - hold_run: the same through idiom_run on PoCL with the cost model on:
 *    B built and measured (host 1 ms, device far faster), in a region
 *    while A builds: B declines with the hold's reason and its loop runs
 *    (y untouched); once A's build is over B runs on the device.
 *
 *===----------------------------------------------------------------------===*/
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include "rt_internal.h"
#include "test_common.h"

#include <stdlib.h>
#include <string.h>
#include <time.h>

static const char hold_src[] =
    "__kernel void hold(const int n, __global const float *x,\n"
    "                   __global float *y) {\n"
    "  size_t i = get_global_id(0);\n"
    "  if (i < (size_t)n) y[i] = x[i] + 1.0f;\n"
    "}\n";
static const idiom_kernel_desc hold_a = {
    "hold", "test_regionhold.c:a", "map", hold_src, IDIOM_MAP, 1, 0, 0, NULL};
static const idiom_kernel_desc hold_b = {
    "hold", "test_regionhold.c:b", "map", hold_src, IDIOM_MAP, 1, 0, 0, NULL};

enum { TRIP = 1 << 20 };
static float g_x[TRIP], g_y[TRIP];

/* Entry of d with its bg_build set to st and, when host_pi > 0, its class
   for TRIP iterations holding host samples of host_pi ns per iteration. */
static idiomrt_entry *entry(const idiom_kernel_desc *d, int st,
                            double host_pi) {
  idiomrt_entry *e = idiomrt_entry_get(d);
  CHECK(e != NULL);
  if (!e)
    exit(1);
  __atomic_store_n(&e->bg_build, st, __ATOMIC_RELEASE);
  if (host_pi > 0) {
    pthread_mutex_lock(&e->stats_lock);
    idiomrt_cost_class *c =
        idiomrt_cost_class_get(&e->cost, idiomrt_size_class(TRIP));
    CHECK(c != NULL);
    if (c) {
      memset(c, 0, sizeof *c);
      c->host_pi[0] = c->host_pi[1] = c->host_pi[2] = host_pi;
      c->host_est = host_pi;
      c->hn = 3;
    }
    pthread_mutex_unlock(&e->stats_lock);
  }
  return e;
}

/* idiomrt_hold_reason for e's run of TRIP iterations on x (IN), y (OUT). */
static const char *held(idiomrt_entry *e) {
  idiom_arg args[3] = {i32(TRIP), buf(IDIOM_ARG_BUF_IN, g_x, sizeof g_x),
                       buf(IDIOM_ARG_BUF_OUT, g_y, sizeof g_y)};
  return idiomrt_hold_reason(e, TRIP, args, 3);
}

/* B's host time: 1e-6 ns an iteration (about 1 ns a run), below any device
   floor (at least its latency); 1e6 ns an iteration (17 minutes a run),
   above any floor of its 12 MiB. */
#define FAST_HOST 1e-6
#define SLOW_HOST 1e6

void case_hold_region(void) {
  idiomrt_entry *a = entry(&hold_a, 1, 0), *b = entry(&hold_b, 0, FAST_HOST);
  idiom_region_begin();
  CHECK_MSG(held(b) == NULL, "held before any site was noted: %s", held(b));
  idiomrt_hold_note_building(a);
  const char *why = held(b);
  CHECK_MSG(why && strstr(why, "another site of the region"),
            "B not held while A builds (%s)", why ? why : "NULL");
  CHECK_MSG(held(a) == NULL, "A held for itself");
  __atomic_store_n(&a->bg_build, 2, __ATOMIC_RELEASE); /* A's build tried */
  CHECK_MSG(held(b) == NULL, "B held after A's build");
  __atomic_store_n(&a->bg_build, 1, __ATOMIC_RELEASE); /* queued again */
  CHECK_MSG(held(b) == NULL, "B held by A's old note");
  idiomrt_hold_note_building(a);
  CHECK_MSG(held(b) != NULL, "B not held after A's new note");
  idiom_region_end();
  CHECK_MSG(held(b) == NULL, "B held outside the region");
}

void case_hold_pays(void) {
  idiomrt_entry *a = entry(&hold_a, 1, 0), *b = entry(&hold_b, 0, SLOW_HOST);
  idiom_region_begin();
  idiomrt_hold_note_building(a);
  CHECK_MSG(held(b) == NULL, "a run that pays without residency held: %s",
            held(b));
  entry(&hold_b, 0, FAST_HOST);
  CHECK_MSG(held(b) != NULL, "the same site with a fast host not held");
  idiom_region_end();
}

void case_hold_scope(void) {
  idiomrt_entry *a = entry(&hold_a, 1, 0), *b = entry(&hold_b, 0, FAST_HOST);
  idiomrt_hold_note_building(a); /* outside a region: not kept */
  idiom_region_begin();
  CHECK_MSG(held(b) == NULL, "a note from outside the region holds B");
  idiomrt_hold_note_building(a);
  CHECK(held(b) != NULL);
  idiom_region_end();
  idiom_region_begin(); /* another region: A was not noted there */
  CHECK_MSG(held(b) == NULL, "a note of the last region holds B");
  idiom_region_end();
}

void case_hold_off_child(void) {
  idiomrt_entry *a = entry(&hold_a, 1, 0), *b = entry(&hold_b, 0, FAST_HOST);
  idiom_region_begin();
  idiomrt_hold_note_building(a);
  fprintf(stderr, "hold: %s\n", held(b) ? "held" : "none");
  idiom_region_end();
}

void case_hold_off(void) {
  const char *off[] = {"IDIOM_REGION_HOLD=off", NULL};
  const char *none[] = {"hold: none", NULL};
  free(expect_child_lines("hold_off_child", off, none));
  const char *on[] = {"IDIOM_REGION_HOLD=on", NULL};
  const char *yes[] = {"hold: held", NULL};
  free(expect_child_lines("hold_off_child", on, yes));
}

/* B's site as launch.c sees it: n, x (IN), y (OUT) over HOLD_N floats. */
enum { HOLD_N = 1 << 24 }; /* 64 MiB a buffer: 192 MiB moved, >= 3 ms */

static int run_b(float *x, float *y) {
  idiom_arg args[3] = {i32(HOLD_N), buf(IDIOM_ARG_BUF_IN, x, 4ull * HOLD_N),
                       buf(IDIOM_ARG_BUF_OUT, y, 4ull * HOLD_N)};
  uint64_t sizes[1] = {HOLD_N};
  return idiom_run(&hold_b, args, 3, sizes, NULL);
}

void case_hold_run(void) {
  setenv("IDIOM_COST", "on", 1);
  setenv("IDIOM_TUNE", "off", 1);
  const char *why = NULL;
  CHECK_MSG(idiomrt_device_get(&why) != NULL, "no device: %s",
            why ? why : "?");
  idiomrt_entry *a = entry(&hold_a, 1, 0), *b = idiomrt_entry_get(&hold_b);
  CHECK(b != NULL);
  if (!b)
    return;
  /* B's kernels built by the runtime thread (as its first call asks) */
  int waited_ms = 0;
  for (; waited_ms < 60000 && !idiomrt_startup_built(b); ++waited_ms) {
    struct timespec ms = {0, 1000000};
    nanosleep(&ms, NULL);
  }
  CHECK_MSG(__atomic_load_n(&b->bg_build, __ATOMIC_ACQUIRE) == 2,
            "B not built after %d ms", waited_ms);
  /* B measured: host 1 ms a run, the device 1000 times faster */
  pthread_mutex_lock(&b->stats_lock);
  idiomrt_cost_class *c =
      idiomrt_cost_class_get(&b->cost, idiomrt_size_class(HOLD_N));
  CHECK(c != NULL);
  if (c) {
    memset(c, 0, sizeof *c);
    for (int i = 0; i < 3; ++i) {
      c->host_pi[i] = 1e6 / HOLD_N;
      c->dev_pi[i] = 1e3 / HOLD_N;
    }
    c->host_est = 1e6 / HOLD_N;
    c->dev_est = 1e3 / HOLD_N;
    c->hn = c->dn = 3;
    c->winner = 1;
    c->gap = 1u << 20; /* no re-measurement of the host in this case */
  }
  b->cost.host_got = 3;
  pthread_mutex_unlock(&b->stats_lock);
  float *x = malloc(4ull * HOLD_N), *y = malloc(4ull * HOLD_N);
  CHECK(x && y);
  if (!x || !y)
    return;
  for (int i = 0; i < HOLD_N; ++i) {
    x[i] = (float)(i % 7);
    y[i] = -1.0f;
  }
  idiom_region_begin();
  idiomrt_hold_note_building(a);
  int ran = run_b(x, y);
  const char *r = idiom_last_reason();
  CHECK_MSG(!ran && r && strstr(r, "another site of the region"),
            "B ran %d while A builds (reason %s)", ran, reason_or_none());
  CHECK_MSG(y[0] == -1.0f && y[HOLD_N - 1] == -1.0f,
            "a held run wrote y");
  __atomic_store_n(&a->bg_build, 2, __ATOMIC_RELEASE);
  ran = run_b(x, y);
  CHECK_MSG(ran, "B declined after A's build: %s", reason_or_none());
  idiom_region_end();
  CHECK_MSG(y[7] == 1.0f && y[HOLD_N - 1] == (float)((HOLD_N - 1) % 7) + 1.0f,
            "B's device run: y[7] = %g", (double)y[7]);
  free(x);
  free(y);
}
