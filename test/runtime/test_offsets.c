/*===- test_offsets.c - Element offsets of map kernels in regions ----------===*
 *
 * Part of Idiom. Kernels whose source has the //@idiom-offsets line take an
 * element offset per buffer (runtime/include/idiomrt.h, "Element offsets"):
 *
 * resid_offsets        inside a region, runs on sub-ranges of a resident
 *                      range: a whole number of elements in, passed as the
 *                      entry's buffer and an offset (also while the variants
 *                      are timed, outputs restored at the offset, and for an
 *                      INOUT range of a dirty entry, backed up); 2 bytes in
 *                      (not a whole int), a view; outside a region, offset
 *                      0. The host's memory is checked against a reference.
 * resid_offsets_stats  the residency line counts them: offsets=3 views=1.
 *
 *===----------------------------------------------------------------------===*/
#include "idiomrt.h"
#include "test_common.h"

#include <stdlib.h>
#include <string.h>

/* y[i] += k over n ints at y's element offset; args: n, k, y (INOUT). Two
   variants, so that a size class is timed (IDIOM_TUNE_MIN=0). */
#define ADDKO(name)                                                            \
  "__kernel void " name "(const int n, const int k, __global int *y,\n"        \
  "                       const long y_off) {\n"                              \
  "  y += y_off;\n"                                                            \
  "  size_t i = get_global_id(0);\n"                                           \
  "  if (i < (size_t)n) y[i] += k;\n"                                          \
  "}\n"
static const char addko_src[] = "//@idiom-offsets 4\n"
                                "//@idiom-variant 0 wg=0 ept=1: default\n" ADDKO("addko")
                                "//@idiom-variant 1 wg=64 ept=1: 64\n" ADDKO("addko_v1");
static const idiom_kernel_desc addko_desc = {
    "addko", "test_offsets.c:addko", "map", addko_src, IDIOM_MAP, 1, 0, 2, NULL};

static int addko(void *y, int n, int k) {
  idiom_arg a[3] = {i32(n), i32(k), buf(IDIOM_ARG_BUF_INOUT, y, 4ull * n)};
  uint64_t sizes[1] = {(uint64_t)n};
  return idiom_run(&addko_desc, a, 3, sizes, NULL);
}

/* The host's y[i] += k at any byte address. */
static void addk_ref(unsigned char *y, int n, int k) {
  for (int i = 0; i < n; ++i) {
    int v;
    memcpy(&v, y + 4 * i, 4);
    v += k;
    memcpy(y + 4 * i, &v, 4);
  }
}

#define RUN_OK(call) CHECK_MSG((call) == 1, "declined: %s", reason_or_none())

void case_resid_offsets(void) {
  setenv("IDIOM_MIN_TRIP", "0", 1);
  setenv("IDIOM_TUNE_MIN", "0", 1);
  enum { N = 1 << 14 };
  unsigned char *y = malloc(4 * N + 4), *want = malloc(4 * N + 4);
  for (int i = 0; i < N; ++i) {
    memcpy(y + 4 * i, &i, 4);
    memcpy(want + 4 * i, &i, 4);
  }
  RUN_OK(addko(y + 4 * 5, 100, 3)); /* outside a region: offset 0 */
  addk_ref(want + 4 * 5, 100, 3);
  idiom_region_begin();
  RUN_OK(addko(y, N, 1)); /* entry [0, N), dirty */
  addk_ref(want, N, 1);
  RUN_OK(addko(y + 4 * (N / 4), N / 4, 10)); /* inside: an offset, timed */
  addk_ref(want + 4 * (N / 4), N / 4, 10);
  RUN_OK(addko(y + 4 * 3, 1000, 7)); /* inside again, another class */
  addk_ref(want + 4 * 3, 1000, 7);
  RUN_OK(addko(y + 4 * 7 + 2, 2000, 1 << 20)); /* 2 bytes in: a view */
  addk_ref(want + 4 * 7 + 2, 2000, 1 << 20);
  RUN_OK(addko(y + 4 * (N - 64), 64, 5)); /* the last elements: an offset */
  addk_ref(want + 4 * (N - 64), 64, 5);
  idiom_region_end();
  CHECK_MSG(memcmp(y, want, 4 * N) == 0, "the host's memory differs");
  free(y);
  free(want);
}

void case_resid_offsets_stats(void) {
  const char *env[] = {"IDIOM_STATS=1", NULL};
  char *err = NULL;
  int st = spawn_case("resid_offsets", env, &err);
  CHECK_MSG(st == 0, "%s", err ? err : "");
  CHECK_MSG(err && strstr(err, " offsets=3 views=1 host_loads=0 "
                               "host_stores=0 snapshots=0\n"),
            "%s", err ? err : "");
  free(err);
}
