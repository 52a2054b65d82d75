/*===- test_inplace.c - In-place inputs (IDIOM_ARG_INPLACE) ---------------===*
 *
 * runtime/lib/inplace.c on PoCL: y[i] = a[i] - v[i] (NAS MG's resid,
 * r = v - A u) called with v == y. An IN range flagged IDIOM_ARG_INPLACE
 * that is identical to the output's runs on the output's buffer; without
 * the flag, or with a partial overlap, the call is declined and nothing is
 * written; the flag on an output is invalid. Inside a residency region the
 * in-place call keeps the output resident. Every case checks the host's
 * memory against a reference computed on the host.
 *
 *===----------------------------------------------------------------------===*/
#include "test_common.h"

#include <stdlib.h>

/* y[i] = a[i] - v[i]; args: n (I32), a (IN), v (IN), y (OUT). */
static const char sub_src[] =
    "__kernel void sub(const int n, __global const int *a,\n"
    "                  __global const int *v, __global int *y) {\n"
    "  size_t i = get_global_id(0);\n"
    "  if (i < (size_t)n) y[i] = a[i] - v[i];\n"
    "}\n";
static const idiom_kernel_desc sub_desc = {
    "sub", "test_inplace.c:sub", "map", sub_src, IDIOM_MAP, 1, 0, 0, NULL};

enum { N = 8192 };

static int sub(int *a, int *v, int *y, int n, uint32_t vflags,
               uint32_t yflags) {
  idiom_arg args[4] = {i32(n), buf(IDIOM_ARG_BUF_IN, a, 4ull * n),
                       buf(IDIOM_ARG_BUF_IN, v, 4ull * n),
                       buf(IDIOM_ARG_BUF_OUT, y, 4ull * n)};
  args[2].flags = vflags;
  args[3].flags = yflags;
  uint64_t sizes[1] = {(uint64_t)n};
  return idiom_run(&sub_desc, args, 4, sizes, NULL);
}

/* Elements of y[0..n) that differ from want(i). */
static int wrong(const int *y, int n, int (*want)(int)) {
  int bad = 0;
  for (int i = 0; i < n; ++i)
    bad += y[i] != want(i);
  return bad;
}

static int w_a(int i) { return 3 * i; }
static int w_v(int i) { return i % 7; }
static int w_sub(int i) { return 3 * i - i % 7; }
static int w_sub_shift(int i) { return 3 * i - (i + 1) % 7; }

void case_inplace(void) {
  setenv("IDIOM_MIN_TRIP", "0", 1);
  int *a = malloc(4 * N), *g = malloc(4 * (N + 1)), *y = malloc(4 * N);
  for (int i = 0; i < N; ++i)
    a[i] = w_a(i);
  /* out of place, flagged: an IN range disjoint from the output */
  for (int i = 0; i < N; ++i)
    g[i] = w_v(i), y[i] = -1;
  CHECK_MSG(sub(a, g, y, N, IDIOM_ARG_INPLACE, 0) == 1, "declined: %s",
            reason_or_none());
  CHECK_MSG(wrong(y, N, w_sub) == 0, "out of place: %d wrong",
            wrong(y, N, w_sub));
  /* in place (v == y), flagged: runs on one buffer */
  CHECK_MSG(sub(a, g, g, N, IDIOM_ARG_INPLACE, 0) == 1, "declined: %s",
            reason_or_none());
  CHECK_MSG(wrong(g, N, w_sub) == 0, "in place: %d wrong", wrong(g, N, w_sub));
  /* in place, dense output flagged too: still copied in (read) */
  for (int i = 0; i < N; ++i)
    g[i] = w_v(i);
  CHECK_MSG(sub(a, g, g, N, IDIOM_ARG_INPLACE, IDIOM_ARG_DENSE) == 1,
            "declined: %s", reason_or_none());
  CHECK_MSG(wrong(g, N, w_sub) == 0, "in place, dense: %d wrong",
            wrong(g, N, w_sub));
  /* in place without the flag: declined, nothing written */
  for (int i = 0; i < N; ++i)
    g[i] = w_v(i);
  CHECK(sub(a, g, g, N, 0, 0) == 0);
  CHECK_MSG(starts_with(idiom_last_reason(), "overlapping input/output ranges"),
            "reason %s", reason_or_none());
  CHECK(wrong(g, N, w_v) == 0);
  /* partial overlap (v = g + 1, y = g), flagged: declined, nothing written */
  for (int i = 0; i <= N; ++i)
    g[i] = w_v(i);
  CHECK(sub(a, g + 1, g, N, IDIOM_ARG_INPLACE, 0) == 0);
  CHECK_MSG(starts_with(idiom_last_reason(), "overlapping input/output ranges"),
            "reason %s", reason_or_none());
  CHECK(wrong(g, N + 1, w_v) == 0);
  /* the same range but a shorter input: a partial overlap too */
  idiom_arg part[4] = {i32(N - 1), buf(IDIOM_ARG_BUF_IN, a, 4ull * (N - 1)),
                       buf(IDIOM_ARG_BUF_IN, g, 4ull * (N - 1)),
                       buf(IDIOM_ARG_BUF_OUT, g, 4ull * N)};
  part[2].flags = IDIOM_ARG_INPLACE;
  uint64_t psizes[1] = {N - 1};
  CHECK(idiom_run(&sub_desc, part, 4, psizes, NULL) == 0);
  CHECK(wrong(g, N + 1, w_v) == 0);
  /* the flag on the output: invalid */
  CHECK(sub(a, g + 1, y, N, 0, IDIOM_ARG_INPLACE) == 0);
  CHECK_MSG(starts_with(idiom_last_reason(), "invalid arguments: flags"),
            "reason %s", reason_or_none());
  /* the host loop for the declined shifted call: still right */
  for (int i = 0; i < N; ++i)
    g[i] = a[i] - g[i + 1];
  CHECK(wrong(g, N, w_sub_shift) == 0);
  free(a);
  free(g);
  free(y);
}

static int w_resid(int i) { return 3 * i - (i % 7 + 1) + 1; }

void case_inplace_region(void) {
  setenv("IDIOM_MIN_TRIP", "0", 1);
  int *a = malloc(4 * N), *g = malloc(4 * N);
  for (int i = 0; i < N; ++i)
    a[i] = w_a(i), g[i] = w_v(i);
  idiom_region_begin();
  CHECK_MSG(resid_addk(g, N, 1) == 1, "declined: %s", reason_or_none());
  /* g is device-valid and newer than the host: in place on the device */
  CHECK_MSG(sub(a, g, g, N, IDIOM_ARG_INPLACE, 0) == 1, "declined: %s",
            reason_or_none());
  CHECK_MSG(resid_addk(g, N, 1) == 1, "declined: %s", reason_or_none());
  idiom_region_end();
  CHECK_MSG(wrong(g, N, w_resid) == 0, "in a region: %d wrong",
            wrong(g, N, w_resid));
  free(a);
  free(g);
}
