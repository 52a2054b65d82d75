/*===- test_zerocopy.c - Buffers over the program's memory (zerocopy.c) ----===*
 *
 * On a host-unified device (PoCL's CPU device; each case first checks the
 * device says so) runs create their buffers over the program's own bytes
 * and copy nothing. Every case checks the host's memory against a
 * reference computed on the host:
 *
 * zc_host        outside a region, host writes between runs are read by the
 *                next run and the host sees each run's writes, with 0 bytes
 *                moved either way; inside a region the same, the host
 *                reading and writing between runs (no range table entry can
 *                write old bytes over the host's).
 * zc_misaligned  a range not aligned to IDIOM_ZERO_COPY_ALIGN is copied in
 *                and out (bytes counted) by kernels without element
 *                offsets; a kernel with element offsets gets a buffer from
 *                the start aligned down, and copies nothing.
 * zc_mixed       inside a region a misaligned range copied into a table
 *                entry (device-valid), then zero-copy runs on an aligned
 *                range inside it and on the whole array: the entry goes
 *                back to the host first (and is dropped), no increment is
 *                lost and none is undone by a later copy-back.
 * zc_fail        IDIOM_ZERO_COPY_TEST_FAIL=1, IDIOM_ZERO_COPY_BACKUP=always:
 *                a run fails after its kernels wrote an INOUT range in
 *                place: the range is put back as it was before the run (the
 *                fallback loop starts from it).
 * zc_nobackup    defaults: in-place runs of a known variant copy no byte
 *                aside (their kernels wait for the gate) and are right.
 * zc_fail_gated  IDIOM_ZERO_COPY_TEST_FAIL=enqueued: a run fails after
 *                every command is enqueued, its gate closed: the kernels
 *                never ran, the INOUT range is the program's, and nothing
 *                was copied aside.
 * zc_fail_abort  IDIOM_ZERO_COPY_TEST_FAIL=1 with the defaults: a run that
 *                kept no copy fails after its kernels wrote in place: the
 *                process aborts with its message (ctest matches it) and
 *                never returns to let the loop run from updated data.
 * zc_off         IDIOM_ZERO_COPY=off: the same runs copy both ways.
 *
 *===----------------------------------------------------------------------===*/
#include "idiomrt.h"
#include "test_common.h"

#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* y[i] += k over n ints; args: n, k, y (INOUT). */
static const char zaddk_src[] =
    "__kernel void zaddk(const int n, const int k, __global int *y) {\n"
    "  size_t i = get_global_id(0);\n"
    "  if (i < (size_t)n) y[i] += k;\n"
    "}\n";
static const idiom_kernel_desc zaddk_desc = {
    "zaddk", "test_zerocopy.c:zaddk", "map", zaddk_src, IDIOM_MAP, 1, 0, 0,
    NULL};

/* The same with an element offset for y (idiomrt.h, "Element offsets"). */
static const char zaddko_src[] =
    "//@idiom-offsets 4\n"
    "__kernel void zaddko(const int n, const int k, __global int *y,\n"
    "                     const long y_off) {\n"
    "  y += y_off;\n"
    "  size_t i = get_global_id(0);\n"
    "  if (i < (size_t)n) y[i] += k;\n"
    "}\n";
static const idiom_kernel_desc zaddko_desc = {
    "zaddko", "test_zerocopy.c:zaddko", "map", zaddko_src, IDIOM_MAP, 1, 0, 0,
    NULL};

/* z[i] = x[i] * 2; args: n, x (IN), z (OUT, dense). */
static const char zdbl_src[] =
    "__kernel void zdbl(const int n, __global const int *x,\n"
    "                   __global int *z) {\n"
    "  size_t i = get_global_id(0);\n"
    "  if (i < (size_t)n) z[i] = x[i] * 2;\n"
    "}\n";
static const idiom_kernel_desc zdbl_desc = {
    "zdbl", "test_zerocopy.c:zdbl", "map", zdbl_src, IDIOM_MAP, 1, 0, 0,
    NULL};

enum { N = 100000 };

static int addk(const idiom_kernel_desc *d, int *y, int n, int k) {
  idiom_arg a[3] = {i32(n), i32(k), buf(IDIOM_ARG_BUF_INOUT, y, 4ull * n)};
  uint64_t sizes[1] = {(uint64_t)n};
  return idiom_run(d, a, 3, sizes, NULL);
}

static int dbl(const int *x, int *z, int n) {
  idiom_arg a[3] = {i32(n), buf(IDIOM_ARG_BUF_IN, (void *)x, 4ull * n),
                    buf(IDIOM_ARG_BUF_OUT, z, 4ull * n)};
  a[2].flags = IDIOM_ARG_DENSE;
  uint64_t sizes[1] = {(uint64_t)n};
  return idiom_run(&zdbl_desc, a, 3, sizes, NULL);
}

uint64_t idiomrt_zc_backup_bytes(void); /* rt_internal.h */

static uint64_t moved(void) {
  uint64_t in = 0, out = 0;
  idiom_transfer_bytes(&in, &out);
  return in + out;
}

static int *aligned_ints(size_t n) {
  void *p = NULL;
  return posix_memalign(&p, 4096, 4 * n + 64) ? NULL : p;
}

/* The device is host-unified (its first run moved nothing), else the case
   cannot test zero-copy: fail loudly rather than pass. */
static int device_is_unified(int *y) {
  uint64_t m0 = moved();
  int ok = addk(&zaddk_desc, y, N, 0);
  CHECK_MSG(ok, "declined: %s", reason_or_none());
  CHECK_MSG(moved() == m0, "the device copied %llu bytes: not host-unified, "
                           "or zero-copy off",
            (unsigned long long)(moved() - m0));
  return ok && moved() == m0;
}

static int all_eq(const int *y, int n, int (*f)(int i, void *ctx),
                  void *ctx) {
  for (int i = 0; i < n; ++i)
    if (y[i] != f(i, ctx)) {
      fprintf(stderr, "element %d: %d, want %d\n", i, y[i], f(i, ctx));
      return 0;
    }
  return 1;
}

static int want_i_plus(int i, void *ctx) { return i + *(int *)ctx; }
static int want_2x(int i, void *ctx) { return 2 * (i * 3 + *(int *)ctx); }

void case_zc_host(void) {
  int *y = aligned_ints(N), *x = aligned_ints(N), *z = aligned_ints(N);
  CHECK(y && x && z);
  if (!y || !x || !z)
    return;
  for (int i = 0; i < N; ++i)
    y[i] = i;
  if (!device_is_unified(y))
    return;
  uint64_t m0 = moved();
  int k = 0;
  for (int t = 1; t <= 5; ++t) {
    /* host writes between runs: the next run reads them */
    for (int i = 0; i < N; ++i)
      x[i] = i * 3 + t;
    memset(z, 0xff, 4u * N);
    CHECK_MSG(dbl(x, z, N), "declined: %s", reason_or_none());
    CHECK(all_eq(z, N, want_2x, &t));
    CHECK_MSG(addk(&zaddk_desc, y, N, t), "declined: %s", reason_or_none());
    k += t;
    CHECK(all_eq(y, N, want_i_plus, &k));
  }
  CHECK_MSG(moved() == m0, "%llu bytes moved",
            (unsigned long long)(moved() - m0));

  /* Inside a region: the host sees each run's writes at once, and its own
     writes between runs are read by the next run and never overwritten. */
  idiom_region_begin();
  for (int t = 1; t <= 10; ++t) {
    CHECK_MSG(addk(&zaddk_desc, y, N, 1), "declined: %s", reason_or_none());
    ++k;
    CHECK(all_eq(y, N, want_i_plus, &k));
    for (int i = 0; i < N; ++i)
      y[i] -= 1; /* the host's write */
    --k;
  }
  idiom_region_end();
  CHECK(all_eq(y, N, want_i_plus, &k));
  CHECK_MSG(moved() == m0, "%llu bytes moved",
            (unsigned long long)(moved() - m0));
  free(y);
  free(x);
  free(z);
}

void case_zc_misaligned(void) {
  int *raw = aligned_ints(N + 1);
  CHECK(raw != NULL);
  if (!raw)
    return;
  for (int i = 0; i <= N; ++i)
    raw[i] = i - 1;
  if (!device_is_unified(raw))
    return;
  int *y = raw + 1; /* 4 bytes past a page: not 16-byte aligned */
  uint64_t in0 = 0, out0 = 0, in1 = 0, out1 = 0;
  idiom_transfer_bytes(&in0, &out0);
  CHECK_MSG(addk(&zaddk_desc, y, N, 5), "declined: %s", reason_or_none());
  idiom_transfer_bytes(&in1, &out1);
  CHECK_MSG(in1 - in0 == 4ull * N && out1 - out0 == 4ull * N,
            "in %llu out %llu", (unsigned long long)(in1 - in0),
            (unsigned long long)(out1 - out0));
  int k = 5;
  CHECK(all_eq(y, N, want_i_plus, &k));
  CHECK(raw[0] == -1);
  /* element offsets: a buffer from the aligned-down start, nothing moved */
  uint64_t m0 = moved();
  CHECK_MSG(addk(&zaddko_desc, y, N, 2), "declined: %s", reason_or_none());
  k += 2;
  CHECK(all_eq(y, N, want_i_plus, &k));
  CHECK(raw[0] == -1); /* the bytes before the range are not the kernel's */
  CHECK_MSG(moved() == m0, "%llu bytes moved",
            (unsigned long long)(moved() - m0));
  free(raw);
}

void case_zc_mixed(void) {
  int *raw = aligned_ints(N);
  CHECK(raw != NULL);
  if (!raw)
    return;
  for (int i = 0; i < N; ++i)
    raw[i] = i;
  if (!device_is_unified(raw))
    return;
  idiom_region_begin();
  for (int t = 1; t <= 3; ++t) {
    /* [raw + 1, raw + N): copied into a table entry, device-valid after */
    CHECK_MSG(addk(&zaddk_desc, raw + 1, N - 1, 10), "declined: %s",
              reason_or_none());
    /* [raw + 4, raw + N), 16-byte aligned, inside that entry: zero-copy;
       the entry must go back to the host first and never later */
    CHECK_MSG(addk(&zaddk_desc, raw + 4, N - 4, 100), "declined: %s",
              reason_or_none());
    /* the whole array, zero-copy */
    CHECK_MSG(addk(&zaddk_desc, raw, N, 1), "declined: %s", reason_or_none());
    int ok = raw[0] == t;
    for (int i = 1; i < N && ok; ++i)
      ok = raw[i] == i + (i < 4 ? 11 : 111) * t;
    CHECK_MSG(ok, "iteration %d: raw[1] = %d, raw[4] = %d", t, raw[1],
              raw[4]);
  }
  idiom_region_end();
  int ok = raw[0] == 3;
  for (int i = 1; i < N && ok; ++i)
    ok = raw[i] == i + (i < 4 ? 11 : 111) * 3;
  CHECK(ok);
  free(raw);
}

void case_zc_fail(void) {
  int *y = aligned_ints(N), *x = aligned_ints(N), *z = aligned_ints(N);
  CHECK(y && x && z);
  if (!y || !x || !z)
    return;
  for (int i = 0; i < N; ++i) {
    y[i] = i;
    x[i] = i * 3;
  }
  int zero = 0;
  uint64_t m0 = moved();
  for (int region = 0; region < 2; ++region) {
    if (region)
      idiom_region_begin();
    CHECK(addk(&zaddk_desc, y, N, 7) == 0);
    CHECK_MSG(strstr(reason_or_none(), "IDIOM_ZERO_COPY_TEST_FAIL"),
              "reason: %s", reason_or_none());
    /* the kernel ran in place: its writes were put back */
    CHECK(idiomrt_zc_backup_bytes() > 0);
    CHECK(all_eq(y, N, want_i_plus, &zero));
    /* a dense OUT range may hold results: the fallback loop writes them
       again from the inputs, which no run writes */
    CHECK(dbl(x, z, N) == 0);
    CHECK(all_eq(y, N, want_i_plus, &zero));
    if (region)
      idiom_region_end();
  }
  CHECK_MSG(moved() == m0, "%llu bytes moved (the device is not host-unified?)",
            (unsigned long long)(moved() - m0));
  free(y);
  free(x);
  free(z);
}

/* N ints 0, 1, ..., page-aligned; NULL (a failed check) when out of
   memory. */
static int *iota_ints(void) {
  int *y = aligned_ints(N);
  CHECK(y != NULL);
  for (int i = 0; y && i < N; ++i)
    y[i] = i;
  return y;
}

/* Nothing was copied aside in this process. */
static void check_no_backup(void) {
  CHECK_MSG(idiomrt_zc_backup_bytes() == 0, "%llu bytes copied aside",
            (unsigned long long)idiomrt_zc_backup_bytes());
}

void case_zc_nobackup(void) {
  int *y = iota_ints();
  if (!y)
    return;
  if (!device_is_unified(y))
    return;
  int k = 0;
  for (int region = 0; region < 2; ++region) {
    if (region)
      idiom_region_begin();
    for (int t = 0; t < 3; ++t) {
      CHECK_MSG(addk(&zaddk_desc, y, N, 5), "declined: %s", reason_or_none());
      k += 5;
    }
    if (region)
      idiom_region_end();
  }
  CHECK(all_eq(y, N, want_i_plus, &k));
  check_no_backup();
  free(y);
}

void case_zc_fail_gated(void) {
  int *y = iota_ints();
  if (!y)
    return;
  int zero = 0;
  uint64_t m0 = moved();
  for (int region = 0; region < 2; ++region) {
    if (region)
      idiom_region_begin();
    for (int t = 0; t < 3; ++t) {
      CHECK(addk(&zaddk_desc, y, N, 7) == 0);
      CHECK_MSG(strstr(reason_or_none(), "TEST_FAIL=enqueued"), "reason: %s",
                reason_or_none());
      /* the kernel was terminated unrun: nothing to put back */
      CHECK(all_eq(y, N, want_i_plus, &zero));
    }
    if (region)
      idiom_region_end();
  }
  CHECK_MSG(moved() == m0, "%llu bytes moved (the device is not host-unified?)",
            (unsigned long long)(moved() - m0));
  check_no_backup();
  free(y);
}

/* The abort the case expects: the process ends with status 0 after it, so
   that ctest judges the output (the runtime's message, and no return). */
static void on_abort(int sig) {
  (void)sig;
  static const char m[] = "zc_fail_abort: SIGABRT\n";
  if (write(2, m, sizeof m - 1) < 0)
    _exit(1);
  _exit(0);
}

void case_zc_fail_abort(void) {
  int *y = iota_ints();
  if (!y)
    return;
  signal(SIGABRT, on_abort);
  int r = addk(&zaddk_desc, y, N, 7);
  /* not reached: the run aborts the process (ctest matches its message) */
  fprintf(stderr, "zc_fail_abort: the run returned %d (%s)\n", r,
          reason_or_none());
  CHECK(0);
  free(y);
}

void case_zc_off(void) {
  int *y = aligned_ints(N);
  CHECK(y != NULL);
  if (!y)
    return;
  for (int i = 0; i < N; ++i)
    y[i] = i;
  uint64_t in0 = 0, out0 = 0, in1 = 0, out1 = 0;
  idiom_transfer_bytes(&in0, &out0);
  CHECK_MSG(addk(&zaddk_desc, y, N, 3), "declined: %s", reason_or_none());
  idiom_transfer_bytes(&in1, &out1);
  CHECK(in1 - in0 == 4ull * N && out1 - out0 == 4ull * N);
  int k = 3;
  CHECK(all_eq(y, N, want_i_plus, &k));
  free(y);
}
