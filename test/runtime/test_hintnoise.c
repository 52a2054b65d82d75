/*===- test_hintnoise.c - Cost-model decisions within noise ---------------===*
 *
 * Cases of idiomrt_test for the cost model's use of its samples' spread
 * (costmodel.c, idiomrt_cost_separation) and for the sites of one
 * residency region decided together (costmodel.c, region_charge). Each
 * case sets a size class's samples by hand (the host's and the device's
 * rings, in ns per iteration) and calls idiomrt_cost_decide, the model's
 * entry point, as idiom_run does, then the host-hint entry point as the
 * plugin's declined path does: deterministic, no timing involved.
 *
 *  - noise_no_hint: estimates within each other's spread, the host's
 *    median lower: the host runs, no hint is written (the calls keep
 *    reaching the model, which measures the device again);
 *  - noise_no_flip: the device won; one noisy sample puts its median above
 *    the host's, within the spread: the device stays the winner;
 *  - noise_clear_hint: a host clearly faster (its slowest sample beats the
 *    device's fastest): the host runs and the hint is written;
 *  - noise_seeded: one sample a side (the profile's), the host a little
 *    faster: no hint, and the device is not started to measure it again;
 *  - noise_region: a region held device copies and a sync emptied it
 *    (another site ran on the host): a site whose host loop is a little
 *    faster than the device goes to the device (refilling the region is
 *    charged to the host), and gets no hint; outside a region the same
 *    class stays on the host.
 *
 *===----------------------------------------------------------------------===*/
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include "rt_internal.h"
#include "test_common.h"

#include <stdlib.h>
#include <string.h>

/* y[i] = a * x[i] + y[i] */
static const char nscale_src[] =
    "__kernel void nscale(const int n, const float a,\n"
    "                     __global const float *x, __global float *y) {\n"
    "  size_t i = get_global_id(0);\n"
    "  if (i < (size_t)n) y[i] = a * x[i] + y[i];\n"
    "}\n";
static const idiom_kernel_desc nscale_desc = {
    "nscale", "test_hintnoise.c:nscale", "map", nscale_src, IDIOM_MAP, 1, 0,
    0, NULL};
/* the site whose decisions the cases look at (never run) */
static const idiom_kernel_desc nsite_desc = {
    "nscale", "test_hintnoise.c:site", "map", nscale_src, IDIOM_MAP, 1, 0, 0,
    NULL};

enum { TRIP = 1 << 20 };

/* nsite's class for TRIP iterations, its samples set: three of the host,
   three of the device (ns per iteration), winner w (0 none, 1 device, 2
   host). */
static idiomrt_cost_class *set_class(const double host[3], const double dev[3],
                                     int w) {
  idiomrt_entry *e = idiomrt_entry_get(&nsite_desc);
  CHECK(e != NULL);
  pthread_mutex_lock(&e->stats_lock);
  idiomrt_cost_site *s = &e->cost;
  idiomrt_cost_class *c = idiomrt_cost_class_get(s, idiomrt_size_class(TRIP));
  CHECK(c != NULL);
  memset(c, 0, sizeof *c);
  memcpy(c->host_pi, host, sizeof c->host_pi);
  memcpy(c->dev_pi, dev, sizeof c->dev_pi);
  c->hn = c->dn = 3;
  double h[3] = {host[0], host[1], host[2]}, d[3] = {dev[0], dev[1], dev[2]};
  /* medians of three */
  for (int i = 0; i < 2; ++i)
    for (int j = i + 1; j < 3; ++j) {
      if (h[j] < h[i]) {
        double t = h[i];
        h[i] = h[j];
        h[j] = t;
      }
      if (d[j] < d[i]) {
        double t = d[i];
        d[i] = d[j];
        d[j] = t;
      }
    }
  c->host_est = h[1];
  c->dev_est = d[1];
  c->winner = w;
  c->gap = 4;
  s->host_got = 3; /* the caller answers host-timing requests */
  pthread_mutex_unlock(&e->stats_lock);
  return c;
}

int cost_site_call(const idiom_kernel_desc *d, uint64_t trip,
                   uint64_t *word) {
  idiomrt_entry *e = idiomrt_entry_get(d);
  const char *reason = NULL;
  *word = 0;
  int dec = idiomrt_cost_decide(e, trip, 0, 0.0, &reason);
  if (!idiomrt_cost_is_device(dec))
    idiom_host_hint(d, word, trip);
  idiomrt_cost_clear_want();
  return dec;
}

static int decide(uint64_t *word) {
  return cost_site_call(&nsite_desc, TRIP, word);
}

/* n calls, each declined "host-cost" without a hint. */
static void expect_host_no_hint(int n) {
  uint64_t word;
  for (int k = 0; k < n; ++k) {
    int dec = decide(&word);
    CHECK_MSG(dec == IDIOMRT_DEC_HOST_FASTER, "call %d: decision %s", k,
              idiomrt_decision_name(dec));
    CHECK_MSG(word == 0, "call %d: hint word %llx within noise", k,
              (unsigned long long)word);
  }
}

void case_noise_no_hint(void) {
  /* host 1.00 ms (0.80-1.30), device 1.02 ms (0.75-1.40) */
  const double host[3] = {1.0, 0.8, 1.3}, dev[3] = {1.02, 0.75, 1.4};
  idiomrt_cost_class *c = set_class(host, dev, 2);
  expect_host_no_hint(3);
  CHECK(c->winner == 2);
}

void case_noise_no_flip(void) {
  /* the device won at 0.80 ms (0.6-1.3) against the host's 1.00 ms
     (0.85-1.2); a slow device sample (1.3) moved its median to 1.05 */
  const double host[3] = {1.0, 0.85, 1.2}, dev[3] = {0.8, 1.05, 1.3};
  idiomrt_cost_class *c = set_class(host, dev, 1);
  uint64_t word;
  for (int k = 0; k < 3; ++k) {
    int dec = decide(&word);
    CHECK_MSG(c->winner == 1, "call %d: the winner flipped to %d (%s)", k,
              c->winner, idiomrt_decision_name(dec));
    CHECK_MSG(word == 0, "call %d: hint word %llx", k,
              (unsigned long long)word);
  }
  /* a host clearly faster (every sample below the device's) does win */
  const double fast[3] = {0.5, 0.45, 0.55};
  c = set_class(fast, dev, 1);
  decide(&word);
  CHECK_MSG(c->winner == 2, "winner %d with the host clearly faster",
            c->winner);
}

void case_noise_clear_hint(void) {
  /* host 0.50 ms (0.45-0.55), device 1.00 ms (0.90-1.10) */
  const double host[3] = {0.5, 0.45, 0.55}, dev[3] = {1.0, 0.9, 1.1};
  idiomrt_cost_class *c = set_class(host, dev, 2);
  uint64_t word;
  int dec = decide(&word);
  CHECK_MSG(dec == IDIOMRT_DEC_HOST_FASTER, "decision %s",
            idiomrt_decision_name(dec));
  CHECK_MSG(word >> IDIOM_HINT_TAG_BITS, "no hint for a clearly faster host");
  CHECK(c->winner == 2);
}

/* A class seeded by the profile (one sample a side: the spread unknown)
   with the host's estimate a little lower: the host runs without a hint,
   and the device is not started for a second sample (a program whose
   device loses never pays a start-up for it); with the device's estimate
   10% lower, the device is wanted (the start-up's ski rental begins). */
int idiomrt_startup_begun(void); /* rt_internal.h */

void case_noise_seeded(void) {
  const double host[3] = {1.3, 0, 0}, dev[3] = {1.5, 0, 0};
  idiomrt_cost_class *c = set_class(host, dev, 0);
  idiomrt_entry *e = idiomrt_entry_get(&nsite_desc);
  pthread_mutex_lock(&e->stats_lock);
  c->hn = c->dn = 1;
  c->host_est = 1.3;
  c->dev_est = 1.5;
  pthread_mutex_unlock(&e->stats_lock);
  expect_host_no_hint(5);
  CHECK_MSG(!idiomrt_startup_begun(), "the device start-up began");
  const double fast[3] = {0.8, 0, 0};
  c = set_class(host, fast, 0);
  pthread_mutex_lock(&e->stats_lock);
  c->hn = c->dn = 1;
  c->host_est = 1.3;
  c->dev_est = 0.8;
  pthread_mutex_unlock(&e->stats_lock);
  uint64_t word;
  int dec = decide(&word);
  CHECK_MSG(dec == IDIOMRT_DEC_PRESTART, "device 0.8 ms: decision %s",
            idiomrt_decision_name(dec));
}

void case_noise_region(void) {
  /* forced runs (the model off) fill a region's device copies */
  setenv("IDIOM_MIN_TRIP", "0", 1);
  enum { N = 1 << 22 }; /* 16 MiB a buffer */
  float *x = calloc(N, sizeof(float)), *y = calloc(N, sizeof(float));
  CHECK(x && y);
  idiom_arg args[4] = {i32(N), f32(2.0f),
                       buf(IDIOM_ARG_BUF_IN, x, 4ull * N),
                       buf(IDIOM_ARG_BUF_INOUT, y, 4ull * N)};
  uint64_t sizes[1] = {N};
  /* host 1.00 ms, device 0.95 ms, no spread: the device is not 10% faster;
     refilling 32 MiB costs more than 0.2 ms even at 64 GB/s */
  const double host[3] = {1.0, 1.0, 1.0}, dev[3] = {0.95, 0.95, 0.95};
  uint64_t word;
  /* outside a region: the host */
  idiomrt_cost_class *c = set_class(host, dev, 0);
  decide(&word);
  CHECK_MSG(c->winner == 2, "outside a region: winner %d", c->winner);
  idiom_region_begin();
  /* a region that never held copies: the host too */
  c = set_class(host, dev, 0);
  decide(&word);
  CHECK_MSG(c->winner == 2, "empty region: winner %d", c->winner);
  CHECK_MSG(idiom_run(&nscale_desc, args, 4, sizes, NULL) == 1,
            "the region's device run declined");
  CHECK(idiomrt_resid_bytes() == 8ull * N);
  /* another site ran on the host: the region was synced */
  idiom_region_sync();
  CHECK(idiomrt_resid_bytes() == 0);
  c = set_class(host, dev, 0);
  int dec = decide(&word);
  CHECK_MSG(c->winner == 1, "after the sync: winner %d (decision %s)",
            c->winner, idiomrt_decision_name(dec));
  CHECK_MSG(word == 0, "hint word %llx inside the region",
            (unsigned long long)word);
  /* a host run inside the region before the sync: the same */
  CHECK(idiom_run(&nscale_desc, args, 4, sizes, NULL) == 1);
  c = set_class(host, dev, 0);
  decide(&word);
  CHECK_MSG(c->winner == 1 && word == 0, "holding copies: winner %d", c->winner);
  idiom_region_end();
  /* a new region starts afresh */
  idiom_region_begin();
  c = set_class(host, dev, 0);
  decide(&word);
  CHECK_MSG(c->winner == 2, "next region: winner %d", c->winner);
  idiom_region_end();
  CHECK(y[7] == 0.0f);
  free(x);
  free(y);
}
