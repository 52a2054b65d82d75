/*===- test_workgate.c - The IDIOM_MIN_TRIP gate counts work -------------===*
 *
 * Cases of idiomrt_test (listed in test_idiomrt.c's table) for the gate of
 * runtime/lib/workgate.c (issue 12): a transposed GEMV with few outputs but
 * a long dot product each (Gram-Schmidt's R[k][j] = Q[:,k]^T A[:,j]) passes
 * the default IDIOM_MIN_TRIP and reaches the device (model off) or the cost
 * model (model on); one with little work does not, nor does an element-wise
 * map below the threshold; inside a region with device copies the gate
 * still applies with the model off. A site that the gate now lets through
 * but whose host loop takes microseconds gets host hints: idiom_run sees
 * about one call in 65. The sums use small integers: exact in float, so the
 * device's results equal the host's bit for bit.
 *
 *===----------------------------------------------------------------------===*/
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include "idiomrt.h"
#include "test_common.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Internal to the runtime (rt_internal.h); the archive exports them. */
uint64_t idiomrt_call_work(uint64_t trip, const idiom_arg *args,
                           uint32_t nargs, const idiom_csr *csr);
uint64_t idiomrt_resid_bytes(void);

/* s[j] = sum_i a[i * n + j] * r[i], j < n;  args: m, n, a (IN), r (IN),
   s (OUT, dense) */
static const char gemvt_src[] =
    "__kernel void wg_gemvt(const int m, const int n,\n"
    "                       __global const float *a,\n"
    "                       __global const float *r, __global float *s) {\n"
    "  size_t j = get_global_id(0);\n"
    "  if (j >= (size_t)n) return;\n"
    "  float acc = 0.0f;\n"
    "  for (int i = 0; i < m; ++i) acc += a[(size_t)i * n + j] * r[i];\n"
    "  s[j] = acc;\n"
    "}\n";
static const idiom_kernel_desc gemvt_desc = {
    "wg_gemvt", "test_workgate.c:gemvt", "gemv", gemvt_src, IDIOM_MAP, 1, 0, 0,
    NULL};

/* y[i] = a * x[i] + y[i] */
static const char wscale_src[] =
    "__kernel void wg_scale(const int n, const float a,\n"
    "                       __global const float *x, __global float *y) {\n"
    "  size_t i = get_global_id(0);\n"
    "  if (i < (size_t)n) y[i] = a * x[i] + y[i];\n"
    "}\n";
static const idiom_kernel_desc wscale_desc = {
    "wg_scale", "test_workgate.c:scale", "map", wscale_src, IDIOM_MAP, 1, 0, 0,
    NULL};

typedef struct gemvt_data {
  int m, n;
  float *a, *r, *s;
} gemvt_data;

/* Small integers: every sum is exact in float. */
static gemvt_data gemvt_make(int m, int n) {
  gemvt_data g = {m, n, malloc(4ull * m * n), malloc(4ull * m),
                  malloc(4ull * n)};
  for (int i = 0; i < m; ++i) {
    g.r[i] = (float)(i % 4);
    for (int j = 0; j < n; ++j)
      g.a[(size_t)i * n + j] = (float)((i + 3 * j) % 5) - 2.0f;
  }
  for (int j = 0; j < n; ++j)
    g.s[j] = -1.0f;
  return g;
}

static void gemvt_free(gemvt_data *g) {
  free(g->a);
  free(g->r);
  free(g->s);
}

static void gemvt_host(gemvt_data *g) {
  for (int j = 0; j < g->n; ++j)
    g->s[j] = 0.0f;
  for (int i = 0; i < g->m; ++i)
    for (int j = 0; j < g->n; ++j)
      g->s[j] += g->a[(size_t)i * g->n + j] * g->r[i];
}

/* 1 when s holds the product (computed again on the host). */
static int gemvt_ok(const gemvt_data *g) {
  float *want = malloc(4ull * g->n);
  for (int j = 0; j < g->n; ++j) {
    float acc = 0.0f;
    for (int i = 0; i < g->m; ++i)
      acc += g->a[(size_t)i * g->n + j] * g->r[i];
    want[j] = acc;
  }
  int ok = memcmp(want, g->s, 4ull * g->n) == 0;
  free(want);
  return ok;
}

/* One call of the GEMV^T as the plugin stitches it (the host loop timed
   when the runtime declines); *why gets the decline reason, "" when the
   device ran it. hint: the site's hint word (NULL: no hints). */
static int gemvt_site(gemvt_data *g, uint64_t *hint, int *runs, char *why,
                      size_t wn) {
  uint64_t key = (uint64_t)g->n;
  uint64_t one = 1ull << IDIOM_HINT_TAG_BITS;
  uint64_t tag = 64 - (uint64_t)__builtin_clzll(key);
  uint64_t h = hint ? __atomic_load_n(hint, __ATOMIC_RELAXED) : 0;
  int skip = hint && (h & (one - 1)) == tag && h >= one;
  uint64_t tok = 0;
  why[0] = '\0';
  if (skip) {
    __atomic_store_n(hint, h - one, __ATOMIC_RELAXED);
  } else {
    idiom_arg args[5] = {i32(g->m), i32(g->n),
                         buf(IDIOM_ARG_BUF_IN, g->a, 4ull * g->m * g->n),
                         buf(IDIOM_ARG_BUF_IN, g->r, 4ull * g->m),
                         buf(IDIOM_ARG_BUF_OUT, g->s, 4ull * g->n)};
    args[4].flags = IDIOM_ARG_DENSE;
    uint64_t sizes[1] = {(uint64_t)g->n};
    if (runs)
      ++*runs;
    if (idiom_run(&gemvt_desc, args, 5, sizes, NULL))
      return 1;
    snprintf(why, wn, "%s", reason_or_none());
    if (hint)
      idiom_host_hint(&gemvt_desc, hint, key);
    tok = idiom_host_begin(&gemvt_desc);
  }
  idiom_region_sync(); /* the fallback's, inside a region */
  gemvt_host(g);
  idiom_host_end(skip ? NULL : &gemvt_desc, tok);
  return 0;
}

/* The work the gate counts: the larger of the iteration count and the
   8-byte words read (IN and INOUT; OUT ranges and scalars are not read). */
void case_workgate_count(void) {
  static float a[1000 * 1199], r[1000], s[1199];
  idiom_arg args[5] = {i32(1000), i32(1199),
                       buf(IDIOM_ARG_BUF_IN, a, sizeof a),
                       buf(IDIOM_ARG_BUF_IN, r, sizeof r),
                       buf(IDIOM_ARG_BUF_OUT, s, sizeof s)};
  uint64_t words = (sizeof a + sizeof r) / 8;
  CHECK(idiomrt_call_work(1199, args, 5, NULL) == words);
  CHECK(idiomrt_call_work(UINT64_MAX, args, 5, NULL) == UINT64_MAX);
  /* float saxpy: 8 bytes read an iteration, the work is the trip count */
  idiom_arg ax[4] = {i32(4095), f32(2.0f), buf(IDIOM_ARG_BUF_IN, a, 4 * 4095),
                     buf(IDIOM_ARG_BUF_INOUT, r, 4 * 4095)};
  CHECK(idiomrt_call_work(4095, ax, 4, NULL) == 4095);
  /* an OUT range is not read */
  ax[3].kind = IDIOM_ARG_BUF_OUT;
  CHECK(idiomrt_call_work(4095, ax, 4, NULL) == 4095);
  ax[2].bytes = 8 * 5000;
  CHECK(idiomrt_call_work(4095, ax, 4, NULL) == 5000);
  /* saturates */
  ax[2].bytes = UINT64_MAX;
  ax[3].kind = IDIOM_ARG_BUF_INOUT;
  CHECK(idiomrt_call_work(1, ax, 4, NULL) == UINT64_MAX / 8);
}

/* One call of an m x n GEMV^T: runs on the device when want is NULL, else
   declines with reason want; the result is right either way. */
static void expect_gemvt(int m, int n, const char *want) {
  gemvt_data g = gemvt_make(m, n);
  char why[256];
  int rc = gemvt_site(&g, NULL, NULL, why, sizeof why);
  CHECK_MSG(want ? rc == 0 && strcmp(why, want) == 0 : rc == 1,
            "%d x %d GEMV^T: rc=%d reason=%s", m, n, rc, why);
  CHECK(gemvt_ok(&g));
  gemvt_free(&g);
}

/* Model off (the test default): Gram-Schmidt's widest GEMV^T, 1199
   outputs of 1000 terms, runs on the device under the default
   IDIOM_MIN_TRIP (4096); before the work gate it was declined as "trip
   count below threshold". A 30 x 30 one (450 words) and a 1000-element
   map are declined; 128 rows x 64 outputs (4160 words) run, 124 rows
   (4030) do not. */
void case_workgate_wide(void) {
  expect_gemvt(1000, 1199, NULL);
  expect_gemvt(30, 30, "work below threshold");
  expect_gemvt(128, 64, NULL);
  expect_gemvt(124, 64, "work below threshold");
  static float x[1000], y[1000];
  idiom_arg args[4] = {i32(1000), f32(2.0f),
                       buf(IDIOM_ARG_BUF_IN, x, sizeof x),
                       buf(IDIOM_ARG_BUF_INOUT, y, sizeof y)};
  uint64_t sizes[1] = {1000};
  CHECK(idiom_run(&wscale_desc, args, 4, sizes, NULL) == 0);
  CHECK_MSG(strcmp(reason_or_none(), "work below threshold") == 0, "%s",
            reason_or_none());
}

/* Model on: the wide GEMV^T reaches the model (its first call of a size
   class measures the host loop), the small one stops at the gate. */
void case_workgate_model(void) {
  setenv("IDIOM_COST", "on", 1);
  expect_gemvt(1000, 1199, "cost model: measuring the host loop");
  expect_gemvt(30, 30, "work below threshold");
}

/* Model off inside a residency region that holds device copies: the gate
   still applies (the exception is the model's to take, costmodel.c step
   1; policy_region_small tests it with the model on). */
void case_workgate_region(void) {
  enum { N = 1 << 14 };
  float *x = malloc(4ull * N), *y = malloc(4ull * N);
  for (int i = 0; i < N; ++i) {
    x[i] = (float)(i % 7);
    y[i] = 1.0f;
  }
  idiom_arg args[4] = {i32(N), f32(2.0f), buf(IDIOM_ARG_BUF_IN, x, 4ull * N),
                       buf(IDIOM_ARG_BUF_INOUT, y, 4ull * N)};
  uint64_t sizes[1] = {N};
  idiom_region_begin();
  CHECK_MSG(idiom_run(&wscale_desc, args, 4, sizes, NULL) == 1, "declined: %s",
            reason_or_none());
  CHECK(idiomrt_resid_bytes() > 0);
  args[0] = i32(64);
  args[2].bytes = args[3].bytes = 4 * 64;
  sizes[0] = 64;
  CHECK(idiom_run(&wscale_desc, args, 4, sizes, NULL) == 0);
  CHECK_MSG(strcmp(reason_or_none(), "work below threshold") == 0, "%s",
            reason_or_none());
  idiom_region_end();
  int ok = 1;
  for (int i = 0; i < N; ++i)
    ok &= y[i] == 1.0f + 2.0f * (float)(i % 7);
  CHECK(ok);
  free(x);
  free(y);
}

enum { HINT_SITE_CALLS = 3000 };

/* Model on: a GEMV^T the gate lets through (128 x 64, 4160 words) whose
   host loop takes microseconds: the model keeps it on the host and its
   declines become host hints, so idiom_run sees about one call in 65
   (the first measures the host loop). Fails with the hint off. */
void case_workgate_hint(void) {
  setenv("IDIOM_COST", "on", 1);
  gemvt_data g = gemvt_make(128, 64);
  uint64_t word = 0;
  int runs = 0, off = 0, gated = 0;
  char why[256];
  for (int k = 0; k < HINT_SITE_CALLS; ++k) {
    off += gemvt_site(&g, &word, &runs, why, sizeof why);
    gated += strcmp(why, "work below threshold") == 0;
  }
  CHECK_MSG(off == 0, "%d calls offloaded", off);
  CHECK_MSG(gated == 0, "%d calls stopped at the gate", gated);
  CHECK(gemvt_ok(&g));
  CHECK_MSG(runs >= 2 && runs <= 2 + HINT_SITE_CALLS / 64,
            "idiom_run called %d times for %d calls", runs, HINT_SITE_CALLS);
  fprintf(stderr, "workgate_hint: %d of %d calls reached the model\n", runs,
          HINT_SITE_CALLS);
  gemvt_free(&g);
}
