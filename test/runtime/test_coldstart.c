/*===- test_coldstart.c - Exit and calls never wait on a slow build -------===*
 *
 * Cases of idiomrt_test for issue 12 ("a first run is never much slower
 * than the sequential build"): with the cost model on, kernels build on the
 * runtime thread (startup.c) while calls run the original loop; a program
 * of several variants is built one variant per step
 * (idiomrt_program_ensure_staged), so an exit in the middle of it waits
 * for one variant's build, not the program's. The test knob
 * IDIOM_TEST_SLOW_BUILD_MS (program_cache.c) makes every build from source
 * take that long per variant, as NVIDIA's compiler does (about 0.6 s a
 * variant of nas-parboil/mg.c:156).
 *
 *===----------------------------------------------------------------------===*/
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include "rt_internal.h"
#include "test_common.h"

#include <stdlib.h>
#include <string.h>
#include <limits.h>
#include <time.h>

#define CS_BODY(name, body)                                                    \
  "__kernel void " name "(const int n, const float a,\n"                       \
  "    __global const float *x, __global float *y) {\n" body "}\n"
#define CS_ONE                                                                 \
  "  size_t i = get_global_id(0);\n"                                           \
  "  if (i < (size_t)n) y[i] = a * x[i] + y[i];\n"

/* four variants of y = a x + y (the same kernel; only the build counts) */
static const char cs_src[] =
    "//@idiom-variant 0 wg=0 ept=1: plain\n" CS_BODY("csax", CS_ONE)
    "//@idiom-variant 1 wg=0 ept=1: copy 1\n" CS_BODY("csax_v1", CS_ONE)
    "//@idiom-variant 2 wg=0 ept=1: copy 2\n" CS_BODY("csax_v2", CS_ONE)
    "//@idiom-variant 3 wg=0 ept=1: copy 3\n" CS_BODY("csax_v3", CS_ONE);
static const idiom_kernel_desc cs_desc = {
    "csax", "test_coldstart.c:csax", "map", cs_src, IDIOM_MAP, 1, 0, 4, NULL};

static double now_s(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

void coldstart_remove_dir(const char *dir) {
  char cmd[PATH_MAX + 16];
  snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
  CHECK(system(cmd) == 0);
}

/* Spawns child (idiomrt_test case) with env; *err gets its stderr and
   *waited how long its exit took after it printed "CHILD: exit at T"
   (CLOCK_MONOTONIC), or -1 when it did not. The child's exit status. */
int coldstart_spawn_exit_wait(const char *child, const char *const *env,
                              char **err, double *waited) {
  int st = spawn_case(child, env, err);
  double end = now_s();
  char tag[96];
  snprintf(tag, sizeof tag, "%s: exit at ", child);
  const char *at = strstr(*err, tag);
  *waited = at ? end - atof(at + strlen(tag)) : -1;
  return st;
}

/* Child of case_coldstart_exit: calls the site (50 ms of host loop a
   call) until a call declines "kernels building", then exits at once,
   printing when (CLOCK_MONOTONIC) and the longest time a call spent in
   the runtime. */
void case_coldstart_exit_child(void) {
  setenv("IDIOM_COST", "on", 1);
  enum { N = 1 << 16 };
  float *x = malloc(4ull * N), *y = malloc(4ull * N);
  policy_fill(x, y, N);
  int calls = 0, building = 0;
  double worst = 0, deadline = now_s() + 60;
  while (!building && now_s() < deadline && calls < 1000) {
    double t0 = now_s();
    int rc = policy_site(&cs_desc, x, y, N, 50000);
    double dt = now_s() - t0 - (rc ? 0 : 0.05);
    worst = dt > worst ? dt : worst;
    calls++;
    building = !rc && strcmp(idiom_last_reason(), "kernels building") == 0;
  }
  int ok = policy_check_y(y, N, calls);
  fprintf(stderr, "coldstart_exit_child: building=%d ok=%d worst=%.3f\n",
          building, ok, worst);
  fprintf(stderr, "coldstart_exit_child: exit at %.6f\n", now_s());
  exit(7);
}

/* The child exits while its 4-variant program builds on the runtime
   thread, each variant taking 1.5 s (IDIOM_TEST_SLOW_BUILD_MS): exit
   waits for the variant in progress (at most 1.5 s, plus PoCL's own
   build: 3 s in all), not for the whole program (6 s); no call waited
   for the build
   either. Each run gets a fresh cache directory (no binary on disk). */
void case_coldstart_exit(void) {
  for (int rep = 0; rep < 2; ++rep) {
    char dir[] = "/tmp/idiom-coldstart-XXXXXX";
    CHECK(mkdtemp(dir) != NULL);
    char cache[sizeof dir + 16];
    snprintf(cache, sizeof cache, "IDIOM_CACHE_DIR=%s", dir);
    const char *env[] = {cache, "IDIOM_TEST_SLOW_BUILD_MS=1500",
                         "IDIOM_DEBUG=time", NULL};
    char *err = NULL;
    double waited = -1;
    int st =
        coldstart_spawn_exit_wait("coldstart_exit_child", env, &err, &waited);
    CHECK_MSG(st == 7, "exit status %d (want 7):\n%s", st, err);
    CHECK_MSG(strstr(err, "coldstart_exit_child: building=1 ok=1"),
              "no call saw the build, or a wrong result:\n%s", err);
    const char *w = strstr(err, "worst=");
    CHECK_MSG(w && atof(w + 6) < 1.0, "a call waited:\n%s", err);
    CHECK_MSG(waited >= 0 && waited < 3.0,
              "exit waited %.3f s for the build (one variant: 1.5 s):\n%s",
              waited, err);
    fprintf(stderr, "coldstart_exit: exit waited %.3f s\n", waited);
    free(err);
    coldstart_remove_dir(dir);
  }
}

/* Runs cs_desc with the model on until the device runs it (the build on
   the runtime thread); its entry. */
static idiomrt_entry *run_until_offloaded(void) {
  setenv("IDIOM_COST", "on", 1);
  enum { N = 1 << 16 };
  float *x = malloc(4ull * N), *y = malloc(4ull * N);
  policy_fill(x, y, N);
  idiomrt_entry *e = idiomrt_entry_get(&cs_desc);
  int calls = 0;
  int offloaded = twodev_site_loop(&cs_desc, x, y, N, 50000, 2000, 120, 1,
                                   &calls);
  CHECK_MSG(offloaded, "never offloaded in %d calls", calls);
  CHECK(policy_check_y(y, N, calls));
  free(x);
  free(y);
  return e;
}

/* Under the slow-build knob (a compiler that generates code at build
   time, as a GPU's), the four variants are built one by one on the
   runtime thread (one program each; the disk cache is new): variant 0
   first, which the device runs at once, then the three others. */
void case_coldstart_staged(void) {
  /* the rule: the rest one per step when the whole would take over 0.5 s
     (8 variants of 0.6 s, mg.c:156 on an H100), else the whole at once
     (8 variants of 30 ms: each build's fixed cost would dominate) */
  CHECK(idiomrt_program_stage_rest(600000000ull, 8) == 1);
  CHECK(idiomrt_program_stage_rest(30000000ull, 8) == 0);
  setenv("IDIOM_TEST_SLOW_BUILD_MS", "200", 1); /* 0.8 s in all */
  idiomrt_entry *e = run_until_offloaded();
  CHECK(e->build_state == 1 && e->program == NULL);
  /* variant 0 first (the runs wait for it alone); the others after it,
     one per step of the runtime thread (startup.c's rest queue) */
  double deadline = now_s() + 60;
  while (__atomic_load_n(&e->rest_pending, __ATOMIC_ACQUIRE) &&
         now_s() < deadline) {
    struct timespec ms = {0, 1000000};
    nanosleep(&ms, NULL);
  }
  CHECK(!e->rest_pending && e->rest_left == 0);
  for (unsigned k = 0; k < 4; ++k)
    CHECK_MSG(e->var[k].ready && e->var[k].own_program,
              "variant %u: ready %d", k, e->var[k].ready);
}

/* PoCL's CPU device without the knob: its builds are front ends only
   (code is generated at each kernel's first launch), cheap per program
   and not per variant, so the whole source is one build, as before. */
void case_coldstart_whole_cpu(void) {
  idiomrt_entry *e = run_until_offloaded();
  CHECK(e->build_state == 1 && e->program != NULL);
  for (unsigned k = 0; k < 4; ++k)
    CHECK_MSG(e->var[k].ready && !e->var[k].own_program,
              "variant %u: ready %d", k, e->var[k].ready);
}

/* Child of case_coldstart_warm_exit: PoCL as both devices, exploration
   not rationed, every variant tuned; once a call declines because the
   second device warms up in the background, 0.1 s of host work and exit. */
void case_coldstart_warm_exit_child(void) {
  setenv("IDIOM_COST", "on", 1);
  enum { N = 1 << 16 };
  float *x = malloc(4ull * N), *y = malloc(4ull * N);
  policy_fill(x, y, N);
  int calls = 0, warming = 0, removed = 0;
  double deadline = now_s() + 90;
  /* (the device's calls take about a millisecond: the second device's
     build, 4 variants of 1.2 s from source, as the runtime thread saves
     no binary on a CPU device for it to load, takes thousands) */
  while (!warming && now_s() < deadline && calls < 200000) {
    int rc = policy_site(&cs_desc, x, y, N, 20000);
    calls++;
    if (rc && !removed) {
      /* the other variants first (built one per step after variant 0,
         startup.c's rest queue, 1.2 s each here), then a call that tunes
         them: else a rest step may be in flight when the warm-up is
         queued, and the tuning file written after its removal below */
      idiomrt_entry *e = idiomrt_entry_get(&cs_desc);
      while (e && __atomic_load_n(&e->rest_pending, __ATOMIC_ACQUIRE) &&
             now_s() < deadline) {
        struct timespec ms = {0, 1000000};
        nanosleep(&ms, NULL);
      }
      policy_site(&cs_desc, x, y, N, 20000);
      calls++;
      /* the primary device's tuning file: the second one is the same
         PoCL device here (the test knob), and would find it; a real
         second device has files of its own */
      char cmd[PATH_MAX + 32];
      snprintf(cmd, sizeof cmd, "rm -rf '%s/tuning'",
               getenv("IDIOM_CACHE_DIR"));
      removed = system(cmd) == 0;
    }
    warming = !rc && strcmp(idiom_last_reason(),
                            "second device warming up") == 0;
  }
  double until = now_s() + 0.1;
  while (now_s() < until)
    ;
  fprintf(stderr, "coldstart_warm_exit_child: warming=%d ok=%d\n", warming,
          policy_check_y(y, N, calls));
  fprintf(stderr, "coldstart_warm_exit_child: exit at %.6f\n", now_s());
  exit(7);
}

/* The second device's warm-up (startup_warm.c) compiles each variant at
   its first launch as a step of its own (slowed to 1.2 s a variant by
   IDIOM_TEST_SLOW_BUILD_MS): an exit during it waits for one variant
   (1.2 s plus PoCL's compile), not for the four (4.8 s and more) that
   one tuning step would take. */
void case_coldstart_warm_exit(void) {
  char dir[] = "/tmp/idiom-coldwarm-XXXXXX";
  CHECK(mkdtemp(dir) != NULL);
  char cache[sizeof dir + 16];
  snprintf(cache, sizeof cache, "IDIOM_CACHE_DIR=%s", dir);
  const char *env[] = {cache,
                       "IDIOM_TEST_SLOW_BUILD_MS=1200",
                       "IDIOM_TEST_SECOND_CPU=1",
                       "IDIOM_CPU_EXPLORE_MS=0",
                       "IDIOM_TUNE_MIN=0",
                       "IDIOM_DEBUG=1",
                       NULL};
  char *err = NULL;
  double waited = -1;
  int st = coldstart_spawn_exit_wait("coldstart_warm_exit_child", env, &err,
                                     &waited);
  CHECK_MSG(st == 7, "exit status %d (want 7):\n%s", st, err);
  CHECK_MSG(strstr(err, "coldstart_warm_exit_child: warming=1 ok=1"),
            "the second device never warmed up, or a wrong result:\n%s",
            err);
  CHECK_MSG(strstr(err, "warmed up in"), "no variant warmed up:\n%s", err);
  CHECK_MSG(waited >= 0 && waited < 3.0,
            "exit waited %.3f s for the warm-up (one variant: 1.2 s):\n%s",
            waited, err);
  fprintf(stderr, "coldstart_warm_exit: exit waited %.3f s\n", waited);
  free(err);
  coldstart_remove_dir(dir);
}
