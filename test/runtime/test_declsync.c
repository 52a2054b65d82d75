/*===- test_declsync.c - A host run's own sync inside a region ------------===*
 *
 * idiom_region_sync_args and the declined idiom_run of a caller that uses
 * it (runtime/lib/resid_sync.c), on PoCL with IDIOM_MIN_TRIP=0 unless a
 * case needs a decline. Every case checks the host's memory against a
 * reference, and the bytes copied in, so that a stale value, a lost write
 * or a copy that should have stayed on the device fails:
 *
 * sync_args_other   two ranges in a region, the original loop of a call on
 *                   one: the other stays resident (device-newer: the host
 *                   still has its old bytes) and the next run on it copies
 *                   nothing in; the synced one is current on the host and
 *                   refilled by its next run.
 * sync_args_input   a range only read by the loop: its device-newer bytes
 *                   come back, and its copy stays (the next run copies
 *                   nothing in); the loop's output range is released.
 * sync_args_partly  the loop writes a range that a device copy holds only
 *                   partly (inside one entry, and across two entries): each
 *                   such copy comes back and is released, and later runs
 *                   see the host's writes.
 * sync_args_decline a declined run of a caller that has called
 *                   idiom_region_sync_args syncs only its own ranges; one
 *                   of a descriptor that never did syncs the whole table.
 * sync_args_full    idiom_region_sync (objects built before
 *                   idiom_region_sync_args), NULL args and an argument with
 *                   a NULL pointer (an extent not known) sync the whole
 *                   table.
 * sync_args_cost    idiomrt_resid_sync_args_bytes: what a host run of the
 *                   call costs in copies (the cost model's charge).
 *
 *===----------------------------------------------------------------------===*/
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include "idiomrt.h"
#include "rt_internal.h" /* idiomrt_resid_bytes, _sync_args_bytes */
#include "test_common.h"

#include <stdlib.h>
#include <string.h>

/* y[i] += k over n ints; args: n, k, y (INOUT). */
static const char dsk_src[] =
    "__kernel void dsk(const int n, const int k, __global int *y) {\n"
    "  size_t i = get_global_id(0);\n"
    "  if (i < (size_t)n) y[i] += k;\n"
    "}\n";
static const idiom_kernel_desc dsk_desc = {
    "dsk", "test_declsync.c:dsk", "map", dsk_src, IDIOM_MAP, 1, 0, 0, NULL};
/* The same kernel under a descriptor that never calls sync_args. */
static const idiom_kernel_desc dsk_old_desc = {
    "dsk", "test_declsync.c:dsk_old", "map", dsk_src, IDIOM_MAP, 1, 0, 0, NULL};

/* z[i] = x[i] * 2; args: n, x (IN), z (OUT, dense). */
static const char dsd_src[] =
    "__kernel void dsd(const int n, __global const int *x,\n"
    "                  __global int *z) {\n"
    "  size_t i = get_global_id(0);\n"
    "  if (i < (size_t)n) z[i] = x[i] * 2;\n"
    "}\n";
static const idiom_kernel_desc dsd_desc = {
    "dsd", "test_declsync.c:dsd", "map", dsd_src, IDIOM_MAP, 1, 0, 0, NULL};

static void addk_args(idiom_arg a[3], int *y, int n, int k) {
  a[0] = i32(n);
  a[1] = i32(k);
  a[2] = buf(IDIOM_ARG_BUF_INOUT, y, 4ull * n);
  a[2].flags = IDIOM_ARG_DENSE;
}

static int addk_d(const idiom_kernel_desc *d, int *y, int n, int k) {
  idiom_arg a[3];
  addk_args(a, y, n, k);
  uint64_t sizes[1] = {(uint64_t)n};
  return idiom_run(d, a, 3, sizes, NULL);
}

static int addk(int *y, int n, int k) { return addk_d(&dsk_desc, y, n, k); }

static void dbl_args(idiom_arg a[3], const int *x, int *z, int n) {
  a[0] = i32(n);
  a[1] = buf(IDIOM_ARG_BUF_IN, (void *)x, 4ull * n);
  a[2] = buf(IDIOM_ARG_BUF_OUT, z, 4ull * n);
  a[2].flags = IDIOM_ARG_DENSE;
}

static int dbl(const int *x, int *z, int n) {
  idiom_arg a[3];
  dbl_args(a, x, z, n);
  uint64_t sizes[1] = {(uint64_t)n};
  return idiom_run(&dsd_desc, a, 3, sizes, NULL);
}

/* The original loop of addk, as the stitched code runs it after
   idiom_region_sync_args. */
static void addk_host(int *y, int n, int k) {
  idiom_arg a[3];
  addk_args(a, y, n, k);
  idiom_region_sync_args(&dsk_desc, a, 3);
  for (int i = 0; i < n; ++i)
    y[i] += k;
}

static uint64_t bytes_in(void) {
  uint64_t in = 0;
  idiom_transfer_bytes(&in, NULL);
  return in;
}

static int wrong(const int *y, const int *want, int n) {
  int bad = 0;
  for (int i = 0; i < n; ++i)
    bad += y[i] != want[i];
  return bad;
}

static void fill(int *y, int *want, int n, int mul) {
  for (int i = 0; i < n; ++i)
    y[i] = want[i] = mul * i;
}

static void add(int *want, int n, int k) {
  for (int i = 0; i < n; ++i)
    want[i] += k;
}

#define RUN_OK(call) CHECK_MSG((call) == 1, "declined: %s", reason_or_none())

/* Two arrays of n ints (a[i] = 3i, b[i] = 5i) and their references. */
typedef struct two {
  int *a, *b, *wa, *wb;
} two;

static two two_new(int n) {
  two t = {malloc(4ull * n), malloc(4ull * n), malloc(4ull * n),
           malloc(4ull * n)};
  fill(t.a, t.wa, n, 3);
  fill(t.b, t.wb, n, 5);
  return t;
}

/* Opens a region and makes both arrays device-newer (a += 1, b += 2). */
static void two_resident(two t, int n) {
  idiom_region_begin();
  RUN_OK(addk(t.a, n, 1));
  RUN_OK(addk(t.b, n, 2));
  add(t.wa, n, 1);
  add(t.wb, n, 2);
}

/* Checks both arrays against their references (after the region), frees. */
static void two_done(two t, int n) {
  CHECK_MSG(wrong(t.a, t.wa, n) == 0, "a: %d wrong", wrong(t.a, t.wa, n));
  CHECK_MSG(wrong(t.b, t.wb, n) == 0, "b: %d wrong", wrong(t.b, t.wb, n));
  free(t.a);
  free(t.b);
  free(t.wa);
  free(t.wb);
}

void case_sync_args_other(void) {
  setenv("IDIOM_MIN_TRIP", "0", 1);
  enum { N = 1 << 15 };
  two t = two_new(N);
  int *a = t.a, *b = t.b, *wa = t.wa, *wb = t.wb;
  two_resident(t, N);
  /* The original loop of a call on a: a comes back, b stays. */
  addk_host(a, N, 10);
  add(wa, N, 10);
  CHECK_MSG(wrong(a, wa, N) == 0, "a after its host run: %d wrong",
            wrong(a, wa, N));
  CHECK_MSG(b[7] == 5 * 7, "b came back to the host: %d", b[7]);
  CHECK(idiomrt_resid_bytes() == 4ull * N); /* b's copy only */
  uint64_t in0 = bytes_in();
  RUN_OK(addk(b, N, 3)); /* resident: nothing copied in */
  add(wb, N, 3);
  CHECK_MSG(bytes_in() - in0 == 0, "b copied in again: %llu bytes",
            (unsigned long long)(bytes_in() - in0));
  in0 = bytes_in();
  RUN_OK(addk(a, N, 4)); /* released: filled again, with the host's bytes */
  add(wa, N, 4);
  CHECK(bytes_in() - in0 == 4ull * N);
  idiom_region_end();
  two_done(t, N);
}

void case_sync_args_input(void) {
  setenv("IDIOM_MIN_TRIP", "0", 1);
  enum { N = 1 << 15 };
  int *x = malloc(4 * N), *z = malloc(4 * N);
  int *wx = malloc(4 * N), *wz = malloc(4 * N);
  fill(x, wx, N, 3);
  fill(z, wz, N, 0);
  idiom_region_begin();
  RUN_OK(addk(x, N, 1)); /* x device-newer */
  add(wx, N, 1);
  RUN_OK(dbl(x, z, N)); /* z device-newer */
  /* The original loop of dbl: reads x, writes z. */
  idiom_arg a[3];
  dbl_args(a, x, z, N);
  idiom_region_sync_args(&dsd_desc, a, 3);
  CHECK_MSG(wrong(x, wx, N) == 0, "x not current for the host loop: %d",
            wrong(x, wx, N));
  for (int i = 0; i < N; ++i)
    z[i] = x[i] * 2 + 1; /* a host loop that differs, to see its bytes */
  for (int i = 0; i < N; ++i)
    wz[i] = wx[i] * 2 + 1;
  CHECK(idiomrt_resid_bytes() == 4ull * N); /* x kept, z released */
  uint64_t in0 = bytes_in();
  RUN_OK(addk(x, N, 2)); /* x clean and resident: nothing copied in */
  add(wx, N, 2);
  CHECK_MSG(bytes_in() - in0 == 0, "x copied in again: %llu bytes",
            (unsigned long long)(bytes_in() - in0));
  RUN_OK(addk(z, N, 1)); /* z from the host's bytes */
  add(wz, N, 1);
  idiom_region_end();
  CHECK_MSG(wrong(x, wx, N) == 0, "x: %d wrong", wrong(x, wx, N));
  CHECK_MSG(wrong(z, wz, N) == 0, "z: %d wrong", wrong(z, wz, N));
  free(x);
  free(z);
  free(wx);
  free(wz);
}

void case_sync_args_partly(void) {
  setenv("IDIOM_MIN_TRIP", "0", 1);
  enum { N = 1 << 15 };
  /* One allocation, two entries [0, N) and [N, 2N), and a third array. */
  int *y = malloc(8 * N), *w = malloc(8 * N), *c = malloc(4 * N),
      *wc = malloc(4 * N);
  fill(y, w, 2 * N, 7);
  fill(c, wc, N, 1);
  idiom_region_begin();
  RUN_OK(addk(y, N, 1));
  RUN_OK(addk(y + N, N, 2));
  RUN_OK(addk(c, N, 3));
  add(w, N, 1);
  add(w + N, N, 2);
  add(wc, N, 3);
  /* A host loop writing 10 elements strictly inside the first entry. */
  addk_host(y + N / 2, 10, 100);
  add(w + N / 2, 10, 100);
  CHECK(idiomrt_resid_bytes() == 8ull * N); /* second entry and c stay */
  /* A host loop writing across the end of the second entry's neighbour:
     [N - 5, N + 5) overlaps the (refilled) first and the second. */
  RUN_OK(addk(y, N, 1));
  add(w, N, 1);
  addk_host(y + N - 5, 10, 1000);
  add(w + N - 5, 10, 1000);
  CHECK_MSG(wrong(y, w, 2 * N) == 0, "y after the host loop: %d wrong",
            wrong(y, w, 2 * N));
  CHECK(idiomrt_resid_bytes() == 4ull * N); /* only c */
  CHECK_MSG(c[3] == 3, "c came back: %d", c[3]);
  RUN_OK(addk(y, 2 * N, 1)); /* must see both host loops' writes */
  add(w, 2 * N, 1);
  idiom_region_end();
  CHECK_MSG(wrong(y, w, 2 * N) == 0, "y: %d wrong", wrong(y, w, 2 * N));
  CHECK_MSG(wrong(c, wc, N) == 0, "c: %d wrong", wrong(c, wc, N));
  free(y);
  free(w);
  free(c);
  free(wc);
}

void case_sync_args_decline(void) {
  setenv("IDIOM_MIN_TRIP", "1000", 1);
  enum { N = 1 << 14, SMALL = 10 };
  two t = two_new(N);
  int *a = t.a, *b = t.b, *wa = t.wa, *wb = t.wb;
  two_resident(t, N);
  /* The site's first host run (the plugin's sync at the fallback). */
  addk_host(a, SMALL, 10);
  add(wa, SMALL, 10);
  RUN_OK(addk(a, N, 1));
  add(wa, N, 1);
  /* A decline of the same descriptor: below IDIOM_MIN_TRIP. */
  CHECK(addk(a, SMALL, 5) == 0);
  CHECK(starts_with(idiom_last_reason(), "work below threshold"));
  CHECK_MSG(wrong(a, wa, N) == 0, "a stale after the decline: %d",
            wrong(a, wa, N));
  CHECK_MSG(b[9] == 5 * 9, "b synced by the decline: %d", b[9]);
  CHECK(idiomrt_resid_bytes() == 4ull * N);
  addk_host(a, SMALL, 5); /* the caller's sync, then the loop */
  add(wa, SMALL, 5);
  /* A decline of a descriptor whose caller never syncs its own ranges: the
     whole table, as before. */
  RUN_OK(addk(a, N, 1));
  add(wa, N, 1);
  CHECK(addk_d(&dsk_old_desc, a, SMALL, 7) == 0);
  CHECK_MSG(wrong(b, wb, N) == 0, "b not synced by an old decline: %d",
            wrong(b, wb, N));
  CHECK(idiomrt_resid_bytes() == 0);
  for (int i = 0; i < SMALL; ++i)
    a[i] += 7;
  add(wa, SMALL, 7);
  idiom_region_end();
  two_done(t, N);
}

void case_sync_args_full(void) {
  setenv("IDIOM_MIN_TRIP", "0", 1);
  enum { N = 1 << 14 };
  two t = two_new(N);
  int *a = t.a, *b = t.b, *wa = t.wa, *wb = t.wb;
  idiom_region_begin();
  for (int round = 0; round < 3; ++round) {
    RUN_OK(addk(a, N, 1));
    RUN_OK(addk(b, N, 2));
    add(wa, N, 1);
    add(wb, N, 2);
    idiom_arg args[3];
    addk_args(args, a, N, 0);
    if (round == 0)
      idiom_region_sync(); /* the old ABI */
    else if (round == 1)
      idiom_region_sync_args(&dsk_desc, NULL, 3);
    else {
      args[2].ptr = NULL; /* a range not known on this path */
      idiom_region_sync_args(&dsk_desc, args, 3);
    }
    CHECK_MSG(idiomrt_resid_bytes() == 0, "round %d: %llu bytes kept",
              round, (unsigned long long)idiomrt_resid_bytes());
    CHECK_MSG(wrong(a, wa, N) == 0 && wrong(b, wb, N) == 0,
              "round %d: not current", round);
  }
  idiom_region_end();
  /* Outside a region: nothing, and no crash. */
  idiom_arg args[3];
  addk_args(args, a, N, 0);
  idiom_region_sync_args(&dsk_desc, args, 3);
  two_done(t, N);
}

void case_sync_args_cost(void) {
  setenv("IDIOM_MIN_TRIP", "0", 1);
  enum { N = 1 << 14 };
  int *x = calloc(N, 4), *z = calloc(N, 4), *q = calloc(N, 4);
  idiom_region_begin();
  RUN_OK(addk(x, N, 1)); /* dirty */
  RUN_OK(addk(q, N, 1)); /* dirty, not an argument below */
  idiom_arg a[3];
  dbl_args(a, x, z, N);
  uint64_t refill = 1, back = idiomrt_resid_sync_args_bytes(a, 3, &refill);
  /* x: read only (back 4N, kept); z not resident; q untouched. */
  CHECK_MSG(back == 4ull * N && refill == 0, "back %llu refill %llu",
            (unsigned long long)back, (unsigned long long)refill);
  RUN_OK(dbl(x, z, N)); /* z dirty and resident */
  back = idiomrt_resid_sync_args_bytes(a, 3, &refill);
  CHECK_MSG(back == 8ull * N && refill == 4ull * N, "back %llu refill %llu",
            (unsigned long long)back, (unsigned long long)refill);
  a[2].ptr = NULL; /* unknown: the whole table, both ways */
  back = idiomrt_resid_sync_args_bytes(a, 3, &refill);
  CHECK(back == 12ull * N && refill == 12ull * N);
  idiom_region_end();
  free(x);
  free(z);
  free(q);
}
