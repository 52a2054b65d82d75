/*===- fruitless.c - Device start-ups that did not pay, across runs -------===*
 *
 * Issue 12: "a program that never profits from the device pays no more
 * than noise". The cost model starts the device once the host time of the
 * runs it would send there reaches about one start-up (costmodel.c, ski
 * rental), or at program start when the profile says the last process had
 * that much (profile.c). A program whose heavy sites are each called once
 * (nas-parboil/gemv.c: eight one-shot GEMVs) starts the device in every
 * run, but each site's kernels are built only after its one call has begun
 * its loop, so no call ever runs there: on PoCL here (a CPU device saves
 * no binary, so every run builds again) every run paid OpenCL's start-up
 * and three builds on a second thread (0.31-0.38 s of CPU time against the
 * sequential build's 0.23 s, docs/Benchmarks.md, helper "hostpath"), and
 * its exit waited for the build in progress. nas-parboil/mg.c (128^3, 16
 * cycles) started PoCL in every run of a row of 20, its one site that went
 * to the device (mg.c:106, 11 runs of 10.7 ms against a host median of
 * 9 ms under load) saving nothing, while the start-up and five builds on
 * the runtime thread and the exit's wait for one took 0.55-0.73 s of CPU
 * time against the sequential build's 0.40 s (its profile carried a cold
 * host sample, costmodel.c's COLD_MIN_FAULTS).
 *
 * A start-up is fruitless when the host time the process saved on the
 * devices (profile.c: per class, the host median less the device's, times
 * the iterations and the device runs of this process) is not more than one
 * start-up (idiomrt_calib_start_after_ns, the ski rental's unit): no run at
 * all, or runs that did not win by that much. The profile keeps, per
 * program, the fruitless start-ups in a row (STARTS) and the runs held
 * since (HELD):
 *
 *   fruitless STARTS HELD
 *
 * With STARTS >= FRUITLESS_MIN, the next runs keep the device from
 * starting (as IDIOM_TEST_HOST does: no early start at program start, no
 * device-wait, and every call the model would send to the device declines
 * `host-prestart` with a host hint, costmodel.c) while
 * HELD < 2^(STARTS - FRUITLESS_MIN + 1), at most FRUITLESS_MAX_HOLD: an
 * exponential back-off, so a program that never profits pays a start-up in
 * O(log n) of n runs, and one whose runs change (larger inputs, a machine
 * that got a GPU) is tried again. A start-up that paid clears both counts;
 * a run that neither started nor was held leaves them as they were. (A
 * class's second-device runs seeded by the profile count one run: a
 * second device that won saves at least that much again.) Two fruitless
 * starts, not one: a GPU's first run builds and saves the binaries that
 * its second run loads in time (program_cache.c), so only the second
 * fruitless start in a row says that starting does not pay. Results never depend on this: a held
 * run runs the original loops, as every declined run does.
 *
 *===----------------------------------------------------------------------===*/
#include "rt_internal.h"

#define FRUITLESS_MIN 2        /* fruitless starts in a row before a hold */
#define FRUITLESS_MAX_HOLD 64u /* runs held at most after one more start */

IDIOMRT_START_DATA static uint64_t g_starts, g_held; /* the profile's line (0 0 when none) */
IDIOMRT_START_DATA static int g_hold;              /* this process holds the device */

/* Runs held after `starts` fruitless starts in a row (0: none). */
static uint64_t hold_runs(uint64_t starts) {
  if (starts < FRUITLESS_MIN)
    return 0;
  uint64_t k = starts - FRUITLESS_MIN;
  return k >= 6 ? FRUITLESS_MAX_HOLD : (uint64_t)2 << k;
}

void idiomrt_fruitless_read(uint64_t starts, uint64_t held, int same_env) {
  g_starts = starts;
  g_held = held;
  g_hold = same_env && held < hold_runs(starts);
  if (g_hold)
    idiomrt_debug("profile: the device's last %llu start-ups in a row saved "
                  "less than a start-up: not started in this run (held %llu "
                  "of %llu)",
                  (unsigned long long)starts, (unsigned long long)held + 1,
                  (unsigned long long)hold_runs(starts));
}

int idiomrt_fruitless_hold(void) { return g_hold; }

void idiomrt_fruitless_next(double saved_ns, uint64_t *starts,
                            uint64_t *held) {
  *starts = g_starts;
  *held = g_held;
  if (g_hold) {
    ++*held;
  } else if (idiomrt_startup_begun()) {
    double start = (double)idiomrt_calib_start_after_ns();
    idiomrt_debug("profile: the device's start-up saved %.1f ms of host "
                  "time (a start-up: %.1f ms): %s",
                  saved_ns / 1e6, start / 1e6,
                  saved_ns > start ? "paid" : "fruitless");
    if (saved_ns > start) {
      *starts = *held = 0;
    } else {
      ++*starts;
      *held = 0;
    }
  }
}
