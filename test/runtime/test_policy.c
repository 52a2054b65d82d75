/*===- test_policy.c - Background start-up and the cost model -------------===*
 *
 * Cases of idiomrt_test (listed in test_idiomrt.c's table) for issue 12's
 * policy: with the cost model on, the first call declines while the device
 * starts and a later one offloads; a tiny call repeated many times stays on
 * the host while a forced setting (IDIOM_DEVICE=cpu, IDIOM_MIN_TRIP) still
 * offloads it; a caller that never times its loop is detected; the stats
 * show the decisions. The caller's fallback loops are timed with
 * idiom_host_begin / idiom_host_end (the token form; the plugin ends them
 * with idiom_host_end_site, test_hint.c).
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
#include <sys/stat.h>
#include <time.h>

/* y[i] = a * x[i] + y[i];  args: n, a, x (IN), y (INOUT) */
static const char pscale_src[] =
    "__kernel void pscale(const int n, const float a,\n"
    "                     __global const float *x, __global float *y) {\n"
    "  size_t i = get_global_id(0);\n"
    "  if (i < (size_t)n) y[i] = a * x[i] + y[i];\n"
    "}\n";
static const idiom_kernel_desc pscale_desc = {
    "pscale", "test_policy.c:pscale", "map", pscale_src, IDIOM_MAP, 1, 0, 0,
    NULL};
/* the same kernel at another call site (a tiny repeated call) */
static const idiom_kernel_desc ptiny_desc = {
    "pscale", "test_policy.c:ptiny", "map", pscale_src, IDIOM_MAP, 1, 0, 0,
    NULL};

/* the same loop with another kernel source (its own program) at a third
   site */
static const char pscale2_src[] =
    "/* second program */\n"
    "__kernel void pscale(const int n, const float a,\n"
    "                     __global const float *x, __global float *y) {\n"
    "  size_t i = get_global_id(0);\n"
    "  if (i < (size_t)n) y[i] = a * x[i] + y[i];\n"
    "}\n";
static const idiom_kernel_desc pscale2_desc = {
    "pscale", "test_policy.c:pscale2", "map", pscale2_src, IDIOM_MAP, 1, 0, 0,
    NULL};

static double now_s(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* One call site as the plugin stitches it: idiom_run, else the original
   loop between idiom_host_begin and idiom_host_end. extra_host_us makes the
   host loop slower (a loop whose host time is long). Returns idiom_run's
   answer; *reason gets the decline reason (or "") on 0. */
static int site(const idiom_kernel_desc *d, float a, float *x, float *y,
                int n, int timed, unsigned extra_host_us, char *reason,
                size_t rn) {
  idiom_arg args[4] = {i32(n), f32(a), buf(IDIOM_ARG_BUF_IN, x, 4ull * n),
                       buf(IDIOM_ARG_BUF_INOUT, y, 4ull * n)};
  uint64_t sizes[1] = {(uint64_t)n};
  if (idiom_run(d, args, 4, sizes, NULL))
    return 1;
  snprintf(reason, rn, "%s", reason_or_none());
  uint64_t tok = timed ? idiom_host_begin(d) : 0;
  for (int i = 0; i < n; ++i)
    y[i] = a * x[i] + y[i];
  if (extra_host_us) {
    double until = now_s() + extra_host_us / 1e6;
    while (now_s() < until)
      ;
  }
  if (timed)
    idiom_host_end(d, tok);
  return 0;
}

/* 1 when an OpenCL library is mapped in this process. */
static int opencl_loaded(void) {
  FILE *f = fopen("/proc/self/maps", "r");
  if (!f)
    return -1;
  char line[1024];
  int found = 0;
  while (!found && fgets(line, sizeof line, f))
    found = strstr(line, "libOpenCL") != NULL || strstr(line, "libpocl");
  fclose(f);
  return found;
}

static void fill(float *x, float *y, int n) {
  for (int i = 0; i < n; ++i) {
    x[i] = (float)(i % 1000) * 0.5f;
    y[i] = (float)(i % 77) - 3.0f;
  }
}

/* y after k applications of y = 2x + y from fill's values (exact in float
   for these magnitudes). */
static int check_y(const float *y, int n, int k) {
  for (int i = 0; i < n; ++i) {
    float want = (float)(i % 77) - 3.0f;
    for (int j = 0; j < k; ++j)
      want = 2.0f * ((float)(i % 1000) * 0.5f) + want;
    if (y[i] != want) {
      fprintf(stderr, "y[%d] = %g, want %g\n", i, y[i], want);
      return 0;
    }
  }
  return 1;
}

int policy_site(const idiom_kernel_desc *d, float *x, float *y, int n,
                unsigned extra_host_us) {
  char why[256];
  return site(d, 2.0f, x, y, n, 1, extra_host_us, why, sizeof why);
}

void policy_fill(float *x, float *y, int n) { fill(x, y, n); }

int policy_opencl_loaded(void) { return opencl_loaded(); }

int policy_check_y(const float *y, int n, int k) { return check_y(y, n, k); }

/* The first call of a size class runs the loop to measure it; the second,
   with a host time the device could beat, starts the device in the
   background and declines without waiting for it; once the kernels are
   built and the device measured faster, the device runs it. */
void case_policy_starting(void) {
  setenv("IDIOM_COST", "on", 1);
  enum { N = 1 << 20 };
  float *x = malloc(4ull * N), *y = malloc(4ull * N);
  fill(x, y, N);
  char why[256] = "";
  /* a host loop of 250 ms per call: more than the 200 ms of host time
     after which the device is started (no calibration file: the test
     driver's cache directory is new) */
  int rc = site(&pscale_desc, 2.0f, x, y, N, 1, 250000, why, sizeof why);
  CHECK_MSG(rc == 0 && strcmp(why, "cost model: measuring the host loop") == 0,
            "first call: rc=%d reason=%s", rc, why);
  double t0 = now_s();
  rc = site(&pscale_desc, 2.0f, x, y, N, 1, 0, why, sizeof why);
  double second = now_s() - t0;
  CHECK_MSG(rc == 0 && strcmp(why, "device starting") == 0,
            "second call: rc=%d reason=%s", rc, why);
  /* "device starting" says it did not wait for the start-up (after which
     the device would be ready); the bound only catches a call blocked on
     something else for long (the machine may be loaded) */
  CHECK_MSG(second < 1.0, "second call took %.3f s", second);
  int calls = 2, offloaded = 0, seen_building = 0;
  double deadline = now_s() + 120;
  /* a host loop of 200 ms per call: the device (a few ms) must win */
  while (!offloaded && now_s() < deadline && calls < 400) {
    rc = site(&pscale_desc, 2.0f, x, y, N, 1, 200000, why, sizeof why);
    calls++;
    if (rc)
      offloaded = calls;
    else if (strcmp(why, "kernels building") == 0)
      seen_building = 1;
    else
      CHECK_MSG(strcmp(why, "device starting") == 0 ||
                    strncmp(why, "cost model:", 11) == 0,
                "call %d: unexpected reason %s", calls, why);
  }
  CHECK_MSG(offloaded > 0, "never offloaded in %d calls (last reason %s)",
            calls, why);
  CHECK_MSG(seen_building || offloaded > 0, "no build phase seen");
  CHECK(check_y(y, N, calls));
  CHECK(idiom_device_name() != NULL);
  free(x);
  free(y);
}

/* Host work per call: 4096 elements, about a microsecond. */
enum { TINY = 4096, TINY_CALLS = 2000 };

/* Runs the tiny site TINY_CALLS times after the device is ready; returns how
   many calls were offloaded and checks the results. */
static int tiny_loop(int timed) {
  float *x = malloc(4ull * TINY), *y = malloc(4ull * TINY);
  fill(x, y, TINY);
  char why[256];
  int off = 0;
  for (int k = 0; k < TINY_CALLS; ++k) {
    float *xs = x, *ys = y;
    off += site(&ptiny_desc, 2.0f, xs, ys, TINY, timed, 0, why, sizeof why);
  }
  CHECK(check_y(y, TINY, TINY_CALLS));
  free(x);
  free(y);
  return off;
}

/* Cost model on: a microsecond of work per call is never worth a launch,
   neither before the device is started (the optimistic floor: the device
   is never started for it) nor after (the calibrated floor). */
void case_policy_tiny_host(void) {
  setenv("IDIOM_COST", "on", 1);
  int off = tiny_loop(1);
  CHECK_MSG(off == 0, "%d of %d tiny calls offloaded", off, TINY_CALLS);
  CHECK_MSG(!opencl_loaded(), "the tiny calls started the device");
  CHECK(idiom_device_name() != NULL); /* waits for the start-up */
  CHECK(opencl_loaded());
  off = tiny_loop(1);
  CHECK_MSG(off == 0, "%d of %d tiny calls offloaded with the device ready",
            off, TINY_CALLS);
}

/* IDIOM_DEVICE=cpu (cost model off by default): the same calls offload,
   the first one included (it waits for the device). */
void case_policy_forced_device(void) {
  setenv("IDIOM_DEVICE", "cpu", 1);
  unsetenv("IDIOM_COST");
  int off = tiny_loop(1);
  CHECK_MSG(off == TINY_CALLS, "%d of %d forced calls offloaded", off,
            TINY_CALLS);
}

/* IDIOM_MIN_TRIP=0 forces likewise. */
void case_policy_forced_min_trip(void) {
  setenv("IDIOM_MIN_TRIP", "0", 1);
  unsetenv("IDIOM_COST");
  int off = tiny_loop(1);
  CHECK_MSG(off == TINY_CALLS, "%d of %d forced calls offloaded", off,
            TINY_CALLS);
}

/* A caller that never calls idiom_host_begin / idiom_host_end (an object
   built before them) still gets the device once that is detected. */
void case_policy_untimed(void) {
  setenv("IDIOM_COST", "on", 1);
  enum { N = 1 << 16 };
  float *x = malloc(4ull * N), *y = malloc(4ull * N);
  fill(x, y, N);
  CHECK(idiom_device_name() != NULL);
  char why[256];
  int off = 0, calls = 0, untimed = 0;
  double deadline = now_s() + 120;
  for (; !off && now_s() < deadline; ++calls) {
    off = site(&pscale_desc, 2.0f, x, y, N, 0, 0, why, sizeof why);
    /* 3 unanswered requests for a host measurement: no more of them */
    if (untimed >= 3)
      CHECK_MSG(off || strcmp(why, "kernels building") == 0,
                "call %d: %s", calls + 1, why);
    else if (!off)
      untimed++;
  }
  CHECK_MSG(off == 1, "never offloaded; last reason %s", why);
  CHECK(check_y(y, N, calls));
  free(x);
  free(y);
}

/* idiom_host_begin answers only right after a policy decline of the same
   descriptor, and idiom_host_end ignores tokens that are not current. */
void case_policy_host_api(void) {
  setenv("IDIOM_COST", "on", 1);
  CHECK(idiom_host_begin(&pscale_desc) == 0); /* nothing declined yet */
  idiom_host_end(&pscale_desc, 0);            /* accepted, does nothing */
  idiom_host_end(NULL, 12345);                /* ignored */
  CHECK(idiom_host_begin(NULL) == 0);
  enum { N = 1 << 14 };
  float *x = malloc(4ull * N), *y = malloc(4ull * N);
  fill(x, y, N);
  idiom_arg args[4] = {i32(N), f32(2.0f), buf(IDIOM_ARG_BUF_IN, x, 4ull * N),
                       buf(IDIOM_ARG_BUF_INOUT, y, 4ull * N)};
  uint64_t sizes[1] = {N};
  CHECK(idiom_run(&pscale_desc, args, 4, sizes, NULL) == 0);
  CHECK(starts_with(idiom_last_reason(), "cost model: measuring the host"));
  CHECK(idiom_host_begin(&ptiny_desc) == 0); /* another descriptor */
  uint64_t tok = idiom_host_begin(&pscale_desc);
  CHECK(tok != 0);
  CHECK(idiom_host_begin(&pscale_desc) == 0); /* one token per decline */
  idiom_host_end(&pscale_desc, tok + 2);      /* not the token: ignored */
  idiom_host_end(&pscale_desc, tok);
  /* a decline below the work threshold asks for no measurement (the
     ranges cut to the 16 elements: the gate counts the bytes read too) */
  sizes[0] = 16;
  args[0] = i32(16);
  args[2] = buf(IDIOM_ARG_BUF_IN, x, 4ull * 16);
  args[3] = buf(IDIOM_ARG_BUF_INOUT, y, 4ull * 16);
  CHECK(idiom_run(&pscale_desc, args, 4, sizes, NULL) == 0);
  CHECK(idiom_host_begin(&pscale_desc) == 0);
  free(x);
  free(y);
}

/* Child of policy_stats: the tiny site, then two calls of a site whose
   host loop takes 20 ms (measured, then too little host time to start the
   device). */
void case_policy_stats_child(void) {
  setenv("IDIOM_COST", "on", 1);
  tiny_loop(1);
  enum { N = 1 << 14 };
  float *x = malloc(4ull * N), *y = malloc(4ull * N);
  fill(x, y, N);
  char why[256];
  site(&pscale_desc, 2.0f, x, y, N, 1, 20000, why, sizeof why);
  site(&pscale_desc, 2.0f, x, y, N, 1, 20000, why, sizeof why);
  free(x);
  free(y);
}

/* IDIOM_STATS=1 shows the decisions per call site. */
void case_policy_stats(void) {
  const char *env[] = {"IDIOM_STATS=1", NULL};
  char *err = NULL;
  int st = spawn_case("policy_stats_child", env, &err);
  CHECK_MSG(st == 0, "child failed (%d):\n%s", st, err);
  const char *a = strstr(err, "idiom-stats: test_policy.c:pscale ");
  const char *b = strstr(err, "idiom-stats: test_policy.c:ptiny ");
  CHECK_MSG(a && b, "stderr:\n%s", err);
  if (a) {
    char one[2048];
    snprintf(one, sizeof one, "%.*s", (int)strcspn(a, "\n"), a);
    CHECK_MSG(strstr(one, "calls=2 offloaded=0 ") != NULL, "%s", one);
    CHECK_MSG(strstr(one, "decisions=\"host-prestart x1; host-explore "
                          "x1\"") != NULL,
              "%s", one);
    CHECK_MSG(strstr(one, "reasons=\"cost model: measuring the host loop\" "
                          "x1; \"cost model: too little host time yet to "
                          "start the device\" x1") != NULL,
              "%s", one);
    CHECK_MSG(strstr(one, "device=\"none\"") != NULL, "%s", one);
    CHECK_MSG(strstr(one, " host_ms=") != NULL, "%s", one);
  }
  if (b) {
    char one[2048];
    snprintf(one, sizeof one, "%.*s", (int)strcspn(b, "\n"), b);
    CHECK_MSG(strstr(one, "calls=2000 offloaded=0 ") != NULL, "%s", one);
    CHECK_MSG(strstr(one, "host-explore x1") != NULL, "%s", one);
    CHECK_MSG(strstr(one, "host-floor x1999") != NULL, "%s", one);
    CHECK_MSG(strstr(one, "\"cost model: transfers and launch exceed the "
                          "host time\" x1999") != NULL,
              "%s", one);
    CHECK_MSG(strstr(one, "cost=\"class 12: host ") != NULL, "%s", one);
  }
  free(err);
}

/* Child of policy_exit: starts the device (two calls of 250 ms of host
   work), waits POLICY_EXIT_US, prints the result and exits with 7 while the
   start-up may still run. */
void case_policy_exit_child(void) {
  setenv("IDIOM_COST", "on", 1);
  enum { N = 1 << 12 };
  float *x = malloc(4ull * N), *y = malloc(4ull * N);
  fill(x, y, N);
  char why[256];
  site(&pscale_desc, 2.0f, x, y, N, 1, 250000, why, sizeof why);
  site(&pscale_desc, 2.0f, x, y, N, 1, 0, why, sizeof why);
  const char *us = getenv("POLICY_EXIT_US");
  double until = now_s() + (us ? atof(us) : 0) / 1e6;
  while (now_s() < until)
    ;
  fprintf(stderr, "policy_exit_child: %s %d\n", why, check_y(y, N, 2));
  exit(7);
}

/* exit() while the device starts in the background: the exit status and
   the output are the program's (the driver's destructors would otherwise
   race with the start-up thread: SIGSEGV or abort on PoCL). */
void case_policy_exit(void) {
  const char *delays[] = {"POLICY_EXIT_US=0", "POLICY_EXIT_US=2000",
                          "POLICY_EXIT_US=30000", "POLICY_EXIT_US=80000"};
  for (int rep = 0; rep < 2; ++rep) {
    for (size_t i = 0; i < sizeof delays / sizeof delays[0]; ++i) {
      /* no calibration file: a start-up is expected to take 200 ms, too
         long for the 250 ms loop to wait for it (startup.c) */
      const char *env[] = {delays[i], "IDIOM_CACHE_DIR=off", NULL};
      char *err = NULL;
      double t0 = now_s();
      int st = spawn_case("policy_exit_child", env, &err);
      double dt = now_s() - t0;
      CHECK_MSG(st == 7, "%s: exit status %d (want 7):\n%s", delays[i], st,
                err);
      CHECK_MSG(strstr(err, "policy_exit_child: device starting 1") != NULL,
                "%s:\n%s", delays[i], err);
      fprintf(stderr, "%s: %.3f s\n", delays[i], dt);
      free(err);
    }
  }
}

/* Internal to the runtime (rt_internal.h); the archive exports it. */
uint64_t idiomrt_cost_bytes(const idiom_arg *args, uint32_t nargs,
                            const char *offsets);
uint64_t idiomrt_resid_bytes(void);

/* The bytes the cost model charges a run: IN once, OUT and INOUT twice;
   none inside a residency region (its buffers are copied in once per region
   and stay on the device), again the full count after the region. */
void case_policy_resid_bytes(void) {
  float x[64], y[64], z[64];
  idiom_arg args[5] = {i32(64), buf(IDIOM_ARG_BUF_IN, x, sizeof x),
                       buf(IDIOM_ARG_BUF_INOUT, y, sizeof y),
                       buf(IDIOM_ARG_BUF_OUT, z, sizeof z), f32(1.0f)};
  const uint64_t full = sizeof x + 2 * sizeof y + 2 * sizeof z;
  CHECK(idiomrt_cost_bytes(args, 5, NULL) == full);
  idiom_region_begin();
  CHECK(idiomrt_cost_bytes(args, 5, NULL) == 0);
  idiom_region_begin(); /* nested */
  CHECK(idiomrt_cost_bytes(args, 5, NULL) == 0);
  idiom_region_end();
  CHECK(idiomrt_cost_bytes(args, 5, NULL) == 0);
  idiom_region_end();
  CHECK(idiomrt_cost_bytes(args, 5, NULL) == full);
}

/* What a host run inside a region costs in copies (costmodel.c adds it to
   the host's estimate): the bytes the region holds on the device, 0 once a
   sync emptied it and outside regions. */
void case_policy_resid_held(void) {
  setenv("IDIOM_MIN_TRIP", "0", 1);
  enum { N = 4096 };
  static float x[N], y[N];
  idiom_arg args[4] = {i32(N), f32(2.0f), buf(IDIOM_ARG_BUF_IN, x, sizeof x),
                       buf(IDIOM_ARG_BUF_INOUT, y, sizeof y)};
  uint64_t sizes[1] = {N};
  CHECK(idiomrt_resid_bytes() == 0);
  idiom_region_begin();
  CHECK(idiomrt_resid_bytes() == 0);
  CHECK_MSG(idiom_run(&pscale_desc, args, 4, sizes, NULL) == 1, "declined: %s",
            reason_or_none());
  CHECK_MSG(idiomrt_resid_bytes() == sizeof x + sizeof y, "held %llu",
            (unsigned long long)idiomrt_resid_bytes());
  idiom_region_sync();
  CHECK(idiomrt_resid_bytes() == 0);
  CHECK(idiom_run(&pscale_desc, args, 4, sizes, NULL) == 1);
  idiom_region_end();
  CHECK(idiomrt_resid_bytes() == 0);
  CHECK(y[5] == 0.0f);
}

/* Internal to the runtime (rt_threads.h): 1 while the start-up thread runs
   (device start-up or its build queue). */
int idiomrt_startup_running(void);

/* Internal to the runtime (rt_internal.h): the profile's checksum. */
uint64_t idiomrt_fnv1a(uint64_t h, const void *p, size_t n);
#define IDIOMRT_FNV_OFFSET 0xcbf29ce484222325ULL

/* Child of policy_worthy: one call that measures the host loop, then
   POLICY_CALLS calls of 25 ms of host work each (each worth the device:
   no device time is known and the host's beats any transfer floor). */
void case_policy_worthy_child(void) {
  setenv("IDIOM_COST", "on", 1);
  enum { N = 1 << 12 };
  float *x = malloc(4ull * N), *y = malloc(4ull * N);
  fill(x, y, N);
  char why[256];
  int calls = atoi(getenv("POLICY_CALLS") ? getenv("POLICY_CALLS") : "0");
  for (int k = 0; k <= calls; ++k)
    site(&pscale_desc, 2.0f, x, y, N, 1, 25000, why, sizeof why);
  fprintf(stderr, "policy_worthy_child: %d\n", check_y(y, N, calls + 1));
  free(x);
  free(y);
}

/* A fresh directory for a child's cache and profile: dir, prof (dir/p.txt)
   and the two environment entries naming them. */
typedef struct profile_dir {
  char dir[32], prof[48], cache_env[64], prof_env[80];
} profile_dir;

static int profile_dir_make(profile_dir *d, const char *tag) {
  snprintf(d->dir, sizeof d->dir, "/tmp/idiomrt-%s-XXXXXX", tag);
  if (!mkdtemp(d->dir))
    return 0;
  snprintf(d->prof, sizeof d->prof, "%s/p.txt", d->dir);
  snprintf(d->cache_env, sizeof d->cache_env, "IDIOM_CACHE_DIR=%s", d->dir);
  snprintf(d->prof_env, sizeof d->prof_env, "IDIOM_PROFILE=%s", d->prof);
  return 1;
}

/* Runs policy_worthy_child with 10 worthy calls (about 250 ms of host
   time) and a profile whose worthy line is `worthy` ns (-1: no profile),
   in a fresh cache directory (start-up threshold: 200 ms, no calibration
   file). Returns 1 when the child started the device; the profile it
   wrote must carry its own worthy total. */
static int worthy_run(long long worthy) {
  profile_dir d;
  CHECK(profile_dir_make(&d, "worthy"));
  const char *dir = d.dir, *prof = d.prof, *cache_env = d.cache_env,
             *prof_env = d.prof_env;
  if (worthy >= 0) {
    char body[256];
    int n = snprintf(body, sizeof body,
                     "idiom-profile 1\nenv 0000000000000000\nworthy %lld\n",
                     worthy);
    unsigned long long sum = idiomrt_fnv1a(IDIOMRT_FNV_OFFSET, body, (size_t)n);
    FILE *f = fopen(prof, "w");
    CHECK(f != NULL);
    if (f) {
      fprintf(f, "%scheck %016llx\n", body, sum);
      fclose(f);
    }
  }
  const char *env[] = {"POLICY_CALLS=10", "IDIOM_STATS=1", "IDIOM_DEBUG=1",
                       cache_env, prof_env, NULL};
  char *err = NULL;
  int st = spawn_case("policy_worthy_child", env, &err);
  CHECK_MSG(st == 0, "child failed (%d):\n%s", st, err);
  CHECK_MSG(strstr(err, "policy_worthy_child: 1") != NULL, "%s", err);
  if (worthy >= 0)
    CHECK_MSG(strstr(err, " site classes") != NULL &&
                  !strstr(err, "ignoring"),
              "profile not read:\n%s", err);
  int started = strstr(err, "device-starting") != NULL;
  /* the child's own total: 10 runs of about 25 ms */
  FILE *f = fopen(prof, "r");
  CHECK_MSG(f != NULL, "no profile written:\n%s", err);
  if (f) {
    char line[256];
    long long w = -1;
    while (fgets(line, sizeof line, f))
      if (sscanf(line, "worthy %lld", &w) == 1)
        break;
    fclose(f);
    CHECK_MSG(w >= 10 * 20000000ll && w < 10 * 200000000ll,
              "worthy %lld in the written profile", w);
  }
  free(err);
  char rm[sizeof d.dir + 16];
  snprintf(rm, sizeof rm, "rm -rf %s", dir);
  CHECK(system(rm) == 0);
  return started;
}

/* The start-up decision with the last run's total of device-worthy host
   time (costmodel.c, start_threshold_ns): with no profile, or a last run
   below one start-up (200 ms) or above two, the device starts once 200 ms
   of such host time have passed; with a last run between one and two
   start-ups (390 ms: a margin for a loaded machine, whose host runs measure
   longer), it does not start before this run has more than the last
   (here about 250 ms: never). */
void case_policy_worthy(void) {
  CHECK_MSG(worthy_run(-1) == 1, "no profile: the device should start");
  CHECK_MSG(worthy_run(390000000ll) == 0,
            "last run 390 ms: the device should not start");
  CHECK_MSG(worthy_run(100000000ll) == 1,
            "last run 100 ms: the device should start");
  CHECK_MSG(worthy_run(1000000000ll) == 1,
            "last run 1000 ms: the device should start");
}

/* Child of policy_wait: a loop of POLICY_HOST_US of host time, measured on
   its first call; its second call comes while the device starts. */
void case_policy_wait_child(void) {
  setenv("IDIOM_COST", "on", 1);
  enum { N = 1 << 12 };
  float *x = malloc(4ull * N), *y = malloc(4ull * N);
  fill(x, y, N);
  char why[256] = "";
  unsigned us = (unsigned)atoi(getenv("POLICY_HOST_US"));
  site(&pscale_desc, 2.0f, x, y, N, 1, us, why, sizeof why);
  int dev = site(&pscale_desc, 2.0f, x, y, N, 1, us, why, sizeof why);
  fprintf(stderr, "policy_wait_child: %s %d\n", dev ? "device" : why,
          check_y(y, N, 2));
  free(x);
  free(y);
}

/* A long loop that comes while the device starts waits for it (at most half
   the loop's host time) and runs on the device: a program with one long
   call gains from the device in its first run. A loop not long enough for
   the start-up still expected (200 ms without a calibration file) declines
   with "device starting" (policy_exit covers that too). */
void case_policy_wait(void) {
  const char *longer[] = {"POLICY_HOST_US=4000000", "IDIOM_CACHE_DIR=off",
                          "IDIOM_DEBUG=1", NULL};
  char *err = NULL;
  int st = spawn_case("policy_wait_child", longer, &err);
  CHECK_MSG(st == 0, "child failed (%d):\n%s", st, err);
  CHECK_MSG(strstr(err, "policy_wait_child: device 1") != NULL, "%s", err);
  CHECK_MSG(strstr(err, "waited ") != NULL, "%s", err);
  free(err);
  const char *shorter[] = {"POLICY_HOST_US=300000", "IDIOM_CACHE_DIR=off",
                           NULL};
  st = spawn_case("policy_wait_child", shorter, &err);
  CHECK_MSG(st == 0, "child failed (%d):\n%s", st, err);
  CHECK_MSG(strstr(err, "policy_wait_child: device starting 1") != NULL,
            "%s", err);
  free(err);
}

/* Runs case `child` with `env` added; it must exit 0 and print `line`. */
static void expect_child_line(const char *child, const char *const *env,
                              const char *line) {
  const char *want[] = {line, NULL};
  free(expect_child_lines(child, env, want));
}

/* Runs site A (pscale_desc) on n elements of x, y until it runs on the
   device (at most 1500 tries, 20 ms apart: a PoCL start-up on a loaded
   machine took more than the 8 s of 400); *calls counts the calls. */
static int until_device(float *x, float *y, int n, unsigned us, int *calls) {
  char why[256];
  struct timespec ms20 = {0, 20000000};
  int a = 0;
  for (int t = 0; t < 1500 && !a; ++t) {
    a = site(&pscale_desc, 2.0f, x, y, n, 1, us, why, sizeof why);
    ++*calls;
    if (!a)
      nanosleep(&ms20, NULL);
  }
  return a;
}

/* Child of policy_prebuild: site A takes POLICY_HOST_US a call on the
   host, site B (its own program) 10 ms; both want the device, A's time
   starts it, B calls while it starts. Then A until it runs on the device,
   a wait for the start-up thread to go idle (B's build, if queued,
   finishes), and B once: B's host time is
   too short to wait for a build, so it runs on the device only if its
   kernels were built without a call of its own after the device came up.
   Prints B's reason while the device started, and its last answer. */
void case_policy_prebuild_child(void) {
  setenv("IDIOM_COST", "on", 1);
  enum { N = 1 << 12 };
  float *x = malloc(4ull * N), *y = malloc(4ull * N);
  fill(x, y, N);
  char why[256] = "", bwhy[256] = "";
  unsigned us = (unsigned)atoi(getenv("POLICY_HOST_US"));
  int calls = 0;
  for (int r = 0; r < 3; ++r) { /* host, too little host time, starting */
    /* A's third call starts the device (A's estimate, not this call's
       time, is what counts) and returns at once: B comes while it starts */
    site(&pscale_desc, 2.0f, x, y, N, 1, r < 2 ? us : 0, why, sizeof why);
    site(&pscale2_desc, 2.0f, x, y, N, 1, 10000, bwhy, sizeof bwhy);
    calls += 2;
  }
  int a = until_device(x, y, N, 0, &calls);
  /* until the start-up thread has emptied its build queue (at most 30 s:
     a fixed 1 s pause was too short for a PoCL build under load) */
  struct timespec ms20 = {0, 20000000};
  for (int t = 0; t < 1500 && idiomrt_startup_running(); ++t)
    nanosleep(&ms20, NULL);
  int b = site(&pscale2_desc, 2.0f, x, y, N, 1, 0, why, sizeof why);
  ++calls;
  fprintf(stderr, "policy_prebuild_child: B while starting: %s; A %s, B %s %d\n",
          bwhy, a ? "device" : "host", b ? "device" : why,
          check_y(y, N, calls));
  free(x);
  free(y);
}

/* A site whose run came while the device started has its kernels built by
   the start-up thread right after the device, not at its next call (which
   declined "kernels building" and ran on the host: one host run per site,
   60-90 ms in a Jacobi sweep on the H200). Fails without startup.c's
   queueing in idiomrt_startup_wait_for_run. */
void case_policy_prebuild(void) {
  const char *env[] = {"POLICY_HOST_US=150000", "IDIOM_CACHE_DIR=off", NULL};
  expect_child_line("policy_prebuild_child", env,
                    "policy_prebuild_child: B while starting: device "
                    "starting; A device, B device 1");
}

/* Child of policy_nowait: as policy_prebuild's, A's host time starts the
   device and A runs there; every build from source takes
   IDIOM_TEST_SLOW_BUILD_MS. Then site B (its own program, 20 ms a call on
   the host) is called while its kernels build: prints B's reason. */
void case_policy_nowait_child(void) {
  setenv("IDIOM_COST", "on", 1);
  enum { N = 1 << 12 };
  float *x = malloc(4ull * N), *y = malloc(4ull * N);
  fill(x, y, N);
  char why[256] = "";
  int calls = 0;
  for (int r = 0; r < 3; ++r, ++calls)
    site(&pscale_desc, 2.0f, x, y, N, 1, r < 2 ? 150000 : 0, why, sizeof why);
  int a = until_device(x, y, N, 0, &calls);
  for (int r = 0; r < 3; ++r, ++calls) /* host-explore, then building */
    site(&pscale2_desc, 2.0f, x, y, N, 1, 20000, why, sizeof why);
  fprintf(stderr, "policy_nowait_child: A %s, B %s %d\n",
          a ? "device" : "host", why, check_y(y, N, calls));
  free(x);
  free(y);
}

/* A call whose kernels build declines at once unless its loop is 4 times
   the expected wait, one build (A's, measured) here (startup.c,
   expected_ready_ns): B's 20 ms loop does not wait for its 1.5 s build.
   Fails when the wait counts only the start-up's remainder (0 once the
   device is up): each such call waited half its loop, at least a 1 ms
   sleep (nas-parboil/adi.c's first H200 run: 2.0 s against 0.85 s). */
void case_policy_nowait(void) {
  const char *env[] = {"IDIOM_CACHE_DIR=off", "IDIOM_DEBUG=1",
                       "IDIOM_TEST_SLOW_BUILD_MS=1500", NULL};
  const char *want[] = {
      "policy_nowait_child: A device, B kernels building 1", NULL};
  char *err = expect_child_lines("policy_nowait_child", env, want);
  CHECK_MSG(err && !strstr(err, "not ready"), "a call waited:\n%s",
            err ? err : "");
  free(err);
}

/* Multiplies the worthy line of profile file `path` by k, with a valid
   check line. 1 on success. */
static int scale_worthy(const char *path, double k) {
  FILE *f = fopen(path, "r");
  if (!f)
    return 0;
  char body[8192], line[512];
  size_t n = 0;
  while (fgets(line, sizeof line, f) && strncmp(line, "check ", 6) != 0) {
    long long w;
    if (sscanf(line, "worthy %lld", &w) == 1)
      snprintf(line, sizeof line, "worthy %lld\n", (long long)(w * k));
    n += (size_t)snprintf(body + n, sizeof body - n, "%s", line);
  }
  fclose(f);
  unsigned long long sum = idiomrt_fnv1a(IDIOMRT_FNV_OFFSET, body, n);
  f = fopen(path, "w");
  if (!f)
    return 0;
  fprintf(f, "%scheck %016llx\n", body, sum);
  return fclose(f) == 0;
}

static unsigned long long inode_of(const char *path) {
  struct stat st;
  return stat(path, &st) == 0 ? (unsigned long long)st.st_ino : 0;
}

/* A run that learns what the profile already says (within 25%) leaves the
   file alone; one whose numbers moved rewrites it (profile.c,
   write_profile). Four calls of 25 ms each, below the start-up threshold:
   no device. The runs after the second are compared with the one before. */
void case_profile_steady(void) {
  profile_dir d;
  CHECK(profile_dir_make(&d, "steady"));
  const char *dir = d.dir, *prof = d.prof, *cache_env = d.cache_env,
             *prof_env = d.prof_env;
  const char *env[] = {"POLICY_CALLS=4", "IDIOM_DEBUG=1", cache_env, prof_env,
                       NULL};
  char *err = NULL;
  CHECK(spawn_case("policy_worthy_child", env, &err) == 0);
  CHECK_MSG(strstr(err, "profile: wrote") != NULL, "%s", err);
  free(err);
  /* the second run has one more worthy call (no host exploration: the
     profile seeds it): 125 against 100 ms, rewritten or not */
  CHECK(spawn_case("policy_worthy_child", env, &err) == 0);
  free(err);
  /* host times measured on a loaded machine move by more than 25% now and
     then: one run in four that keeps the file is enough */
  int kept = 0;
  for (int r = 0; r < 4 && !kept; ++r) {
    unsigned long long ino = inode_of(prof);
    CHECK(ino != 0);
    CHECK(spawn_case("policy_worthy_child", env, &err) == 0);
    kept = strstr(err, "not rewritten") != NULL;
    if (kept)
      CHECK_MSG(inode_of(prof) == ino, "the file was replaced:\n%s", err);
    free(err);
  }
  CHECK_MSG(kept, "every run rewrote the profile");
  CHECK(scale_worthy(prof, 4.0));
  unsigned long long ino = inode_of(prof);
  CHECK(spawn_case("policy_worthy_child", env, &err) == 0);
  CHECK_MSG(strstr(err, "profile: wrote") != NULL, "%s", err);
  CHECK_MSG(inode_of(prof) != ino, "the file was not replaced:\n%s", err);
  free(err);
  char rm[sizeof d.dir + 16];
  snprintf(rm, sizeof rm, "rm -rf %s", dir);
  CHECK(system(rm) == 0);
}

/* y[i] after k applications of y = 2x + y from fill's values, for i in
   [lo, hi). */
static int check_y_range(const float *y, int lo, int hi, int k) {
  for (int i = lo; i < hi; ++i) {
    float x = (float)(i % 1000) * 0.5f, y0 = (float)(i % 77) - 3.0f;
    if (y[i] != y0 + (float)k * 2.0f * x)
      return 0;
  }
  return 1;
}

int policy_check_range(const float *y, int lo, int hi, int k) {
  return check_y_range(y, lo, hi, k);
}

/* Child of policy_region_small: the device started and measured by a long
   loop, then inside a region a call that makes x and y resident and one of
   64 iterations (below IDIOM_MIN_TRIP's default, no host time for its
   class). Prints where the small call ran and whether the region still
   holds the copies. */
void case_policy_region_small_child(void) {
  setenv("IDIOM_COST", "on", 1);
  enum { N = 1 << 16 };
  float *x = malloc(4ull * N), *y = malloc(4ull * N);
  fill(x, y, N);
  char why[256] = "";
  int calls = 0;
  int a = until_device(x, y, N, 30000, &calls);
  idiom_region_begin();
  int big = site(&pscale_desc, 2.0f, x, y, N, 1, 30000, why, sizeof why);
  ++calls;
  uint64_t held = idiomrt_resid_bytes();
  int small = site(&pscale_desc, 2.0f, x, y, 64, 1, 0, why, sizeof why);
  uint64_t held2 = idiomrt_resid_bytes();
  idiom_region_end();
  fprintf(stderr,
          "policy_region_small_child: device %d, big %d, held %d, small %s, "
          "kept %d, values %d\n",
          a, big, held > 0, small ? "device" : why, held2 == held,
          check_y_range(y, 0, 64, calls + 1) &&
              check_y_range(y, 64, N, calls));
  free(x);
  free(y);
}

/* A call below IDIOM_MIN_TRIP inside a region that holds device copies
   runs on the device (cost model on): on the host it would sync the region
   (the boundary-row maps of an ADI time loop, 62^2 points, synced it every
   step). Fails without the exception in launch.c and costmodel.c's step 1. */
void case_policy_region_small(void) {
  const char *env[] = {"IDIOM_CACHE_DIR=off", NULL};
  expect_child_line("policy_region_small_child", env,
                    "policy_region_small_child: device 1, big 1, held 1, "
                    "small device, kept 1, values 1");
}
