/*===- test_pending.c - idiom_pending_work, the word before region calls --===*
 *
 * Cases of idiomrt_test for idiom_pending_work (idiomrt.h,
 * runtime/lib/pending.c): the plugin's stitched code calls
 * idiom_region_sync, idiom_region_load/store and idiom_host_end_site only
 * while the word is nonzero (passes/PendingGuards.h); test_hint.c's site
 * follows that contract here. Both sides of the condition:
 *   - 0: a tiny site whose calls stay on the host makes none of those calls
 *     except while one of its own host measurements is pending, and the
 *     measurements still end (host samples, the same decisions as
 *     test_hint.c's unguarded site);
 *   - nonzero: after a device run in a region (the OpenCL library loaded,
 *     device copies held), the fallback loop's idiom_region_sync is made and
 *     copies the region's results back before the host reads them; a region
 *     epoch handed out sets it too; another thread's pending measurement
 *     keeps this thread's calls (which then do nothing).
 *
 *===----------------------------------------------------------------------===*/
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include "rt_internal.h"
#include "test_common.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>

static int pending(void) {
  return __atomic_load_n(&idiom_pending_work, __ATOMIC_RELAXED) != 0;
}

/* test_hint.c's site, guarded as the plugin's code is; g_calls counts the
   guarded calls made. */
static int g_calls;
static int site(float *x, float *y, int n) {
  return hint_site(x, y, n, 0, 1, &g_calls);
}

enum { TINY = 4096, TINY_CALLS = 3000 };

/* The word is 0 (no OpenCL, nothing pending) around the tiny site's hinted
   calls: the guarded calls are made only for the measured ones (a sync and
   an end each, in the calls that reached idiom_run), every measurement
   ends (the count back to 0) and is a host sample; the decisions are what
   hint_check_decisions says of case_hint_tiny's unguarded site (the count
   of idiom_run's calls with them: a host sample a loaded core inflated
   past the device floor adds host-prestart decisions, test_hint.c). */
void case_pending_host(void) {
  setenv("IDIOM_COST", "on", 1);
  CHECK_MSG(!pending(), "word %#x before any call", idiom_pending_work);
  float *x = malloc(4ull * TINY), *y = malloc(4ull * TINY);
  hint_fill(x, y, TINY);
  int off = 0;
  for (int k = 0; k < TINY_CALLS; ++k)
    off += site(x, y, TINY);
  CHECK_MSG(off == 0, "%d tiny calls offloaded", off);
  CHECK(hint_check_y(y, TINY, TINY_CALLS));
  CHECK_MSG(!pending(), "word %#x after the calls", idiom_pending_work);
  /* a guarded pair at most per idiom_run (the measured declines) */
  CHECK_MSG(g_calls <= 2 * hint_runs(), "%d guarded calls for %d runs", g_calls,
            hint_runs());
  idiomrt_entry *e = idiomrt_entry_get(hint_desc());
  CHECK(e != NULL);
  uint64_t dec[IDIOMRT_NDECISIONS];
  pthread_mutex_lock(&e->stats_lock);
  idiomrt_cost_hint_fold_locked(e); /* the calls the last hint skipped */
  uint64_t got = e->cost.host_got, wanted = e->cost.host_wanted;
  memcpy(dec, e->cost.decisions, sizeof dec);
  pthread_mutex_unlock(&e->stats_lock);
  /* every measurement asked for ended as a sample */
  CHECK_MSG(got >= 1 && got == wanted, "host samples %llu of %llu asked",
            (unsigned long long)got, (unsigned long long)wanted);
  CHECK(hint_check_decisions(dec, hint_runs(), TINY_CALLS));
  free(x);
  free(y);
}

/* In a region whose first run went to the device (cost model off: every
   run offloads): the OpenCL library is loaded and the region holds y on
   the device, so the word is nonzero and the fallback loop of a declined
   call syncs first (here the host loop runs as a decline would run it);
   the host then reads the device's results. */
void case_pending_device(void) {
  setenv("IDIOM_MIN_TRIP", "0", 1);
  CHECK_MSG(!pending(), "word %#x before any call", idiom_pending_work);
  float *x = malloc(4ull * TINY), *y = malloc(4ull * TINY);
  hint_fill(x, y, TINY);
  idiom_region_begin();
  CHECK_MSG(!pending(), "word %#x in an empty region", idiom_pending_work);
  CHECK_MSG(site(x, y, TINY) == 1, "not offloaded: %s", reason_or_none());
  CHECK_MSG(idiom_pending_work & IDIOMRT_PENDING_DEVICE,
            "word %#x after a device run", idiom_pending_work);
  CHECK_MSG(idiomrt_resid_bytes() > 0, "the region holds nothing");
  /* the fallback of the next call, as a decline runs it */
  int synced = 0;
  if (pending()) {
    idiom_region_sync();
    synced = 1;
  }
  CHECK_MSG(synced && idiomrt_resid_bytes() == 0, "synced %d, held %llu",
            synced, (unsigned long long)idiomrt_resid_bytes());
  for (int i = 0; i < TINY; ++i)
    y[i] = 2.0f * x[i] + y[i];
  CHECK(site(x, y, TINY) == 1);
  idiom_region_end();
  CHECK(hint_check_y(y, TINY, 3));
  /* never cleared */
  CHECK(idiom_pending_work & IDIOMRT_PENDING_DEVICE);
  free(x);
  free(y);
}

/* A region epoch handed out (csr.c's memo of checked row pointers) makes
   the next idiom_region_sync retire it: the word says so, with no device. */
void case_pending_epoch(void) {
  CHECK_MSG(!pending(), "word %#x before any call", idiom_pending_work);
  idiomrt_resid_epoch(); /* outside a region: epoch 0, nothing to retire */
  CHECK_MSG(!pending(), "word %#x after an epoch outside a region",
            idiom_pending_work);
  idiom_region_begin();
  uint64_t e0 = idiomrt_resid_epoch();
  CHECK(e0 != 0);
  CHECK_MSG(idiom_pending_work & IDIOMRT_PENDING_DEVICE,
            "word %#x after an epoch was handed out", idiom_pending_work);
  idiom_region_sync();
  CHECK_MSG(idiomrt_resid_epoch() != e0, "the sync kept the epoch read");
  idiom_region_end();
}

static void *other_thread(void *arg) {
  int *seen = arg;
  *seen = pending();
  /* this thread has nothing pending: the call does nothing */
  idiom_host_end_site(hint_word());
  return NULL;
}

/* A pending measurement of one thread: the word counts it in every thread
   until that thread ends it; a measurement begun over a pending one
   replaces it (counted once). */
void case_pending_threads(void) {
  setenv("IDIOM_COST", "on", 1);
  float *x = malloc(4ull * TINY), *y = malloc(4ull * TINY);
  hint_fill(x, y, TINY);
  idiom_arg args[4] = {i32(TINY), f32(2.0f),
                       buf(IDIOM_ARG_BUF_IN, x, 4ull * TINY),
                       buf(IDIOM_ARG_BUF_INOUT, y, 4ull * TINY)};
  uint64_t sizes[1] = {TINY};
  /* the first call of a class declines to measure the host */
  CHECK_MSG(idiom_run(hint_desc(), args, 4, sizes, NULL) == 0,
            "the first call ran on the device");
  CHECK_MSG(idiom_host_begin(hint_desc()) != 0, "no measurement asked: %s",
            reason_or_none());
  CHECK_MSG(idiom_pending_work == 1, "word %#x with one measurement",
            idiom_pending_work);
  int seen = -1;
  pthread_t t;
  CHECK(pthread_create(&t, NULL, other_thread, &seen) == 0);
  pthread_join(t, NULL);
  CHECK_MSG(seen == 1 && idiom_pending_work == 1,
            "other thread saw %d, word %#x", seen, idiom_pending_work);
  idiom_host_end(hint_desc(), 0); /* token 0: nothing ends */
  CHECK(idiom_pending_work == 1);
  /* the next decline's measurement replaces this one */
  CHECK(idiom_run(hint_desc(), args, 4, sizes, NULL) == 0);
  uint64_t tok = idiom_host_begin(hint_desc());
  CHECK_MSG(tok != 0 && idiom_pending_work == 1,
            "token %llu, word %#x after a replaced measurement",
            (unsigned long long)tok, idiom_pending_work);
  idiom_host_end(hint_desc(), tok);
  CHECK_MSG(idiom_pending_work == 0, "word %#x after the end",
            idiom_pending_work);
  free(x);
  free(y);
}
