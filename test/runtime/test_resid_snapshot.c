/*===- test_resid_snapshot.c - Snapshot inputs inside residency regions ---===*
 *
 * An IN argument flagged IDIOM_ARG_SNAPSHOT that overlaps an output of its
 * run (PolyBench trmm's B, read as before the run while the run writes it)
 * inside a residency region (runtime/lib/resid_run.c, phase 3). The kernel
 * is y[i] += s[i] + s[(i + n - 1) % n], so that reading s from y's own
 * device buffer (the work item before i has written s[i - 1], in the order
 * PoCL runs them) gives another result; every case checks the host's memory
 * against a reference computed on the host with the snapshot's semantics
 * (s as before each run).
 *
 * resid_snapshot  the snapshot of a device-valid range held by one entry is
 *                 a device-side copy (nothing copied in, `snapshots=`
 *                 counted) in a time loop of runs, over the output's own
 *                 range (the entry's buffer) and one element before it (a
 *                 view of the entry); host reads and writes between runs
 *                 (idiom_region_load/store) are seen. With zero-copy on
 *                 (runtime.zc.resid_snapshot) the map reads a in place and
 *                 the time loop's snapshots are device copies still, also
 *                 of an aligned snapshot whose misaligned output is copied
 *                 (idiomrt_resid_snapshot_zc). Then, with zero-copy off
 *                 for the counters: a snapshot that no entry holds whole,
 *                 over an entry that a run grew on the device (dirty), has
 *                 that entry copied back first and comes from the host;
 *                 the next run grows that entry over the snapshot's range,
 *                 a device copy again.
 *
 *===----------------------------------------------------------------------===*/
#include "idiomrt.h"
#include "rt_internal.h" /* idiomrt_resid_n */
#include "test_common.h"

#include <stdlib.h>
#include <string.h>

/* y[i] += s[i] + s[(i + n - 1) % n]; args: n, s (IN, n ints), y (INOUT,
   n). */
static const char rot_src[] =
    "__kernel void rot(const int n, __global const int *s,\n"
    "                  __global int *y) {\n"
    "  int i = (int)get_global_id(0);\n"
    "  if (i < n) y[i] += s[i] + s[(i + n - 1) % n];\n"
    "}\n";
static const idiom_kernel_desc rot_desc = {
    "rot", "test_resid_snapshot.c:rot", "map", rot_src, IDIOM_MAP, 1, 0, 0,
    NULL};

/* One run of rot; s flagged IDIOM_ARG_SNAPSHOT. */
static int rot(const int *s, int *y, int n) {
  idiom_arg a[3] = {i32(n), buf(IDIOM_ARG_BUF_IN, (void *)s, 4ull * n),
                    buf(IDIOM_ARG_BUF_INOUT, y, 4ull * n)};
  a[1].flags = IDIOM_ARG_SNAPSHOT;
  uint64_t sizes[1] = {(uint64_t)n};
  return idiom_run(&rot_desc, a, 3, sizes, NULL);
}

/* The same on the host, s read from a copy taken first. */
static void rot_ref(const int *s, int *y, int n) {
  int *old = malloc(4ull * n);
  memcpy(old, s, 4ull * n);
  for (int i = 0; i < n; ++i)
    y[i] += old[i] + old[(i + n - 1) % n];
  free(old);
}

static uint64_t in_bytes(void) {
  uint64_t in = 0;
  idiom_transfer_bytes(&in, NULL);
  return in;
}

static uint64_t counter(const uint64_t *c) {
  return __atomic_load_n(c, __ATOMIC_RELAXED);
}

#define RUN_OK(call) CHECK_MSG((call) == 1, "declined: %s", reason_or_none())

void case_resid_snapshot(void) {
  setenv("IDIOM_MIN_TRIP", "0", 1);
  const char *zc = getenv("IDIOM_ZERO_COPY");
  int copies = zc && !strcmp(zc, "off"); /* the table holds every range */
  enum { N = 1024, T = 6, K = 600, C = 3000 };
  int *a = malloc(4 * N), *ra = malloc(4 * N);
  int *c = malloc(4 * C), *rc = malloc(4 * C);
  for (int i = 0; i < N; ++i)
    a[i] = ra[i] = i % 100;
  for (int i = 0; i < C; ++i)
    c[i] = rc[i] = (i * 7) % 31;
  RUN_OK(rot(a, a, N)); /* builds; outside a region */
  rot_ref(ra, ra, N);
  CHECK(memcmp(a, ra, 4 * N) == 0);

  idiom_region_begin();
  RUN_OK(resid_addk(a, N, 1)); /* a is device-valid: one entry */
  for (int i = 0; i < N; ++i)
    ra[i] += 1;
  uint64_t in0 = in_bytes(), snaps0 = counter(&idiomrt_resid_n.snapshots);
  for (int t = 0; t < T; ++t) {
    /* the entry's whole range (the output passed as the entry's buffer),
       then one element apart (both views) */
    int off = t % 2, n = N - off;
    RUN_OK(rot(a, a + off, n));
    rot_ref(ra, ra + off, n);
    if (t == 2) {
      /* the host reads an element the device wrote, then writes one */
      idiom_region_load(&a[N / 2], 4, 0, 1);
      CHECK_MSG(a[N / 2] == ra[N / 2], "host read %d, want %d", a[N / 2],
                ra[N / 2]);
      a[7] = ra[7] = -3;
      idiom_region_store(&a[7], 4, 0, 1);
    }
  }
  /* With zero-copy the map's a is read in place (no entry): the first
     run fills a's entry once; every later run finds it, and the snapshot
     one element before a misaligned output (read in place outside
     regions: idiomrt_resid_snapshot_zc) is a device copy too. */
  CHECK_MSG(in_bytes() - in0 == (copies ? 0 : 4ull * N),
            "%llu bytes copied in", (unsigned long long)(in_bytes() - in0));
  CHECK_MSG(counter(&idiomrt_resid_n.snapshots) == snaps0 + T,
            "snapshots %llu, want %llu",
            (unsigned long long)counter(&idiomrt_resid_n.snapshots),
            (unsigned long long)(snaps0 + T));

  /* c: a run grows a dirty entry over [K + N/2, K + 3N/2) to hold its
     output [K, K + N), which then overlaps the snapshot [0, N) without
     holding it: copied back first, and the snapshot comes from the host. */
  RUN_OK(resid_addk(c + K + N / 2, N, 2));
  for (int i = K + N / 2; i < K + N + N / 2; ++i)
    rc[i] += 2;
  uint64_t flushed0 = counter(&idiomrt_resid_n.flush_bytes);
  snaps0 = counter(&idiomrt_resid_n.snapshots);
  RUN_OK(rot(c, c + K, N));
  rot_ref(rc, rc + K, N);
  if (copies) {
    CHECK_MSG(counter(&idiomrt_resid_n.snapshots) == snaps0,
              "a snapshot no entry holds was a device copy");
    CHECK_MSG(counter(&idiomrt_resid_n.flush_bytes) > flushed0,
              "the grown entry was not copied back before the snapshot");
  }
  /* Again: the snapshot now grows that entry (dirty) over its range, and
     is a device copy. */
  RUN_OK(rot(c, c + K, N));
  rot_ref(rc, rc + K, N);
  if (copies)
    CHECK_MSG(counter(&idiomrt_resid_n.snapshots) == snaps0 + 1,
              "the snapshot of a grown entry was no device copy");
  idiom_region_end();

  int bad = 0;
  for (int i = 0; i < N; ++i)
    bad += a[i] != ra[i];
  CHECK_MSG(bad == 0, "a: %d wrong elements", bad);
  bad = 0;
  for (int i = 0; i < C; ++i)
    bad += c[i] != rc[i];
  CHECK_MSG(bad == 0, "c: %d wrong elements", bad);
  free(a);
  free(ra);
  free(c);
  free(rc);
}
