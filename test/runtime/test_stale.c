/*===- test_stale.c - Device samples carried over from earlier runs -------===*
 *
 * Cases of idiomrt_test for the stale-sample rule (runtime/lib/stale.c):
 * when a device sample seeded by the profile, that lost to the host, is
 * measured again ("re-probed"). Each case seeds a size class as
 * profile.c does (one sample a side, the seed's age, losses and
 * contention), then calls idiomrt_cost_decide as idiom_run does and the
 * host-hint entry point as the plugin's declined path does; device
 * samples are fed with idiomrt_cost_device_sample, and this run's
 * contention with idiomrt_stale_host_clock: deterministic, no timing and
 * no device involved.
 *
 *  - stale_age: a losing seed one run old that lost once is re-probed as
 *    soon as the host time spent on it reaches a start-up plus three
 *    device runs at its loss (not before, and without a host hint
 *    meanwhile); the re-probe's first sample replaces the seed;
 *  - stale_fresh: the same seed measured by the last run (age 0) in a
 *    quiet run: never re-probed, and hinted to the host at once;
 *  - stale_load: a seed of the last run measured at 80% contention, in a
 *    run at 0%: re-probed (a loaded run's sample is discounted);
 *  - stale_load_busy: the same seed in a run at 70%: the seed stands (no
 *    re-probe, hints once the credit was reached);
 *  - stale_load_repeat: a seed of an 80% run that lost twice in a row, in a
 *    run at 0%: the seed stands (the load discounts a losing streak's
 *    first loss only; then the age rule);
 *  - stale_budget: 40 runs of a program whose device keeps losing, each
 *    run's profile line (idiomrt_stale_line) seeding the next: the device
 *    is re-probed in runs 2, 5, 10, 19 and 36 only (back-off 1, 2, 4, 8, 16
 *    runs), each run whose seed is not stale keeps it one run older;
 *  - stale_nosample: a re-probe that got no device sample before the run
 *    ended backs off as a loss does (AGE 0, LOSSES + 1): the next run
 *    does not re-probe again;
 *  - stale_floor: a seed whose device floor exceeds the host time is not
 *    a re-probe candidate (nor a one-shot call: its own host time does
 *    not pay for a re-probe).
 *
 * stale_age, stale_load and stale_budget fail on the runtime before
 * stale.c (no re-probe: the device is never measured again while it is
 * not started).
 *
 *===----------------------------------------------------------------------===*/
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include "rt_internal.h"
#include "test_common.h"

#include <string.h>

static const char sscale_src[] =
    "__kernel void sscale(const int n, const float a,\n"
    "                     __global const float *x, __global float *y) {\n"
    "  size_t i = get_global_id(0);\n"
    "  if (i < (size_t)n) y[i] = a * x[i] + y[i];\n"
    "}\n";
/* the site whose decisions the cases look at (never run) */
static const idiom_kernel_desc ssite_desc = {
    "sscale", "test_stale.c:site", "map", sscale_src, IDIOM_MAP, 1, 0, 0,
    NULL};

enum { TRIP = 1 << 20 };

/* ssite's class for TRIP iterations, seeded as profile.c does: host and
   device medians (ns per iteration), the seed's age, losses and run's
   contention. */
static idiomrt_cost_class *seed_class(double host, double dev, unsigned age,
                                      unsigned losses, int load) {
  idiomrt_entry *e = idiomrt_entry_get(&ssite_desc);
  CHECK(e != NULL);
  pthread_mutex_lock(&e->stats_lock);
  idiomrt_cost_site *s = &e->cost;
  idiomrt_cost_class *c = idiomrt_cost_class_get(s, idiomrt_size_class(TRIP));
  CHECK(c != NULL);
  memset(c, 0, sizeof *c);
  c->host_pi[0] = c->host_est = host;
  c->hn = 1;
  c->dev_pi[0] = c->dev_est = dev;
  c->dn = 1;
  idiomrt_stale_seed(c, age, losses, load);
  s->host_got = 3; /* the caller answers host-timing requests */
  pthread_mutex_unlock(&e->stats_lock);
  return c;
}

static int decide(uint64_t *word) {
  return cost_site_call(&ssite_desc, TRIP, word);
}

/* Calls of the site (at most max) until one re-probes; *hinted: whether
   any call before it got a host hint. Returns the calls before the
   re-probe (max when none). */
static int calls_until_reprobe(int max, int *hinted) {
  uint64_t word;
  *hinted = 0;
  for (int k = 0; k < max; ++k) {
    int dec = decide(&word);
    if (dec == IDIOMRT_DEC_REPROBE)
      return k;
    CHECK_MSG(dec == IDIOMRT_DEC_HOST_FASTER, "call %d: decision %s", k,
              idiomrt_decision_name(dec));
    *hinted |= word != 0;
  }
  return max;
}

/* The calls whose host time pays for a re-probe of a class with host
   estimate host_ns and device estimate dev_ns (stale.c: a start-up and
   three device runs at the loss), the device not started. */
static int calls_due(double host_ns, double dev_ns) {
  double lat, bw;
  idiomrt_calib_get(&lat, &bw); /* 0 when not calibrated */
  double cost = (double)idiomrt_calib_start_after_ns() +
                3.0 * (lat + dev_ns - host_ns);
  int k = 0;
  for (double credit = 0; credit < cost; credit += host_ns)
    ++k;
  return k;
}

/* A seed of host 1 ms, device 3 ms (AGE age, LOSSES losses, LOAD load),
   then calls of the site: reprobe, the re-probe comes exactly when the
   credit pays for it, without a host hint before; else none comes in
   twice those calls, and the host is hinted. */
static idiomrt_cost_class *expect_seed(unsigned age, unsigned losses,
                                       int load, int reprobe) {
  idiomrt_cost_class *c = seed_class(1.0, 3.0, age, losses, load);
  int due = calls_due(1.0 * TRIP, 3.0 * TRIP);
  int hinted;
  int k = calls_until_reprobe(2 * due, &hinted);
  if (reprobe) {
    CHECK_MSG(k == due, "re-probed after %d calls, %d due", k, due);
    CHECK_MSG(!hinted, "a host hint before the re-probe");
  } else {
    CHECK_MSG(k == 2 * due, "re-probed after %d calls", k);
    CHECK_MSG(hinted, "no host hint for a seed that stands");
  }
  return c;
}

void case_stale_age(void) {
  /* device 3 ms (a loaded run's), one run old, lost once */
  idiomrt_cost_class *c = expect_seed(1, 1, 0, 1);
  CHECK(!idiomrt_startup_begun());
  /* until a device sample comes, the class stays on the device */
  uint64_t word;
  CHECK(decide(&word) == IDIOMRT_DEC_REPROBE);
  idiomrt_entry *e = idiomrt_entry_get(&ssite_desc);
  /* the first run (a warm-up that loses) is a try, not a sample */
  idiomrt_cost_device_sample(e, TRIP, 2500000, 0, 0);
  CHECK(c->dev_seed == 1 && c->dn == 1 && c->dev_tries == 1);
  CHECK(decide(&word) == IDIOMRT_DEC_REPROBE);
  /* the first sample replaces the seed: 0.5 ms */
  idiomrt_cost_device_sample(e, TRIP, 500000, 0, 0);
  CHECK_MSG(c->dn == 1 && c->dev_seed == 0 && c->dev_est < 0.6,
            "dn %u seed %d est %g", c->dn, c->dev_seed, c->dev_est);
  int dec = decide(&word);
  CHECK_MSG(dec != IDIOMRT_DEC_REPROBE && dec != IDIOMRT_DEC_HOST_FASTER,
            "after the sample: decision %s", idiomrt_decision_name(dec));
}

void case_stale_fresh(void) {
  /* the same seed, measured by the last run, a quiet one: it stands */
  expect_seed(0, 1, 0, 0);
}

void case_stale_load(void) {
  /* measured by the last run at 80% contention; this run is quiet */
  idiomrt_stale_host_clock(10000000, 10000000);
  CHECK(idiomrt_stale_contention() == 0);
  expect_seed(0, 1, 80, 1);
}

void case_stale_load_busy(void) {
  /* the same seed in a run at 70% contention: it stands */
  idiomrt_stale_host_clock(10000000, 3000000);
  CHECK(idiomrt_stale_contention() == 70);
  expect_seed(0, 1, 80, 0);
}

void case_stale_load_repeat(void) {
  /* measured at 80% contention, the device's second loss in a row */
  idiomrt_stale_host_clock(10000000, 10000000);
  expect_seed(0, 2, 80, 0);
}

void case_stale_budget(void) {
  enum { RUNS = 40 };
  unsigned age = 0, losses = 1; /* run 0 explored the device: it lost */
  int load = 0, probes = 0, at[RUNS];
  int due = calls_due(1.0 * TRIP, 3.0 * TRIP);
  idiomrt_entry *e = idiomrt_entry_get(&ssite_desc);
  for (int run = 1; run < RUNS; ++run) {
    idiomrt_cost_class *c = seed_class(1.0, 3.0, age, losses, load);
    int hinted;
    int k = calls_until_reprobe(2 * due, &hinted);
    if (k < 2 * due) {
      at[probes++] = run;
      /* the device started; a warm-up and a sample: it loses again */
      idiomrt_cost_device_sample(e, TRIP, 3000000, 0, 0);
      idiomrt_cost_device_sample(e, TRIP, 3000000, 0, 0);
      CHECK(c->dev_seed == 0);
    }
    pthread_mutex_lock(&e->stats_lock);
    idiomrt_stale_line(c, &age, &losses, &load);
    pthread_mutex_unlock(&e->stats_lock);
  }
  static const int want[] = {2, 5, 10, 19, 36};
  int nwant = (int)(sizeof want / sizeof want[0]);
  CHECK_MSG(probes == nwant, "%d re-probes in %d runs", probes, RUNS - 1);
  for (int i = 0; i < probes && i < nwant; ++i)
    CHECK_MSG(at[i] == want[i], "re-probe %d in run %d, not %d", i, at[i],
              want[i]);
  CHECK_MSG(losses == 6 && age == 3, "losses %u, age %u", losses, age);
}

void case_stale_nosample(void) {
  idiomrt_cost_class *c = expect_seed(1, 1, 0, 1);
  /* the run ends before a device sample */
  unsigned age, losses;
  int load;
  idiomrt_entry *e = idiomrt_entry_get(&ssite_desc);
  pthread_mutex_lock(&e->stats_lock);
  idiomrt_stale_line(c, &age, &losses, &load);
  pthread_mutex_unlock(&e->stats_lock);
  CHECK_MSG(age == 0 && losses == 2 && load == 0,
            "age %u losses %u load %d", age, losses, load);
  /* the next run: not stale (AGE 0 < 2), hinted */
  expect_seed(age, losses, load, 0);
}

void case_stale_floor(void) {
  /* a stale seed, but the device's floor (a calibrated or static latency
     plus 1 TB moved) exceeds the host's 1 ms: host-floor, hinted */
  seed_class(1.0, 3.0, 8, 1, 0);
  idiomrt_entry *e = idiomrt_entry_get(&ssite_desc);
  uint64_t word = 0;
  const char *reason = NULL;
  for (int k = 0; k < 400; ++k) {
    int dec = idiomrt_cost_decide(e, TRIP, 1ull << 40, 0.0, &reason);
    CHECK_MSG(dec == IDIOMRT_DEC_CANNOT_WIN, "call %d: decision %s", k,
              idiomrt_decision_name(dec));
    idiomrt_cost_clear_want();
  }
  /* one call of a long loop (10 s on the host): the credit is the host
     time spent before it, none */
  seed_class(1e4, 3e4, 8, 1, 0);
  int dec = decide(&word);
  CHECK_MSG(dec == IDIOMRT_DEC_HOST_FASTER, "one-shot: decision %s",
            idiomrt_decision_name(dec));
}
