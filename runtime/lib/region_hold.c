/*===- region_hold.c - A region's sites wait for each other's kernels -----===*
 *
 * Inside a residency region the sites share device copies: a site that runs
 * its loop on the host syncs its ranges back (resid_sync.c), and the next
 * device run of a site that reads them copies them in again. While one
 * site's kernels still build on the runtime thread (startup.c), its calls
 * decline ("kernels building") and run on the host; the region's other
 * sites, already built, would go to the device and refill what each of
 * those host runs released, and their samples carry those refills. Seen on
 * the H200 (nas-parboil/adi.c's first run, empty kernel caches,
 * docs/Benchmarks.md): while other sites built, adi.c:216's device runs
 * took 5.9 ms against 2.0 ms on the host and adi.c:293's 9.1 ms against
 * 2.7 ms, so the model chose the host for them, and the profile kept that
 * for the next runs.
 *
 * So the sites of a region go to the device together: a run that the cost
 * model sends to the device runs its loop instead while another site noted
 * in the same region (one whose run declined because its kernels were
 * building) is still queued or building (bg_build 1), unless the run pays
 * on the device even without residency (its host time at least the device
 * floor of the bytes it moves outside a region, a GEMM's, which syncs do
 * not decide). Once the region's builds are done, its sites go to the
 * device together; a site whose build fails or is left out (startup.c's
 * too_late) holds nothing. On a zero-copy device (PoCL, zerocopy.c) the
 * floor is the launch latency: nothing is held. The held run declines as
 * "kernels-building" with its own reason; IDIOM_REGION_HOLD=off (config.c)
 * turns the rule off for A/B measurements.
 *
 *===----------------------------------------------------------------------===*/
#include "rt_internal.h"

#define HOLD_SLOTS 32 /* sites noted at once; more are not held for */

static const char hold_reason[] =
    "cost model: another site of the region is building its kernels";

static pthread_mutex_t g_lock = PTHREAD_MUTEX_INITIALIZER;
static struct {
  idiomrt_entry *e;
  uint64_t region; /* idiomrt_resid_region_id() of the decline */
} g_slot[HOLD_SLOTS];
static unsigned g_n; /* slots in use (atomic reads: the fast path) */

/* 1 when e's background build is queued or in flight. */
static int building(idiomrt_entry *e) {
  return __atomic_load_n(&e->bg_build, __ATOMIC_ACQUIRE) == 1;
}

/* With g_lock held: drops the slots whose builds are over. */
static void drop_done_locked(void) {
  unsigned k = 0;
  for (unsigned i = 0; i < g_n; ++i)
    if (building(g_slot[i].e))
      g_slot[k++] = g_slot[i];
  __atomic_store_n(&g_n, k, __ATOMIC_RELAXED);
}

void idiomrt_hold_note_building(idiomrt_entry *e) {
  uint64_t region = idiomrt_resid_region_id();
  if (!e || !region || !idiomrt_config_get()->region_hold)
    return;
  pthread_mutex_lock(&g_lock);
  for (unsigned i = 0; i < g_n; ++i)
    if (g_slot[i].e == e && g_slot[i].region == region) {
      pthread_mutex_unlock(&g_lock);
      return;
    }
  if (g_n == HOLD_SLOTS)
    drop_done_locked();
  if (g_n < HOLD_SLOTS) {
    g_slot[g_n].e = e;
    g_slot[g_n].region = region;
    __atomic_store_n(&g_n, g_n + 1, __ATOMIC_RELAXED);
  }
  pthread_mutex_unlock(&g_lock);
}

const char *idiomrt_hold_reason(idiomrt_entry *e, uint64_t trip,
                                const idiom_arg *args, uint32_t nargs) {
  if (!__atomic_load_n(&g_n, __ATOMIC_RELAXED) ||
      !idiomrt_config_get()->region_hold)
    return NULL;
  uint64_t region = idiomrt_resid_region_id();
  if (!region)
    return NULL;
  int other = 0;
  pthread_mutex_lock(&g_lock);
  drop_done_locked();
  for (unsigned i = 0; i < g_n && !other; ++i)
    other = g_slot[i].region == region && g_slot[i].e != e;
  pthread_mutex_unlock(&g_lock);
  if (!other)
    return NULL;
  /* a run that beats its own copies pays on the device however the
     region's copies come and go (no host time yet: the loop is timed) */
  double host = idiomrt_cost_host_ns(e, trip);
  if (host > 0 &&
      host >= idiomrt_cost_floor_ns(idiomrt_cost_bytes_moved(
                  args, nargs,
                  e->desc->kind == IDIOM_MAP ? e->offsets : NULL)))
    return NULL;
  return hold_reason;
}
