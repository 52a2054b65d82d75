/*===- test_exitstall.c - Exit never waits for a binary nobody needs ------===*
 *
 * Cases of idiomrt_test for issue 12 ("a program that never profits from
 * the device pays no more than noise"; helper exitstall). With the cost
 * model on, a site's kernels build on the runtime thread (startup.c) while
 * its calls run the original loop, and exit waits for the thread's
 * current step (the OpenCL library's destructors must not run while the
 * thread is inside it). On a CPU device (PoCL) that step used to go on,
 * after the build, with CL_PROGRAM_BINARIES for the disk cache, which
 * compiles every kernel of the program there: nas-parboil/syrk.c's exit
 * waited 7-15 s for it. Now the runtime thread saves no binary on a CPU
 * device (program_cache.c, save_binary): exit waits for the build alone,
 * the process's status and results are its own, and a later process
 * builds again, correctly.
 *
 *===----------------------------------------------------------------------===*/
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include "test_common.h"

#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define XS_BODY(name)                                                          \
  "__kernel void " name "(const int n, const float a,\n"                       \
  "    __global const float *x, __global float *y) {\n"                        \
  "  size_t i = get_global_id(0);\n"                                           \
  "  if (i < (size_t)n) y[i] = a * x[i] + y[i];\n"                             \
  "}\n"

/* one variant: a whole-program build, whatever the device */
static const char xs_src[] = XS_BODY("xsax");
static const idiom_kernel_desc xs_desc = {
    "xsax", "test_exitstall.c:xsax", "map", xs_src, IDIOM_MAP, 1, 0, 1, NULL};

/* eight variants, one build on a CPU device: PoCL's build of it (and more,
   the compile of every kernel its binary asks for) is long enough to exit
   inside it */
static const char xs8_src[] =
    "//@idiom-variant 0 wg=0 ept=1: plain\n" XS_BODY("xsbig")
    "//@idiom-variant 1 wg=0 ept=1: copy 1\n" XS_BODY("xsbig_v1")
    "//@idiom-variant 2 wg=0 ept=1: copy 2\n" XS_BODY("xsbig_v2")
    "//@idiom-variant 3 wg=0 ept=1: copy 3\n" XS_BODY("xsbig_v3")
    "//@idiom-variant 4 wg=0 ept=1: copy 4\n" XS_BODY("xsbig_v4")
    "//@idiom-variant 5 wg=0 ept=1: copy 5\n" XS_BODY("xsbig_v5")
    "//@idiom-variant 6 wg=0 ept=1: copy 6\n" XS_BODY("xsbig_v6")
    "//@idiom-variant 7 wg=0 ept=1: copy 7\n" XS_BODY("xsbig_v7");
static const idiom_kernel_desc xs8_desc = {
    "xsbig", "test_exitstall.c:xsbig", "map", xs8_src, IDIOM_MAP, 1, 0, 8,
    NULL};

static double now_s(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* The .clbin files in dir. */
static int count_binaries(const char *dir) {
  char cmd[PATH_MAX + 64];
  snprintf(cmd, sizeof cmd, "ls '%s' 2>/dev/null | grep -c '\\.clbin$'", dir);
  FILE *p = popen(cmd, "r");
  int n = -1;
  if (p) {
    if (fscanf(p, "%d", &n) != 1)
      n = -1;
    pclose(p);
  }
  return n;
}

/* The child's site loop: 50 ms of host loop a call, until a call declines
   "kernels building" (exit_early) or one runs on the device; prints
   whether, the result check, and when it exits (CLOCK_MONOTONIC). */
static void site_child(const char *name, const idiom_kernel_desc *d,
                       int exit_early, int status) {
  setenv("IDIOM_COST", "on", 1);
  enum { N = 1 << 16 };
  float *x = malloc(4ull * N), *y = malloc(4ull * N);
  policy_fill(x, y, N);
  int calls = 0, building = 0, offloaded = 0;
  double deadline = now_s() + 90;
  while (!offloaded && !(exit_early && building) && now_s() < deadline &&
         calls < 2000) {
    int rc = policy_site(d, x, y, N, 50000);
    calls++;
    offloaded = rc == 1;
    building |= !rc && strcmp(idiom_last_reason(), "kernels building") == 0;
  }
  fprintf(stderr, "%s: building=%d offloaded=%d ok=%d\n", name, building,
          offloaded, policy_check_y(y, N, calls));
  fprintf(stderr, "%s: exit at %.6f\n", name, now_s());
  exit(status);
}

void case_exitstall_child(void) {
  site_child("exitstall_child", &xs_desc, 1, 7);
}
void case_exitstall_big_child(void) {
  site_child("exitstall_big_child", &xs8_desc, 1, 7);
}
void case_exitstall_later_child(void) {
  site_child("exitstall_later_child", &xs_desc, 0, 0);
}

/* The child exits while its one-variant program builds on the runtime
   thread (the build slowed to 1.5 s by IDIOM_TEST_SLOW_BUILD_MS): exit
   waits for the build (1.5 s, plus PoCL's own: under 3 s), writes no
   binary (nobody asked for one; before: CL_PROGRAM_BINARIES and a .clbin
   after the build, the step syrk.c's exit waited 6-29 s for), and the
   exit status (7) and results are the program's, three times in a row
   (an exit racing PoCL's destructors would crash). Then a later process
   on the same cache builds the program again and runs it on the device,
   with exact results. */
void case_exitstall_exit(void) {
  char dir[] = "/tmp/idiom-exitstall-XXXXXX";
  CHECK(mkdtemp(dir) != NULL);
  char cache[sizeof dir + 16];
  snprintf(cache, sizeof cache, "IDIOM_CACHE_DIR=%s", dir);
  for (int rep = 0; rep < 3; ++rep) {
    const char *env[] = {cache, "IDIOM_TEST_SLOW_BUILD_MS=1500",
                         "IDIOM_DEBUG=time", NULL};
    char *err = NULL;
    double waited = -1;
    int st = coldstart_spawn_exit_wait("exitstall_child", env, &err, &waited);
    CHECK_MSG(st == 7, "exit status %d (want 7):\n%s", st, err);
    CHECK_MSG(strstr(err, "exitstall_child: building=1 offloaded=0 ok=1"),
              "no call saw the build, or a wrong result:\n%s", err);
    CHECK_MSG(waited >= 0 && waited < 3.0,
              "exit waited %.3f s (the build: 1.5 s):\n%s", waited, err);
    /* (an exit before the build began, during the calibration, builds
       nothing) */
    CHECK_MSG(!strstr(err, "disk cache: wrote") &&
                  (!strstr(err, "built program from source") ||
                   strstr(err, "binary not saved")),
              "a binary was saved on the runtime thread:\n%s", err);
    CHECK_MSG(count_binaries(dir) == 0, "%d .clbin files in %s",
              count_binaries(dir), dir);
    fprintf(stderr, "exitstall_exit: exit waited %.3f s\n", waited);
    free(err);
  }
  const char *env[] = {cache, "IDIOM_DEBUG=1", NULL};
  char *err = NULL;
  double waited = -1;
  int st =
      coldstart_spawn_exit_wait("exitstall_later_child", env, &err, &waited);
  CHECK_MSG(st == 0 && strstr(err, "offloaded=1 ok=1"),
            "the later process (status %d) did not run the device, or a "
            "wrong result:\n%s",
            st, err);
  CHECK_MSG(strstr(err, "built program from source") &&
                !strstr(err, "loaded program from disk cache"),
            "the later process did not build again:\n%s", err);
  free(err);
  coldstart_remove_dir(dir);
}

/* The same without the knob: PoCL's own build of an eight-variant source,
   with PoCL's kernel cache new too (POCL_CACHE_DIR), so that the child
   exits inside clBuildProgram or right after it; five times: status 7 and
   exact results every time, no binary, and exit bounded by that build
   (0.04-4 s here at load 12; before, the compile of the eight kernels
   for the binary came on top). */
void case_exitstall_exit_pocl(void) {
  for (int rep = 0; rep < 5; ++rep) {
    char dir[] = "/tmp/idiom-exitstall-XXXXXX";
    CHECK(mkdtemp(dir) != NULL);
    char cache[sizeof dir + 16], pocl[sizeof dir + 32];
    snprintf(cache, sizeof cache, "IDIOM_CACHE_DIR=%s", dir);
    snprintf(pocl, sizeof pocl, "POCL_CACHE_DIR=%s/pocl", dir);
    const char *env[] = {cache, pocl, "IDIOM_DEBUG=time", NULL};
    char *err = NULL;
    double waited = -1;
    int st =
        coldstart_spawn_exit_wait("exitstall_big_child", env, &err, &waited);
    CHECK_MSG(st == 7, "exit status %d (want 7):\n%s", st, err);
    CHECK_MSG(strstr(err, "exitstall_big_child: building=1 offloaded=0 ok=1"),
              "no call saw the build, or a wrong result:\n%s", err);
    CHECK_MSG(waited >= 0 && waited < 8.0, "exit waited %.3f s:\n%s", waited,
              err);
    CHECK_MSG(!strstr(err, "disk cache: wrote") && count_binaries(dir) == 0,
              "a binary was saved on the runtime thread:\n%s", err);
    fprintf(stderr, "exitstall_exit_pocl: exit waited %.3f s\n", waited);
    free(err);
    coldstart_remove_dir(dir);
  }
}
