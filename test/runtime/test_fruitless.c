/*===- test_fruitless.c - Device start-ups that served no run -------------===*
 *
 * Cases of idiomrt_test for runtime/lib/fruitless.c, the rule deterministic
 * (no device, no timing): the profile's `fruitless STARTS HELD` line read
 * (idiomrt_fruitless_read) and the line this process leaves
 * (idiomrt_fruitless_next). test/lit/run/fruitless-start.c runs the whole
 * path through the profile file and real start-ups.
 *
 *  - fruitless_rule: the hold after 2, 3, 4 and 100 fruitless starts (2, 4,
 *    8 and at most 64 runs) and not after 1; not with another environment;
 *    a held run adds one to HELD; a run neither started nor held leaves
 *    the line as it was;
 *  - fruitless_hint: in a held process, a call the model would send to the
 *    device declines host-prestart with a host hint (the next calls skip
 *    idiom_run: the device will not start in this process); without the
 *    hold the same call declines host-prestart (ski rental) without one;
 *  - cold_host_run: a class's first host run, which first-touches 64 MiB
 *    (page faults), is its sample until a warm run replaces it; two cold
 *    runs after that are not samples, the third is (the steady state)
 *    (runtime/lib/costmodel.c, COLD_MIN_FAULTS, COLD_RUNS_MAX);
 *  - cold_host_warm: warm runs are samples at once (the negative);
 *  - fruitless_saved: with the device started, a process that saved more
 *    than one start-up on it clears the counts, one that saved less (or
 *    nothing) adds a fruitless start.
 *
 *===----------------------------------------------------------------------===*/
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include "rt_internal.h"
#include "test_common.h"

#include <string.h>
#include <sys/mman.h>

/* The line a process leaves after reading (starts, held) with the same
   environment. */
static void next_after(uint64_t starts, uint64_t held, uint64_t *s,
                       uint64_t *h) {
  idiomrt_fruitless_read(starts, held, 1);
  idiomrt_fruitless_next(0, s, h);
}

void case_fruitless_rule(void) {
  setenv("IDIOM_COST", "on", 1);
  uint64_t s, h;
  CHECK(!idiomrt_startup_begun());
  /* one fruitless start: no hold (the line stays: not started here) */
  idiomrt_fruitless_read(1, 0, 1);
  CHECK(!idiomrt_fruitless_hold());
  idiomrt_fruitless_next(0, &s, &h);
  CHECK_MSG(s == 1 && h == 0, "next %llu %llu", (unsigned long long)s,
            (unsigned long long)h);
  /* two: held for 2 runs, each held run counted */
  static const struct {
    uint64_t starts, runs;
  } windows[] = {{2, 2}, {3, 4}, {4, 8}, {8, 64}, {100, 64}};
  for (unsigned i = 0; i < sizeof windows / sizeof windows[0]; ++i) {
    for (uint64_t held = 0; held < windows[i].runs; ++held) {
      next_after(windows[i].starts, held, &s, &h);
      CHECK_MSG(idiomrt_fruitless_hold() && s == windows[i].starts &&
                    h == held + 1,
                "starts %llu held %llu: hold %d next %llu %llu",
                (unsigned long long)windows[i].starts,
                (unsigned long long)held, idiomrt_fruitless_hold(),
                (unsigned long long)s, (unsigned long long)h);
    }
    /* the window is over: this run may start the device */
    next_after(windows[i].starts, windows[i].runs, &s, &h);
    CHECK_MSG(!idiomrt_fruitless_hold() && s == windows[i].starts &&
                  h == windows[i].runs,
              "starts %llu after its window: hold %d",
              (unsigned long long)windows[i].starts,
              idiomrt_fruitless_hold());
  }
  /* another IDIOM_* environment than the profile's: no hold */
  idiomrt_fruitless_read(2, 0, 0);
  CHECK(!idiomrt_fruitless_hold());
  /* no line: nothing */
  next_after(0, 0, &s, &h);
  CHECK(!idiomrt_fruitless_hold() && s == 0 && h == 0);
}

void case_fruitless_saved(void) {
  setenv("IDIOM_COST", "on", 1);
  setenv("IDIOM_PROFILE", "off", 1);
  uint64_t s, h;
  double start = (double)idiomrt_calib_start_after_ns();
  CHECK(start > 0);
  idiomrt_startup_kick();
  CHECK(idiomrt_startup_begun());
  /* the hold was over (HELD 2 of 2): this process started the device */
  idiomrt_fruitless_read(2, 2, 1);
  CHECK(!idiomrt_fruitless_hold());
  idiomrt_fruitless_next(0, &s, &h);
  CHECK_MSG(s == 3 && h == 0, "saved nothing: %llu %llu",
            (unsigned long long)s, (unsigned long long)h);
  idiomrt_fruitless_next(start * 0.9, &s, &h);
  CHECK_MSG(s == 3 && h == 0, "saved 0.9 start-ups: %llu %llu",
            (unsigned long long)s, (unsigned long long)h);
  idiomrt_fruitless_next(start * 1.5, &s, &h);
  CHECK_MSG(s == 0 && h == 0, "saved 1.5 start-ups: %llu %llu",
            (unsigned long long)s, (unsigned long long)h);
  /* a held process (it cannot have started: here it did, by the test)
     counts one more held run whatever it saved */
  idiomrt_fruitless_read(2, 0, 1);
  idiomrt_fruitless_next(start * 1.5, &s, &h);
  CHECK(s == 2 && h == 1);
}

static const char cscale_src[] =
    "__kernel void cscale(const int n, __global float *y) {\n"
    "  size_t i = get_global_id(0);\n"
    "  if (i < (size_t)n) y[i] = 2.0f * y[i];\n"
    "}\n";
/* the site whose host runs the case times (never run on a device) */
static const idiom_kernel_desc csite_desc = {
    "cscale", "test_fruitless.c:cold", "map", cscale_src, IDIOM_MAP, 1, 0, 0,
    NULL};

enum { CTRIP = 1 << 20 };

/* One declined call of the site and its "loop": writing `bytes` of p
   (first touch when p is fresh), timed as the plugin's declined path
   times it. Returns the class's host samples after it, and in *est its
   host estimate (ns per iteration). */
static uint32_t host_run(char *p, size_t bytes, double *est) {
  idiomrt_entry *e = idiomrt_entry_get(&csite_desc);
  const char *reason = NULL;
  int dec = idiomrt_cost_decide(e, CTRIP, 0, 0.0, &reason);
  CHECK_MSG(!idiomrt_cost_is_device(dec), "decision %s",
            idiomrt_decision_name(dec));
  uint64_t tok = idiom_host_begin(&csite_desc);
  CHECK(tok != 0);
  memset(p, 1, bytes);
  idiom_host_end(&csite_desc, tok);
  pthread_mutex_lock(&e->stats_lock);
  const idiomrt_cost_class *c =
      idiomrt_cost_class_find(&e->cost, idiomrt_size_class(CTRIP));
  uint32_t hn = c ? c->hn : 0;
  *est = c ? c->host_est : 0.0;
  pthread_mutex_unlock(&e->stats_lock);
  return hn;
}

static char *fresh(size_t bytes) {
  void *p = mmap(NULL, bytes, PROT_READ | PROT_WRITE,
                 MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  CHECK(p != MAP_FAILED);
  madvise(p, bytes, MADV_NOHUGEPAGE); /* 4 KiB faults, as many as pages */
  return p;
}

void case_cold_host_run(void) {
  setenv("IDIOM_COST", "on", 1);
  setenv("IDIOM_PROFILE", "off", 1);
  /* no device run: a machine whose page faults are slow (50 us a page in a
     loaded microVM: 0.85 s for the first 64 MiB) makes the cold run long
     enough for the model to explore the device */
  setenv("IDIOM_TEST_HOST", "prestart", 1);
  const size_t big = (size_t)64 << 20;
  char *a = fresh(big), *b = fresh(big), *c = fresh(big), *d = fresh(big);
  double cold, warm, est;
  /* the first run, cold (16384 faults): the class's sample for now */
  CHECK_MSG(host_run(a, big, &cold) == 1, "the first run was not a sample");
  /* a warm run replaces it */
  CHECK_MSG(host_run(a, big, &warm) == 1, "the warm run did not replace it");
  CHECK_MSG(warm < cold, "warm %g ns/iteration, cold %g", warm, cold);
  /* two cold runs are left out, the third counts (the steady state) */
  CHECK_MSG(host_run(b, big, &est) == 1 && est == warm,
            "a cold run was a sample");
  CHECK_MSG(host_run(c, big, &est) == 1 && est == warm,
            "a second cold run was a sample");
  CHECK_MSG(host_run(d, big, &est) == 2, "a third cold run was not a sample");
  munmap(a, big);
  munmap(b, big);
  munmap(c, big);
  munmap(d, big);
}

void case_cold_host_warm(void) {
  /* the negative: warm runs are samples at once */
  setenv("IDIOM_COST", "on", 1);
  setenv("IDIOM_PROFILE", "off", 1);
  const size_t big = (size_t)64 << 20;
  char *a = fresh(big);
  double est;
  memset(a, 0, big);
  CHECK_MSG(host_run(a, big, &est) == 1, "a warm first run was not a sample");
  CHECK_MSG(host_run(a, big, &est) == 2, "a warm run was not a sample");
  munmap(a, big);
}

/* csite's class for CTRIP iterations with a host sample of 1 ns and a
   device seed of 0.1 ns per iteration (the device wins). */
static void seed_winning_device(void) {
  idiomrt_entry *e = idiomrt_entry_get(&csite_desc);
  CHECK(e != NULL);
  pthread_mutex_lock(&e->stats_lock);
  idiomrt_cost_class *c =
      idiomrt_cost_class_get(&e->cost, idiomrt_size_class(CTRIP));
  CHECK(c != NULL);
  memset(c, 0, sizeof *c);
  c->host_pi[0] = c->host_est = 1.0;
  c->hn = 1;
  c->dev_pi[0] = c->dev_est = 0.1;
  c->dn = 1;
  e->cost.host_got = 3; /* the caller answers host-timing requests */
  pthread_mutex_unlock(&e->stats_lock);
}

void case_fruitless_hint(void) {
  setenv("IDIOM_COST", "on", 1);
  setenv("IDIOM_PROFILE", "off", 1);
  uint64_t word;
  /* not held: the ski rental declines, no hint */
  idiomrt_fruitless_read(1, 0, 1);
  seed_winning_device();
  int dec = cost_site_call(&csite_desc, CTRIP, &word);
  CHECK_MSG(dec == IDIOMRT_DEC_PRESTART && word == 0,
            "not held: decision %s, hint %llx", idiomrt_decision_name(dec),
            (unsigned long long)word);
  /* held: the same call, with a hint */
  idiomrt_fruitless_read(2, 0, 1);
  seed_winning_device();
  dec = cost_site_call(&csite_desc, CTRIP, &word);
  CHECK_MSG(dec == IDIOMRT_DEC_PRESTART && word != 0,
            "held: decision %s, hint %llx", idiomrt_decision_name(dec),
            (unsigned long long)word);
  CHECK(!idiomrt_startup_begun());
}
