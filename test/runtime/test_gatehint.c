/*===- test_gatehint.c - Work-gate declines become host hints -------------===*
 *
 * A call below IDIOM_MIN_TRIP is declined by the work gate (workgate.c)
 * before the cost model. With the model on, that decline now arms the
 * caller's host hint (costmodel.c, idiomrt_cost_gate_hint), so the next
 * calls of the size class run the loop without calling idiom_run: GLPK's
 * LU solves made 65 million such calls, each a walk into idiom_run (the
 * descriptor checks, the gate, the decline's bookkeeping), twice the
 * plain build's CPU time (docs/Benchmarks.md, helper "rw3").
 *
 *  - gatehint_skip: 3000 calls of 100 iterations reach idiom_run a few
 *    times (hints of 64, 128, ..., 1024 calls); every call is still counted
 *    as "work below threshold" and every result is the loop's. Fails
 *    without the hint (3000 runs);
 *  - gatehint_classes: calls of 100 and 1000 iterations in turn (size
 *    classes 7 and 10): one gate hint covers both (its tag carries
 *    IDIOM_HINT_BELOW: every class below the threshold), so they still
 *    reach idiom_run a few times. Fails with a hint of the declined call's
 *    class alone (each call of the other class comes back: 3000 runs);
 *  - gatehint_straddle: the negative: with IDIOM_MIN_TRIP=100, calls of 80
 *    iterations are below it, but their size class (64..127) is not: no
 *    hint, every call reaches idiom_run;
 *  - gatehint_cost_off: the negative: with IDIOM_COST=off no hint either.
 *
 *===----------------------------------------------------------------------===*/
#include "rt_internal.h"
#include "test_common.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The count of reason `text` in e's stats, after folding the calls its
   last hint skipped. */
static uint64_t reason_count(idiomrt_entry *e, const char *text,
                             uint64_t *calls) {
  uint64_t n = 0;
  pthread_mutex_lock(&e->stats_lock);
  idiomrt_cost_hint_fold_locked(e);
  for (unsigned i = 0; i < e->nreasons; ++i)
    if (strcmp(e->reasons[i].text, text) == 0)
      n = e->reasons[i].count;
  *calls = e->calls;
  pthread_mutex_unlock(&e->stats_lock);
  return n;
}

/* Runs `calls` calls of the tiny site over n floats; returns the calls
   that reached idiom_run. */
static int gate_site_runs(int n, int calls) {
  float *x = malloc(4ull * n), *y = malloc(4ull * n);
  hint_fill(x, y, n);
  int runs = hint_runs(), off = 0;
  for (int k = 0; k < calls; ++k)
    off += hint_site(x, y, n, 0, 0, NULL);
  runs = hint_runs() - runs;
  CHECK_MSG(off == 0, "%d calls offloaded", off);
  CHECK(hint_check_y(y, n, calls));
  free(x);
  free(y);
  return runs;
}

void case_gatehint_skip(void) {
  setenv("IDIOM_COST", "on", 1);
  enum { CALLS = 3000 };
  int runs = gate_site_runs(100, CALLS);
  /* 64 + 128 + 256 + 512 + 1024 + 1024 > 3000: 6 runs, one more spare */
  CHECK_MSG(runs >= 2 && runs <= 7, "idiom_run called %d times for %d calls",
            runs, CALLS);
  idiomrt_entry *e = idiomrt_entry_get(hint_desc());
  CHECK(e != NULL);
  if (!e)
    return;
  uint64_t calls = 0;
  uint64_t gated = reason_count(e, "work below threshold", &calls);
  CHECK_MSG(calls == CALLS, "%llu calls counted, not %d",
            (unsigned long long)calls, CALLS);
  CHECK_MSG(gated == CALLS, "%llu calls counted below the threshold",
            (unsigned long long)gated);
  fprintf(stderr, "gatehint_skip: %d of %d calls reached idiom_run\n", runs,
          CALLS);
}

/* The negatives: every one of 300 calls over n floats reaches idiom_run. */
static void expect_no_hint(int n) {
  enum { CALLS = 300 };
  int runs = gate_site_runs(n, CALLS);
  CHECK_MSG(runs == CALLS, "idiom_run called %d times for %d calls", runs,
            CALLS);
}

void case_gatehint_straddle(void) {
  setenv("IDIOM_COST", "on", 1);
  setenv("IDIOM_MIN_TRIP", "100", 1);
  expect_no_hint(80);
}

void case_gatehint_cost_off(void) {
  setenv("IDIOM_COST", "off", 1);
  expect_no_hint(100);
}

void case_gatehint_classes(void) {
  setenv("IDIOM_COST", "on", 1);
  enum { CALLS = 3000, A = 100, B = 1000 };
  float *x = malloc(4ull * B), *y = malloc(4ull * B);
  float *x2 = malloc(4ull * B), *y2 = malloc(4ull * B);
  hint_fill(x, y, A);
  hint_fill(x2, y2, B);
  int runs = hint_runs(), off = 0;
  for (int k = 0; k < CALLS; ++k)
    off += k % 2 ? hint_site(x2, y2, B, 0, 0, NULL)
                 : hint_site(x, y, A, 0, 0, NULL);
  runs = hint_runs() - runs;
  CHECK_MSG(off == 0, "%d calls offloaded", off);
  CHECK(hint_check_y(y, A, CALLS / 2));
  CHECK(hint_check_y(y2, B, CALLS / 2));
  CHECK_MSG(runs >= 2 && runs <= 7, "idiom_run called %d times for %d calls",
            runs, CALLS);
  fprintf(stderr, "gatehint_classes: %d of %d calls reached idiom_run\n", runs,
          CALLS);
  free(x);
  free(y);
  free(x2);
  free(y2);
}
