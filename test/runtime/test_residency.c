/*===- test_residency.c - Residency regions (idiom_region_begin/end) ------===*
 *
 * The range table of runtime/lib/residency.c on PoCL, with IDIOM_MIN_TRIP=0
 * unless a case needs a decline. Every case checks the host's memory against
 * a reference computed on the host, so a stale value or a lost write fails:
 *
 * resid_reuse      100 runs inside a region copy each buffer in once (and
 *                  100 times outside one); the host sees the results only at
 *                  the region's end, and then all of them.
 * resid_host       outside a region, host writes between runs are seen.
 * resid_partial    a run on a range inside a resident one (a view), then on
 *                  a range straddling it (copied back, dropped, refilled).
 * resid_decline    a run that declines inside a region copies every dirty
 *                  range back first: the fallback loop sees current data.
 * resid_sync       idiom_region_sync: host reads and writes in the middle.
 * resid_sync_epoch idiom_region_sync with nothing resident (its fast path):
 *                  a new epoch only when the current one was handed out
 *                  (csr.c's memo), none for syncs nobody could tell apart.
 * resid_realloc    a buffer freed and allocated again at the same address,
 *                  and a realloc, between regions.
 * resid_thread     another thread writes bytes the kernels do not write
 *                  while the range is resident: no write is lost.
 * resid_reduce     a reduction over a device-valid range reads the device
 *                  copy and returns only its scalar.
 * resid_overlap    two arguments of one run overlap each other: the run
 *                  does not use the table, and sees the device's results;
 *                  an IDIOM_ARG_SNAPSHOT input overlapping an output runs
 *                  and reads the range as it was before the run.
 * resid_seq        IDIOM_DEVICE=seq: the region calls are harmless.
 * resid_evict      a region over 300 distinct ranges (rows of a matrix, each
 *                  updated three times): least recently used entries are
 *                  copied back and dropped past the table's bound.
 * resid_stats      the IDIOM_STATS lines (bytes_in, residency).
 * resid_memmove    idiom_region_memmove/memset inside a region: a Jacobi-
 *                  style loop (a map, then the copy of its output back to
 *                  its input) copies on the device and moves each buffer
 *                  once; a partial copy into a clean range, a copy from a
 *                  host-only array and a fill also give the host's result.
 * resid_memmove_grow  runs on interior ranges (a stencil's), then a copy of
 *                  the whole arrays: the entries grow to hold them, on the
 *                  device, and later iterations move nothing.
 * resid_sweep      runs on windows of three planes that move a plane at a
 *                  time (each overlaps the last without containing it):
 *                  the entry grows on the device, each byte crosses once;
 *                  a run over two entries with a gap between them merges
 *                  them, only the gap coming from the host.
 * resid_host_access  idiom_region_load/store inside a region: a host read
 *                  of a device-newer element, a host write seen by the
 *                  next run, an element a kernel sets back to its old value
 *                  after a host read (the snapshot), strided and negative-
 *                  stride ranges, elements straddling an entry's ends.
 *
 *===----------------------------------------------------------------------===*/
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include "idiomrt.h"
#include "rt_internal.h" /* idiomrt_resid_epoch */
#include "test_common.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>

/* y[i] += k over n ints; args: n, k, y (INOUT). */
static const char addk_src[] =
    "__kernel void addk(const int n, const int k, __global int *y) {\n"
    "  size_t i = get_global_id(0);\n"
    "  if (i < (size_t)n) y[i] += k;\n"
    "}\n";
static const idiom_kernel_desc addk_desc = {
    "addk", "test_residency.c:addk", "map", addk_src, IDIOM_MAP, 1, 0, 0, NULL};

/* z[i] = x[i] * 2; args: n, x (IN), z (OUT, dense). */
static const char dbl_src[] =
    "__kernel void dbl(const int n, __global const int *x,\n"
    "                  __global int *z) {\n"
    "  size_t i = get_global_id(0);\n"
    "  if (i < (size_t)n) z[i] = x[i] * 2;\n"
    "}\n";
static const idiom_kernel_desc dbl_desc = {
    "dbl", "test_residency.c:dbl", "map", dbl_src, IDIOM_MAP, 1, 0, 0, NULL};

/* y[2i] += 1 for 2i < n (odd elements untouched); args: n, y (INOUT). */
static const char evens_src[] =
    "__kernel void evens(const int n, __global int *y) {\n"
    "  size_t i = 2 * get_global_id(0);\n"
    "  if (i < (size_t)n) y[i] += 1;\n"
    "}\n";
static const idiom_kernel_desc evens_desc = {
    "evens", "test_residency.c:evens", "map", evens_src, IDIOM_MAP, 1, 0, 0,
    NULL};

/* y[i] = a[i] + b[i]; args: n, a (IN), b (IN), y (OUT). */
static const char add2_src[] =
    "__kernel void add2(const int n, __global const int *a,\n"
    "                   __global const int *b, __global int *y) {\n"
    "  size_t i = get_global_id(0);\n"
    "  if (i < (size_t)n) y[i] = a[i] + b[i];\n"
    "}\n";
static const idiom_kernel_desc add2_desc = {
    "add2", "test_residency.c:add2", "map", add2_src, IDIOM_MAP, 1, 0, 0,
    NULL};

/* Sum of n ints as a long; args: n (I64), x (IN). */
static const char isum_src[] =
    "__kernel void isum_partial(const long n, __global const int *x,\n"
    "                           __global long *part_0, __local long *s0) {\n"
    "  size_t lid = get_local_id(0), L = get_local_size(0);\n"
    "  long a = 0;\n"
    "  for (long i = get_global_id(0); i < n; i += get_global_size(0))\n"
    "    a += x[i];\n"
    "  s0[lid] = a; barrier(CLK_LOCAL_MEM_FENCE);\n"
    "  for (size_t s = L / 2; s > 0; s >>= 1) {\n"
    "    if (lid < s) s0[lid] += s0[lid + s];\n"
    "    barrier(CLK_LOCAL_MEM_FENCE);\n"
    "  }\n"
    "  if (lid == 0) part_0[get_group_id(0)] = s0[0];\n"
    "}\n"
    "__kernel void isum_final(const long m, __global const long *part_0,\n"
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
static const uint32_t isum_bytes[1] = {8};
static const idiom_kernel_desc isum_desc = {
    "isum", "test_residency.c:isum", "scalar-reduction", isum_src,
    IDIOM_REDUCE, 1, 1, 0, isum_bytes};

/*--- helpers ---------------------------------------------------------------*/

static int addk(int *y, int n, int k, int dense) {
  idiom_arg a[3] = {i32(n), i32(k), buf(IDIOM_ARG_BUF_INOUT, y, 4ull * n)};
  a[2].flags = dense ? IDIOM_ARG_DENSE : 0;
  uint64_t sizes[1] = {(uint64_t)n};
  return idiom_run(&addk_desc, a, 3, sizes, NULL);
}

int resid_addk(int *y, int n, int k) { return addk(y, n, k, 0); }

static int dbl(const int *x, int *z, int n) {
  idiom_arg a[3] = {i32(n), buf(IDIOM_ARG_BUF_IN, (void *)x, 4ull * n),
                    buf(IDIOM_ARG_BUF_OUT, z, 4ull * n)};
  a[2].flags = IDIOM_ARG_DENSE;
  uint64_t sizes[1] = {(uint64_t)n};
  return idiom_run(&dbl_desc, a, 3, sizes, NULL);
}

static int evens(int *y, int n) {
  idiom_arg a[2] = {i32(n), buf(IDIOM_ARG_BUF_INOUT, y, 4ull * n)};
  uint64_t sizes[1] = {(uint64_t)((n + 1) / 2)};
  return idiom_run(&evens_desc, a, 2, sizes, NULL);
}

static int isum(const int *x, int n, int64_t *out) {
  idiom_arg a[2] = {i64(n), buf(IDIOM_ARG_BUF_IN, (void *)x, 4ull * n)};
  uint64_t sizes[1] = {(uint64_t)n};
  uint64_t res[1] = {0};
  int ok = idiom_run(&isum_desc, a, 2, sizes, res);
  memcpy(out, res, 8);
  return ok;
}

static uint64_t bytes_in(void) {
  uint64_t in = 0;
  idiom_transfer_bytes(&in, NULL);
  return in;
}

static uint64_t bytes_out(void) {
  uint64_t out = 0;
  idiom_transfer_bytes(NULL, &out);
  return out;
}

/* Elements of y that differ from want. */
static int wrong(const int *y, const int *want, int n) {
  int bad = 0;
  for (int i = 0; i < n; ++i)
    bad += y[i] != want[i];
  return bad;
}

#define RUN_OK(call) CHECK_MSG((call) == 1, "declined: %s", reason_or_none())

/*--- cases -----------------------------------------------------------------*/

void case_resid_reuse(void) {
  setenv("IDIOM_MIN_TRIP", "0", 1);
  enum { N = 1 << 16, ITERS = 100 };
  int *x = malloc(4 * N), *y = malloc(4 * N), *z = malloc(4 * N);
  for (int i = 0; i < N; ++i) {
    x[i] = i;
    y[i] = 3 * i;
    z[i] = -1;
  }
  RUN_OK(addk(y, N, 0, 1)); /* builds the program outside the counts */
  RUN_OK(dbl(x, z, N));

  /* Outside a region: every run copies x and y in (z, a dense OUT, is only
     written: not copied in). */
  uint64_t in0 = bytes_in();
  for (int t = 0; t < ITERS; ++t) {
    RUN_OK(addk(y, N, 1, 1));
    RUN_OK(dbl(x, z, N));
  }
  uint64_t outside = bytes_in() - in0;
  CHECK_MSG(outside == (uint64_t)ITERS * 2 * 4 * N, "outside: %llu",
            (unsigned long long)outside);
  CHECK(y[7] == 21 + ITERS && z[9] == 18);

  /* Inside: x and y once; z (dense OUT) not at all. */
  in0 = bytes_in();
  uint64_t out0 = bytes_out();
  idiom_region_begin();
  for (int t = 0; t < ITERS; ++t) {
    RUN_OK(addk(y, N, 1, 1));
    RUN_OK(dbl(x, z, N));
    if (t == 0)
      CHECK_MSG(y[7] == 21 + ITERS, "the host saw a device-valid result "
                                    "before the region's end: %d", y[7]);
  }
  uint64_t inside = bytes_in() - in0;
  CHECK_MSG(bytes_out() == out0, "copied back inside the region");
  idiom_region_end();
  CHECK_MSG(inside == 2ull * 4 * N, "inside: %llu",
            (unsigned long long)inside);
  CHECK_MSG(bytes_out() - out0 == 2ull * 4 * N, "copied back: %llu",
            (unsigned long long)(bytes_out() - out0));
  int bad = 0;
  for (int i = 0; i < N; ++i)
    bad += y[i] != 3 * i + 2 * ITERS || z[i] != 2 * i;
  CHECK_MSG(bad == 0, "%d wrong elements", bad);
  /* Nothing is kept across regions: a run afterwards copies in again. */
  in0 = bytes_in();
  RUN_OK(addk(y, N, 1, 1));
  CHECK(bytes_in() - in0 == 4ull * N && y[5] == 15 + 2 * ITERS + 1);
  free(x);
  free(y);
  free(z);
}

void case_resid_host(void) {
  setenv("IDIOM_MIN_TRIP", "0", 1);
  enum { N = 4096 };
  int *y = malloc(4 * N), *want = malloc(4 * N);
  for (int i = 0; i < N; ++i)
    y[i] = want[i] = i;
  for (int t = 0; t < 5; ++t) {
    RUN_OK(addk(y, N, 2, t & 1));
    for (int i = 0; i < N; ++i)
      want[i] += 2;
    CHECK(wrong(y, want, N) == 0);
    y[t * 3] = want[t * 3] = -100 * t; /* host write between runs */
    want[N - 1] = y[N - 1] += y[t]; /* host read and write */
  }
  CHECK(wrong(y, want, N) == 0);
  free(y);
  free(want);
}

void case_resid_partial(void) {
  setenv("IDIOM_MIN_TRIP", "0", 1);
  enum { N = 8192 };
  int *y = malloc(8 * N), *want = malloc(8 * N);
  for (int i = 0; i < 2 * N; ++i)
    y[i] = want[i] = i;
  idiom_region_begin();
  RUN_OK(addk(y, N, 1, 1)); /* entry [0, N) */
  for (int i = 0; i < N; ++i)
    want[i] += 1;
  RUN_OK(addk(y + N / 4, N / 4, 10, 1)); /* inside it: a view */
  for (int i = N / 4; i < N / 2; ++i)
    want[i] += 10;
  RUN_OK(evens(y + 3 + N / 2, 101)); /* inside, odd offset, not dense */
  for (int i = 0; i < 101; i += 2)
    want[3 + N / 2 + i] += 1;
  RUN_OK(addk(y + N / 2, N, 100, 0)); /* straddles [0, N): dropped */
  for (int i = N / 2; i < N / 2 + N; ++i)
    want[i] += 100;
  RUN_OK(addk(y, 2 * N, 1000, 1)); /* contains everything */
  for (int i = 0; i < 2 * N; ++i)
    want[i] += 1000;
  RUN_OK(addk(y + 5, 7, 1, 0)); /* a small view again */
  for (int i = 5; i < 12; ++i)
    want[i] += 1;
  idiom_region_end();
  int bad = wrong(y, want, 2 * N);
  CHECK_MSG(bad == 0, "%d wrong elements", bad);
  free(y);
  free(want);
}

void case_resid_decline(void) {
  setenv("IDIOM_MIN_TRIP", "1000", 1);
  enum { N = 1 << 14 };
  int *y = malloc(4 * N), *want = malloc(4 * N);
  for (int i = 0; i < N; ++i)
    y[i] = want[i] = 7 * i;
  idiom_region_begin();
  RUN_OK(addk(y, N, 1, 1)); /* device-valid */
  for (int i = 0; i < N; ++i)
    want[i] += 1;
  /* 10 iterations of 4 bytes: work below IDIOM_MIN_TRIP, declines. */
  CHECK(addk(y, 10, 5, 1) == 0);
  CHECK(starts_with(idiom_last_reason(), "work below threshold"));
  /* The fallback loop must see the first run's results. */
  CHECK_MSG(wrong(y, want, N) == 0, "stale after a decline: %d",
            wrong(y, want, N));
  for (int i = 0; i < 10; ++i)
    want[i] = y[i] += 5; /* what the original loop does */
  RUN_OK(addk(y, N, 2, 0));
  for (int i = 0; i < N; ++i)
    want[i] += 2;
  idiom_region_end();
  CHECK(wrong(y, want, N) == 0);
  free(y);
  free(want);
}

void case_resid_sync(void) {
  setenv("IDIOM_MIN_TRIP", "0", 1);
  enum { N = 4096 };
  int *y = malloc(4 * N);
  for (int i = 0; i < N; ++i)
    y[i] = i;
  idiom_region_begin();
  RUN_OK(addk(y, N, 1, 0));
  idiom_region_sync();
  CHECK(y[5] == 6 && y[N - 1] == N); /* current after the sync */
  y[5] = 777;
  RUN_OK(addk(y, N, 1, 1));
  idiom_region_end();
  CHECK(y[5] == 778 && y[6] == 8);
  free(y);
}

void case_resid_sync_epoch(void) {
  CHECK(idiomrt_resid_epoch() == 0); /* outside a region */
  idiom_region_sync();               /* outside a region: nothing */
  CHECK(idiomrt_resid_epoch() == 0);
  idiom_region_begin();
  uint64_t e1 = idiomrt_resid_epoch(); /* read: a memo may hold it */
  CHECK(e1 != 0);
  idiom_region_sync();
  uint64_t e2 = idiomrt_resid_epoch();
  CHECK_MSG(e2 != 0 && e2 != e1, "a read epoch survived a sync: %llu",
            (unsigned long long)e2);
  /* The first sync retires e2 (read); the next four see an epoch nobody
     read and keep it: one more epoch, not five (no thread but this one
     opens regions here). */
  for (int i = 0; i < 5; ++i)
    idiom_region_sync();
  uint64_t e3 = idiomrt_resid_epoch();
  CHECK_MSG(e3 == e2 + 1, "epochs after five syncs: %llu then %llu",
            (unsigned long long)e2, (unsigned long long)e3);
  idiom_region_end();
  CHECK(idiomrt_resid_epoch() == 0);
}

void case_resid_realloc(void) {
  setenv("IDIOM_MIN_TRIP", "0", 1);
  enum { N = 1 << 15 };
  int *a = malloc(4 * N);
  for (int i = 0; i < N; ++i)
    a[i] = i;
  idiom_region_begin();
  RUN_OK(addk(a, N, 1, 1));
  idiom_region_end();
  CHECK(a[10] == 11);
  uintptr_t old = (uintptr_t)a;
  free(a);
  int *b = malloc(4 * N);
  if ((uintptr_t)b != old)
    fprintf(stderr, "note: malloc did not reuse the address\n");
  for (int i = 0; i < N; ++i)
    b[i] = 5 * i;
  idiom_region_begin();
  RUN_OK(addk(b, N, 1, 1));
  RUN_OK(addk(b, N, 1, 0));
  idiom_region_end();
  int bad = 0;
  for (int i = 0; i < N; ++i)
    bad += b[i] != 5 * i + 2;
  CHECK_MSG(bad == 0, "%d wrong after reallocation at the same address", bad);
  /* realloc between regions: grows the block (maybe moving it). */
  int *c = realloc(b, 8 * N);
  CHECK(c != NULL);
  if (!c)
    return;
  for (int i = N; i < 2 * N; ++i)
    c[i] = -i;
  idiom_region_begin();
  RUN_OK(addk(c, 2 * N, 3, 1));
  idiom_region_end();
  bad = 0;
  for (int i = 0; i < 2 * N; ++i)
    bad += c[i] != (i < N ? 5 * i + 2 : -i) + 3;
  CHECK_MSG(bad == 0, "%d wrong after realloc", bad);
  free(c);
}

static int *g_shared;
static int g_shared_n;
static int g_written;

static void *write_odds(void *unused) {
  (void)unused;
  for (int i = 1; i < g_shared_n; i += 2)
    g_shared[i] = -7;
  __atomic_store_n(&g_written, 1, __ATOMIC_RELEASE);
  return NULL;
}

void case_resid_thread(void) {
  setenv("IDIOM_MIN_TRIP", "0", 1);
  enum { N = 1 << 14, ITERS = 20 };
  int *y = malloc(4 * N);
  for (int i = 0; i < N; ++i)
    y[i] = i;
  g_shared = y;
  g_shared_n = N;
  idiom_region_begin();
  RUN_OK(evens(y, N)); /* resident from here on */
  pthread_t th;
  CHECK(pthread_create(&th, NULL, write_odds, NULL) == 0);
  while (!__atomic_load_n(&g_written, __ATOMIC_ACQUIRE))
    ;
  for (int t = 1; t < ITERS; ++t)
    RUN_OK(evens(y, N));
  idiom_region_end();
  pthread_join(th, NULL);
  int bad = 0;
  for (int i = 0; i < N; ++i)
    bad += y[i] != (i % 2 ? -7 : i + ITERS);
  CHECK_MSG(bad == 0, "%d wrong elements (a lost write of the other thread?)",
            bad);
  free(y);
}

void case_resid_reduce(void) {
  setenv("IDIOM_MIN_TRIP", "0", 1);
  enum { N = 1 << 16, ITERS = 10 };
  int *y = malloc(4 * N);
  for (int i = 0; i < N; ++i)
    y[i] = i % 1000;
  int64_t base = 0;
  for (int i = 0; i < N; ++i)
    base += y[i];
  int64_t s = 0;
  RUN_OK(isum(y, N, &s)); /* builds */
  CHECK(s == base);
  uint64_t in0 = bytes_in(), out0 = bytes_out();
  idiom_region_begin();
  for (int t = 1; t <= ITERS; ++t) {
    RUN_OK(addk(y, N, 1, 1));
    RUN_OK(isum(y, N, &s));
    CHECK_MSG(s == base + (int64_t)t * N, "iteration %d: %lld", t,
              (long long)s);
  }
  uint64_t out_inside = bytes_out() - out0;
  idiom_region_end();
  CHECK_MSG(bytes_in() - in0 == 4ull * N, "in: %llu",
            (unsigned long long)(bytes_in() - in0));
  CHECK_MSG(out_inside == 8ull * ITERS, "out inside: %llu (only scalars)",
            (unsigned long long)out_inside);
  CHECK(y[3] == 3 + ITERS);
  free(y);
}

void case_resid_overlap(void) {
  setenv("IDIOM_MIN_TRIP", "0", 1);
  enum { N = 4096 };
  int *a = malloc(4 * (N + 1)), *y = malloc(4 * N);
  for (int i = 0; i <= N; ++i)
    a[i] = i;
  idiom_region_begin();
  RUN_OK(addk(a, N + 1, 1, 1)); /* a is device-valid */
  idiom_arg args[4] = {i32(N), buf(IDIOM_ARG_BUF_IN, a, 4ull * N),
                       buf(IDIOM_ARG_BUF_IN, a + 1, 4ull * N),
                       buf(IDIOM_ARG_BUF_OUT, y, 4ull * N)};
  uint64_t sizes[1] = {N};
  RUN_OK(idiom_run(&add2_desc, args, 4, sizes, NULL));
  RUN_OK(addk(y, N, 1, 1));
  /* an IDIOM_ARG_SNAPSHOT input overlapping an output (a = a + y shifted
     by one): runs, reading a as it was before the run (its own device
     copy; test_resid_snapshot.c) */
  idiom_arg snap[4] = {i32(N - 1), buf(IDIOM_ARG_BUF_IN, a, 4ull * (N - 1)),
                       buf(IDIOM_ARG_BUF_IN, y, 4ull * (N - 1)),
                       buf(IDIOM_ARG_BUF_OUT, a + 1, 4ull * (N - 1))};
  snap[1].flags = IDIOM_ARG_SNAPSHOT;
  uint64_t snap_sizes[1] = {N - 1};
  RUN_OK(idiom_run(&add2_desc, snap, 4, snap_sizes, NULL));
  idiom_region_end();
  int bad = a[0] != 1 || a[N] != N + 1;
  for (int i = 0; i < N; ++i)
    bad += y[i] != (i + 1) + (i + 2) + 1 || (i && a[i] != i + (2 * i + 2));
  CHECK_MSG(bad == 0, "%d wrong elements", bad);
  free(a);
  free(y);
}

void case_resid_seq(void) {
  setenv("IDIOM_DEVICE", "seq", 1);
  int y[16] = {0};
  idiom_region_begin();
  idiom_region_begin();
  CHECK(addk(y, 16, 1, 1) == 0);
  idiom_region_sync();
  idiom_region_end();
  idiom_region_end();
  idiom_region_end(); /* unbalanced: ignored */
  CHECK(y[0] == 0);
  uint64_t in = 1, out = 1;
  idiom_transfer_bytes(&in, &out);
  CHECK(in == 0 && out == 0);
}

void case_resid_evict(void) {
  setenv("IDIOM_MIN_TRIP", "0", 1);
  enum { ROWS = 300, COLS = 1024 };
  int *m = malloc(4ull * ROWS * COLS);
  for (int i = 0; i < ROWS * COLS; ++i)
    m[i] = i % 101;
  idiom_region_begin();
  for (int pass = 0; pass < 3; ++pass)
    for (int r = 0; r < ROWS; ++r)
      RUN_OK(addk(m + r * COLS, COLS, r + pass, pass == 1));
  idiom_region_end();
  int bad = 0;
  for (int r = 0; r < ROWS; ++r)
    for (int j = 0; j < COLS; ++j)
      bad += m[r * COLS + j] != (r * COLS + j) % 101 + 3 * r + 3;
  CHECK_MSG(bad == 0, "%d wrong elements", bad);
  free(m);
}

void case_resid_evict_stats(void) {
  const char *env[] = {"IDIOM_STATS=1", NULL};
  char *err = NULL;
  int st = spawn_case("resid_evict", env, &err);
  CHECK_MSG(st == 0, "%s", err ? err : "");
  /* 900 runs on 300 ranges, at most 64 resident: 236 evicted per pass at
     least, and no reuse across passes. */
  const char *p = err ? strstr(err, "evicted=") : NULL;
  CHECK_MSG(p && atoi(p + 8) >= 3 * (300 - 64), "%s", err ? err : "");
  free(err);
}

void case_resid_stats(void) {
  const char *env[] = {"IDIOM_STATS=1", NULL};
  char *err = NULL;
  int st = spawn_case("resid_reduce", env, &err);
  CHECK_MSG(st == 0, "%s", err ? err : "");
  CHECK_MSG(err && strstr(err, "idiom-stats: residency regions=1 reused="),
            "%s", err ? err : "");
  /* addk: 1 + 10 runs, y copied in once inside the region. */
  CHECK_MSG(err && strstr(err, "test_residency.c:addk map calls=10 "),
            "%s", err ? err : "");
  CHECK_MSG(err && strstr(err, "bytes_in=262144 bytes_out=0"), "%s",
            err ? err : "");
  free(err);
}

void case_resid_memmove(void) {
  setenv("IDIOM_MIN_TRIP", "0", 1);
  enum { N = 1 << 14, ITERS = 20 };
  int *a = malloc(4 * N), *z = malloc(4 * N), *h = malloc(4 * N);
  int *ra = malloc(4 * N), *rz = malloc(4 * N);
  for (int i = 0; i < N; ++i) {
    a[i] = ra[i] = i % 1000;
    h[i] = -i;
  }
  uint64_t in0 = bytes_in(), out0 = bytes_out();
  idiom_region_begin();
  for (int t = 0; t < ITERS; ++t) {
    RUN_OK(dbl(a, z, N)); /* z = 2a */
    RUN_OK(addk(z, N, 1, 1)); /* z += 1 */
    idiom_region_memmove(a, z, 4ull * N); /* a = z, on the device */
    for (int i = 0; i < N; ++i)
      rz[i] = 2 * ra[i] + 1;
    memcpy(ra, rz, 4ull * N);
  }
  /* a (filled once) and nothing else crossed so far. */
  CHECK_MSG(bytes_in() - in0 == 4ull * N && bytes_out() == out0,
            "in %llu out %llu", (unsigned long long)(bytes_in() - in0),
            (unsigned long long)(bytes_out() - out0));
  /* A partial copy inside resident ranges, then one within one buffer. */
  idiom_region_memmove(z + 10, a + 300, 4 * 100);
  memmove(rz + 10, ra + 300, 4 * 100);
  idiom_region_memmove(a + 5000, a + 9000, 4 * 50);
  memmove(ra + 5000, ra + 9000, 4 * 50);
  /* Overlapping within one buffer: the host path. */
  idiom_region_memmove(z + 1, z, 4 * 1000);
  memmove(rz + 1, rz, 4 * 1000);
  /* From a host-only array into part of a resident range. */
  idiom_region_memmove(a + 100, h, 4 * 64);
  memmove(ra + 100, h, 4 * 64);
  RUN_OK(addk(a, N, 3, 1));
  for (int i = 0; i < N; ++i)
    ra[i] += 3;
  /* A fill of part of a resident range, then of a whole one. */
  idiom_region_memset(a + 7, 0xff, 4 * 9);
  memset(ra + 7, 0xff, 4 * 9);
  RUN_OK(dbl(a, z, N));
  for (int i = 0; i < N; ++i)
    rz[i] = 2 * ra[i];
  idiom_region_memset(z, 0, 4ull * N);
  memset(rz, 0, 4ull * N);
  RUN_OK(addk(z, N, 7, 1));
  for (int i = 0; i < N; ++i)
    rz[i] += 7;
  idiom_region_end();
  CHECK_MSG(wrong(a, ra, N) == 0, "a: %d wrong elements", wrong(a, ra, N));
  CHECK_MSG(wrong(z, rz, N) == 0, "z: %d wrong elements", wrong(z, rz, N));
  /* Outside a region: a plain memmove / memset. */
  idiom_region_memmove(h, a, 4 * 16);
  idiom_region_memset(h + 16, 0, 4 * 16);
  int bad = 0;
  for (int i = 0; i < 16; ++i)
    bad += h[i] != a[i] || h[16 + i] != 0;
  CHECK_MSG(bad == 0, "outside a region: %d wrong elements", bad);
  free(a);
  free(z);
  free(h);
  free(ra);
  free(rz);
}

void case_resid_memmove_grow(void) {
  setenv("IDIOM_MIN_TRIP", "0", 1);
  enum { N = 1 << 14, ITERS = 6 };
  int *a = malloc(4 * N), *z = malloc(4 * N);
  int *ra = malloc(4 * N), *rz = malloc(4 * N);
  for (int i = 0; i < N; ++i) {
    a[i] = ra[i] = i % 977;
    z[i] = rz[i] = -i;
  }
  uint64_t in_first = 0;
  idiom_region_begin();
  for (int t = 0; t < ITERS; ++t) {
    uint64_t in0 = bytes_in();
    RUN_OK(dbl(a + 1, z + 1, N - 2)); /* the interior of z = 2a */
    RUN_OK(addk(z + 2, N - 4, t, 0)); /* a smaller interior, in part */
    idiom_region_memmove(a, z, 4ull * N);
    for (int i = 1; i < N - 1; ++i)
      rz[i] = 2 * ra[i] + (i >= 2 && i < N - 2 ? t : 0);
    memcpy(ra, rz, 4ull * N);
    if (t == 0)
      in_first = bytes_in() - in0;
    else
      CHECK_MSG(bytes_in() == in0, "iteration %d: %llu bytes in", t,
                (unsigned long long)(bytes_in() - in0));
  }
  /* The first iteration fills a's interior, then each whole array once. */
  CHECK_MSG(in_first <= 4ull * (3 * N), "first: %llu",
            (unsigned long long)in_first);
  /* A fill over a whole resident array grows nothing further. */
  idiom_region_memset(z, 0, 4ull * N);
  memset(rz, 0, 4ull * N);
  idiom_region_end();
  CHECK_MSG(wrong(a, ra, N) == 0, "a: %d wrong elements", wrong(a, ra, N));
  CHECK_MSG(wrong(z, rz, N) == 0, "z: %d wrong elements", wrong(z, rz, N));
  free(a);
  free(z);
  free(ra);
  free(rz);
}

void case_resid_sweep(void) {
  setenv("IDIOM_MIN_TRIP", "0", 1);
  enum { P = 1024, PL = 40 };
  int *a = malloc(4 * P * PL), *ra = malloc(4 * P * PL);
  for (int i = 0; i < P * PL; ++i)
    a[i] = ra[i] = i % 1013;
  uint64_t in0 = bytes_in();
  idiom_region_begin();
  for (int k = 0; k + 3 <= PL; ++k) {
    /* not dense: the entry keeps a snapshot for a diff copy-back */
    RUN_OK(addk(a + k * P, 3 * P, k + 1, 0));
    for (int i = k * P; i < (k + 3) * P; ++i)
      ra[i] += k + 1;
  }
  idiom_region_end();
  uint64_t in = bytes_in() - in0;
  CHECK_MSG(wrong(a, ra, P * PL) == 0, "sweep: %d wrong elements",
            wrong(a, ra, P * PL));
  CHECK_MSG(in == 4ull * P * PL, "sweep: %llu bytes in, want %llu",
            (unsigned long long)in, 4ull * P * PL);

  /* Two entries, then one run over both and the gap between them. */
  in0 = bytes_in();
  idiom_region_begin();
  RUN_OK(addk(a, P, 5, 1));
  RUN_OK(addk(a + 2 * P, P, 7, 0));
  RUN_OK(addk(a, 3 * P, 11, 0));
  idiom_region_end();
  for (int i = 0; i < 3 * P; ++i)
    ra[i] += (i < P ? 5 : i >= 2 * P ? 7 : 0) + 11;
  in = bytes_in() - in0;
  CHECK_MSG(wrong(a, ra, P * PL) == 0, "merge: %d wrong elements",
            wrong(a, ra, P * PL));
  CHECK_MSG(in == 4ull * 3 * P, "merge: %llu bytes in, want %llu",
            (unsigned long long)in, 4ull * 3 * P);
  free(a);
  free(ra);
}

void case_resid_host_access(void) {
  setenv("IDIOM_MIN_TRIP", "0", 1);
  enum { N = 4096 };
  int *y = malloc(4 * N), *ry = malloc(4 * N);
  for (int i = 0; i < N; ++i)
    y[i] = ry[i] = i % 97;
  idiom_region_begin();
  /* Not dense: the entry [y + 1, y + N - 1) keeps a snapshot (diff). */
  RUN_OK(addk(y + 1, N - 2, 1, 0));
  for (int i = 1; i < N - 1; ++i)
    ry[i] += 1;
  /* A host read of a device-newer element. */
  idiom_region_load(&y[5], 4, 0, 1);
  CHECK_MSG(y[5] == ry[5], "load: y[5] = %d, want %d", y[5], ry[5]);
  /* A host write the next run must see. */
  y[7] = ry[7] = 1000;
  idiom_region_store(&y[7], 4, 0, 1);
  /* A strided read, every 10th element, down from the top (negative
     stride), 8-byte elements: the first and last straddle the entry's
     ends (y[0] and y[N - 1] are outside it). */
  idiom_region_load(&y[N - 2], 8, -40, (N - 2) / 10 + 1);
  for (int i = N - 2, k = 0; k < (N - 2) / 10 + 1; i -= 10, ++k)
    CHECK_MSG(y[i] == ry[i] && y[i + 1] == ry[i + 1],
              "strided load: y[%d..%d] = %d %d, want %d %d", i, i + 1, y[i],
              y[i + 1], ry[i], ry[i + 1]);
  /* Strided host writes, written through (one rectangle plus the element
     straddling the entry's start: y[0..1]). */
  for (int i = 0; i < N - 1; i += 12) {
    y[i] = ry[i] = -i;
    y[i + 1] = ry[i + 1] = i;
  }
  idiom_region_store(&y[0], 8, 48, (N - 2) / 12 + 1);
  RUN_OK(addk(y + 1, N - 2, -1, 0));
  for (int i = 1; i < N - 1; ++i)
    ry[i] -= 1;
  /* y[5] is back to its old value on the device: after the host read it
     must still be copied back (the host holds the newer one otherwise). */
  idiom_region_end();
  CHECK_MSG(wrong(y, ry, N) == 0, "%d wrong elements", wrong(y, ry, N));
  free(y);
  free(ry);
}

/* The same with every rectangle copy refused (IDIOM_TEST_REFUSE_RECT, as
   NVIDIA's driver refused some): the element-by-element path must give the
   same bytes. */
void case_resid_host_access_elems(void) {
  setenv("IDIOM_TEST_REFUSE_RECT", "1", 1);
  case_resid_host_access();
}
