/*===- test_lap.c - A region's sites decided together; the zero-copy floor -===*
 *
 * Cases of idiomrt_test for issue 12 on CPU devices:
 *  - region_lap.c's state machine (idiomrt_lap_step) with faked figures:
 *    a lap of sites is learned, tried on the device, then decided as a
 *    whole, or left to the per-site model when its sides are better; one
 *    site alone, too many sites and a site not measured on the host are
 *    left to the per-site model; a device run is a lap sample after a
 *    device run, a mixed sample after a host run; the host's verdict is
 *    tried again after a gap that doubles; on the device the verdict holds
 *    until the device is 10% slower;
 *  - costmodel.c's bytes before the device is started: none for a range a
 *    zero-copy device would read in place, when the start-up record says
 *    its device shares the host's memory (`unified 1`), and for a map's
 *    range at an element offset (idiomrt_entry.offsets); all of them
 *    without the line or with IDIOM_ZERO_COPY=off.
 *
 *===----------------------------------------------------------------------===*/
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include "rt_internal.h"
#include "test_common.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Three sites A, B, C (entries faked by addresses) of one class. */
static char g_site[IDIOMRT_LAP_MAX + 1];

static idiomrt_lap_site site(unsigned k, double host, double dev,
                             uint32_t hn, uint32_t ln) {
  /* (the per-site model: the host is its better side) */
  idiomrt_lap_site s = {&g_site[k], 21, host, dev, dev, host, hn, ln};
  return s;
}

/* Runs one lap of n sites (host ns each, device ns each, samples), the
   per-site model saying dec for each; returns the decisions in out. */
static void lap(idiomrt_lap *L, unsigned n, double host, double dev,
                uint32_t hn, uint32_t ln, int dec, int *out) {
  for (unsigned k = 0; k < n; ++k) {
    idiomrt_lap_site s = site(k, host, dev, hn, ln);
    const char *why;
    out[k] = idiomrt_lap_step(L, &s, dec, &why);
  }
}

static int all(const int *d, unsigned n, int want) {
  for (unsigned k = 0; k < n; ++k)
    if (d[k] != want)
      return 0;
  return 1;
}

static void fresh(idiomrt_lap *L) {
  memset(L, 0, sizeof *L);
  L->rid = 1;
  L->gap = IDIOMRT_LAP_GAP0;
}

void case_lap_steps(void) {
  idiomrt_lap L;
  int d[IDIOMRT_LAP_MAX + 1];
  const int H = IDIOMRT_DEC_HOST_FASTER;
  /* learn: the per-site model decides the first lap */
  fresh(&L);
  lap(&L, 3, 3e6, 0, 1, 0, H, d);
  CHECK(all(d, 3, H) && L.mode == IDIOMRT_LAP_MODE_LEARN && L.n == 3);
  /* the first site again: every site has a host sample, none a lap
     sample: a trial, every site on the device */
  lap(&L, 3, 3e6, 0, 1, 0, H, d);
  CHECK(L.mode == IDIOMRT_LAP_MODE_TRIAL);
  CHECK(all(d, 3, IDIOMRT_DEC_EXPLORE_DEVICE));
  /* a lap sample only after a device run: not the trial's first call
     (after host runs: a mixed sample), every later one */
  fresh(&L);
  lap(&L, 3, 3e6, 0, 1, 0, H, d);
  idiomrt_lap_site s = site(0, 3e6, 0, 1, 0);
  const char *why;
  idiomrt_lap_step(&L, &s, H, &why);
  CHECK(idiomrt_lap_follows(&L, &g_site[0]) == 2); /* a mixed sample */
  s = site(1, 3e6, 0, 1, 0);
  idiomrt_lap_step(&L, &s, H, &why);
  CHECK(idiomrt_lap_follows(&L, &g_site[1]) == 1);
  CHECK(idiomrt_lap_follows(&L, &g_site[0]) == 0); /* not the latest */
  s = site(2, 3e6, 0, 1, 0);
  idiomrt_lap_step(&L, &s, H, &why);
  /* the trial's laps with lap samples: device 2 ms a site against 3 ms on
     the host: every site on the device, after IDIOMRT_LAP_TRIAL laps */
  for (unsigned i = 1; i < IDIOMRT_LAP_TRIAL; ++i) {
    lap(&L, 3, 3e6, 2e6, 1, 2, H, d);
    CHECK_MSG(all(d, 3, IDIOMRT_DEC_EXPLORE_DEVICE), "trial lap %u", i);
  }
  lap(&L, 3, 3e6, 2e6, 1, 2, H, d);
  CHECK(L.mode == IDIOMRT_LAP_MODE_DEVICE && all(d, 3, IDIOMRT_DEC_DEVICE));
  /* on the device the verdict holds until the device is 10% slower (3.2
     against 3 ms) ... */
  lap(&L, 3, 3e6, 3.2e6, 1, 3, H, d);
  lap(&L, 3, 3e6, 3.2e6, 1, 3, H, d);
  CHECK(L.mode == IDIOMRT_LAP_MODE_DEVICE && all(d, 3, IDIOMRT_DEC_DEVICE));
  /* ... and leaves once it is (3.4 against 3 ms): every site on the host,
     with the lap's reason */
  lap(&L, 3, 3e6, 3.4e6, 1, 3, H, d);
  lap(&L, 3, 3e6, 3.4e6, 1, 3, H, d);
  CHECK(L.mode == IDIOMRT_LAP_MODE_HOST && all(d, 3, H));
  s = site(1, 3e6, 3.4e6, 1, 3);
  CHECK(idiomrt_lap_step(&L, &s, IDIOMRT_DEC_DEVICE, &why) == H && why &&
        strstr(why, "region's sites together"));
  CHECK(idiomrt_lap_follows(&L, &g_site[1]) == 0); /* none on the host */
}

void case_lap_host(void) {
  idiomrt_lap L;
  int d[IDIOMRT_LAP_MAX + 1];
  const int H = IDIOMRT_DEC_HOST_FASTER, D = IDIOMRT_DEC_DEVICE;
  /* lap samples known already (a region entered again): the first
     complete lap decides without a trial; device 2.8 against 3 ms a site
     is not 10% faster: the host, although the per-site model said device */
  fresh(&L);
  lap(&L, 3, 3e6, 2.8e6, 1, 3, D, d);
  CHECK(all(d, 3, D)); /* learning: the model's */
  lap(&L, 3, 3e6, 2.8e6, 1, 3, D, d);
  CHECK(L.mode == IDIOMRT_LAP_MODE_HOST && all(d, 3, H));
  /* the host's verdict is tried again after IDIOMRT_LAP_GAP0 laps */
  unsigned laps = 0;
  while (L.mode == IDIOMRT_LAP_MODE_HOST && laps < 10 * IDIOMRT_LAP_GAP0) {
    lap(&L, 3, 3e6, 2.8e6, 1, 3, D, d);
    ++laps;
  }
  CHECK_MSG(laps == IDIOMRT_LAP_GAP0 && L.mode == IDIOMRT_LAP_MODE_TRIAL,
            "%u laps", laps);
  /* the trial loses again: the next gap doubles */
  for (unsigned i = 0; i < IDIOMRT_LAP_TRIAL; ++i)
    lap(&L, 3, 3e6, 2.8e6, 1, 3, D, d);
  CHECK(L.mode == IDIOMRT_LAP_MODE_HOST && L.gap == 2 * IDIOMRT_LAP_GAP0);
  /* a trial that never gets a lap sample of every site (kernels building:
     the runs fall back) ends on the host after IDIOMRT_LAP_TRIAL_MAX laps */
  fresh(&L);
  lap(&L, 2, 3e6, 0, 1, 0, H, d);
  lap(&L, 2, 3e6, 0, 1, 0, H, d);
  CHECK(L.mode == IDIOMRT_LAP_MODE_TRIAL);
  for (unsigned i = 0; i < IDIOMRT_LAP_TRIAL_MAX; ++i)
    lap(&L, 2, 3e6, 0, 1, 0, H, d);
  CHECK(L.mode == IDIOMRT_LAP_MODE_HOST);
}

void case_lap_site(void) {
  idiomrt_lap L;
  const int H = IDIOMRT_DEC_HOST_FASTER, D = IDIOMRT_DEC_DEVICE;
  /* A: 10 ms on the host, 4 ms on the device per site, 5 ms on it all
     together; B: 1 ms on the host, 6 ms on the device all together. All
     on the device (11 ms) is no faster than all on the host (11 ms), each
     on its side (5 ms) is: the per-site model decides, whatever it says */
  idiomrt_lap_site a = {&g_site[0], 21, 10e6, 5e6, 5e6, 4e6, 1, 3};
  idiomrt_lap_site b = {&g_site[1], 21, 1e6, 6e6, 6e6, 1e6, 1, 3};
  const char *why;
  fresh(&L);
  for (int i = 0; i < 3; ++i) {
    CHECK(idiomrt_lap_step(&L, &a, D, &why) == D);
    CHECK(idiomrt_lap_step(&L, &b, H, &why) == H && !why);
  }
  CHECK(L.mode == IDIOMRT_LAP_MODE_SITE);
  /* the same with A's per-site estimate no better than its host's: all on
     the host */
  a.mixed = a.host;
  fresh(&L);
  for (int i = 0; i < 3; ++i) {
    idiomrt_lap_step(&L, &a, D, &why);
    idiomrt_lap_step(&L, &b, H, &why);
  }
  CHECK(L.mode == IDIOMRT_LAP_MODE_HOST);
  CHECK(idiomrt_lap_step(&L, &a, D, &why) == H);
  /* all on the device wins only by 10% over the better of the others:
     device 9 ms a lap against 9.5 per site: the per-site model */
  a.mixed = 8.5e6;
  a.dev = a.dev_best = 3e6;
  fresh(&L);
  for (int i = 0; i < 3; ++i) {
    idiomrt_lap_step(&L, &a, D, &why);
    idiomrt_lap_step(&L, &b, H, &why);
  }
  CHECK(L.mode == IDIOMRT_LAP_MODE_SITE);
  /* device 8 ms against 9.5: all on the device */
  a.dev = a.dev_best = 2e6;
  fresh(&L);
  for (int i = 0; i < 3; ++i) {
    idiomrt_lap_step(&L, &a, H, &why);
    idiomrt_lap_step(&L, &b, H, &why);
  }
  CHECK(L.mode == IDIOMRT_LAP_MODE_DEVICE);
  CHECK(idiomrt_lap_step(&L, &b, H, &why) == D);
}

void case_lap_left_alone(void) {
  idiomrt_lap L;
  int d[IDIOMRT_LAP_MAX + 1];
  const int H = IDIOMRT_DEC_HOST_FASTER;
  /* one site alone: nothing to mix, the model's decisions */
  fresh(&L);
  for (int i = 0; i < 3 * IDIOMRT_LAP_TRIAL; ++i) {
    lap(&L, 1, 3e6, 1e6, 1, 3, H, d);
    CHECK(d[0] == H);
  }
  /* more sites than a lap holds: the per-site model */
  fresh(&L);
  for (int i = 0; i < 3; ++i)
    lap(&L, IDIOMRT_LAP_MAX + 1, 3e6, 1e6, 1, 3, H, d);
  CHECK(L.mode == IDIOMRT_LAP_MODE_OFF);
  CHECK(all(d, IDIOMRT_LAP_MAX + 1, H));
  /* a site not measured on the host yet keeps the model's decision (the
     model measures it) while the others are tried */
  fresh(&L);
  lap(&L, 2, 3e6, 0, 1, 0, H, d);
  lap(&L, 2, 3e6, 0, 1, 0, H, d);
  CHECK(L.mode == IDIOMRT_LAP_MODE_TRIAL);
  idiomrt_lap_site s = site(2, 0, 0, 0, 0);
  const char *why;
  CHECK(idiomrt_lap_step(&L, &s, IDIOMRT_DEC_EXPLORE_HOST, &why) ==
        IDIOMRT_DEC_EXPLORE_HOST);
}

/* Writes IDIOM_CACHE_DIR's start-up record (calibration.c's format, with
   its check), with a `unified 1` line when unified. */
static void write_record(int unified) {
  char dir[] = "/tmp/idiomrt-lap-XXXXXX";
  CHECK(mkdtemp(dir) != NULL);
  setenv("IDIOM_CACHE_DIR", dir, 1);
  char path[256], buf[512];
  snprintf(path, sizeof path, "%s/startup-auto.txt", dir);
  int n = snprintf(buf, sizeof buf,
                   "idiom-startup 1\ndevice test\nlat_ns 20000\n"
                   "bw_bps 10000000000\nstart_ms 100\nage 0\n%s",
                   unified ? "unified 1\n" : "");
  n += snprintf(buf + n, sizeof buf - (size_t)n, "check %016llx\n",
                (unsigned long long)idiomrt_fnv1a(IDIOMRT_FNV_OFFSET, buf,
                                                  (size_t)n));
  FILE *f = fopen(path, "w");
  CHECK(f && fwrite(buf, 1, (size_t)n, f) == (size_t)n);
  if (f)
    fclose(f);
}

/* A page-aligned array, its start + 8 (an element offset, not 16-byte
   aligned) and the bytes each argument moves when copied. */
static void floor_args(idiom_arg *a, void **mem) {
  double *p = aligned_alloc(4096, 8192);
  *mem = p;
  a[0] = buf(IDIOM_ARG_BUF_IN, p, 4096);
  a[1] = buf(IDIOM_ARG_BUF_OUT, p + 513, 2048);
  a[2] = i32(7);
}

void case_zcfloor_unified(void) {
  write_record(1);
  idiom_arg a[3];
  void *mem;
  floor_args(a, &mem);
  CHECK(idiomrt_device_peek() == NULL); /* not started */
  /* the record's device reads in place: the aligned input and the output
     at an element offset move nothing */
  CHECK(idiomrt_cost_bytes_moved(a, 3, "8 8") == 0);
  /* without element offsets the output's start is not aligned: copied
     in and back */
  CHECK(idiomrt_cost_bytes_moved(a, 3, NULL) == 2 * 2048);
  /* an offset list that names another element size for it: copied */
  CHECK(idiomrt_cost_bytes_moved(a, 3, "8 16") == 2 * 2048);
  free(mem);
}

void case_zcfloor_plain(void) {
  /* no `unified` line (a GPU's record), or zero-copy off: every range is
     copied */
  write_record(0);
  idiom_arg a[3];
  void *mem;
  floor_args(a, &mem);
  CHECK(idiomrt_device_peek() == NULL);
  CHECK(idiomrt_cost_bytes_moved(a, 3, "8 8") == 4096 + 2 * 2048);
  free(mem);
}

void case_zcfloor_off(void) {
  /* IDIOM_ZERO_COPY=off: the record's device copies like any other */
  setenv("IDIOM_ZERO_COPY", "off", 1);
  write_record(1);
  idiom_arg a[3];
  void *mem;
  floor_args(a, &mem);
  CHECK(idiomrt_cost_bytes_moved(a, 3, "8 8") == 4096 + 2 * 2048);
  free(mem);
}
