/*===- test_variant2d.c - 2-D map variants and IDIOM_VARIANT ---------------===*
 *
 * Part of Idiom. The marker fields of 2-D map variants (ept=E0xE1, wg=XxY,
 * runtime/include/idiomrt.h), of 3-D plane walks (ept=E0xE1xE2) and the
 * forced variant of IDIOM_VARIANT.
 *
 *===----------------------------------------------------------------------===*/

#include "test_common.h"

#include <stdlib.h>
#include <string.h>

/* c[i][j] = a[i][j] * 2 + i, m x n, row-major, three ways. Variant 1 covers
   2 columns and 3 rows per work-item in work-groups of 8x4 (no
   reqd_work_group_size: the marker's wg is all that says so) and writes
   nothing unless its NDRange is exactly what the marker asks for. */
#define M2_HEAD(name)                                                          \
  "__kernel void " name "(const long m, const long n, __global const float *a,\n" \
  "    __global float *c) {\n"
#define M2_ONE                                                                 \
  "  long j = get_global_id(0), i = get_global_id(1);\n"                       \
  "  if (i < m && j < n) c[i * n + j] = a[i * n + j] * 2.0f + (float)i;\n}\n"
#define M2_BLOCK                                                               \
  "  if (get_local_size(0) != 8 || get_local_size(1) != 4) return;\n"          \
  "  if (get_global_size(0) != ((n + 1) / 2 + 7) / 8 * 8) return;\n"          \
  "  if (get_global_size(1) != ((m + 2) / 3 + 3) / 4 * 4) return;\n"          \
  "  long j0 = get_global_id(0) * 2, i0 = get_global_id(1) * 3;\n"             \
  "  for (long i = i0; i < i0 + 3 && i < m; ++i)\n"                            \
  "    for (long j = j0; j < j0 + 2 && j < n; ++j)\n"                          \
  "      c[i * n + j] = a[i * n + j] * 2.0f + (float)i;\n}\n"

static const char m2_src[] =
    "//@idiom-variant 0 wg=0 ept=1: one element per work-item\n"
    M2_HEAD("m2") M2_ONE
    "//@idiom-variant 1 wg=8x4 ept=2x3: 3 x 2 elements per work-item\n"
    M2_HEAD("m2_v1") M2_BLOCK
    "//@idiom-variant 2 wg=0 ept=1: the same as 0\n"
    M2_HEAD("m2_v2") M2_ONE;
static const idiom_kernel_desc m2_desc = {
    "m2", "test_variant2d.c:m2", "map", m2_src, IDIOM_MAP, 2, 0, 3, NULL};

/* Runs m2 on m x n and checks every element; idiom_run's answer. */
static int m2_checked(long m, long n) {
  size_t cnt = (size_t)(m * n);
  float *a = malloc(sizeof(float) * cnt), *c = malloc(sizeof(float) * cnt);
  for (size_t k = 0; k < cnt; ++k) {
    a[k] = (float)(k % 101) * 0.25f;
    c[k] = -1.0f;
  }
  idiom_arg args[4] = {i64(m), i64(n), buf(IDIOM_ARG_BUF_IN, a, 4 * cnt),
                       buf(IDIOM_ARG_BUF_OUT, c, 4 * cnt)};
  uint64_t sizes[2] = {(uint64_t)m, (uint64_t)n};
  int rc = idiom_run(&m2_desc, args, 4, sizes, NULL);
  if (rc == 1) {
    int bad = 0;
    for (long i = 0; i < m && bad < 5; ++i)
      for (long j = 0; j < n && bad < 5; ++j) {
        float want = a[i * n + j] * 2.0f + (float)i;
        if (c[i * n + j] != want) {
          fprintf(stderr, "c[%ld][%ld] = %g, want %g\n", i, j, c[i * n + j], want);
          bad++;
        }
      }
    CHECK_MSG(bad == 0, "%ldx%ld, variant %d", m, n, idiom_last_variant());
  }
  free(a);
  free(c);
  return rc;
}

void case_variant_ept2d(void) {
  /* Variant 1 alone is right only when ept=2x3 and wg=8x4 are honoured. */
  setenv("IDIOM_VARIANT", "1", 1);
  CHECK_MSG(m2_checked(301, 77) == 1, "declined: %s", reason_or_none());
  CHECK(idiom_last_variant() == 1);
  CHECK_MSG(m2_checked(64, 64) == 1, "declined: %s", reason_or_none());
  CHECK(idiom_last_variant() == 1);
}

/* The 2-D variants timed on a sample of 3 rows of 77 (IDIOM_TUNE_SAMPLE):
   every element is still computed once, by the variant chosen. */
void case_variant_sample2d(void) {
  setenv("IDIOM_TUNE_MIN", "0", 1);
  setenv("IDIOM_TUNE_SAMPLE", "231", 1);
  CHECK_MSG(m2_checked(301, 77) == 1, "declined: %s", reason_or_none());
  CHECK(idiom_last_variant() >= 0);
}

void case_variant_forced(void) {
  /* IDIOM_VARIANT wins over timing (which would run too: IDIOM_TUNE_MIN=0). */
  setenv("IDIOM_TUNE_MIN", "0", 1);
  setenv("IDIOM_VARIANT", "2", 1);
  CHECK_MSG(m2_checked(100, 300) == 1, "declined: %s", reason_or_none());
  CHECK(idiom_last_variant() == 2);
  CHECK_MSG(m2_checked(1000, 300) == 1, "declined: %s", reason_or_none());
  CHECK(idiom_last_variant() == 2);
}

void case_variant_forced_missing(void) {
  /* A variant the descriptor does not have: the run declines. */
  setenv("IDIOM_VARIANT", "3", 1);
  CHECK(m2_checked(100, 300) == 0);
  CHECK_MSG(idiom_last_reason() &&
                strcmp(idiom_last_reason(), "IDIOM_VARIANT names no usable variant") == 0,
            "%s", reason_or_none());
  CHECK(idiom_last_variant() == -1);
}

void case_variant_forced_stats(void) {
  const char *env[] = {"IDIOM_STATS=1", "IDIOM_VARIANT=1", NULL};
  char *err = NULL;
  int st = spawn_case("variant_ept2d", env, &err);
  CHECK_MSG(st == 0, "(%d):\n%s", st, err);
  CHECK_MSG(strstr(err, "variant 1 tuned=forced"), "%s", err);
  free(err);
  const char *junk[] = {"IDIOM_VARIANT=junk", NULL};
  st = spawn_case("variant_junk_child", junk, &err);
  CHECK_MSG(st == 0, "(%d):\n%s", st, err);
  CHECK_MSG(strstr(err, "IDIOM_VARIANT=junk is not a variant number; ignored"), "%s", err);
  free(err);
}

void case_variant_junk_child(void) {
  /* ignored: the usual choice (variant 0 below IDIOM_TUNE_MIN) */
  CHECK_MSG(m2_checked(100, 300) == 1, "declined: %s", reason_or_none());
  CHECK(idiom_last_variant() == 0);
}

/* c[p][i][j] = a[p][i][j] + p, planes x m x n. Variant 1 walks 4 planes
   per work-item and writes nothing unless its NDRange's dimension 2 is
   exactly ceil(planes / 4) (ept=1x1x4 honoured). */
#define M3_HEAD(name)                                                          \
  "__kernel void " name "(const long np, const long m, const long n,\n"       \
  "    __global const float *a, __global float *c) {\n"
static const char m3_src[] =
    "//@idiom-variant 0 wg=0 ept=1: one element per work-item\n"
    M3_HEAD("m3")
    "  long j = get_global_id(0), i = get_global_id(1), p = get_global_id(2);\n"
    "  if (p < np && i < m && j < n)\n"
    "    c[(p * m + i) * n + j] = a[(p * m + i) * n + j] + (float)p;\n}\n"
    "//@idiom-variant 1 wg=8x4 ept=1x1x4: a walk of 4 planes\n"
    M3_HEAD("m3_v1")
    "  if (get_global_size(2) != (np + 3) / 4) return;\n"
    "  long j = get_global_id(0), i = get_global_id(1);\n"
    "  for (long p = get_global_id(2) * 4; p < get_global_id(2) * 4 + 4 && p < np; ++p)\n"
    "    if (i < m && j < n)\n"
    "      c[(p * m + i) * n + j] = a[(p * m + i) * n + j] + (float)p;\n}\n";
static const idiom_kernel_desc m3_desc = {
    "m3", "test_variant2d.c:m3", "map", m3_src, IDIOM_MAP, 3, 0, 2, NULL};

void case_variant_ept3d(void) {
  setenv("IDIOM_VARIANT", "1", 1);
  const long dims[2][3] = {{11, 20, 30}, {8, 32, 33}};
  for (int t = 0; t < 2; ++t) {
    long np = dims[t][0], m = dims[t][1], n = dims[t][2];
    size_t cnt = (size_t)(np * m * n);
    float *a = malloc(sizeof(float) * cnt), *c = malloc(sizeof(float) * cnt);
    for (size_t k = 0; k < cnt; ++k) {
      a[k] = (float)(k % 97) * 0.5f;
      c[k] = -1.0f;
    }
    idiom_arg args[5] = {i64(np), i64(m), i64(n), buf(IDIOM_ARG_BUF_IN, a, 4 * cnt),
                         buf(IDIOM_ARG_BUF_OUT, c, 4 * cnt)};
    uint64_t sizes[3] = {(uint64_t)np, (uint64_t)m, (uint64_t)n};
    CHECK_MSG(idiom_run(&m3_desc, args, 5, sizes, NULL) == 1, "declined: %s",
              reason_or_none());
    CHECK(idiom_last_variant() == 1);
    int bad = 0;
    for (size_t k = 0; k < cnt && bad < 5; ++k) {
      float want = a[k] + (float)(k / (size_t)(m * n));
      if (c[k] != want) {
        fprintf(stderr, "c[%zu] = %g, want %g\n", k, c[k], want);
        bad++;
      }
    }
    CHECK_MSG(bad == 0, "%ldx%ldx%ld", np, m, n);
    free(a);
    free(c);
  }
}
