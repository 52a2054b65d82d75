/*===- test_restlater.c - A site's other variants after every variant 0 ---===*
 *
 * Cases of idiomrt_test (listed in test_idiomrt.c's table) for the staged
 * rest (runtime/lib/program_cache.c, startup.c's rest queue): on a device
 * whose builds go one variant per step (here PoCL under the slow-build knob
 * IDIOM_TEST_SLOW_BUILD_MS), the runtime thread builds a site's variant 0
 * alone, then, after every other site's variant 0, its other variants one
 * per step; or leaves them out when the process is expected to end first.
 * These cases drive the program cache's steps directly (the runtime thread
 * is not started: IDIOM_DEVICE=cpu, the cost model off) and check what a
 * run and the tuner see after each: a rest left out is tuned as a failed
 * variant build (the one ready variant, untimed, no wait, no new request),
 * a rest built one variant per step is timed as a whole program's.
 * test/lit/run/rest-later.c tests the order of the thread's steps and the
 * profile's rule on a whole program.
 *
 *===----------------------------------------------------------------------===*/
#include "rt_internal.h"
#include "test_common.h"

#include <stdlib.h>
#include <string.h>

/* test_devwait.c's three-variant map, a site of its own */
static const idiom_kernel_desc rl_desc = {
    "dwv", "test_restlater.c:rl", "map", test_dwv_src, IDIOM_MAP, 1, 0, 3,
    NULL};

enum { RL_N = 1 << 14 };

static int never(void) { return 0; }

/* The device and e with variant 0 built alone and the rest pending (the
   runtime thread's first step for e), or NULL. */
static idiomrt_entry *first_step(const idiomrt_device **dev) {
  setenv("IDIOM_DEVICE", "cpu", 1);
  /* one variant per step, and the rest staged (3 x 0.2 s > 0.5 s:
     idiomrt_program_stage_rest) */
  setenv("IDIOM_TEST_SLOW_BUILD_MS", "200", 1);
  setenv("IDIOM_TUNE_MIN", "0", 1);
  setenv("IDIOM_CACHE_DIR", "off", 1);
  const char *why = NULL;
  *dev = idiomrt_device_get(&why);
  CHECK_MSG(*dev, "no device: %s", why ? why : "?");
  idiomrt_entry *e = idiomrt_entry_get(&rl_desc);
  if (!*dev || !e)
    return NULL;
  char reason[IDIOMRT_REASON_LEN] = "";
  pthread_mutex_lock(&e->lock);
  int ok = idiomrt_program_ensure_first(e, *dev, reason, sizeof reason,
                                        never, 0);
  pthread_mutex_unlock(&e->lock);
  CHECK_MSG(ok, "variant 0 did not build: %s", reason);
  CHECK(e->build_state == 1 && e->nvariants == 3);
  CHECK(e->rest_pending && e->rest_next == 1 && e->rest_ready == 1);
  CHECK(e->var[0].ready && !e->var[1].ready && !e->var[2].ready);
  CHECK(e->rest_ns >= 200000000ull); /* variant 0's build, knob included */
  return e;
}

/* Runs the site k times on the device (the cost model is off); 1 when
   every run offloaded with variant `want` and y is right. */
static int run_site(float *x, float *y, int k, int want) {
  int ok = 1;
  for (int t = 0; t < k; ++t) {
    idiom_arg args[4] = {i32(RL_N), f32(2.0f),
                         buf(IDIOM_ARG_BUF_IN, x, 4ull * RL_N),
                         buf(IDIOM_ARG_BUF_INOUT, y, 4ull * RL_N)};
    uint64_t sizes[1] = {RL_N};
    if (!idiom_run(&rl_desc, args, 4, sizes, NULL)) {
      fprintf(stderr, "run %d declined: %s\n", t, reason_or_none());
      for (int i = 0; i < RL_N; ++i)
        y[i] = 2.0f * x[i] + y[i];
      ok = 0;
    } else if (want >= 0 && idiom_last_variant() != want) {
      fprintf(stderr, "run %d: variant %d, not %d\n", t, idiom_last_variant(),
              want);
      ok = 0;
    }
  }
  return ok;
}

/* A rest left out (the process is expected to end before its builds):
   the other variants are not ready, with the reason; rest_pending is
   clear, so the tuner has one candidate, variant 0, untimed ("single"),
   as after failed variant builds, and runs neither wait nor time. */
void case_restlater_left_out(void) {
  const idiomrt_device *dev = NULL;
  idiomrt_entry *e = first_step(&dev);
  if (!e)
    return;
  idiomrt_program_leave_rest(e, idiomrt_rest_late_reason);
  CHECK(!e->rest_pending && e->rest_left == 2);
  CHECK(e->rest_why == idiomrt_rest_late_reason);
  for (unsigned k = 1; k < 3; ++k)
    CHECK_MSG(!e->var[k].ready &&
                  strcmp(e->var[k].why, idiomrt_rest_late_reason) == 0,
              "variant %u: ready %d, why \"%s\"", k, e->var[k].ready,
              e->var[k].why);
  /* a second leave-out changes nothing */
  idiomrt_program_leave_rest(e, "other");
  CHECK(e->rest_left == 2 && e->rest_why == idiomrt_rest_late_reason);
  float *x = malloc(4ull * RL_N), *y = malloc(4ull * RL_N);
  policy_fill(x, y, RL_N);
  CHECK(run_site(x, y, 3, 0));
  CHECK(policy_check_y(y, RL_N, 3));
  unsigned cls = idiomrt_size_class(RL_N);
  CHECK_MSG(e->chosen[cls] == 0 && e->tuned[cls] == IDIOMRT_TUNED_SINGLE,
            "class %u: variant %d tuned %s", cls, e->chosen[cls],
            idiomrt_tuned_name(e->tuned[cls]));
  CHECK(e->tune_ns == 0);
  CHECK(idiomrt_program_build_rest_one(e, dev) == 0); /* nothing pending */
  free(x);
  free(y);
}

/* A rest built one variant per step: runs use variant 0 untuned while it
   is pending (each built variant is published at once, not chosen), and
   the class is timed over the three variants once the last is built. */
void case_restlater_built(void) {
  const idiomrt_device *dev = NULL;
  idiomrt_entry *e = first_step(&dev);
  if (!e)
    return;
  float *x = malloc(4ull * RL_N), *y = malloc(4ull * RL_N);
  policy_fill(x, y, RL_N);
  CHECK(run_site(x, y, 1, 0));
  CHECK(idiomrt_program_rest_to_build(e, dev) == 2);
  CHECK(idiomrt_program_build_rest_one(e, dev) == 1);
  CHECK(e->rest_pending && e->rest_next == 2 && e->var[1].ready);
  CHECK(!e->var[2].ready && strcmp(e->var[2].why, "building") == 0);
  CHECK(idiomrt_program_rest_to_build(e, dev) == 1);
  CHECK(run_site(x, y, 1, 0)); /* still variant 0, untimed */
  CHECK(e->tune_ns == 0);
  CHECK(idiomrt_program_build_rest_one(e, dev) == 0);
  CHECK(!e->rest_pending && e->rest_ready == 3 && e->rest_left == 0);
  for (unsigned k = 0; k < 3; ++k)
    CHECK_MSG(e->var[k].ready && e->var[k].own_program,
              "variant %u: ready %d", k, e->var[k].ready);
  CHECK(run_site(x, y, 2, -1));
  CHECK(policy_check_y(y, RL_N, 4));
  unsigned cls = idiomrt_size_class(RL_N);
  CHECK_MSG(e->tuned[cls] == IDIOMRT_TUNED_TIMED && e->tune_ns > 0,
            "class %u: variant %d tuned %s", cls, e->chosen[cls],
            idiomrt_tuned_name(e->tuned[cls]));
  free(x);
  free(y);
}
