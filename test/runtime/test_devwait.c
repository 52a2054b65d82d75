/*===- test_devwait.c - The first heavy call waits for the device ---------===*
 *
 * Cases of idiomrt_test (listed in test_idiomrt.c's table) for the cost
 * model's device-wait rule (runtime/lib/devwait.c): a call whose class has
 * no host sample yet but whose work hint (idiom_work_hint) gives a large
 * lower bound of its host time starts the device at once, waits for it
 * (at most the bound) and runs there, untuned; a small bound decides
 * as before (the loop runs and is measured, the device is not started);
 * a device that fails or does not come in time leaves the original loop
 * to run, with the right output; IDIOM_DEVICE=seq and the forced modes do
 * not change. The work is injected through the hint: the loops themselves
 * take microseconds, so each decision is deterministic.
 *
 * Every child runs with IDIOM_CACHE_DIR=off: no calibration file, so one
 * start-up is taken to be 200 ms (calibration.c), and the bounds below are
 * far from it (0.25 ms, 10 s).
 *
 *===----------------------------------------------------------------------===*/
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include "idiomrt.h"
#include "test_common.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

/* y[i] = a * x[i] + y[i];  args: n, a, x (IN), y (INOUT) */
#define DW_KERNEL(name)                                                        \
  "__kernel void " name "(const int n, const float a,\n"                       \
  "                     __global const float *x, __global float *y) {\n"       \
  "  size_t i = get_global_id(0);\n"                                           \
  "  if (i < (size_t)n) y[i] = a * x[i] + y[i];\n"                             \
  "}\n"
static const char dw_src[] = DW_KERNEL("dwscale");
static const idiom_kernel_desc dw_desc = {
    "dwscale", "test_devwait.c:dw", "map", dw_src, IDIOM_MAP, 1, 0, 0, NULL};
/* another site of the same loop */
static const idiom_kernel_desc dw2_desc = {
    "dwscale", "test_devwait.c:dw2", "map", dw_src, IDIOM_MAP, 1, 0, 0, NULL};

/* The same loop in three variants (the tuning would time them): variant
   0, one element per work-item, is the default lowering (test_common.h:
   test_restlater.c's site too). */
const char test_dwv_src[] =
    "//@idiom-variant 0 wg=0 ept=1: one element per work-item\n"
    DW_KERNEL("dwv")
    "//@idiom-variant 1 wg=64 ept=1: work-group 64\n"
    "__attribute__((reqd_work_group_size(64, 1, 1)))\n" DW_KERNEL("dwv_v1")
    "//@idiom-variant 2 wg=128 ept=1: work-group 128\n"
    "__attribute__((reqd_work_group_size(128, 1, 1)))\n" DW_KERNEL("dwv_v2");
static const idiom_kernel_desc dwv_desc = {
    "dwv", "test_devwait.c:dwv", "map", test_dwv_src, IDIOM_MAP, 1, 0, 3, NULL};

/* Innermost iterations whose FP chain bounds the loop's host time below by
   10 s (devwait.c: 0.25 ns an iteration) and by 0.25 ms. */
#define BIG_ITERS 40000000000ull
#define SMALL_ITERS 1000000ull

static double now_s(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* One call site as the plugin stitches it: the work hint (when iters is
   not 0), idiom_run, else the original loop timed between idiom_host_begin
   and idiom_host_end. Returns idiom_run's answer; *why: the reason, or "". */
static int wsite(const idiom_kernel_desc *d, float *x, float *y, int n,
                 uint64_t iters, char *why, size_t wn) {
  idiom_arg args[4] = {i32(n), f32(2.0f), buf(IDIOM_ARG_BUF_IN, x, 4ull * n),
                       buf(IDIOM_ARG_BUF_INOUT, y, 4ull * n)};
  uint64_t sizes[1] = {(uint64_t)n};
  if (iters)
    idiom_work_hint(d, iters, IDIOM_WORK_FP_CHAIN);
  if (idiom_run(d, args, 4, sizes, NULL)) {
    why[0] = '\0';
    return 1;
  }
  snprintf(why, wn, "%s", reason_or_none());
  uint64_t tok = idiom_host_begin(d);
  for (int i = 0; i < n; ++i)
    y[i] = 2.0f * x[i] + y[i];
  idiom_host_end(d, tok);
  return 0;
}

/* expect_child_lines with IDIOM_CACHE_DIR=off added to env. */
static char *expect_lines(const char *child, const char *const *env,
                          const char *const *want) {
  const char *full[16];
  size_t k = 0;
  for (; env && env[k] && k < 14; ++k)
    full[k] = env[k];
  full[k++] = "IDIOM_CACHE_DIR=off";
  full[k] = NULL;
  return expect_child_lines(child, full, want);
}

/* The stats line of site loc in err, in one (n bytes), or "". */
static void stats_line(const char *err, const char *loc, char *one,
                       size_t n) {
  char key[128];
  snprintf(key, sizeof key, "idiom-stats: %s ", loc);
  const char *a = err ? strstr(err, key) : NULL;
  snprintf(one, n, "%.*s", a ? (int)strcspn(a, "\n") : 0, a ? a : "");
}

/*--- cases ----------------------------------------------------------------*/

/* Child: one call of the site with the big hint, then one without a hint
   and one with the small hint at other sizes (new classes, the device now
   up), each timed. */
void case_devwait_big_child(void) {
  setenv("IDIOM_COST", "on", 1);
  enum { N = 1 << 12 };
  float *x = malloc(4ull * 4 * N), *y = malloc(4ull * 4 * N);
  policy_fill(x, y, 4 * N);
  char why[256];
  double t0 = now_s();
  int a = wsite(&dw_desc, x, y, N, BIG_ITERS, why, sizeof why);
  double ta = now_s() - t0;
  fprintf(stderr, "devwait_big_child: first %s %d variant %d, %.3f s\n",
          a ? "device" : why, policy_check_y(y, N, 1), idiom_last_variant(),
          ta);
  int b = wsite(&dw_desc, x, y, 2 * N, 0, why, sizeof why);
  fprintf(stderr, "devwait_big_child: no hint %s\n", b ? "device" : why);
  int c = wsite(&dw_desc, x, y, 4 * N, SMALL_ITERS, why, sizeof why);
  fprintf(stderr, "devwait_big_child: small hint %s, values %d\n",
          c ? "device" : why,
          policy_check_range(y, 0, N, 3) && policy_check_range(y, N, 2 * N, 2) &&
              policy_check_range(y, 2 * N, 4 * N, 1));
  free(x);
  free(y);
}

/* A first call with a large lower bound of its host time (10 s) starts the
   device, waits for it and runs there: the decision "device-wait"; results
   exact. Calls of new classes without a hint, or with a small one, still
   run the loop first to measure it ("host-explore"), the device up or not.
   Fails before devwait.c: the first call of a class always ran the loop. */
void case_devwait_big(void) {
  const char *env[] = {"IDIOM_STATS=1", "IDIOM_DEBUG=1", NULL};
  const char *want[] = {
      "devwait_big_child: first device 1 variant 0",
      "devwait_big_child: no hint cost model: measuring the host loop",
      "devwait_big_child: small hint cost model: measuring the host loop, "
      "values 1",
      "(device-wait; the loop: at least 10000.0 ms on the host)", NULL};
  char *err = expect_lines("devwait_big_child", env, want);
  char one[2048];
  stats_line(err, "test_devwait.c:dw", one, sizeof one);
  CHECK_MSG(strstr(one, "calls=3 offloaded=1 ") != NULL, "%s", one);
  CHECK_MSG(strstr(one, "decisions=\"host-explore x2; device-wait x1\"") !=
                NULL,
            "%s", one);
  /* the wait is bounded by the bound (10 s) */
  const char *t = err ? strstr(err, "variant 0, ") : NULL;
  double secs = t ? atof(t + strlen("variant 0, ")) : -1;
  CHECK_MSG(secs >= 0 && secs < 10.5, "first call took %.3f s", secs);
  free(err);
}

/* Child: small work first (no hint; the small hint), then the big one at
   another site. Prints whether OpenCL was loaded before the big call. */
void case_devwait_small_child(void) {
  setenv("IDIOM_COST", "on", 1);
  enum { N = 1 << 12 };
  float *x = malloc(4ull * 4 * N), *y = malloc(4ull * 4 * N);
  policy_fill(x, y, 4 * N);
  char why[256], why2[256];
  int a = wsite(&dw_desc, x, y, N, 0, why, sizeof why);
  int b = wsite(&dw2_desc, x, y, N, SMALL_ITERS, why2, sizeof why2);
  fprintf(stderr, "devwait_small_child: no hint %s; small %s; opencl %d\n",
          a ? "device" : why, b ? "device" : why2, policy_opencl_loaded());
  /* a hint for another descriptor is ignored, and consumed (each call
     below is the first of its class) */
  idiom_work_hint(&dw_desc, BIG_ITERS, IDIOM_WORK_FP_CHAIN);
  int c = wsite(&dw2_desc, x, y, 2 * N, 0, why, sizeof why);
  int d = wsite(&dw_desc, x, y, 2 * N, 0, why2, sizeof why2);
  fprintf(stderr, "devwait_small_child: other's hint %s; stale hint %s; "
                  "opencl %d\n",
          c ? "device" : why, d ? "device" : why2, policy_opencl_loaded());
  int e = wsite(&dw2_desc, x, y, 4 * N, BIG_ITERS, why, sizeof why);
  fprintf(stderr, "devwait_small_child: big %s, values %d\n",
          e ? "device" : why,
          policy_check_range(y, 0, N, 5) && policy_check_range(y, N, 2 * N, 3) &&
              policy_check_range(y, 2 * N, 4 * N, 1));
  free(x);
  free(y);
}

/* Below the bound nothing changes: a call without a hint or with a small
   one (0.25 ms) runs the loop and does not start the device (OpenCL not
   loaded); a hint names its descriptor and lasts one call. A big call then
   waits for the device. Fails before devwait.c on the last line. */
void case_devwait_small(void) {
  const char *want[] = {
      "devwait_small_child: no hint cost model: measuring the host loop; "
      "small cost model: measuring the host loop; opencl 0",
      "devwait_small_child: other's hint cost model: measuring the host "
      "loop; stale hint cost model: measuring the host loop; opencl 0",
      "devwait_small_child: big device, values 1", NULL};
  free(expect_lines("devwait_small_child", NULL, want));
}

/* Child: the big call (failing or timing out), then the same again. */
void case_devwait_fail_child(void) {
  setenv("IDIOM_COST", "on", 1);
  enum { N = 1 << 12 };
  float *x = malloc(4ull * N), *y = malloc(4ull * N);
  policy_fill(x, y, N);
  char why[256], why2[256];
  double t0 = now_s();
  int a = wsite(&dw_desc, x, y, N, BIG_ITERS / 10, why, sizeof why);
  double ta = now_s() - t0;
  int b = wsite(&dw_desc, x, y, N, BIG_ITERS / 10, why2, sizeof why2);
  fprintf(stderr, "devwait_fail_child: first %s (%.3f s); second %s; "
                  "values %d\n",
          a ? "device" : why, ta, b ? "device" : why2,
          policy_check_y(y, N, 2));
  free(x);
  free(y);
}

/* The device fails (no OpenCL library): the big call declines with the
   device's reason and its loop runs; the next call measures the loop.
   The device does not come within the deadline (every build 4 s longer:
   IDIOM_TEST_SLOW_BUILD_MS): the call gives up after its bound (1 s), its
   loop runs; the next call does not wait again.
   Outputs exact. Fails before devwait.c: the first call measured the loop. */
void case_devwait_fail(void) {
  const char *nolib[] = {"IDIOM_OPENCL_LIBRARY=/nonexistent/libOpenCL.so.1",
                         NULL};
  const char *want_nolib[] = {
      "devwait_fail_child: first no OpenCL loader (",
      "second cost model: measuring the host loop; values 1", NULL};
  free(expect_lines("devwait_fail_child", nolib, want_nolib));
  const char *slow[] = {"IDIOM_TEST_SLOW_BUILD_MS=4000", NULL};
  const char *want_slow[] = {
      "devwait_fail_child: first cost model: device-wait timed out (",
      "second cost model: measuring the host loop; values 1", NULL};
  char *err = expect_lines("devwait_fail_child", slow, want_slow);
  const char *t = err ? strstr(err, "timed out (") : NULL;
  double secs = t ? atof(t + strlen("timed out (")) : -1;
  CHECK_MSG(secs >= 0.95 && secs < 3.0, "the wait took %.3f s:\n%s", secs,
            err);
  free(err);
}

/* Child: the big call, then again (no host sample: the device's sample is
   below the bound), then a tiny hint at a new size once the device is up. */
void case_devwait_then_child(void) {
  setenv("IDIOM_COST", "on", 1);
  enum { N = 1 << 12 };
  float *x = malloc(4ull * 2 * N), *y = malloc(4ull * 2 * N);
  policy_fill(x, y, 2 * N);
  char why[256];
  int a = wsite(&dw_desc, x, y, N, BIG_ITERS, why, sizeof why);
  int b = wsite(&dw_desc, x, y, N, BIG_ITERS, why, sizeof why);
  /* a new class of another site: the device is up, nothing to wait for */
  int c = wsite(&dw2_desc, x, y, 2 * N, BIG_ITERS, why, sizeof why);
  fprintf(stderr, "devwait_then_child: %d %d %d, values %d\n", a, b, c,
          policy_check_range(y, 0, N, 3) && policy_check_range(y, N, 2 * N, 1));
  free(x);
  free(y);
}

/* After a device-wait run, the class's next call with the same bound runs
   on the device ("device"): no host run can beat a device measured below
   the bound, so the host is never measured there. A class of another site
   with a large bound, the device up, runs there at its first call. Fails
   before devwait.c (three host runs). */
void case_devwait_then(void) {
  const char *env[] = {"IDIOM_STATS=1", NULL};
  const char *want[] = {"devwait_then_child: 1 1 1, values 1", NULL};
  char *err = expect_lines("devwait_then_child", env, want);
  char one[2048];
  stats_line(err, "test_devwait.c:dw", one, sizeof one);
  CHECK_MSG(strstr(one, "decisions=\"device x1; device-wait x1\"") != NULL,
            "%s", one);
  CHECK_MSG(strstr(one, "host_ms=") == NULL, "%s", one);
  stats_line(err, "test_devwait.c:dw2", one, sizeof one);
  CHECK_MSG(strstr(one, "decisions=\"device-wait x1\"") != NULL, "%s", one);
  free(err);
}

/* Child: the three-variant site with the big hint, then again. */
void case_devwait_untuned_child(void) {
  setenv("IDIOM_COST", "on", 1);
  enum { N = 1 << 12 };
  float *x = malloc(4ull * N), *y = malloc(4ull * N);
  policy_fill(x, y, N);
  char why[256];
  int a = wsite(&dwv_desc, x, y, N, BIG_ITERS, why, sizeof why);
  fprintf(stderr, "devwait_untuned_child: first %s variant %d\n",
          a ? "device" : why, idiom_last_variant());
  int b = wsite(&dwv_desc, x, y, N, BIG_ITERS, why, sizeof why);
  fprintf(stderr, "devwait_untuned_child: second %s, values %d\n",
          b ? "device" : why, policy_check_y(y, N, 2));
  free(x);
  free(y);
}

/* The device-wait run times no variants (bounded: its loop's host time is
   not known, and timing every variant on a first call cost 50.9 s against
   7.4 s sequential for PolyBench trmm 1024 on PoCL, docs/Benchmarks.md):
   it runs variant 0; the class's next run tunes as before. Fails before
   devwait.c (the first call ran the loop). */
void case_devwait_untuned(void) {
  const char *env[] = {"IDIOM_DEBUG=1", "IDIOM_TUNE_MIN=0", NULL};
  const char *want[] = {"devwait_untuned_child: first device variant 0",
                        "devwait_untuned_child: second device, values 1",
                        NULL};
  char *err = expect_lines("devwait_untuned_child", env, want);
  const char *first =
      err ? strstr(err, "devwait_untuned_child: first ") : NULL;
  const char *timed = err ? strstr(err, ": variant 1: ") : NULL;
  CHECK_MSG(first && timed && timed > first,
            "variants timed before the first call returned, or never:\n%s",
            err);
  free(err);
}

/* Child: the three-variant site with a 6 s bound (a wait of at most 3 s),
   at once again, and once more after the rest of the build. */
void case_devwait_first_child(void) {
  setenv("IDIOM_COST", "on", 1);
  enum { N = 1 << 12 };
  float *x = malloc(4ull * N), *y = malloc(4ull * N);
  policy_fill(x, y, N);
  char why[256];
  const uint64_t iters = BIG_ITERS * 6 / 10;
  double t0 = now_s();
  int a = wsite(&dwv_desc, x, y, N, iters, why, sizeof why);
  fprintf(stderr, "devwait_first_child: first %s variant %d (%.3f s)\n",
          a ? "device" : why, idiom_last_variant(), now_s() - t0);
  int b = wsite(&dwv_desc, x, y, N, iters, why, sizeof why);
  fprintf(stderr, "devwait_first_child: second %s variant %d\n",
          b ? "device" : why, idiom_last_variant());
  struct timespec s = {6, 0}; /* the two other variants: 3 s */
  nanosleep(&s, NULL);
  int c = wsite(&dwv_desc, x, y, N, iters, why, sizeof why);
  fprintf(stderr, "devwait_first_child: third %s, values %d\n",
          c ? "device" : why, policy_check_y(y, N, 3));
  free(x);
  free(y);
}

/* A device-wait run waits for variant 0 alone: on a device whose builds
   go one variant per step (a GPU's; here every build 1.5 s longer,
   IDIOM_TEST_SLOW_BUILD_MS) the others build after it, in the background,
   while runs use variant 0 untuned; the class tunes once they are built.
   Fails without program_cache.c's ensure_first: waiting for the whole
   program (4.5 s) runs past the wait's 3 s. */
void case_devwait_first(void) {
  const char *env[] = {"IDIOM_DEBUG=1", "IDIOM_TUNE_MIN=0",
                       "IDIOM_TEST_SLOW_BUILD_MS=1500", NULL};
  const char *want[] = {"devwait_first_child: first device variant 0 (",
                        "devwait_first_child: second device variant 0",
                        "devwait_first_child: third device, values 1",
                        "variant 0 of 3 built first",
                        "3 of 3 variants built one by one", NULL};
  char *err = expect_lines("devwait_first_child", env, want);
  const char *second = err ? strstr(err, "devwait_first_child: second") : NULL;
  const char *timed = err ? strstr(err, ": variant 1: ") : NULL;
  CHECK_MSG(second && timed && timed > second,
            "variants timed before the rest was built, or never:\n%s", err);
  free(err);
}

/* Child: the big call under the environment the parent gives. */
void case_devwait_forced_child(void) {
  enum { N = 1 << 12 };
  float *x = malloc(4ull * N), *y = malloc(4ull * N);
  policy_fill(x, y, N);
  char why[256];
  int a = wsite(&dw_desc, x, y, N, BIG_ITERS, why, sizeof why);
  fprintf(stderr, "devwait_forced_child: %s, values %d\n",
          a ? "device" : why, policy_check_y(y, N, 1));
  free(x);
  free(y);
}

/* The hint changes nothing where the model does not decide: under
   IDIOM_DEVICE=seq the call declines; with the model off (IDIOM_COST=off,
   or IDIOM_DEVICE=cpu, or IDIOM_MIN_TRIP) it runs on the device as
   "device-forced". With the model on it waits ("device-wait"): fails before
   devwait.c. */
void case_devwait_forced(void) {
  const char *seq[] = {"IDIOM_DEVICE=seq", "IDIOM_COST=on", NULL};
  const char *want_seq[] = {"devwait_forced_child: IDIOM_DEVICE=seq, values 1",
                            NULL};
  free(expect_lines("devwait_forced_child", seq, want_seq));
  const char *off[][4] = {
      {"IDIOM_COST=off", "IDIOM_STATS=1", NULL, NULL},
      {"IDIOM_COST=auto", "IDIOM_DEVICE=cpu", "IDIOM_STATS=1", NULL},
      {"IDIOM_COST=auto", "IDIOM_MIN_TRIP=0", "IDIOM_STATS=1", NULL}};
  const char *want_dev[] = {"devwait_forced_child: device, values 1",
                            "decisions=\"device-forced x1\"", NULL};
  for (int i = 0; i < 3; ++i)
    free(expect_lines("devwait_forced_child", off[i], want_dev));
  const char *on[] = {"IDIOM_COST=on", "IDIOM_STATS=1", NULL};
  const char *want_on[] = {"devwait_forced_child: device, values 1",
                           "decisions=\"device-wait x1\"", NULL};
  free(expect_lines("devwait_forced_child", on, want_on));
}
