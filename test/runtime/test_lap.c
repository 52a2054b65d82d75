/*===- test_lap.c - A region's sites decided together; the zero-copy floor -===*
 *
 * Cases of idiomrt_test for issue 12 on CPU devices:
 *  - region_lap.c's state machine (idiomrt_lap_step) with faked lap times:
 *    a lap of sites is run per site, tried on the host and on the device,
 *    then decided as a whole, or left to the per-site model when that is
 *    faster; one site alone, too many sites and a site never measured on
 *    the host are left to the per-site model; a lap with a call that fell
 *    back is not timed; the device is tried again after a gap that
 *    doubles; on the device the verdict holds until it is 10% slower;
 *  - costmodel.c's bytes before the device is started: none for a range a
 *    zero-copy device would read in place, when the start-up record says
 *    its device shares the host's memory (`unified 1`), and for a map's
 *    range at an element offset (idiomrt_entry.offsets); all of them
 *    without the line or with IDIOM_ZERO_COPY=off;
 *  - lap_run: the rule through idiom_run on PoCL (zero-copy): two sites
 *    of a region run their host trial and their device trial, every lap's
 *    results are right, and IDIOM_STATS's region-laps line counts them.
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
#include <time.h>
#include <unistd.h>

/* Sites faked by addresses, one size class each. */
static char g_site[IDIOMRT_LAP_MAX + 1];

typedef struct {
  idiomrt_lap L;
  uint64_t now; /* ns */
  int d[IDIOMRT_LAP_MAX + 1];
  const char *why[IDIOMRT_LAP_MAX + 1];
} sim;

static void fresh(sim *S) {
  memset(S, 0, sizeof *S);
  idiomrt_lap_reset(&S->L, 1);
  S->now = 1000;
}

/* One lap of n sites, each measured on the host (hn host samples), that
   takes lap_ns from its first call to the next lap's; the per-site model
   decides dec for each. The lap's decisions go to S->d. */
static void lap_hn(sim *S, unsigned n, uint32_t hn, double lap_ns, int dec) {
  for (unsigned k = 0; k < n; ++k)
    S->d[k] = idiomrt_lap_step(&S->L, &g_site[k], 21, hn, dec, S->now + k,
                               &S->why[k]);
  S->now += (uint64_t)lap_ns;
}

static void lap(sim *S, unsigned n, double lap_ns, int dec) {
  lap_hn(S, n, 1, lap_ns, dec);
}

static int all(const sim *S, unsigned n, int want) {
  for (unsigned k = 0; k < n; ++k)
    if (S->d[k] != want)
      return 0;
  return 1;
}

#define H IDIOMRT_DEC_HOST_FASTER
#define D IDIOMRT_DEC_DEVICE
#define X IDIOMRT_DEC_EXPLORE_DEVICE

/* Runs S's laps (n sites, the model saying dec) through a host trial at
   host_ns a lap and a device trial at dev_ns, after site laps at site_ns,
   and checks each trial's decisions. */
static void trials(sim *S, unsigned n, double site_ns, double host_ns,
                   double dev_ns, int dec) {
  unsigned k = 0;
  while (S->L.mode == IDIOMRT_LAP_MODE_SITE && k++ < 100) {
    lap(S, n, site_ns, dec);
    if (S->L.mode == IDIOMRT_LAP_MODE_SITE)
      CHECK(all(S, n, dec)); /* the per-site model's */
  }
  CHECK_MSG(S->L.mode == IDIOMRT_LAP_MODE_HOST_TRIAL, "mode %d", S->L.mode);
  k = 0;
  while (S->L.mode == IDIOMRT_LAP_MODE_HOST_TRIAL && k++ < 100) {
    CHECK(all(S, n, H) && S->why[0] &&
          strstr(S->why[0], "region's sites together"));
    lap(S, n, host_ns, dec);
  }
  CHECK_MSG(k == IDIOMRT_LAP_HOST_TRIAL, "host trial of %u laps", k);
  k = 0;
  while (S->L.mode == IDIOMRT_LAP_MODE_DEV_TRIAL && k++ < 100) {
    CHECK(all(S, n, X));
    lap(S, n, dev_ns, dec);
  }
  CHECK_MSG(k == IDIOMRT_LAP_DEV_TRIAL, "device trial of %u laps", k);
}

void case_lap_steps(void) {
  sim S;
  /* three sites: per site 12 ms a lap (mixing), all on the host 9 ms, all
     on the device 6 ms: after the trials, every site on the device */
  fresh(&S);
  trials(&S, 3, 12e6, 9e6, 6e6, H);
  CHECK(S.L.mode == IDIOMRT_LAP_MODE_DEVICE && all(&S, 3, D));
  /* a site's run that fell back to the host (kernels building): that lap's
     time is not the device's */
  unsigned rn = S.L.rn[IDIOMRT_LAP_WAY_DEVICE];
  lap(&S, 3, 6e6, H);
  idiomrt_lap_fell_back(&S.L, &g_site[2]);
  lap(&S, 3, 50e6, H); /* ends the impure lap */
  CHECK(S.L.rn[IDIOMRT_LAP_WAY_DEVICE] == rn + 1);
  CHECK(S.L.mode == IDIOMRT_LAP_MODE_DEVICE);
  /* on the device the verdict holds until the device is 10% slower than
     the host (9.8 against 9 ms) ... */
  for (int i = 0; i < IDIOMRT_LAP_RING + 1; ++i)
    lap(&S, 3, 9.8e6, H);
  CHECK(S.L.mode == IDIOMRT_LAP_MODE_DEVICE && all(&S, 3, D));
  /* ... and leaves once it is (10.5 against 9 ms): every site on the host,
     with the lap's reason */
  unsigned k = 0;
  while (S.L.mode == IDIOMRT_LAP_MODE_DEVICE && k++ < 10)
    lap(&S, 3, 10.5e6, D);
  CHECK(S.L.mode == IDIOMRT_LAP_MODE_HOST && all(&S, 3, H) && S.why[1] &&
        strstr(S.why[1], "region's sites together"));
}

void case_lap_host(void) {
  sim S;
  /* the device 8.5 against the host's 9 ms is not 10% faster: the host
     (per site is slower), although the per-site model said device */
  fresh(&S);
  trials(&S, 3, 12e6, 9e6, 8.5e6, D);
  CHECK(S.L.mode == IDIOMRT_LAP_MODE_HOST && all(&S, 3, H));
  /* the device is tried again after IDIOMRT_LAP_GAP0 laps ... */
  unsigned laps = 0;
  while (S.L.mode == IDIOMRT_LAP_MODE_HOST && laps < 10 * IDIOMRT_LAP_GAP0) {
    lap(&S, 3, 9e6, D);
    ++laps;
  }
  CHECK_MSG(laps == IDIOMRT_LAP_GAP0 && S.L.mode == IDIOMRT_LAP_MODE_DEV_TRIAL,
            "%u laps", laps);
  /* ... loses again, and the next gap doubles */
  for (unsigned i = 0; i < IDIOMRT_LAP_DEV_TRIAL; ++i)
    lap(&S, 3, 8.5e6, D);
  CHECK(S.L.mode == IDIOMRT_LAP_MODE_HOST && S.L.gap == 2 * IDIOMRT_LAP_GAP0);
}

void case_lap_site(void) {
  sim S;
  /* each site on its side, 7 ms a lap, beats both the host (9 ms) and the
     device (8 ms): the per-site model decides, whatever it says */
  fresh(&S);
  trials(&S, 2, 7e6, 9e6, 8e6, H);
  CHECK(S.L.mode == IDIOMRT_LAP_MODE_SITE);
  lap(&S, 2, 7e6, D);
  CHECK(all(&S, 2, D) && !S.why[0]);
  lap(&S, 2, 7e6, H);
  CHECK(all(&S, 2, H) && !S.why[0]);
  /* the host 10% faster than per site, the device not 10% faster than
     the host: all on the host */
  fresh(&S);
  trials(&S, 2, 10e6, 9e6, 8.5e6, D);
  CHECK(S.L.mode == IDIOMRT_LAP_MODE_HOST);
  /* a trial whose laps never run as it says (every lap falls back:
     kernels building) goes back to the per-site model after
     IDIOMRT_LAP_TRIAL_MAX laps */
  fresh(&S);
  unsigned k = 0;
  while (S.L.mode != IDIOMRT_LAP_MODE_DEV_TRIAL && k++ < 100)
    lap(&S, 2, 9e6, H);
  k = 0;
  while (S.L.mode == IDIOMRT_LAP_MODE_DEV_TRIAL && k++ < 100) {
    lap(&S, 2, 9e6, H);
    idiomrt_lap_fell_back(&S.L, &g_site[1]);
  }
  CHECK_MSG(k == IDIOMRT_LAP_TRIAL_MAX && S.L.mode == IDIOMRT_LAP_MODE_SITE,
            "%u laps, mode %d", k, S.L.mode);
}

void case_lap_left_alone(void) {
  sim S;
  /* one site alone: nothing to mix, the model's decisions */
  fresh(&S);
  for (int i = 0; i < 100; ++i) {
    lap(&S, 1, 9e6, H);
    CHECK(S.d[0] == H);
  }
  /* more sites than a lap holds: the per-site model */
  fresh(&S);
  for (int i = 0; i < 50; ++i)
    lap(&S, IDIOMRT_LAP_MAX + 1, 9e6, D);
  CHECK(S.L.mode == IDIOMRT_LAP_MODE_OFF);
  CHECK(all(&S, IDIOMRT_LAP_MAX + 1, D));
  /* a site that leaves (the device cannot win it): the lap goes on
     without it, timed from its next start, and reaches its trials */
  fresh(&S);
  lap(&S, 3, 12e6, H);
  idiomrt_lap_leave(&S.L, &g_site[0], 21);
  CHECK(S.L.n == 2 && S.L.e[0] == &g_site[1] && S.L.t0 == 0);
  unsigned k = 0;
  while (S.L.mode == IDIOMRT_LAP_MODE_SITE && k++ < 100)
    for (unsigned j = 1; j < 3; ++j) {
      const char *why;
      idiomrt_lap_step(&S.L, &g_site[j], 21, 1, H, S.now + j, &why);
      S.now += j == 2 ? 12000000 : 0;
    }
  CHECK(S.L.mode == IDIOMRT_LAP_MODE_HOST_TRIAL &&
        S.L.rn[IDIOMRT_LAP_WAY_SITE] >= 1);
  idiomrt_lap_leave(&S.L, &g_site[7], 21); /* not a member: nothing */
  CHECK(S.L.n == 2);
  /* the region's loop ends on the device and another begins: its sites
     are the model's again within IDIOMRT_LAP_STALE_CALLS calls a site,
     not kept on the device untimed */
  fresh(&S);
  trials(&S, 2, 12e6, 9e6, 6e6, H);
  CHECK(S.L.mode == IDIOMRT_LAP_MODE_DEVICE);
  unsigned calls = 0;
  int dec = D;
  while (dec == D && calls < 100) {
    const char *why;
    dec = idiomrt_lap_step(&S.L, &g_site[2 + calls % 2], 21, 1, H, S.now, &why);
    S.now += 1000000;
    ++calls;
  }
  CHECK_MSG(dec == H && calls <= IDIOMRT_LAP_STALE_CALLS * 2 + 1,
            "%u calls on the device after the loop changed", calls);
  CHECK(S.L.mode == IDIOMRT_LAP_MODE_SITE &&
        S.L.e[0] == &g_site[2 + (calls - 1) % 2]);
  /* a site called twice a lap (a helper's loop): the lap is still timed */
  fresh(&S);
  for (int l = 0; l < 3; ++l)
    for (unsigned k = 0; k < 3; ++k) {
      const char *why;
      idiomrt_lap_step(&S.L, &g_site[k == 2 ? 1 : k], 21, 1, H, S.now, &why);
      S.now += 3000000;
    }
  CHECK_MSG(S.L.rn[IDIOMRT_LAP_WAY_SITE] >= 1, "%u laps timed",
            S.L.rn[IDIOMRT_LAP_WAY_SITE]);
  /* a site never measured on the host: no trial, the model measures it */
  fresh(&S);
  for (int i = 0; i < 50; ++i)
    lap_hn(&S, 2, 0, 9e6, IDIOMRT_DEC_EXPLORE_HOST);
  CHECK(S.L.mode == IDIOMRT_LAP_MODE_SITE &&
        all(&S, 2, IDIOMRT_DEC_EXPLORE_HOST));
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
  n += snprintf(
      buf + n, sizeof buf - (size_t)n, "check %016llx\n",
      (unsigned long long)idiomrt_fnv1a(IDIOMRT_FNV_OFFSET, buf, (size_t)n));
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

/*--- the lap rule through idiom_run, on PoCL with zero-copy --------------*/

static const char lap_src[] =
    "__kernel void lapk(const int n, __global const float *x,\n"
    "                   __global float *y) {\n"
    "  size_t i = get_global_id(0);\n"
    "  if (i < (size_t)n) y[i] = x[i] + 1.0f;\n"
    "}\n";
static const idiom_kernel_desc lap_a = {
    "lapk", "test_lap.c:a", "map", lap_src, IDIOM_MAP, 1, 0, 0, NULL};
static const idiom_kernel_desc lap_b = {
    "lapk", "test_lap.c:b", "map", lap_src, IDIOM_MAP, 1, 0, 0, NULL};

enum { LAP_N = 1 << 20 };

/* y = x + 1 over LAP_N floats through d, or the loop when it declines
   (timed as stitched code times it). */
static void run_site(const idiom_kernel_desc *d, const float *x, float *y) {
  idiom_arg args[3] = {i32(LAP_N), buf(IDIOM_ARG_BUF_IN, (void *)x, 4 * LAP_N),
                       buf(IDIOM_ARG_BUF_OUT, y, 4 * LAP_N)};
  uint64_t sizes[1] = {LAP_N};
  if (idiom_run(d, args, 3, sizes, NULL))
    return;
  uint64_t t = idiom_host_begin(d);
  for (int i = 0; i < LAP_N; ++i)
    y[i] = x[i] + 1.0f;
  idiom_host_end(d, t);
}

/* Reason count of e's declines that name the lap. */
static uint64_t lap_declines(idiomrt_entry *e) {
  uint64_t n = 0;
  pthread_mutex_lock(&e->stats_lock);
  for (unsigned i = 0; i < e->nreasons; ++i)
    if (strstr(e->reasons[i].text, "region's sites together"))
      n += e->reasons[i].count;
  pthread_mutex_unlock(&e->stats_lock);
  return n;
}

/* Two sites in a region on PoCL (zero-copy), both built and measured on
   the host: the lap rule runs them all on the host for its host trial and
   all on the device for its device trial, and the results stay right at
   every lap. */
void case_lap_run(void) {
  setenv("IDIOM_COST", "on", 1);
  setenv("IDIOM_TUNE", "off", 1);
  const char *why = NULL;
  const idiomrt_device *dev = idiomrt_device_get(&why);
  CHECK_MSG(dev != NULL, "no device: %s", why ? why : "?");
  if (!dev || !idiomrt_zc_device(dev)) {
    CHECK_MSG(0, "the device is not zero-copy");
    return;
  }
  idiomrt_entry *ea = idiomrt_entry_get(&lap_a),
                *eb = idiomrt_entry_get(&lap_b);
  CHECK(ea && eb);
  if (!ea || !eb)
    return;
  for (int ms = 0;
       ms < 60000 && (!idiomrt_startup_built(ea) || !idiomrt_startup_built(eb));
       ++ms) {
    struct timespec t = {0, 1000000};
    nanosleep(&t, NULL);
  }
  float *x = aligned_alloc(4096, 4 * LAP_N),
        *y = aligned_alloc(4096, 4 * LAP_N),
        *z = aligned_alloc(4096, 4 * LAP_N);
  CHECK(x && y && z);
  if (!x || !y || !z)
    return;
  for (int i = 0; i < LAP_N; ++i)
    x[i] = (float)(i % 5);
  /* each site's class measured on the host (outside the region) */
  for (int i = 0; i < 2; ++i) {
    run_site(&lap_a, x, y);
    run_site(&lap_b, y, z);
  }
  uint64_t dev0 = ea->cost.decisions[IDIOMRT_DEC_EXPLORE_DEVICE] +
                  ea->cost.decisions[IDIOMRT_DEC_DEVICE];
  idiom_region_begin();
  const unsigned laps = IDIOMRT_LAP_SITE_LAPS + IDIOMRT_LAP_HOST_TRIAL +
                        IDIOMRT_LAP_DEV_TRIAL + 8;
  for (unsigned l = 0; l < laps; ++l) {
    x[l] = (float)l; /* the host writes between laps */
    run_site(&lap_a, x, y);
    run_site(&lap_b, y, z);
    idiom_region_sync();
    CHECK_MSG(z[l] == (float)l + 2.0f &&
                  z[LAP_N - 1] == (float)((LAP_N - 1) % 5) + 2.0f,
              "lap %u: z[%u] = %g", l, l, (double)z[l]);
  }
  idiom_region_end();
  uint64_t host_a = lap_declines(ea), host_b = lap_declines(eb);
  uint64_t dev_a = ea->cost.decisions[IDIOMRT_DEC_EXPLORE_DEVICE] +
                   ea->cost.decisions[IDIOMRT_DEC_DEVICE] - dev0;
  CHECK_MSG(host_a >= IDIOMRT_LAP_HOST_TRIAL && host_b == host_a,
            "host trial: A %llu and B %llu laps on the host",
            (unsigned long long)host_a, (unsigned long long)host_b);
  CHECK_MSG(dev_a >= IDIOMRT_LAP_DEV_TRIAL, "device trial: A %llu runs",
            (unsigned long long)dev_a);
  /* IDIOM_STATS's region-laps line counts them */
  FILE *tmp = tmpfile();
  int saved = dup(2);
  CHECK(tmp && saved >= 0);
  if (tmp && saved >= 0) {
    fflush(stderr);
    dup2(fileno(tmp), 2);
    idiomrt_lap_report();
    fflush(stderr);
    dup2(saved, 2);
    close(saved);
    char line[512] = "";
    rewind(tmp);
    if (!fgets(line, sizeof line, tmp))
      line[0] = '\0';
    unsigned long long th = 0, td = 0, tr = 0;
    const char *p = strstr(line, "idiom-stats: region-laps ");
    CHECK_MSG(p &&
                  sscanf(p,
                         "idiom-stats: region-laps timed_site=%*u "
                         "timed_host=%llu timed_device=%llu trials=%llu",
                         &th, &td, &tr) == 3 &&
                  th >= IDIOMRT_LAP_RING && td >= IDIOMRT_LAP_RING && tr >= 1,
              "stats line: %s", line);
    fclose(tmp);
  }
  free(x);
  free(y);
  free(z);
}
