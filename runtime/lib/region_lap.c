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
 * three sites on the device beat all three on the host by 1.6x. Nor do a
 * run's own times tell what the device costs the host code between runs
 * (a conjugate gradient's laps ran slower on the device than its runs'
 * times summed said).
 *
 * So inside a region on such a device the sites are decided together, per
 * lap: the calls from one call of the region's first site to its next (a
 * time loop's body), and a lap is timed whole, from one call of the first
 * site to the next. A lap has at most IDIOMRT_LAP_MAX sites (a site and
 * size class each); more, or fewer than two, and the per-site model decides
 * as before, as it does for a site the device cannot win even alone (its
 * launch latency above its host time: it keeps its host hints, and the
 * lap goes on without it). A site may be called more than once a lap (a
 * helper's loop); when the first site has not come back after
 * IDIOMRT_LAP_STALE_CALLS calls per site (the region's loop ended and
 * another began), the lap is learned again. The modes, each lap's time
 * kept for its way of running (site, host or device) when every site was
 * called and each call ran as the mode said:
 *
 *  site        the per-site model decides (as before this file); after
 *              IDIOMRT_LAP_SITE_LAPS laps with every site measured on the
 *              host (then after the gap), a host trial;
 *  host trial  IDIOMRT_LAP_HOST_TRIAL laps all on the host, then
 *  dev trial   IDIOMRT_LAP_DEV_TRIAL laps all on the device (the first
 *              laps after host loops run slower: the ring keeps the last
 *              IDIOMRT_LAP_RING), then the verdict; a trial that has not
 *              timed its laps after IDIOMRT_LAP_TRIAL_MAX (kernels still
 *              building) goes back to the per-site model;
 *  verdict     the medians of the three ways: the device when 10% faster
 *              than both others, else the host when 10% faster than per
 *              site, else per site. On the device every lap decides again
 *              with its time, and the device stays until 10% slower (a lap
 *              of a loaded machine). On the host, or per site, a trial
 *              follows after IDIOMRT_LAP_GAP0 laps, doubling each time the
 *              device loses again (at most IDIOMRT_LAP_GAP_MAX).
 *
 * The state is the thread's and lasts for one region (idiom_region_begin
 * to end). Only speed is decided here: both sides run the same checked
 * paths.
 *
 *===----------------------------------------------------------------------===*/
#include "rt_internal.h"

#include <stdio.h>
#include <string.h>

#define LAP_MARGIN 1.1 /* a way must be 10% faster, as per site */

/* The thread's lap state, for its open region. */
static _Thread_local idiomrt_lap t_lap;

/* Process-wide counts for IDIOM_STATS (atomic): laps timed per way, trials
   begun, verdicts per way. */
static uint64_t g_timed[IDIOMRT_LAP_WAYS], g_trials,
    g_verdicts[IDIOMRT_LAP_WAYS];

static void count(uint64_t *c) { __atomic_add_fetch(c, 1, __ATOMIC_RELAXED); }

void idiomrt_lap_reset(idiomrt_lap *L, uint64_t rid) {
  memset(L, 0, sizeof *L);
  L->rid = rid;
  L->gap = IDIOMRT_LAP_GAP0;
}

static int way_of(int mode) {
  switch (mode) {
  case IDIOMRT_LAP_MODE_HOST_TRIAL:
  case IDIOMRT_LAP_MODE_HOST:
    return IDIOMRT_LAP_WAY_HOST;
  case IDIOMRT_LAP_MODE_DEV_TRIAL:
  case IDIOMRT_LAP_MODE_DEVICE:
    return IDIOMRT_LAP_WAY_DEVICE;
  default:
    return IDIOMRT_LAP_WAY_SITE;
  }
}

/* The median of way w's lap times; infinite with none. */
static double median_of(const idiomrt_lap *L, int w) {
  unsigned k = L->rn[w] < IDIOMRT_LAP_RING ? L->rn[w] : IDIOMRT_LAP_RING;
  if (k == 0)
    return __builtin_inf();
  double v[IDIOMRT_LAP_RING];
  for (unsigned i = 0; i < k; ++i)
    v[i] = (double)L->ring[w][i];
  for (unsigned i = 1; i < k; ++i) /* (insertion sort of a few) */
    for (unsigned j = i; j > 0 && v[j] < v[j - 1]; --j) {
      double t = v[j];
      v[j] = v[j - 1];
      v[j - 1] = t;
    }
  return k % 2 ? v[k / 2] : 0.5 * (v[k / 2 - 1] + v[k / 2]);
}

static void enter(idiomrt_lap *L, int mode) {
  int was = L->mode;
  L->mode = mode;
  L->laps = 0;
  int w = way_of(mode);
  if (mode == IDIOMRT_LAP_MODE_HOST_TRIAL || mode == IDIOMRT_LAP_MODE_DEV_TRIAL)
    L->rn[w] = 0; /* a trial's times are its own */
  if (mode == IDIOMRT_LAP_MODE_DEV_TRIAL ? was != IDIOMRT_LAP_MODE_HOST_TRIAL
                                         : mode == IDIOMRT_LAP_MODE_HOST_TRIAL)
    count(&g_trials);
}

/* The device lost (or its trial failed): the next trial waits longer. */
static void device_lost(idiomrt_lap *L) {
  if (L->tried)
    L->gap =
        L->gap * 2 < IDIOMRT_LAP_GAP_MAX ? L->gap * 2 : IDIOMRT_LAP_GAP_MAX;
  L->tried = 1;
}

static void verdict(idiomrt_lap *L) {
  int was = L->mode;
  double dev = median_of(L, IDIOMRT_LAP_WAY_DEVICE);
  double host = median_of(L, IDIOMRT_LAP_WAY_HOST);
  double site = median_of(L, IDIOMRT_LAP_WAY_SITE);
  double other = site < host ? site : host;
  /* (hysteresis: the device stays until 10% slower) */
  if (was == IDIOMRT_LAP_MODE_DEVICE ? dev < other * LAP_MARGIN
                                     : dev * LAP_MARGIN < other) {
    if (was != IDIOMRT_LAP_MODE_DEVICE)
      L->tried = 1;
    enter(L, IDIOMRT_LAP_MODE_DEVICE);
  } else {
    device_lost(L);
    enter(L, host * LAP_MARGIN < site ? IDIOMRT_LAP_MODE_HOST
                                      : IDIOMRT_LAP_MODE_SITE);
  }
  if (L->mode == was)
    return;
  count(&g_verdicts[way_of(L->mode)]);
  idiomrt_debug("region lap of %u sites: %s (a lap: all on the device "
                "%.1f us, all on the host %.1f us, each site on its side "
                "%.1f us)",
                L->n,
                L->mode == IDIOMRT_LAP_MODE_DEVICE ? "all on the device"
                : L->mode == IDIOMRT_LAP_MODE_HOST ? "all on the host"
                                                   : "each site decided",
                dev / 1e3, host / 1e3, site / 1e3);
}

static int all_measured(const idiomrt_lap *L) {
  for (unsigned k = 0; k < L->n; ++k)
    if (L->hn[k] < 1)
      return 0;
  return 1;
}

/* A lap ended at now (the first site is called again). */
static void lap_end(idiomrt_lap *L, uint64_t now) {
  int w = way_of(L->mode);
  if (L->t0 && now > L->t0 && L->pure && L->seen == (1u << L->n) - 1) {
    L->ring[w][L->rn[w] % IDIOMRT_LAP_RING] = now - L->t0;
    L->rn[w]++;
    count(&g_timed[w]);
  }
  L->t0 = now;
  L->calls = 0;
  L->seen = 0;
  L->pure = 1;
  L->n0 = L->n;
  ++L->laps;
  switch (L->mode) {
  case IDIOMRT_LAP_MODE_SITE:
    if (all_measured(L) &&
        L->laps >= (L->tried ? L->gap : IDIOMRT_LAP_SITE_LAPS))
      enter(L, IDIOMRT_LAP_MODE_HOST_TRIAL);
    return;
  case IDIOMRT_LAP_MODE_HOST_TRIAL:
  case IDIOMRT_LAP_MODE_DEV_TRIAL: {
    int host = L->mode == IDIOMRT_LAP_MODE_HOST_TRIAL;
    unsigned want = host ? IDIOMRT_LAP_HOST_TRIAL : IDIOMRT_LAP_DEV_TRIAL;
    if (L->laps >= want && L->rn[w] >= IDIOMRT_LAP_RING) {
      if (host)
        enter(L, IDIOMRT_LAP_MODE_DEV_TRIAL);
      else
        verdict(L);
    } else if (L->laps >= IDIOMRT_LAP_TRIAL_MAX) {
      idiomrt_debug("region lap of %u sites: a trial timed %u of %u laps: "
                    "each site decided",
                    L->n, L->rn[w], L->laps);
      device_lost(L);
      enter(L, IDIOMRT_LAP_MODE_SITE);
    }
    return;
  }
  case IDIOMRT_LAP_MODE_DEVICE:
    verdict(L);
    return;
  case IDIOMRT_LAP_MODE_HOST:
    if (L->laps >= L->gap)
      enter(L, IDIOMRT_LAP_MODE_DEV_TRIAL);
    return;
  default:
    return;
  }
}

int idiomrt_lap_step(idiomrt_lap *L, const void *e, unsigned cls, uint32_t hn,
                     int dec, uint64_t now, const char **reason) {
  *reason = NULL;
  if (L->mode == IDIOMRT_LAP_MODE_OFF)
    return dec;
  /* the first site no longer comes back (the region's loop ended and
     another began): the lap is learned again from this call on; its way
     is not kept for sites it never timed */
  if (L->n0 && L->calls > IDIOMRT_LAP_STALE_CALLS * L->n0)
    idiomrt_lap_reset(L, L->rid);
  unsigned i = 0;
  while (i < L->n && (L->e[i] != e || L->cls[i] != cls))
    ++i;
  if (i == L->n) {
    if (L->n == IDIOMRT_LAP_MAX) { /* too many sites: per site */
      L->mode = IDIOMRT_LAP_MODE_OFF;
      return dec;
    }
    L->e[i] = e;
    L->cls[i] = cls;
    L->n++;
    L->pure = 0; /* the lap was not known whole */
  } else if (i == 0) {
    lap_end(L, now);
  }
  L->hn[i] = hn;
  L->cur = i;
  L->calls++;
  L->seen |= 1u << i;
  /* one site alone: nothing to mix; a site not measured on the host yet:
     the per-site model measures it */
  int out = dec, w = way_of(L->mode);
  if (L->n >= 2 && hn >= 1) {
    if (w == IDIOMRT_LAP_WAY_DEVICE)
      out = L->mode == IDIOMRT_LAP_MODE_DEV_TRIAL ? IDIOMRT_DEC_EXPLORE_DEVICE
                                                  : IDIOMRT_DEC_DEVICE;
    else if (w == IDIOMRT_LAP_WAY_HOST) {
      out = IDIOMRT_DEC_HOST_FASTER;
      *reason = "cost model: the region's sites together are faster on "
                "the host";
    }
  }
  L->cur_dev = idiomrt_cost_is_device(out);
  if (w != IDIOMRT_LAP_WAY_SITE && L->cur_dev != (w == IDIOMRT_LAP_WAY_DEVICE))
    L->pure = 0;
  return out;
}

void idiomrt_lap_leave(idiomrt_lap *L, const void *e, unsigned cls) {
  unsigned i = 0;
  while (i < L->n && (L->e[i] != e || L->cls[i] != cls))
    ++i;
  if (i == L->n)
    return;
  for (unsigned k = i + 1; k < L->n; ++k) {
    L->e[k - 1] = L->e[k];
    L->cls[k - 1] = L->cls[k];
    L->hn[k - 1] = L->hn[k];
  }
  L->n--;
  L->cur = L->n; /* (no latest decision of the lap's) */
  L->t0 = 0;     /* the lap is another: timed from its next start */
  L->calls = 0;
  L->seen = 0;
  L->pure = 0;
}

void idiomrt_lap_fell_back(idiomrt_lap *L, const void *e) {
  if (L->cur < L->n && L->e[L->cur] == e && L->cur_dev) {
    L->cur_dev = 0;
    if (way_of(L->mode) == IDIOMRT_LAP_WAY_DEVICE)
      L->pure = 0;
  }
}

int idiomrt_lap_decide(idiomrt_entry *e, const idiomrt_cost_class *c,
                       unsigned cls, int dec, int *no_hint,
                       const char **reason) {
  idiomrt_lap *L = &t_lap;
  *reason = NULL;
  *no_hint = 0;
  uint64_t rid = idiomrt_resid_region_id();
  if (!rid || idiomrt_device_state(NULL) != 1 ||
      !idiomrt_zc_device(idiomrt_device_peek())) {
    L->rid = 0;
    return dec;
  }
  if (L->rid != rid)
    idiomrt_lap_reset(L, rid);
  if (dec == IDIOMRT_DEC_UNTIMED)
    return dec;
  /* a site the device cannot win even alone (its launch latency above its
     host time) leaves the lap and stays the model's, with its host hints:
     a lap would make each of its microsecond calls decide in idiom_run */
  if (dec == IDIOMRT_DEC_CANNOT_WIN) {
    idiomrt_lap_leave(L, e, cls);
    return dec;
  }
  int out = idiomrt_lap_step(L, e, cls, c->hn, dec, idiomrt_now_ns(), reason);
  /* a hinted call skips idiom_run: its lap would go unseen */
  *no_hint = L->mode != IDIOMRT_LAP_MODE_OFF && L->n >= 2;
  return out;
}

void idiomrt_lap_declined(const idiomrt_entry *e) {
  if (t_lap.rid && t_lap.rid == idiomrt_resid_region_id())
    idiomrt_lap_fell_back(&t_lap, e);
}

void idiomrt_lap_report(void) {
  uint64_t t[IDIOMRT_LAP_WAYS], v[IDIOMRT_LAP_WAYS];
  for (int w = 0; w < IDIOMRT_LAP_WAYS; ++w) {
    t[w] = __atomic_load_n(&g_timed[w], __ATOMIC_RELAXED);
    v[w] = __atomic_load_n(&g_verdicts[w], __ATOMIC_RELAXED);
  }
  uint64_t trials = __atomic_load_n(&g_trials, __ATOMIC_RELAXED);
  if (!trials && !t[0] && !t[1] && !t[2])
    return;
  fprintf(stderr,
          "idiom-stats: region-laps timed_site=%llu timed_host=%llu "
          "timed_device=%llu trials=%llu to_device=%llu to_host=%llu "
          "to_site=%llu\n",
          (unsigned long long)t[IDIOMRT_LAP_WAY_SITE],
          (unsigned long long)t[IDIOMRT_LAP_WAY_HOST],
          (unsigned long long)t[IDIOMRT_LAP_WAY_DEVICE],
          (unsigned long long)trials,
          (unsigned long long)v[IDIOMRT_LAP_WAY_DEVICE],
          (unsigned long long)v[IDIOMRT_LAP_WAY_HOST],
          (unsigned long long)v[IDIOMRT_LAP_WAY_SITE]);
}
