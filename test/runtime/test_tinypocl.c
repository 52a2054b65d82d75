/*===- test_tinypocl.c - What a warm all-host run of a tiny program pays --===*
 *
 * Issue 12, helper "tinypocl" (docs/Benchmarks.md): bench/policy_tiny.c on
 * PoCL, every site on the host.
 *
 *  - tinypocl_hint_double: host-floor hints of a class in a row double the
 *    calls they skip (64, 128, ..., 1024; costmodel.c, HINT_GROW_MAX), so
 *    that 3000 tiny calls reach idiom_run 7 times, not 48; every call is
 *    still counted and every result is the loop's;
 *  - tinypocl_few_pages: a run whose buffer ranges span fewer pages than a
 *    cold host run faults (costmodel.c, COLD_MIN_FAULTS: 64) never reads
 *    the thread's page faults (getrusage, two per timed run while the
 *    class has fewer than 3 samples: policy_tiny made 6 calls);
 *  - tinypocl_many_pages: the negative: a run over 2 MiB still reads them
 *    around its first timed host runs (the cold-run rule's input).
 *
 *===----------------------------------------------------------------------===*/
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include "rt_internal.h"
#include "test_common.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { DOUBLE_N = 4096, DOUBLE_CALLS = 6000 };

/* The calls each decision's hint gave: 64 first, then twice the previous
   one up to 1024 while the decisions are host-floor; 64 again after any
   other decision (a host sample that a loaded machine inflated past the
   floor makes host-prestart decisions, which hint nothing). Fails with a
   fixed hint of 64 calls (the largest given would be 64). */
void case_tinypocl_hint_double(void) {
  setenv("IDIOM_COST", "on", 1);
  float *x = malloc(4ull * DOUBLE_N), *y = malloc(4ull * DOUBLE_N);
  hint_fill(x, y, DOUBLE_N);
  uint64_t *word = hint_word();
  int off = 0, bad = 0, runs = hint_runs();
  uint64_t prev = 0, most = 0;
  for (int k = 0; k < DOUBLE_CALLS; ++k) {
    uint64_t before = __atomic_load_n(word, __ATOMIC_RELAXED);
    off += hint_site(x, y, DOUBLE_N, 0, 0, NULL);
    if (hint_runs() == runs)
      continue; /* a hinted call */
    runs = hint_runs();
    uint64_t w = __atomic_load_n(word, __ATOMIC_RELAXED);
    uint64_t n = w == before ? 0 : w >> IDIOM_HINT_TAG_BITS; /* 0: none */
    if (!n) {
      prev = 0;
      continue;
    }
    uint64_t want = prev == 0 ? 64 : prev >= 1024 ? 1024 : 2 * prev;
    if (n != want && n != 64) {
      fprintf(stderr, "call %d: a hint of %llu calls after one of %llu\n", k,
              (unsigned long long)n, (unsigned long long)prev);
      ++bad;
    }
    prev = n;
    most = n > most ? n : most;
  }
  CHECK_MSG(off == 0, "%d tiny calls offloaded", off);
  CHECK(hint_check_y(y, DOUBLE_N, DOUBLE_CALLS));
  CHECK_MSG(bad == 0, "%d hints off the doubling", bad);
  CHECK_MSG(most == 1024, "the longest hint %llu calls, not 1024",
            (unsigned long long)most);
  idiomrt_entry *e = idiomrt_entry_get(hint_desc());
  CHECK(e != NULL);
  uint64_t dec[IDIOMRT_NDECISIONS];
  pthread_mutex_lock(&e->stats_lock);
  idiomrt_cost_hint_fold_locked(e); /* the calls the last hint skipped */
  memcpy(dec, e->cost.decisions, sizeof dec);
  pthread_mutex_unlock(&e->stats_lock);
  CHECK(hint_check_decisions(dec, hint_runs(), DOUBLE_CALLS));
  fprintf(stderr, "tinypocl_hint_double: %d of %d calls reached the model\n",
          hint_runs(), DOUBLE_CALLS);
  free(x);
  free(y);
}

/* getrusage calls made by `calls` calls of the tiny site over n floats. */
static unsigned long pages_site_getrusage(int n, int calls) {
  setenv("IDIOM_COST", "on", 1);
  float *x = malloc(4ull * n), *y = malloc(4ull * n);
  hint_fill(x, y, n);
  unsigned long before = __atomic_load_n(&g_getrusage_calls, __ATOMIC_RELAXED);
  int off = 0;
  for (int k = 0; k < calls; ++k)
    off += hint_site(x, y, n, 0, 0, NULL);
  unsigned long made =
      __atomic_load_n(&g_getrusage_calls, __ATOMIC_RELAXED) - before;
  CHECK_MSG(off == 0, "%d calls offloaded", off);
  CHECK(hint_check_y(y, n, calls));
  free(x);
  free(y);
  return made;
}

/* 2 x 16 KiB: at most 12 pages. Fails when the faults are read whatever
   the run's pages (6 calls, two per timed run of the first three). */
void case_tinypocl_few_pages(void) {
  unsigned long made = pages_site_getrusage(4096, 300);
  CHECK_MSG(made == 0, "%lu getrusage calls for a run over 12 pages", made);
  fprintf(stderr, "tinypocl_few_pages: %lu getrusage calls\n", made);
}

/* 2 x 1 MiB: 516 pages at most, enough for a cold run: the first timed
   host runs read the faults before and after (2 calls each). */
void case_tinypocl_many_pages(void) {
  unsigned long made = pages_site_getrusage(1 << 18, 8);
  CHECK_MSG(made >= 2 && made % 2 == 0,
            "%lu getrusage calls for a run over 516 pages", made);
  fprintf(stderr, "tinypocl_many_pages: %lu getrusage calls\n", made);
}
