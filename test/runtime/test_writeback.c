/*===- test_writeback.c - Byte-exact write-back of OUT / INOUT ranges -----===*
 *
 * writeback_readonly: a map writes every other int of an INOUT range whose
 * second half lies on a read-only page that the kernel never changes; the
 * runtime must not store to it (a whole-range copy back faults).
 * writeback_dense: IDIOM_ARG_DENSE copies the whole range back.
 * writeback_dense_out: a dense OUT range is not copied to the device (its
 * host bytes would only be overwritten); without the flag it is.
 * writeback_flags: unknown flag bits decline ("invalid arguments: flags").
 * writeback_bench (not listed): median of 5 runs of a map over 2^24 floats,
 * with and without IDIOM_ARG_DENSE (runtime/README.md quotes it).
 *
 *===----------------------------------------------------------------------===*/
#include "idiomrt.h"
#include "test_common.h"

#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

/* y[2i] = x[2i] + 1 for 2i < n: the odd elements are not written. */
static const char even_src[] =
    "__kernel void even(const int n, __global const int *x,\n"
    "                   __global int *y) {\n"
    "  int i = 2 * (int)get_global_id(0);\n"
    "  if (i < n && x[i] >= 0) y[i] = x[i] + 1;\n"
    "}\n";
static const idiom_kernel_desc even_desc = {
    "even", "test_writeback.c:even", "map", even_src, IDIOM_MAP, 1, 0, 0, NULL};

static const char scale_src[] =
    "__kernel void scale(const int n, __global float *y) {\n"
    "  int i = get_global_id(0);\n"
    "  if (i < n) y[i] = y[i] * 0.5f + 1.0f;\n"
    "}\n";
static const idiom_kernel_desc scale_desc = {
    "scale", "test_writeback.c:scale", "map", scale_src, IDIOM_MAP, 1, 0, 0,
    NULL};

void case_writeback_readonly(void) {
  setenv("IDIOM_MIN_TRIP", "0", 1); /* read on the first call */
  long ps = sysconf(_SC_PAGESIZE);
  int n = (int)(2 * ps / sizeof(int));
  int *x = malloc(sizeof(int) * n);
  int *y = mmap(NULL, 2 * ps, PROT_READ | PROT_WRITE,
                MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  CHECK(y != MAP_FAILED);
  if (y == MAP_FAILED)
    return;
  for (int i = 0; i < n; ++i) {
    y[i] = -i;
    /* the second page keeps its value: x < 0 there, so no store */
    x[i] = i < n / 2 ? i : -1;
  }
  mprotect((char *)y + ps, ps, PROT_READ);
  idiom_arg args[3] = {i32(n), buf(IDIOM_ARG_BUF_IN, x, sizeof(int) * n),
                       buf(IDIOM_ARG_BUF_INOUT, y, sizeof(int) * n)};
  uint64_t sizes[1] = {(uint64_t)(n / 2)};
  int rc = idiom_run(&even_desc, args, 3, sizes, NULL);
  CHECK_MSG(rc == 1, "declined: %s", reason_or_none());
  int bad = 0;
  for (int i = 0; i < n; ++i) {
    int want = (i % 2 == 0 && i < n / 2) ? i + 1 : -i;
    bad += y[i] != want;
  }
  CHECK_MSG(bad == 0, "%d wrong elements", bad);
  munmap(y, 2 * ps);
  free(x);
}

void case_writeback_dense(void) {
  int n = 100000;
  float *y = malloc(sizeof(float) * n);
  for (int i = 0; i < n; ++i)
    y[i] = (float)(i % 13);
  idiom_arg args[2] = {i32(n), buf(IDIOM_ARG_BUF_INOUT, y, 4ull * n)};
  args[1].flags = IDIOM_ARG_DENSE;
  uint64_t sizes[1] = {(uint64_t)n};
  CHECK_MSG(idiom_run(&scale_desc, args, 2, sizes, NULL) == 1, "declined: %s",
            reason_or_none());
  int bad = 0;
  for (int i = 0; i < n; ++i)
    bad += y[i] != (float)(i % 13) * 0.5f + 1.0f;
  CHECK_MSG(bad == 0, "%d wrong elements", bad);
  free(y);
}

static const char twice_src[] =
    "__kernel void twice(const int n, __global const float *x,\n"
    "                    __global float *y) {\n"
    "  int i = get_global_id(0);\n"
    "  if (i < n) y[i] = 2.0f * x[i];\n"
    "}\n";
static const idiom_kernel_desc twice_desc = {
    "twice", "test_writeback.c:twice", "map", twice_src, IDIOM_MAP, 1, 0, 0,
    NULL};

void case_writeback_dense_out(void) {
  int n = 100000;
  float *x = malloc(sizeof(float) * n), *y = malloc(sizeof(float) * n);
  for (int i = 0; i < n; ++i)
    x[i] = (float)(i % 17);
  for (int dense = 1; dense >= 0; --dense) {
    for (int i = 0; i < n; ++i)
      y[i] = -1.0f;
    idiom_arg args[3] = {i32(n), buf(IDIOM_ARG_BUF_IN, x, 4ull * n),
                         buf(IDIOM_ARG_BUF_OUT, y, 4ull * n)};
    args[2].flags = dense ? IDIOM_ARG_DENSE : 0;
    uint64_t sizes[1] = {(uint64_t)n}, in0 = 0, in1 = 0, out0 = 0, out1 = 0;
    idiom_transfer_bytes(&in0, &out0);
    CHECK_MSG(idiom_run(&twice_desc, args, 3, sizes, NULL) == 1,
              "declined: %s", reason_or_none());
    idiom_transfer_bytes(&in1, &out1);
    int bad = 0;
    for (int i = 0; i < n; ++i)
      bad += y[i] != 2.0f * (float)(i % 17);
    CHECK_MSG(bad == 0, "%d wrong elements (dense %d)", bad, dense);
    /* x always; y only without the flag (its snapshot, for the diff). */
    uint64_t want_in = dense ? 4ull * n : 8ull * n;
    CHECK_MSG(in1 - in0 == want_in, "dense %d: %llu bytes in, want %llu",
              dense, (unsigned long long)(in1 - in0),
              (unsigned long long)want_in);
    CHECK_MSG(out1 - out0 == 4ull * n, "dense %d: %llu bytes out", dense,
              (unsigned long long)(out1 - out0));
  }
  free(x);
  free(y);
}

void case_writeback_flags(void) {
  float y[8] = {0};
  idiom_arg args[2] = {i32(8), buf(IDIOM_ARG_BUF_INOUT, y, sizeof y)};
  args[1].flags = 2;
  uint64_t sizes[1] = {8};
  CHECK(idiom_run(&scale_desc, args, 2, sizes, NULL) == 0);
  CHECK(starts_with(idiom_last_reason(), "invalid arguments: flags"));
  CHECK(y[0] == 0.0f);
}

static double now_ms(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

static int cmp_d(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return x < y ? -1 : x > y;
}

void case_writeback_bench(void) {
  int n = 1 << 24;
  float *y = malloc(4ull * n);
  for (int i = 0; i < n; ++i)
    y[i] = (float)(i % 1000);
  for (int dense = 0; dense < 2; ++dense) {
    double t[5];
    idiom_arg args[2] = {i32(n), buf(IDIOM_ARG_BUF_INOUT, y, 4ull * n)};
    args[1].flags = dense ? IDIOM_ARG_DENSE : 0;
    uint64_t sizes[1] = {(uint64_t)n};
    CHECK(idiom_run(&scale_desc, args, 2, sizes, NULL) == 1); /* warm-up */
    for (int r = 0; r < 5; ++r) {
      double t0 = now_ms();
      CHECK(idiom_run(&scale_desc, args, 2, sizes, NULL) == 1);
      t[r] = now_ms() - t0;
    }
    qsort(t, 5, sizeof t[0], cmp_d);
    printf("map over 2^24 floats, %s: median %.1f ms per idiom_run\n",
           dense ? "IDIOM_ARG_DENSE (whole copy)" : "flags 0 (snapshot + diff)",
           t[2]);
  }
  free(y);
}
