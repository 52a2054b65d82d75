/*===- region_lap.c - A region's sites decided together (zero-copy) ------===*
 *
 * On a device that shares the host's memory (PoCL's CPU device here: no
 * copies, zerocopy.c), a residency region's sites can each run on either
 * side at no transfer cost, and the per-site model (costmodel.c) would mix
 * them. Mixing is slower than either side alone: measured on PoCL with two
 * cores (bench/jacobi2d.c 2048^2, docs/Benchmarks.md, twenty-second
 * session), a kernel launched after a host loop takes about twice as long
 * as after another kernel (the stencil 2.4-2.9 ms against 1.5 ms; a 3 ms
 * spin on the host without memory traffic did the same), so the device's
 * samples taken between host loops say "host" for every site, while all
 * three sites on the device beat all three on the host by 1.6x.
 *
 * So inside a region on such a device the sites are decided together, per
 * lap: the calls from one call of the region's first site to its next (a
 * time loop's body). A lap has at most IDIOMRT_LAP_MAX sites (a site and
 * size class each); more, or fewer than two, and the per-site model decides
 * as before. A device run (not a class's first: PoCL compiles per
 * work-group size) after a device run in the region is a lap sample
 * (idiomrt_cost_class.lap_pi), one after a host run a mixed sample
 * (mix_pi). The states:
 *
 *  learn   the per-site model decides until every site has a host sample;
 *  trial   every site runs on the device for IDIOMRT_LAP_TRIAL laps (the
 *          first laps after host loops run slower, 3-5 ms against 2.1 ms
 *          for the stencil: the ring keeps the last three); a trial that
 *          has no lap sample of every site after IDIOMRT_LAP_TRIAL_MAX laps
 *          ends on the host;
 *  verdict three sums over the lap's sites: all on the device (latency
 *          plus lap samples: after a trial the least of the last three, as
 *          the device's laps only get faster while it stays busy; on the
 *          device their median), all on the host, and each site on its
 *          better side with its mixed samples (as the per-site model would
 *          run them). The device when 10% faster than both others; else
 *          each site on its side ("site": the per-site model decides) when
 *          10% faster than the host; else the host. On the device every
 *          lap decides again with fresh samples, and the device stays until
 *          it is 10% slower (noise: a lap of a loaded machine). On the host
 *          or per site, a trial follows after IDIOMRT_LAP_GAP0 laps,
 *          doubling each time the device loses again after a trial or a
 *          spell on it (at most IDIOMRT_LAP_GAP_MAX).
 *
 * Lap samples stay in the size classes, so a region entered again (the
 * function called again) decides at its first complete lap without a trial.
 * Only speed is decided here: both sides run the same checked paths.
 *
 *===----------------------------------------------------------------------===*/
#include "rt_internal.h"

#include <string.h>

#define LAP_MARGIN 1.1 /* the device must be 10% faster, as per site */

/* The thread's lap state, for its open region. */
static _Thread_local idiomrt_lap t_lap;

static int all_sampled(const idiomrt_lap *L, int lap) {
  for (unsigned k = 0; k < L->n; ++k)
    if (lap ? L->m[k].ln < 2 : L->m[k].hn < 1)
      return 0;
  return 1;
}

static void start_trial(idiomrt_lap *L) {
  L->mode = IDIOMRT_LAP_MODE_TRIAL;
  L->laps = 0;
}

static void verdict(idiomrt_lap *L) {
  int was = L->mode;
  if (was == IDIOMRT_LAP_MODE_TRIAL)
    L->tried = 1;
  double host = 0, dev = 0, site = 0;
  for (unsigned k = 0; k < L->n; ++k) {
    host += L->m[k].host;
    dev += was == IDIOMRT_LAP_MODE_DEVICE ? L->m[k].dev : L->m[k].dev_best;
    site += L->m[k].mixed;
  }
  double other = site < host ? site : host;
  /* (hysteresis: the device stays until 10% slower) */
  if (was == IDIOMRT_LAP_MODE_DEVICE ? dev < other * LAP_MARGIN
                                     : dev * LAP_MARGIN < other) {
    L->mode = IDIOMRT_LAP_MODE_DEVICE;
  } else {
    /* the device lost again after a trial or a spell on it: the next
       trial waits longer */
    if (was != IDIOMRT_LAP_MODE_LEARN && L->tried)
      L->gap = L->gap * 2 < IDIOMRT_LAP_GAP_MAX ? L->gap * 2
                                                  : IDIOMRT_LAP_GAP_MAX;
    L->mode = site * LAP_MARGIN < host ? IDIOMRT_LAP_MODE_SITE
                                       : IDIOMRT_LAP_MODE_HOST;
  }
  L->laps = 0;
  if (L->mode != was)
    idiomrt_debug("region lap of %u sites: %s (a lap: all on the device "
                  "%.1f us, all on the host %.1f us, each site on its side "
                  "%.1f us)",
                  L->n,
                  L->mode == IDIOMRT_LAP_MODE_DEVICE ? "all on the device"
                  : L->mode == IDIOMRT_LAP_MODE_HOST ? "all on the host"
                                                     : "each site decided",
                  dev / 1e3, host / 1e3, site / 1e3);
}

/* A lap ended (the first site is called again). */
static void lap_end(idiomrt_lap *L) {
  switch (L->mode) {
  case IDIOMRT_LAP_MODE_LEARN:
    if (!all_sampled(L, 0))
      return;
    if (all_sampled(L, 1))
      verdict(L);
    else
      start_trial(L);
    return;
  case IDIOMRT_LAP_MODE_TRIAL:
    ++L->laps;
    if (L->laps >= IDIOMRT_LAP_TRIAL && all_sampled(L, 1))
      verdict(L);
    else if (L->laps >= IDIOMRT_LAP_TRIAL_MAX) {
      idiomrt_debug("region lap of %u sites: no device sample of every site "
                    "after %u laps: all on the host",
                    L->n, L->laps);
      L->mode = IDIOMRT_LAP_MODE_HOST;
      L->tried = 1;
      L->laps = 0;
    }
    return;
  case IDIOMRT_LAP_MODE_DEVICE:
    verdict(L);
    return;
  case IDIOMRT_LAP_MODE_HOST:
  case IDIOMRT_LAP_MODE_SITE:
    if (++L->laps >= L->gap)
      start_trial(L);
    return;
  default:
    return;
  }
}

int idiomrt_lap_step(idiomrt_lap *L, const idiomrt_lap_site *s, int dec,
                     const char **reason) {
  *reason = NULL;
  if (L->mode == IDIOMRT_LAP_MODE_OFF)
    return dec;
  unsigned i = 0;
  while (i < L->n && (L->m[i].e != s->e || L->m[i].cls != s->cls))
    ++i;
  if (i == L->n) {
    if (L->n == IDIOMRT_LAP_MAX) { /* too many sites: per site */
      L->mode = IDIOMRT_LAP_MODE_OFF;
      return dec;
    }
    L->n++;
  } else if (i == 0) {
    lap_end(L);
  }
  L->m[i] = *s;
  L->last_dev = L->cur_dev;
  L->cur = i;
  /* one site alone: nothing to mix; a site not measured on the host yet:
     the per-site model measures it */
  int out = dec;
  if (L->n >= 2 && s->hn >= 1) {
    if (L->mode == IDIOMRT_LAP_MODE_TRIAL)
      out = IDIOMRT_DEC_EXPLORE_DEVICE;
    else if (L->mode == IDIOMRT_LAP_MODE_DEVICE)
      out = IDIOMRT_DEC_DEVICE;
    else if (L->mode == IDIOMRT_LAP_MODE_HOST) {
      out = IDIOMRT_DEC_HOST_FASTER;
      *reason = "cost model: the region's sites together are faster on "
                "the host";
    }
  }
  L->cur_dev = idiomrt_cost_is_device(out);
  return out;
}

int idiomrt_lap_follows(const idiomrt_lap *L, const void *e) {
  if (L->mode == IDIOMRT_LAP_MODE_OFF || L->cur >= L->n ||
      L->m[L->cur].e != e || !L->cur_dev)
    return 0;
  return L->last_dev ? 1 : 2;
}

int idiomrt_lap_decide(idiomrt_entry *e, const idiomrt_cost_class *c,
                       unsigned cls, uint64_t trip, double lat, int dec,
                       int *no_hint, const char **reason) {
  idiomrt_lap *L = &t_lap;
  *reason = NULL;
  *no_hint = 0;
  uint64_t rid = idiomrt_resid_region_id();
  if (!rid || idiomrt_device_state(NULL) != 1 ||
      !idiomrt_zc_device(idiomrt_device_peek())) {
    L->rid = 0;
    return dec;
  }
  if (L->rid != rid) {
    memset(L, 0, sizeof *L);
    L->rid = rid;
    L->gap = IDIOMRT_LAP_GAP0;
  }
  if (dec == IDIOMRT_DEC_UNTIMED)
    return dec;
  /* each site on its better side: its device runs after host runs */
  double host = c->host_est * (double)trip;
  double mixed = c->mn && lat + c->mix_est * (double)trip < host
                     ? lat + c->mix_est * (double)trip
                     : host;
  double best = c->lap_est;
  for (uint32_t k = 0; k < c->ln && k < IDIOMRT_COST_RING; ++k)
    best = c->lap_pi[k] < best ? c->lap_pi[k] : best;
  idiomrt_lap_site s = {e,
                        cls,
                        host,
                        c->ln ? lat + c->lap_est * (double)trip : 0.0,
                        c->ln ? lat + best * (double)trip : 0.0,
                        mixed,
                        c->hn,
                        c->ln};
  int out = idiomrt_lap_step(L, &s, dec, reason);
  /* a hinted call skips idiom_run: its lap would go unseen */
  *no_hint = L->mode != IDIOMRT_LAP_MODE_OFF && L->n >= 2;
  return out;
}

int idiomrt_lap_sample_kind(const idiomrt_entry *e) {
  return t_lap.rid && t_lap.rid == idiomrt_resid_region_id()
             ? idiomrt_lap_follows(&t_lap, e)
             : 0;
}
