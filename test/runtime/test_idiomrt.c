/*===- test_idiomrt.c - Tests of the Idiom runtime on a real OpenCL device -===*
 *
 * Usage: idiomrt_test CASE   run one case in this process
 *        idiomrt_test        run every case, each in a child process
 *        idiomrt_test --list
 *
 * The runtime reads its environment once, so each case runs in a fresh
 * process and sets its variables before its first runtime call. Cases that
 * must look at the runtime's stderr (stats, build log, warnings, disk cache)
 * spawn this program again with a case name and capture the child's stderr.
 * Kernels are hand-written in the conventions of idiomrt.h.
 *
 *===----------------------------------------------------------------------===*/
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include "idiomrt.h"
#include "test_common.h"

#include <fcntl.h>
#include <ftw.h>
#include <limits.h>
#include <pthread.h>
#include <spawn.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

extern char **environ;

/*--- kernels and descriptors ---------------------------------------------*/

/* y[i] = a * x[i] + y[i];  args: n, a, x (IN), y (INOUT) */
static const char saxpy_src[] =
    "__kernel void saxpy(const int n, const float a,\n"
    "                    __global const float *x, __global float *y) {\n"
    "  size_t i = get_global_id(0);\n"
    "  if (i < (size_t)n) y[i] = a * x[i] + y[i];\n"
    "}\n";
static const idiom_kernel_desc saxpy_desc = {
    "saxpy", "test_idiomrt.c:saxpy", "map", saxpy_src, IDIOM_MAP, 1, 0, 0,
    NULL};

/* c[i][j] = 3 * a[i][j] + 1000 * i + j; args: rows, cols, a (IN),
   unused (IN, 0 bytes), c (OUT) */
static const char map2d_src[] =
    "__kernel void map2d(const int rows, const int cols,\n"
    "                    __global const int *a, __global const int *unused,\n"
    "                    __global int *c) {\n"
    "  size_t j = get_global_id(0), i = get_global_id(1);\n"
    "  if (i < (size_t)rows && j < (size_t)cols)\n"
    "    c[i * cols + j] = 3 * a[i * cols + j] + 1000 * (int)i + (int)j;\n"
    "}\n";
static const idiom_kernel_desc map2d_desc = {
    "map2d", "test_idiomrt.c:map2d", "map", map2d_src, IDIOM_MAP, 2, 0, 0,
    NULL};

/* A 3-D map (ndims 3): c[p][i][j] = 2 * a[p][i][j] + 100000 * p + 100 * i + j;
   args: planes, rows, cols, a (IN), c (OUT). Dimension 0 is the innermost
   loop (j), 2 the outermost (p). */
static const char map3d_src[] =
    "__kernel void map3d(const int planes, const int rows, const int cols,\n"
    "                    __global const int *a, __global int *c) {\n"
    "  size_t j = get_global_id(0), i = get_global_id(1), p = get_global_id(2);\n"
    "  if (p < (size_t)planes && i < (size_t)rows && j < (size_t)cols) {\n"
    "    size_t q = (p * rows + i) * cols + j;\n"
    "    c[q] = 2 * a[q] + 100000 * (int)p + 100 * (int)i + (int)j;\n"
    "  }\n"
    "}\n";
static const idiom_kernel_desc map3d_desc = {
    "map3d", "test_idiomrt.c:map3d", "map", map3d_src, IDIOM_MAP, 3, 0, 0,
    NULL};

/* Two accumulators: float sum of x, int max of v. args: n (I64), x, v. */
static const char reduce_src[] =
    "__kernel void red_partial(const long n, __global const float *x,\n"
    "                          __global const int *v,\n"
    "                          __global float *part_0, __global int *part_1,\n"
    "                          __local float *s0, __local int *s1) {\n"
    "  size_t lid = get_local_id(0), L = get_local_size(0);\n"
    "  float a0 = 0.0f; int a1 = INT_MIN;\n"
    "  for (long i = get_global_id(0); i < n; i += get_global_size(0)) {\n"
    "    a0 += x[i]; a1 = max(a1, v[i]);\n"
    "  }\n"
    "  s0[lid] = a0; s1[lid] = a1;\n"
    "  barrier(CLK_LOCAL_MEM_FENCE);\n"
    "  for (size_t s = L / 2; s > 0; s >>= 1) {\n"
    "    if (lid < s) { s0[lid] += s0[lid + s];\n"
    "                   s1[lid] = max(s1[lid], s1[lid + s]); }\n"
    "    barrier(CLK_LOCAL_MEM_FENCE);\n"
    "  }\n"
    "  if (lid == 0) { part_0[get_group_id(0)] = s0[0];\n"
    "                  part_1[get_group_id(0)] = s1[0]; }\n"
    "}\n"
    "__kernel void red_final(const long m, __global const float *part_0,\n"
    "                        __global const int *part_1,\n"
    "                        __global float *out_0, __global int *out_1,\n"
    "                        __local float *s0, __local int *s1) {\n"
    "  size_t lid = get_local_id(0), L = get_local_size(0);\n"
    "  float a0 = 0.0f; int a1 = INT_MIN;\n"
    "  for (long i = lid; i < m; i += L) {\n"
    "    a0 += part_0[i]; a1 = max(a1, part_1[i]);\n"
    "  }\n"
    "  s0[lid] = a0; s1[lid] = a1;\n"
    "  barrier(CLK_LOCAL_MEM_FENCE);\n"
    "  for (size_t s = L / 2; s > 0; s >>= 1) {\n"
    "    if (lid < s) { s0[lid] += s0[lid + s];\n"
    "                   s1[lid] = max(s1[lid], s1[lid + s]); }\n"
    "    barrier(CLK_LOCAL_MEM_FENCE);\n"
    "  }\n"
    "  if (lid == 0) { out_0[0] = s0[0]; out_1[0] = s1[0]; }\n"
    "}\n";
static const uint32_t reduce_bytes[2] = {4, 4};
static const idiom_kernel_desc reduce_desc = {
    "red",  "test_idiomrt.c:reduce", "scalar-reduction", reduce_src,
    IDIOM_REDUCE, 1, 2, 0, reduce_bytes};

/* One 8-byte accumulator: long sum of v. args: n (I64), v (IN). */
static const char lsum_src[] =
    "__kernel void lsum_partial(const long n, __global const long *v,\n"
    "                           __global long *part_0, __local long *s0) {\n"
    "  size_t lid = get_local_id(0), L = get_local_size(0);\n"
    "  long a = 0;\n"
    "  for (long i = get_global_id(0); i < n; i += get_global_size(0))\n"
    "    a += v[i];\n"
    "  s0[lid] = a; barrier(CLK_LOCAL_MEM_FENCE);\n"
    "  for (size_t s = L / 2; s > 0; s >>= 1) {\n"
    "    if (lid < s) s0[lid] += s0[lid + s];\n"
    "    barrier(CLK_LOCAL_MEM_FENCE);\n"
    "  }\n"
    "  if (lid == 0) part_0[get_group_id(0)] = s0[0];\n"
    "}\n"
    "__kernel void lsum_final(const long m, __global const long *part_0,\n"
    "                         __global long *out_0, __local long *s0) {\n"
    "  size_t lid = get_local_id(0), L = get_local_size(0);\n"
    "  long a = 0;\n"
    "  for (long i = lid; i < m; i += L) a += part_0[i];\n"
    "  s0[lid] = a; barrier(CLK_LOCAL_MEM_FENCE);\n"
    "  for (size_t s = L / 2; s > 0; s >>= 1) {\n"
    "    if (lid < s) s0[lid] += s0[lid + s];\n"
    "    barrier(CLK_LOCAL_MEM_FENCE);\n"
    "  }\n"
    "  if (lid == 0) out_0[0] = s0[0];\n"
    "}\n";
static const uint32_t lsum_bytes[1] = {8};
static const idiom_kernel_desc lsum_desc = {
    "lsum", "test_idiomrt.c:lsum", "scalar-reduction", lsum_src, IDIOM_REDUCE,
    1,      1,                     0,                  lsum_bytes};

static const char broken_src[] =
    "__kernel void broken(__global float *y) {\n"
    "  y[get_global_id(0)] = 1.0f +;   /* syntax error */\n"
    "}\n";
static const idiom_kernel_desc broken_desc = {
    "broken", "test_idiomrt.c:broken", "map", broken_src, IDIOM_MAP, 1, 0, 0,
    NULL};

/* Scalar parameter is a long; a test passes an I32 to provoke an error. */
static const char fill_src[] =
    "__kernel void fill(const long n, __global float *y) {\n"
    "  size_t i = get_global_id(0);\n"
    "  if (i < n) y[i] = 42.0f;\n"
    "}\n";
static const idiom_kernel_desc fill_desc = {
    "fill", "test_idiomrt.c:fill", "map", fill_src, IDIOM_MAP, 1, 0, 0, NULL};
/* saxpy's kernel under another descriptor, called with too few arguments */
static const idiom_kernel_desc saxpy3_desc = {
    "saxpy", "test_idiomrt.c:saxpy3", "map", saxpy_src, IDIOM_MAP, 1, 0, 0,
    NULL};

/*--- helpers --------------------------------------------------------------*/

/* saxpy over x[0..n), y[0..n); returns idiom_run's answer. */
static int run_saxpy(float a, float *x, float *y, int n) {
  idiom_arg args[4] = {i32(n), f32(a), buf(IDIOM_ARG_BUF_IN, x, 4ull * n),
                       buf(IDIOM_ARG_BUF_INOUT, y, 4ull * n)};
  uint64_t sizes[1] = {(uint64_t)n};
  return idiom_run(&saxpy_desc, args, 4, sizes, NULL);
}

/* Runs saxpy on n elements and checks the result; returns idiom_run's rc. */
static int saxpy_checked(int n) {
  float *x = malloc(sizeof(float) * n), *y = malloc(sizeof(float) * n);
  for (int i = 0; i < n; ++i) {
    x[i] = (float)(i % 1000) * 0.5f;
    y[i] = (float)(i % 77) - 3.0f;
  }
  int rc = run_saxpy(2.5f, x, y, n);
  if (rc == 1) {
    int bad = 0;
    for (int i = 0; i < n && bad < 5; ++i) {
      float want = 2.5f * ((float)(i % 1000) * 0.5f) + ((float)(i % 77) - 3.0f);
      if (!close_enough(y[i], want, 1e-6f)) {
        fprintf(stderr, "saxpy: y[%d] = %g, want %g\n", i, y[i], want);
        bad++;
      }
    }
    CHECK(bad == 0);
    CHECK(idiom_last_reason() == NULL);
  }
  free(x);
  free(y);
  return rc;
}

/*--- child processes ------------------------------------------------------*/

/*--- cases ----------------------------------------------------------------*/

static void case_map1d(void) {
  CHECK_MSG(saxpy_checked(100003) == 1, "declined: %s", reason_or_none());
  /* a second call reuses the built program */
  CHECK_MSG(saxpy_checked(5000) == 1, "declined: %s", reason_or_none());
}

static void map2d_one(int rows, int cols) {
  int *a = malloc(sizeof(int) * rows * cols);
  int *c = malloc(sizeof(int) * rows * cols);
  int dummy = 12345;
  for (int i = 0; i < rows * cols; ++i) {
    a[i] = i % 101 - 50;
    c[i] = -7;
  }
  idiom_arg args[5] = {i32(rows), i32(cols),
                       buf(IDIOM_ARG_BUF_IN, a, sizeof(int) * rows * cols),
                       buf(IDIOM_ARG_BUF_IN, &dummy, 0),
                       buf(IDIOM_ARG_BUF_OUT, c, sizeof(int) * rows * cols)};
  uint64_t sizes[2] = {(uint64_t)rows, (uint64_t)cols};
  int rc = idiom_run(&map2d_desc, args, 5, sizes, NULL);
  CHECK_MSG(rc == 1, "%dx%d declined: %s", rows, cols, reason_or_none());
  if (rc == 1) {
    int bad = 0;
    for (int i = 0; i < rows && bad < 5; ++i)
      for (int j = 0; j < cols && bad < 5; ++j) {
        int want = 3 * a[i * cols + j] + 1000 * i + j;
        if (c[i * cols + j] != want) {
          fprintf(stderr, "map2d %dx%d: c[%d][%d] = %d, want %d\n", rows, cols,
                  i, j, c[i * cols + j], want);
          bad++;
        }
      }
    CHECK(bad == 0);
  }
  CHECK(dummy == 12345);
  free(a);
  free(c);
}

static void map3d_one(int planes, int rows, int cols) {
  int n = planes * rows * cols;
  int *a = malloc(sizeof(int) * n);
  int *c = malloc(sizeof(int) * n);
  for (int q = 0; q < n; ++q) {
    a[q] = q % 97 - 40;
    c[q] = -7;
  }
  idiom_arg args[5] = {i32(planes), i32(rows), i32(cols),
                       buf(IDIOM_ARG_BUF_IN, a, sizeof(int) * n),
                       buf(IDIOM_ARG_BUF_OUT, c, sizeof(int) * n)};
  uint64_t sizes[3] = {(uint64_t)planes, (uint64_t)rows, (uint64_t)cols};
  int rc = idiom_run(&map3d_desc, args, 5, sizes, NULL);
  CHECK_MSG(rc == 1, "%dx%dx%d declined: %s", planes, rows, cols, reason_or_none());
  if (rc == 1) {
    int bad = 0;
    for (int p = 0; p < planes && bad < 5; ++p)
      for (int i = 0; i < rows && bad < 5; ++i)
        for (int j = 0; j < cols && bad < 5; ++j) {
          int q = (p * rows + i) * cols + j;
          int want = 2 * a[q] + 100000 * p + 100 * i + j;
          if (c[q] != want) {
            fprintf(stderr, "map3d %dx%dx%d: c[%d][%d][%d] = %d, want %d\n", planes,
                    rows, cols, p, i, j, c[q], want);
            bad++;
          }
        }
    CHECK(bad == 0);
  }
  free(a);
  free(c);
}

/* Every point of planes x rows x cols once: the local size is a tile of a
   plane (16x16, 64x1 or 1x64 by the two inner extents) and 1 in dimension
   2, the global sizes rounded up (sizes above the default IDIOM_MIN_TRIP). */
static void case_map3d(void) {
  map3d_one(7, 23, 37); /* 16x16 tiles, ragged edges */
  map3d_one(5, 3, 300); /* rows < 16: 64x1 */
  map3d_one(6, 300, 3); /* cols < 16: 1x64 */
  map3d_one(2, 1, 4100); /* one row a plane */
}

static void case_map2d(void) {
  map2d_one(123, 77);  /* 16x16 work-groups, ragged edges */
  map2d_one(3, 5000);  /* outer < 16: 64x1 */
  map2d_one(5000, 3);  /* inner < 16 */
}

static void reduce_one(long n) {
  float *x = malloc(sizeof(float) * n);
  int *v = malloc(sizeof(int) * n);
  double ref = 0;
  int vmax = -2147483647 - 1;
  for (long i = 0; i < n; ++i) {
    x[i] = (float)(i % 100) * 0.01f;
    ref += x[i];
    v[i] = (int)((i * 7919) % 1000003) - 500000;
    if (v[i] > vmax)
      vmax = v[i];
  }
  v[n / 3] = 777777; /* the unique maximum, away from both ends */
  vmax = 777777;
  unsigned char results[16];
  memset(results, 0xAB, sizeof results);
  idiom_arg args[3] = {i64(n), buf(IDIOM_ARG_BUF_IN, x, sizeof(float) * n),
                       buf(IDIOM_ARG_BUF_IN, v, sizeof(int) * n)};
  uint64_t sizes[1] = {(uint64_t)n};
  int rc = idiom_run(&reduce_desc, args, 3, sizes, results);
  CHECK_MSG(rc == 1, "n=%ld declined: %s", n, reason_or_none());
  if (rc == 1) {
    float sum;
    int mx;
    memcpy(&sum, results, 4);
    memcpy(&mx, results + 8, 4);
    /* float sum of n terms: tolerance grows with n */
    CHECK_MSG(close_enough(sum, (float)ref, 1e-6f * (float)n / 64.0f + 1e-5f),
              "n=%ld sum=%.9g want %.9g", n, sum, ref);
    CHECK_MSG(mx == vmax, "n=%ld max=%d want %d", n, mx, vmax);
    /* exactly result_bytes[k] bytes are written into each slot */
    CHECK(results[4] == 0xAB && results[7] == 0xAB);
    CHECK(results[12] == 0xAB && results[15] == 0xAB);
  }
  free(x);
  free(v);
}

static void case_reduce(void) {
  reduce_one((1L << 20) + 13); /* many groups, capped G */
  reduce_one(4096);            /* exactly the threshold */
  reduce_one(5000);            /* few groups */

  long n = 300000;
  int64_t *v = malloc(sizeof(int64_t) * n);
  int64_t ref = 0;
  for (long i = 0; i < n; ++i) {
    v[i] = (int64_t)i * 1000003 - 7;
    ref += v[i];
  }
  int64_t res[1] = {0};
  idiom_arg args[2] = {i64(n), buf(IDIOM_ARG_BUF_IN, v, sizeof(int64_t) * n)};
  uint64_t sizes[1] = {(uint64_t)n};
  int rc = idiom_run(&lsum_desc, args, 2, sizes, res);
  CHECK_MSG(rc == 1, "lsum declined: %s", reason_or_none());
  if (rc == 1)
    CHECK_MSG(res[0] == ref, "lsum=%lld want %lld", (long long)res[0],
              (long long)ref);
  free(v);
}

/* Runs saxpy that must decline with `reason`; y must stay untouched. */
static void expect_saxpy_declines(int n, const char *reason) {
  float *x = malloc(sizeof(float) * n), *y = malloc(sizeof(float) * n);
  for (int i = 0; i < n; ++i) {
    x[i] = 1.0f;
    y[i] = (float)i;
  }
  int rc = run_saxpy(2.0f, x, y, n);
  CHECK_MSG(rc == 0, "n=%d ran, expected decline \"%s\"", n, reason);
  CHECK_MSG(starts_with(idiom_last_reason(), reason), "reason \"%s\", want \"%s\"",
            reason_or_none(), reason);
  int same = 1;
  for (int i = 0; i < n; ++i)
    same &= y[i] == (float)i;
  CHECK(same);
  free(x);
  free(y);
}

static void case_seq(void) {
  setenv("IDIOM_DEVICE", "seq", 1);
  expect_saxpy_declines(100000, "IDIOM_DEVICE=seq");
  CHECK(idiom_device_name() == NULL);
  unsigned char results[16] = {0};
  float x[8192] = {0};
  int v[8192] = {0};
  idiom_arg args[3] = {i64(8192), buf(IDIOM_ARG_BUF_IN, x, sizeof x),
                       buf(IDIOM_ARG_BUF_IN, v, sizeof v)};
  uint64_t sizes[1] = {8192};
  CHECK(idiom_run(&reduce_desc, args, 3, sizes, results) == 0);
}

static void case_overlap(void) {
  int n = 10000;
  float *b = malloc(sizeof(float) * 3 * n);
  for (int i = 0; i < 3 * n; ++i)
    b[i] = (float)i;
  /* IN x = b[100..100+n) overlaps INOUT y = b[0..n) */
  idiom_arg args[4] = {i32(n), f32(2.0f),
                       buf(IDIOM_ARG_BUF_IN, b + 100, 4ull * n),
                       buf(IDIOM_ARG_BUF_INOUT, b, 4ull * n)};
  uint64_t sizes[1] = {(uint64_t)n};
  CHECK(idiom_run(&saxpy_desc, args, 4, sizes, NULL) == 0);
  CHECK_MSG(starts_with(idiom_last_reason(), "overlapping input/output ranges"),
            "reason %s", reason_or_none());
  int same = 1;
  for (int i = 0; i < 3 * n; ++i)
    same &= b[i] == (float)i;
  CHECK(same);

  /* two OUT ranges that share one element: map2d's c overlaps a */
  int rows = 100, cols = 100;
  int *m = malloc(sizeof(int) * 2 * rows * cols);
  for (int i = 0; i < 2 * rows * cols; ++i)
    m[i] = i;
  idiom_arg a2[5] = {
      i32(rows), i32(cols),
      buf(IDIOM_ARG_BUF_OUT, m, sizeof(int) * rows * cols),
      buf(IDIOM_ARG_BUF_IN, m, 0), /* empty: overlaps nothing */
      buf(IDIOM_ARG_BUF_OUT, m + rows * cols - 1, sizeof(int) * rows * cols)};
  uint64_t s2[2] = {(uint64_t)rows, (uint64_t)cols};
  CHECK(idiom_run(&map2d_desc, a2, 5, s2, NULL) == 0);
  CHECK_MSG(starts_with(idiom_last_reason(), "overlapping input/output ranges"),
            "reason %s", reason_or_none());
  same = 1;
  for (int i = 0; i < 2 * rows * cols; ++i)
    same &= m[i] == i;
  CHECK(same);

  /* adjacent ranges do not overlap: x = b[n..2n), y = b[0..n) */
  for (int i = 0; i < 3 * n; ++i)
    b[i] = 1.0f;
  idiom_arg a3[4] = {i32(n), f32(2.0f), buf(IDIOM_ARG_BUF_IN, b + n, 4ull * n),
                     buf(IDIOM_ARG_BUF_INOUT, b, 4ull * n)};
  int rc = idiom_run(&saxpy_desc, a3, 4, sizes, NULL);
  CHECK_MSG(rc == 1, "adjacent ranges declined: %s", reason_or_none());
  if (rc == 1) {
    same = 1;
    for (int i = 0; i < n; ++i)
      same &= b[i] == 3.0f;
    for (int i = n; i < 3 * n; ++i)
      same &= b[i] == 1.0f;
    CHECK(same);
  }

  /* IDIOM_ARG_SNAPSHOT: IN x = b[0..n) overlaps INOUT y = b[1..n+1) and
     is read as it was before the run: y[i] = 2 b[i] + b[i+1] on the old
     values (reading x in place, work-item i would see what work-item i-1
     wrote: PoCL runs a group's work-items in order); on the output the
     flag is invalid (declined, nothing written) */
  for (int i = 0; i < 3 * n; ++i)
    b[i] = (float)(i % 1000);
  idiom_arg a4[4] = {i32(n), f32(2.0f), buf(IDIOM_ARG_BUF_IN, b, 4ull * n),
                     buf(IDIOM_ARG_BUF_INOUT, b + 1, 4ull * n)};
  a4[2].flags = IDIOM_ARG_SNAPSHOT;
  rc = idiom_run(&saxpy_desc, a4, 4, sizes, NULL);
  CHECK_MSG(rc == 1, "snapshot input declined: %s", reason_or_none());
  if (rc == 1) {
    same = b[0] == 0.0f;
    for (int i = 0; i < n; ++i)
      same &= b[i + 1] == 2.0f * (float)(i % 1000) + (float)((i + 1) % 1000);
    for (int i = n + 1; i < 3 * n; ++i)
      same &= b[i] == (float)(i % 1000);
    CHECK(same);
  }
  for (int i = 0; i < 3 * n; ++i)
    b[i] = (float)i;
  a4[2].flags = 0;
  a4[3].flags = IDIOM_ARG_SNAPSHOT;
  CHECK(idiom_run(&saxpy_desc, a4, 4, sizes, NULL) == 0);
  CHECK_MSG(starts_with(idiom_last_reason(), "invalid arguments: flags"),
            "reason %s", reason_or_none());
  same = 1;
  for (int i = 0; i < 3 * n; ++i)
    same &= b[i] == (float)i;
  CHECK(same);
  free(b);
  free(m);
}

static void case_min_trip(void) {
  expect_saxpy_declines(4095, "work below threshold");
  expect_saxpy_declines(1, "work below threshold");
  /* 2-D: 60 x 60 = 3600 < 4096 although each extent is small */
  int a[3600] = {0}, c[3600] = {0};
  int dummy = 0;
  idiom_arg args[5] = {i32(60), i32(60), buf(IDIOM_ARG_BUF_IN, a, sizeof a),
                       buf(IDIOM_ARG_BUF_IN, &dummy, 0),
                       buf(IDIOM_ARG_BUF_OUT, c, sizeof c)};
  uint64_t sizes[2] = {60, 60};
  CHECK(idiom_run(&map2d_desc, args, 5, sizes, NULL) == 0);
  CHECK(starts_with(idiom_last_reason(), "work below threshold"));
  CHECK_MSG(saxpy_checked(4096) == 1, "declined: %s", reason_or_none());
}

static void case_min_trip_env(void) {
  setenv("IDIOM_MIN_TRIP", "100", 1);
  CHECK_MSG(saxpy_checked(1000) == 1, "declined: %s", reason_or_none());
  expect_saxpy_declines(99, "work below threshold");
}

static void case_invalid(void) {
  float x[8] = {0}, y[8] = {0};
  idiom_arg args[4] = {i32(8), f32(1.0f), buf(IDIOM_ARG_BUF_IN, x, sizeof x),
                       buf(IDIOM_ARG_BUF_INOUT, y, sizeof y)};
  uint64_t sizes[2] = {0, 0};
  CHECK(idiom_run(NULL, args, 4, sizes, NULL) == 0);
  CHECK(idiom_last_reason() != NULL);
  CHECK(idiom_run(&saxpy_desc, args, 4, sizes, NULL) == 0);
  CHECK_MSG(starts_with(idiom_last_reason(), "empty iteration space"), "%s",
            reason_or_none());
  idiom_kernel_desc rank0 = saxpy_desc;
  rank0.ndims = 0;
  uint64_t big[1] = {1 << 20};
  CHECK(idiom_run(&rank0, args, 4, big, NULL) == 0);
  CHECK(starts_with(idiom_last_reason(), "invalid descriptor"));
  idiom_kernel_desc rank4 = saxpy_desc;
  rank4.ndims = IDIOM_MAX_MAP_DIMS + 1;
  uint64_t big4[IDIOM_MAX_MAP_DIMS + 1] = {64, 64, 64, 64};
  CHECK(idiom_run(&rank4, args, 4, big4, NULL) == 0);
  CHECK(starts_with(idiom_last_reason(), "invalid descriptor"));
  idiom_kernel_desc nores = reduce_desc;
  nores.nresults = 0;
  CHECK(idiom_run(&nores, args, 4, big, NULL) == 0);
  CHECK(starts_with(idiom_last_reason(), "invalid descriptor"));
  unsigned char results[16];
  CHECK(idiom_run(&reduce_desc, args, 3, big, NULL) == 0); /* no results */
  CHECK(starts_with(idiom_last_reason(), "invalid arguments"));
  idiom_arg badbuf = buf(IDIOM_ARG_BUF_IN, NULL, 64);
  CHECK(idiom_run(&reduce_desc, &badbuf, 1, big, results) == 0);
  CHECK(starts_with(idiom_last_reason(), "invalid arguments"));
}

static void case_build_error(void) {
  float y[8192] = {0};
  idiom_arg args[1] = {buf(IDIOM_ARG_BUF_OUT, y, sizeof y)};
  uint64_t sizes[1] = {8192};
  for (int round = 0; round < 2; ++round) {
    CHECK(idiom_run(&broken_desc, args, 1, sizes, NULL) == 0);
    CHECK_MSG(starts_with(idiom_last_reason(), "program build failure"),
              "reason %s", reason_or_none());
  }
  int zero = 1;
  for (int i = 0; i < 8192; ++i)
    zero &= y[i] == 0.0f;
  CHECK(zero);
  /* other descriptors still work */
  CHECK_MSG(saxpy_checked(10000) == 1, "declined: %s", reason_or_none());
}

static void case_cl_error(void) {
  enum { N = 10000 };
  static float y[N];
  for (int i = 0; i < N; ++i)
    y[i] = -1.0f;
  idiom_arg args[2] = {i32(N), buf(IDIOM_ARG_BUF_OUT, y, sizeof y)};
  uint64_t sizes[1] = {N};
  CHECK(idiom_run(&fill_desc, args, 2, sizes, NULL) == 0);
  CHECK_MSG(starts_with(idiom_last_reason(), "OpenCL error"), "reason %s",
            reason_or_none());
  int same = 1;
  for (int i = 0; i < N; ++i)
    same &= y[i] == -1.0f;
  CHECK(same);
  /* the same kernel with the right argument runs */
  args[0] = i64(N);
  CHECK_MSG(idiom_run(&fill_desc, args, 2, sizes, NULL) == 1, "declined: %s",
            reason_or_none());
  CHECK(y[0] == 42.0f && y[N - 1] == 42.0f);

  static float x[N];
  idiom_arg a3[3] = {i32(N), f32(1.0f), buf(IDIOM_ARG_BUF_IN, x, sizeof x)};
  CHECK(idiom_run(&saxpy3_desc, a3, 3, sizes, NULL) == 0);
  CHECK_MSG(starts_with(idiom_last_reason(), "kernel parameter count"),
            "reason %s", reason_or_none());
}

/* idiom_run_pair (pair.c): saxpy (y = 2.5 x + y) first, then a second map;
   both or neither. */
static void case_pair(void) {
  enum { N = 10000, M = 8192 };
  static float x[N], y[N], z[M];
  for (int i = 0; i < N; ++i) {
    x[i] = (float)(i % 100);
    y[i] = 1.0f;
  }
  for (int i = 0; i < M; ++i)
    z[i] = -1.0f;
  uint64_t sizes[2] = {N, M};
  /* both run: y = 2.5 x + 1, z = 42 */
  idiom_arg a1[6] = {i32(N), f32(2.5f), buf(IDIOM_ARG_BUF_IN, x, sizeof x),
                     buf(IDIOM_ARG_BUF_INOUT, y, sizeof y), i64(M),
                     buf(IDIOM_ARG_BUF_OUT, z, sizeof z)};
  CHECK_MSG(idiom_run_pair(&saxpy_desc, &fill_desc, a1, 4, 2, sizes) == 1,
            "declined: %s", reason_or_none());
  CHECK(y[7] == 2.5f * 7 + 1.0f && y[N - 1] == 2.5f * 99 + 1.0f);
  CHECK(z[0] == 42.0f && z[M - 1] == 42.0f);
  CHECK(idiom_last_kernel_ms() >= 0);

  /* the first runs, the second does not build: the first's output must not
     reach the host */
  for (int i = 0; i < N; ++i)
    y[i] = 1.0f;
  idiom_arg a2[5] = {i32(N), f32(2.5f), buf(IDIOM_ARG_BUF_IN, x, sizeof x),
                     buf(IDIOM_ARG_BUF_INOUT, y, sizeof y),
                     buf(IDIOM_ARG_BUF_OUT, z, sizeof z)};
  for (int i = 0; i < M; ++i)
    z[i] = -1.0f;
  CHECK(idiom_run_pair(&saxpy_desc, &broken_desc, a2, 4, 1, sizes) == 0);
  CHECK_MSG(starts_with(idiom_last_reason(), "program build failure"),
            "reason %s", reason_or_none());
  int same = 1;
  for (int i = 0; i < N; ++i)
    same &= y[i] == 1.0f;
  for (int i = 0; i < M; ++i)
    same &= z[i] == -1.0f;
  CHECK(same);

  /* the second's output overlaps the first's input: neither runs */
  idiom_arg a3[6] = {i32(N), f32(2.5f), buf(IDIOM_ARG_BUF_IN, x, sizeof x),
                     buf(IDIOM_ARG_BUF_INOUT, y, sizeof y), i64(N / 2),
                     buf(IDIOM_ARG_BUF_OUT, x + N / 2, sizeof x / 2)};
  uint64_t s3[2] = {N, N / 2};
  CHECK(idiom_run_pair(&saxpy_desc, &fill_desc, a3, 4, 2, s3) == 0);
  CHECK_MSG(starts_with(idiom_last_reason(), "overlapping input/output ranges"),
            "reason %s", reason_or_none());
  same = 1;
  for (int i = 0; i < N; ++i)
    same &= y[i] == 1.0f && x[i] == (float)(i % 100);
  CHECK(same);

  /* inside a residency region: declined, nothing written */
  idiom_region_begin();
  CHECK(idiom_run_pair(&saxpy_desc, &fill_desc, a1, 4, 2, sizes) == 0);
  CHECK_MSG(starts_with(idiom_last_reason(), "a GEMV pair inside a residency region"),
            "reason %s", reason_or_none());
  idiom_region_end();
  same = 1;
  for (int i = 0; i < N; ++i)
    same &= y[i] == 1.0f;
  CHECK(same);

  /* invalid arguments */
  CHECK(idiom_run_pair(NULL, &fill_desc, a1, 4, 2, sizes) == 0);
  CHECK(idiom_run_pair(&saxpy_desc, &fill_desc, a1, 4, 2, NULL) == 0);
}

static void case_build_log(void) {
  const char *env[] = {"IDIOM_DEBUG=1", NULL};
  char *err = NULL;
  int st = spawn_case("build_error", env, &err);
  CHECK_MSG(st == 0, "child failed (%d):\n%s", st, err);
  CHECK_MSG(count_occurrences(err, "build log:") == 1, "stderr:\n%s", err);
  CHECK_MSG(strstr(err, "test_idiomrt.c:broken") != NULL, "stderr:\n%s", err);
  free(err);
}

static void case_no_loader(void) {
  setenv("IDIOM_OPENCL_LIBRARY", "/nonexistent/libOpenCL.so.1", 1);
  expect_saxpy_declines(100000, "no OpenCL loader");
  CHECK(idiom_device_name() == NULL);
  expect_saxpy_declines(100000, "no OpenCL loader");
}

static void case_no_loader_child(void) {
  const char *env[] = {"IDIOM_OPENCL_LIBRARY=/nonexistent/libOpenCL.so.1",
                       "IDIOM_STATS=1", NULL};
  char *err = NULL;
  int st = spawn_case("map1d_or_decline", env, &err);
  CHECK_MSG(st == 0, "child failed (%d):\n%s", st, err);
  CHECK_MSG(strstr(err, "no OpenCL loader") != NULL, "stderr:\n%s", err);
  CHECK_MSG(strstr(err, "offloaded=0") != NULL, "stderr:\n%s", err);
  free(err);
}

/* Child: saxpy either runs correctly or declines; nothing else. */
static void case_map1d_or_decline(void) {
  int rc = saxpy_checked(100000);
  if (rc == 0)
    fprintf(stderr, "declined: %s\n", reason_or_none());
}

static void case_stats_child(void) {
  CHECK_MSG(saxpy_checked(100000) == 1, "declined: %s", reason_or_none());
  CHECK_MSG(saxpy_checked(50000) == 1, "declined: %s", reason_or_none());
  CHECK(saxpy_checked(100) == 0); /* below the threshold */
  idiom_note_fallback(&saxpy_desc, "guard failed");
  idiom_note_fallback(&broken_desc, "guard failed");
  const char *dev = idiom_device_name();
  fprintf(stderr, "stats_child device=[%s]\n", dev ? dev : "");
}

static void case_stats(void) {
  /* The device is opened only in the child: a GPU in exclusive-process mode
     takes one process at a time. The child names its device on stderr. */
  const char *env[] = {"IDIOM_STATS=1", NULL};
  char *err = NULL;
  int st = spawn_case("stats_child", env, &err);
  CHECK_MSG(st == 0, "child failed (%d):\n%s", st, err);
  char dev[512] = "";
  const char *tag = strstr(err, "stats_child device=[");
  if (tag) {
    tag += strlen("stats_child device=[");
    size_t n = strcspn(tag, "]\n");
    snprintf(dev, sizeof dev, "%.*s", (int)n, tag);
  }
  CHECK_MSG(dev[0] != '\0', "no device name; stderr:\n%s", err);
  const char *line = strstr(err, "idiom-stats: test_idiomrt.c:saxpy ");
  CHECK_MSG(line != NULL, "stderr:\n%s", err);
  if (line) {
    char one[2048];
    size_t n = strcspn(line, "\n");
    snprintf(one, sizeof one, "%.*s", (int)n, line);
    CHECK_MSG(strstr(one, dev) != NULL, "device \"%s\" missing: %s", dev, one);
    CHECK_MSG(strstr(one, "calls=4 ") != NULL, "%s", one);
    CHECK_MSG(strstr(one, "offloaded=2 ") != NULL, "%s", one);
    CHECK_MSG(strstr(one, "fallbacks=2") != NULL, "%s", one);
    CHECK_MSG(strstr(one, "kernel_ms=") != NULL, "%s", one);
    CHECK_MSG(strstr(one, "transfer_ms=") != NULL, "%s", one);
    CHECK_MSG(strstr(one, "work below threshold") != NULL, "%s", one);
    CHECK_MSG(strstr(one, "guard failed") != NULL, "%s", one);
  }
  CHECK_MSG(strstr(err, "idiom-stats: test_idiomrt.c:broken ") != NULL,
            "stderr:\n%s", err);
  /* a descriptor that never reached the runtime is not reported */
  CHECK_MSG(strstr(err, "test_idiomrt.c:map2d") == NULL, "stderr:\n%s", err);
  free(err);
}

static void case_device_cpu(void) {
  setenv("IDIOM_DEVICE", "cpu", 1);
  CHECK_MSG(saxpy_checked(100000) == 1, "declined: %s", reason_or_none());
  CHECK(idiom_device_name() != NULL);
}

static void case_device_gpu(void) {
  /* Runs on the GPU where there is one, else declines "no matching device". */
  setenv("IDIOM_DEVICE", "gpu", 1);
  int rc = saxpy_checked(100000);
  if (rc == 0) {
    CHECK_MSG(starts_with(idiom_last_reason(), "no matching device"), "%s",
              reason_or_none());
    CHECK(idiom_device_name() == NULL);
  } else {
    CHECK(idiom_device_name() != NULL);
  }
}

/* Initializing OpenCL leaves the loader's variables as they were, so that
   child processes see every platform (the CUDA loader splits
   OCL_ICD_FILENAMES in place). */
static void case_env_preserved(void) {
  if (!getenv("OCL_ICD_FILENAMES"))
    setenv("OCL_ICD_FILENAMES", "libpocl.so.2:/nonexistent/libidiom-none.so", 1);
  char before[4096];
  snprintf(before, sizeof before, "%s", getenv("OCL_ICD_FILENAMES"));
  (void)idiom_device_name();
  const char *after = getenv("OCL_ICD_FILENAMES");
  CHECK_MSG(after && strcmp(after, before) == 0, "was \"%s\", now \"%s\"",
            before, after ? after : "(unset)");
}

static void case_device_invalid(void) {
  const char *env[] = {"IDIOM_DEVICE=bogus", NULL};
  char *err = NULL;
  int st = spawn_case("map1d", env, &err);
  CHECK_MSG(st == 0, "child failed (%d):\n%s", st, err);
  CHECK_MSG(count_occurrences(err, "IDIOM_DEVICE=bogus") == 1, "stderr:\n%s",
            err);
  free(err);
}

static int find_clbin(const char *dir, char *out, size_t n) {
  char cmd[PATH_MAX + 64];
  snprintf(cmd, sizeof cmd, "ls %s/*.clbin 2>/dev/null", dir);
  FILE *p = popen(cmd, "r");
  if (!p)
    return 0;
  int found = 0, count = 0;
  char line[PATH_MAX];
  while (fgets(line, sizeof line, p)) {
    line[strcspn(line, "\n")] = '\0';
    snprintf(out, n, "%s", line);
    found = 1;
    count++;
  }
  pclose(p);
  return found && count == 1;
}

static uint64_t fnv(const unsigned char *p, size_t n) {
  uint64_t h = 0xcbf29ce484222325ULL;
  for (size_t i = 0; i < n; ++i) {
    h ^= p[i];
    h *= 0x100000001b3ULL;
  }
  return h;
}

static void case_disk_cache(void) {
  char dir[] = "/tmp/idiomrt-cache-XXXXXX";
  CHECK(mkdtemp(dir) != NULL);
  char sub[PATH_MAX], envdir[PATH_MAX + 32];
  snprintf(sub, sizeof sub, "%s/nested/dir", dir); /* created on demand */
  snprintf(envdir, sizeof envdir, "IDIOM_CACHE_DIR=%s", sub);
  const char *env[] = {envdir, "IDIOM_DEBUG=1", NULL};
  char *err = NULL;

  int st = spawn_case("map1d", env, &err);
  CHECK_MSG(st == 0 && strstr(err, "built program from source"),
            "first run (%d):\n%s", st, err);
  free(err);
  char file[PATH_MAX];
  CHECK_MSG(find_clbin(sub, file, sizeof file), "no single .clbin in %s", sub);

  st = spawn_case("map1d", env, &err);
  CHECK_MSG(st == 0 && strstr(err, "loaded program from disk cache") &&
                !strstr(err, "built program from source"),
            "second run (%d):\n%s", st, err);
  free(err);

  /* corrupt: flip payload bytes, checksum now wrong */
  FILE *f = fopen(file, "r+b");
  CHECK(f != NULL);
  if (f) {
    fseek(f, 0, SEEK_END);
    long size = ftell(f);
    CHECK(size > 40);
    fseek(f, 32 + (size - 32) / 2, SEEK_SET);
    fputc(0x5A, f);
    fputc(0xA5, f);
    fclose(f);
  }
  st = spawn_case("map1d", env, &err);
  CHECK_MSG(st == 0 && strstr(err, "corrupt") &&
                strstr(err, "built program from source"),
            "corrupt run (%d):\n%s", st, err);
  free(err);

  /* stale: right key and checksum, but a payload the driver refuses */
  f = fopen(file, "r+b");
  CHECK(f != NULL);
  if (f) {
    unsigned char hdr[32], junk[4096];
    CHECK(fread(hdr, 1, 32, f) == 32);
    for (size_t i = 0; i < sizeof junk; ++i)
      junk[i] = (unsigned char)(i * 37 + 11);
    uint64_t size = sizeof junk, sum = fnv(junk, sizeof junk);
    memcpy(hdr + 16, &size, 8);
    memcpy(hdr + 24, &sum, 8);
    fclose(f);
    f = fopen(file, "wb");
    fwrite(hdr, 1, 32, f);
    fwrite(junk, 1, sizeof junk, f);
    fclose(f);
  }
  st = spawn_case("map1d", env, &err);
  CHECK_MSG(st == 0 && strstr(err, "built program from source"),
            "stale run (%d):\n%s", st, err);
  free(err);
  /* and the rebuilt binary is good again */
  st = spawn_case("map1d", env, &err);
  CHECK_MSG(st == 0 && strstr(err, "loaded program from disk cache"),
            "rewritten run (%d):\n%s", st, err);
  free(err);

  /* off: nothing is read or written */
  char offdir[PATH_MAX];
  snprintf(offdir, sizeof offdir, "%s/off", dir);
  const char *env_off[] = {"IDIOM_CACHE_DIR=off", "IDIOM_DEBUG=1", NULL};
  st = spawn_case("map1d", env_off, &err);
  CHECK_MSG(st == 0 && strstr(err, "built program from source") &&
                !strstr(err, "disk cache"),
            "off run (%d):\n%s", st, err);
  free(err);
  nftw(dir, rm_entry, 16, FTW_DEPTH | FTW_PHYS);
}

typedef struct thread_arg {
  int ok;
  int n;
  int offloaded;
} thread_arg;

/* Every run offloads with the right result, or declines with "runtime busy"
   because another thread holds the descriptor or the device (the runtime
   never waits); anything else fails. */
static void *thread_main(void *p) {
  thread_arg *t = p;
  t->ok = 1;
  for (int round = 0; round < 10; ++round) {
    int before = g_failures;
    int rc = saxpy_checked(t->n);
    if (rc == 1)
      t->offloaded++;
    else if (!idiom_last_reason() ||
             strcmp(idiom_last_reason(), "runtime busy") != 0)
      t->ok = 0;
    if (g_failures != before)
      t->ok = 0;
  }
  return NULL;
}

static void case_threads(void) {
  pthread_t th[4];
  thread_arg ta[4];
  int offloaded = 0;
  for (int i = 0; i < 4; ++i) {
    ta[i].n = 20000 + 1000 * i;
    ta[i].offloaded = 0;
    pthread_create(&th[i], NULL, thread_main, &ta[i]);
  }
  for (int i = 0; i < 4; ++i) {
    pthread_join(th[i], NULL);
    CHECK_MSG(ta[i].ok, "thread %d: %s", i, reason_or_none());
    offloaded += ta[i].offloaded;
  }
  CHECK_MSG(offloaded >= 1, "no run offloaded");
}

/*--- driver ---------------------------------------------------------------*/

typedef struct tcase {
  const char *name;
  void (*fn)(void);
  int listed; /* run by "all" and listed for CTest */
} tcase;

static const tcase cases[] = {
    {"map1d", case_map1d, 1},
    {"map2d", case_map2d, 1},
    {"map3d", case_map3d, 1},
    {"reduce", case_reduce, 1},
    {"seq", case_seq, 1},
    {"overlap", case_overlap, 1},
    {"min_trip", case_min_trip, 1},
    {"min_trip_env", case_min_trip_env, 1},
    {"invalid", case_invalid, 1},
    {"build_error", case_build_error, 1},
    {"pair", case_pair, 1},
    {"build_log", case_build_log, 1},
    {"cl_error", case_cl_error, 1},
    {"no_loader", case_no_loader, 1},
    {"no_loader_child", case_no_loader_child, 1},
    {"stats", case_stats, 1},
    {"device_cpu", case_device_cpu, 1},
    {"device_gpu", case_device_gpu, 1},
    {"device_invalid", case_device_invalid, 1},
    {"env_preserved", case_env_preserved, 1},
    {"disk_cache", case_disk_cache, 1},
    {"threads", case_threads, 1},
    {"tune_map", case_tune_map, 1},
    {"tune_sample", case_tune_sample, 1},
    {"tune_sample_shape", case_tune_sample_shape, 1},
    {"variant_sample2d", case_variant_sample2d, 1},
    {"tune_reduce", case_tune_reduce, 1},
    {"tune_cache", case_tune_cache, 1},
    {"tune_corrupt", case_tune_corrupt, 1},
    {"tune_off", case_tune_off, 1},
    {"tune_small", case_tune_small, 1},
    {"variant_fit", case_variant_fit, 1},
    {"variant_lanes", case_variant_lanes, 1},
    {"variant_row_blocks", case_variant_row_blocks, 1},
    {"variant_lanes_cpu", case_variant_lanes_cpu, 1},
    {"variant_build", case_variant_build, 1},
    {"variant_all_broken", case_variant_all_broken, 1},
    {"variant_ept2d", case_variant_ept2d, 1},
    {"variant_ept3d", case_variant_ept3d, 1},
    {"variant_forced", case_variant_forced, 1},
    {"variant_forced_missing", case_variant_forced_missing, 1},
    {"variant_forced_stats", case_variant_forced_stats, 1},
    {"writeback_readonly", case_writeback_readonly, 1},
    {"writeback_dense", case_writeback_dense, 1},
    {"writeback_dense_out", case_writeback_dense_out, 1},
    {"writeback_flags", case_writeback_flags, 1},
    {"snapshot_copy", case_snapshot_copy, 1},
    {"detach_kept", case_detach_kept, 1},
    {"detach_negatives", case_detach_negatives, 1},
    {"staging_prepare_on", case_staging_prepare_on, 1},
    {"staging_prepare_auto_cpu", case_staging_prepare_auto_cpu, 1},
    {"policy_starting", case_policy_starting, 1},
    {"policy_tiny_host", case_policy_tiny_host, 1},
    {"policy_forced_device", case_policy_forced_device, 1},
    {"policy_forced_min_trip", case_policy_forced_min_trip, 1},
    {"policy_untimed", case_policy_untimed, 1},
    {"policy_host_api", case_policy_host_api, 1},
    {"policy_resid_bytes", case_policy_resid_bytes, 1},
    {"policy_resid_held", case_policy_resid_held, 1},
    {"twodev_choose", case_twodev_choose, 1},
    {"lap_steps", case_lap_steps, 1},
    {"lap_host", case_lap_host, 1},
    {"lap_site", case_lap_site, 1},
    {"lap_left_alone", case_lap_left_alone, 1},
    {"lap_run", case_lap_run, 1},
    {"zcfloor_unified", case_zcfloor_unified, 1},
    {"zcfloor_plain", case_zcfloor_plain, 1},
    {"zcfloor_off", case_zcfloor_off, 1},
    {"twodev_explore", case_twodev_explore, 1},
    {"twodev_fail", case_twodev_fail, 1},
    {"twodev_rationed", case_twodev_rationed, 1},
    {"coldstart_exit", case_coldstart_exit, 1},
    {"coldstart_exit_child", case_coldstart_exit_child, 0},
    {"coldstart_staged", case_coldstart_staged, 1},
    {"coldstart_whole_cpu", case_coldstart_whole_cpu, 1},
    {"coldstart_warm_exit", case_coldstart_warm_exit, 1},
    {"coldstart_warm_exit_child", case_coldstart_warm_exit_child, 0},
    {"restlater_left_out", case_restlater_left_out, 1},
    {"restlater_built", case_restlater_built, 1},
    {"exitstall_exit", case_exitstall_exit, 1},
    {"exitstall_exit_pocl", case_exitstall_exit_pocl, 1},
    {"exitstall_child", case_exitstall_child, 0},
    {"exitstall_big_child", case_exitstall_big_child, 0},
    {"exitstall_later_child", case_exitstall_later_child, 0},
    {"twodev_profile", case_twodev_profile, 1},
    {"twodev_warm", case_twodev_warm, 1},
    {"twodev_profile_write", case_twodev_profile_write, 0},
    {"twodev_profile_read", case_twodev_profile_read, 0},
    {"twodev_resid", case_twodev_resid, 1},
    {"policy_stats", case_policy_stats, 1},
    {"policy_stats_child", case_policy_stats_child, 0},
    {"policy_exit", case_policy_exit, 1},
    {"policy_exit_child", case_policy_exit_child, 0},
    {"policy_worthy", case_policy_worthy, 1},
    {"policy_worthy_child", case_policy_worthy_child, 0},
    {"devwait_big", case_devwait_big, 1},
    {"devwait_big_child", case_devwait_big_child, 0},
    {"devwait_small", case_devwait_small, 1},
    {"devwait_small_child", case_devwait_small_child, 0},
    {"devwait_fail", case_devwait_fail, 1},
    {"devwait_fail_child", case_devwait_fail_child, 0},
    {"devwait_then", case_devwait_then, 1},
    {"devwait_then_child", case_devwait_then_child, 0},
    {"devwait_untuned", case_devwait_untuned, 1},
    {"devwait_untuned_child", case_devwait_untuned_child, 0},
    {"devwait_forced", case_devwait_forced, 1},
    {"devwait_forced_child", case_devwait_forced_child, 0},
    {"devwait_first", case_devwait_first, 1},
    {"devwait_first_child", case_devwait_first_child, 0},
    {"policy_wait", case_policy_wait, 1},
    {"policy_wait_child", case_policy_wait_child, 0},
    {"policy_prebuild", case_policy_prebuild, 1},
    {"policy_prebuild_child", case_policy_prebuild_child, 0},
    {"profile_steady", case_profile_steady, 1},
    {"policy_region_small", case_policy_region_small, 1},
    {"policy_region_small_child", case_policy_region_small_child, 0},
    {"writeback_bench", case_writeback_bench, 0},
    {"resid_reuse", case_resid_reuse, 1},
    {"resid_host", case_resid_host, 1},
    {"resid_partial", case_resid_partial, 1},
    {"resid_offsets", case_resid_offsets, 1},
    {"resid_offsets_stats", case_resid_offsets_stats, 1},
    {"resid_decline", case_resid_decline, 1},
    {"sync_args_other", case_sync_args_other, 1},
    {"sync_args_input", case_sync_args_input, 1},
    {"sync_args_partly", case_sync_args_partly, 1},
    {"sync_args_decline", case_sync_args_decline, 1},
    {"sync_args_full", case_sync_args_full, 1},
    {"sync_args_cost", case_sync_args_cost, 1},
    {"resid_sync", case_resid_sync, 1},
    {"resid_sync_epoch", case_resid_sync_epoch, 1},
    {"resid_realloc", case_resid_realloc, 1},
    {"resid_thread", case_resid_thread, 1},
    {"resid_reduce", case_resid_reduce, 1},
    {"resid_overlap", case_resid_overlap, 1},
    {"resid_snapshot", case_resid_snapshot, 1},
    {"inplace", case_inplace, 1},
    {"inplace_region", case_inplace_region, 1},
    {"resid_memmove", case_resid_memmove, 1},
    {"resid_memmove_grow", case_resid_memmove_grow, 1},
    {"resid_sweep", case_resid_sweep, 1},
    {"resid_host_access", case_resid_host_access, 1},
    {"resid_host_access_elems", case_resid_host_access_elems, 1},
    {"resid_seq", case_resid_seq, 1},
    {"resid_stats", case_resid_stats, 1},
    {"resid_evict", case_resid_evict, 1},
    {"resid_evict_stats", case_resid_evict_stats, 1},
    {"zc_host", case_zc_host, 1},
    {"zc_misaligned", case_zc_misaligned, 1},
    {"zc_mixed", case_zc_mixed, 1},
    {"zc_fail", case_zc_fail, 1},
    {"zc_nobackup", case_zc_nobackup, 1},
    {"zc_fail_gated", case_zc_fail_gated, 1},
    {"zc_fail_abort", case_zc_fail_abort, 1},
    {"zc_off", case_zc_off, 1},
    {"csr_extent", case_csr_extent, 1},
    {"csr_extent_scan", case_csr_extent_scan, 1},
    {"csr_row_blocks", case_csr_row_blocks, 1},
    {"csr_seq", case_csr_seq, 1},
    {"csr_decline", case_csr_decline, 1},
    {"jds_decline", case_jds_decline, 1},
    {"jds_bytes_memo", case_jds_bytes_memo, 1},
    {"csr_bytes_estimate", case_csr_bytes_estimate, 1},
    {"hint_tiny", case_hint_tiny, 1},
    {"hint_outlier", case_hint_outlier, 1},
    {"pending_host", case_pending_host, 1},
    {"pending_device", case_pending_device, 1},
    {"pending_epoch", case_pending_epoch, 1},
    {"pending_threads", case_pending_threads, 1},
    {"hint_region", case_hint_region, 1},
    {"hint_region_cancel", case_hint_region_cancel, 1},
    {"hint_grow", case_hint_grow, 1},
    {"noise_no_hint", case_noise_no_hint, 1},
    {"noise_no_flip", case_noise_no_flip, 1},
    {"noise_clear_hint", case_noise_clear_hint, 1},
    {"noise_seeded", case_noise_seeded, 1},
    {"noise_region", case_noise_region, 1},
    {"stale_age", case_stale_age, 1},
    {"stale_fresh", case_stale_fresh, 1},
    {"stale_load", case_stale_load, 1},
    {"stale_load_busy", case_stale_load_busy, 1},
    {"stale_load_repeat", case_stale_load_repeat, 1},
    {"stale_budget", case_stale_budget, 1},
    {"stale_nosample", case_stale_nosample, 1},
    {"stale_floor", case_stale_floor, 1},
    {"workgate_count", case_workgate_count, 1},
    {"workgate_wide", case_workgate_wide, 1},
    {"workgate_model", case_workgate_model, 1},
    {"workgate_region", case_workgate_region, 1},
    {"workgate_hint", case_workgate_hint, 1},
    {"test_host_prestart", case_test_host_prestart, 1},
    {"test_host_floor", case_test_host_floor, 1},
    {"hold_region", case_hold_region, 1},
    {"hold_pays", case_hold_pays, 1},
    {"hold_scope", case_hold_scope, 1},
    {"hold_off", case_hold_off, 1},
    {"hold_run", case_hold_run, 1},
    {"policy_nowait", case_policy_nowait, 1},
    {"policy_nowait_child", case_policy_nowait_child, 0},
    {"fruitless_rule", case_fruitless_rule, 1},
    {"fruitless_saved", case_fruitless_saved, 1},
    {"cold_host_run", case_cold_host_run, 1},
    {"cold_host_warm", case_cold_host_warm, 1},
    {"fruitless_hint", case_fruitless_hint, 1},
    {"fixedcost_env", case_fixedcost_env, 1},
    {"fixedcost_text", case_fixedcost_text, 1},
    {"fixedcost_read", case_fixedcost_read, 1},
    {"fixedcost_once", case_fixedcost_once, 1},
    {"tinypocl_hint_double", case_tinypocl_hint_double, 1},
    {"tinypocl_few_pages", case_tinypocl_few_pages, 1},
    {"tinypocl_many_pages", case_tinypocl_many_pages, 1},
    {"tinymain_key_stack", case_tinymain_key_stack, 1},
    {"gatehint_skip", case_gatehint_skip, 1},
    {"gatehint_classes", case_gatehint_classes, 1},
    {"gatehint_straddle", case_gatehint_straddle, 1},
    {"gatehint_cost_off", case_gatehint_cost_off, 1},
    {"hold_off_child", case_hold_off_child, 0},
    {"variant_junk_child", case_variant_junk_child, 0},
    {"stats_child", case_stats_child, 0},
    {"map1d_or_decline", case_map1d_or_decline, 0},
    {"tune_stats_child", case_tune_stats_child, 0},
    {"tune_map_child", case_tune_map_child, 0},
    {"tune_small_child", case_tune_small_child, 0},
};
#define NCASES (sizeof cases / sizeof cases[0])

int main(int argc, char **argv) {
  /* The cases before issue 12's test the mechanism (every run offloads):
     the cost model is off unless a case (test_policy.c) turns it on. */
  if (!getenv("IDIOM_COST"))
    setenv("IDIOM_COST", "off", 1);
  /* Keep tests away from the user's ~/.cache/idiom. */
  char tmpcache[] = "/tmp/idiomrt-test-XXXXXX";
  int own_cache = 0;
  if (!getenv("IDIOM_CACHE_DIR") && mkdtemp(tmpcache)) {
    setenv("IDIOM_CACHE_DIR", tmpcache, 1);
    own_cache = 1;
  }
  int rc = 0;
  if (argc >= 2 && strcmp(argv[1], "--list") == 0) {
    for (size_t i = 0; i < NCASES; ++i)
      if (cases[i].listed)
        printf("%s\n", cases[i].name);
  } else if (argc >= 2 && strcmp(argv[1], "all") != 0) {
    size_t i = 0;
    while (i < NCASES && strcmp(cases[i].name, argv[1]) != 0)
      ++i;
    if (i == NCASES) {
      fprintf(stderr, "unknown case %s\n", argv[1]);
      rc = 2;
    } else {
      cases[i].fn();
      if (g_failures)
        fprintf(stderr, "FAIL %s: %d check(s) failed\n", argv[1], g_failures);
      rc = g_failures ? 1 : 0;
    }
  } else {
    int failed = 0;
    for (size_t i = 0; i < NCASES; ++i) {
      if (!cases[i].listed)
        continue;
      char *err = NULL;
      int st = spawn_case(cases[i].name, NULL, &err);
      printf("%s %s\n", st == 0 ? "PASS" : "FAIL", cases[i].name);
      if (st != 0) {
        fputs(err, stdout);
        failed++;
      }
      free(err);
    }
    size_t listed = 0;
    for (size_t i = 0; i < NCASES; ++i)
      listed += cases[i].listed;
    printf("%d of %zu cases failed\n", failed, listed);
    rc = failed ? 1 : 0;
  }
  if (own_cache)
    nftw(tmpcache, rm_entry, 16, FTW_DEPTH | FTW_PHYS);
  return rc;
}
