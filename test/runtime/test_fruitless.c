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
