/*===- calibration.c - Latency, bandwidth and start-up time, kept on disk -===*
 *
 * The cost model's device floor (costmodel.c) needs the queue's round-trip
 * latency and the host-to-device bandwidth; the start-up policy needs what a
 * device start-up costs. The start-up thread measures them once the device
 * is ready (a few small blocking writes, two 8 MiB writes from pageable
 * memory) and keeps them for this process, and writes them to
 * IDIOM_CACHE_DIR/startup-<auto|gpu|cpu>.txt for later processes, which use
 * them before their own device is started (or when it never is):
 *
 *   idiom-startup 1
 *   device NAME
 *   lat_ns N
 *   bw_bps N
 *   start_ms N
 *   age N              (processes since lat_ns and bw_bps were measured;
 *                       absent: 0)
 *   stage_bps N        (optional: the fastest host-to-device write through
 *                       the pinned staging slots, staging.c, in bytes a
 *                       second; absent: none measured)
 *   unified 1          (optional: the device shares the host's memory, so
 *                       a later process's floor, before its own device is
 *                       started, counts no copies for zero-copy ranges,
 *                       costmodel.c; absent: it does not)
 *   check HEX          (FNV-1a 64 of the lines above)
 *
 * The measurement runs on the start-up thread between the device's start
 * and the first builds, which calls wait for: 7.7 ms on the H200, 133 ms on
 * PoCL here with the other core running the program. A process whose record
 * names its device and was measured fewer than CAL_EVERY processes ago
 * takes latency and bandwidth from it, and writes it back with its own
 * start-up and the age plus one; every CAL_EVERY-th process, and any whose
 * record is missing or names another device, measures.
 *
 * The staged rate is not measured here: it comes from the program's own
 * staged writes of two chunks or more (idiomrt_calib_stage_sample). The
 * fastest one of a process, when it differs from the record's by a quarter
 * or more, is written into the record at exit, so that the next process's
 * first decisions use it: a copy from pageable memory runs at 8-10 GB/s
 * on the H200, a staged one at 17-36 GB/s, so a floor at the pageable rate
 * is two to four times too high for large copies (a CG's 270 MB matrix:
 * 33 ms against 8 ms).
 *
 * A file that is malformed, truncated or fails its check is ignored. These
 * numbers only steer speed decisions: a stale file (other hardware) makes
 * the model keep a loop on the host or explore the device once more, never
 * changes a result. Files are written under a temporary name and renamed.
 *
 *===----------------------------------------------------------------------===*/
#include "rt_internal.h"

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>

#define CAL_SMALL 5                      /* small writes timed (latency) */
#define CAL_BYTES ((size_t)8 << 20)      /* bytes of each bandwidth write */
#define CAL_EVERY 8                      /* one process in 8 measures */
#define DEFAULT_START_NS 200000000ull    /* 200 ms: no file yet */
#define MIN_START_NS IDIOMRT_MIN_START_NS /* never start before 50 ms */

/* Measured in this process (atomic; 0: not yet). */
IDIOMRT_START_DATA static uint64_t g_lat_ns, g_bw_bps;
/* The fastest staged write of this process and the record's (both
   atomic, bytes a second; 0: none). */
static uint64_t g_stage_bps, g_file_stage_bps;
static int g_exit_hooked;
/* A start-up record's fields, but the staged rate (lat_ns 0: none). */
typedef struct {
  char device[256]; /* "": names no device */
  uint64_t lat_ns, bw_bps, start_ns, age;
  int unified; /* the device's host_unified */
} cal_record;
/* The file's (read once), and the one this process wrote last, for the
   exit's rewrite (published by g_rec_set). */
IDIOMRT_START_DATA static idiomrt_once g_file_once = IDIOMRT_ONCE_INIT;
IDIOMRT_START_DATA static cal_record g_file;
static cal_record g_rec;
static int g_rec_set;

uint64_t idiomrt_thread_faults(void) {
  struct rusage ru;
  if (getrusage(RUSAGE_THREAD, &ru) != 0)
    return 0;
  return (uint64_t)ru.ru_minflt;
}

uint64_t idiomrt_now_ns(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

static int cmp_double(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return x < y ? -1 : x > y;
}

/* The record's path in the cache directory, on the heap; NULL without a
   cache directory (or memory). */
static char *record_path(void) {
  const idiomrt_config *cfg = idiomrt_config_get();
  const char *name = cfg->device_pref == IDIOMRT_DEV_GPU   ? "/startup-gpu.txt"
                     : cfg->device_pref == IDIOMRT_DEV_CPU ? "/startup-cpu.txt"
                                                           : "/startup-auto.txt";
  return cfg->cache_dir ? idiomrt_str_cat(PATH_MAX + 32, cfg->cache_dir, name, NULL)
                        : NULL;
}

/* Reads the record, with rt_text.h's readers and a path built on the heap
   (sscanf, snprintf and 10 KB of stack buffers here touched five pages of
   libc code and one of stack at every start, bench/fixed_cost.sh). */
static void read_file(void) {
  char *path = record_path();
  char buf[1024]; /* write_file's most */
  if (!path || idiomrt_read_small_file(path, buf, sizeof buf) < 0) {
    free(path);
    return;
  }
  /* idiom-startup 1, device NAME, lat_ns, bw_bps, start_ms, check */
  const char *check = strstr(buf, "\ncheck ");
  const char *p = check ? check + 1 : NULL;
  uint64_t lat = 0, bw = 0, start = 0, sum = 0;
  if (strncmp(buf, "idiom-startup 1\n", 16) != 0 || !p ||
      !idiomrt_scan_word(&p, "check") || !idiomrt_scan_hex(&p, &sum) ||
      idiomrt_fnv1a(IDIOMRT_FNV_OFFSET, buf, (size_t)(check + 1 - buf)) !=
          sum) {
    idiomrt_debug("ignoring %s: malformed or corrupt", path);
    free(path);
    return;
  }
  const char *l = strstr(buf, "\nlat_ns "), *b = strstr(buf, "\nbw_bps ");
  const char *st = strstr(buf, "\nstart_ms ");
  if (!l || !b || !st || (++l, !idiomrt_scan_word(&l, "lat_ns")) ||
      !idiomrt_scan_u64(&l, &lat) || (++b, !idiomrt_scan_word(&b, "bw_bps")) ||
      !idiomrt_scan_u64(&b, &bw) ||
      (++st, !idiomrt_scan_word(&st, "start_ms")) ||
      !idiomrt_scan_u64(&st, &start) || !lat || !bw) {
    idiomrt_debug("ignoring %s: malformed", path);
    free(path);
    return;
  }
  /* optional: the age (absent in older records: 0) and the device's name
     (a record without one names no device) */
  const char *a = strstr(buf, "\nage ");
  uint64_t age = 0;
  if (a && (++a, !idiomrt_scan_word(&a, "age") || !idiomrt_scan_u64(&a, &age)))
    age = 0;
  if (!idiomrt_line_value(buf, "device", g_file.device, sizeof g_file.device))
    g_file.device[0] = '\0';
  const char *sb = strstr(buf, "\nstage_bps ");
  uint64_t stage = 0;
  if (sb && (++sb, !idiomrt_scan_word(&sb, "stage_bps") ||
             !idiomrt_scan_u64(&sb, &stage)))
    stage = 0;
  __atomic_store_n(&g_file_stage_bps, stage, __ATOMIC_RELAXED);
  const char *u = strstr(buf, "\nunified ");
  uint64_t unified = 0;
  if (u && (++u, !idiomrt_scan_word(&u, "unified") ||
            !idiomrt_scan_u64(&u, &unified)))
    unified = 0;
  g_file.unified = unified == 1;
  g_file.lat_ns = lat;
  g_file.bw_bps = bw;
  g_file.start_ns = start * 1000000ull;
  g_file.age = age;
  idiomrt_debug("cost model: %s: latency %.1f us, %.2f GB/s, start-up %llu ms",
                path, (double)lat / 1e3, (double)bw / 1e9,
                (unsigned long long)start);
  free(path);
}

/* Writes record r; stage: the staged rate (0: none). */
static void write_record(const cal_record *r, uint64_t stage) {
  const char *dir = idiomrt_config_get()->cache_dir;
  char buf[1024];
  char *path = record_path();
  if (!path)
    return;
  int n = snprintf(buf, sizeof buf,
                   "idiom-startup 1\ndevice %s\nlat_ns %llu\nbw_bps %llu\n"
                   "start_ms %llu\nage %llu\n",
                   r->device, (unsigned long long)r->lat_ns,
                   (unsigned long long)r->bw_bps,
                   (unsigned long long)(r->start_ns / 1000000),
                   (unsigned long long)r->age);
  if (stage && n > 0 && (size_t)n < sizeof buf)
    n += snprintf(buf + n, sizeof buf - (size_t)n, "stage_bps %llu\n",
                  (unsigned long long)stage);
  if (r->unified && n > 0 && (size_t)n < sizeof buf)
    n += snprintf(buf + n, sizeof buf - (size_t)n, "unified 1\n");
  if (n <= 0 || (size_t)n >= sizeof buf - 32) {
    free(path);
    return;
  }
  uint64_t sum = idiomrt_fnv1a(IDIOMRT_FNV_OFFSET, buf, (size_t)n);
  n += snprintf(buf + n, sizeof buf - (size_t)n, "check %016llx\n",
                (unsigned long long)sum);
  if (!idiomrt_write_file(dir, path, buf, (size_t)n))
    idiomrt_debug("cannot write %s", path);
  free(path);
}

/* At exit: the record again with this process's staged rate, when it
   differs from the record's by a quarter or more. */
static void write_stage_at_exit(void) {
  if (idiomrt_forked_child())
    return;
  uint64_t st = __atomic_load_n(&g_stage_bps, __ATOMIC_RELAXED);
  uint64_t old = __atomic_load_n(&g_file_stage_bps, __ATOMIC_RELAXED);
  if (!st || (old && st < old + old / 4 && st + st / 4 > old))
    return;
  int saved_errno = errno;
  const cal_record *r = &g_rec;
  if (!__atomic_load_n(&g_rec_set, __ATOMIC_ACQUIRE)) {
    /* a device started on the caller's thread (IDIOM_DEVICE forced)
       calibrates nothing: the record read, when it names that device */
    const idiomrt_device *dev = idiomrt_device_peek();
    idiomrt_once_run(&g_file_once, read_file);
    r = dev && g_file.lat_ns && strcmp(g_file.device, dev->name) == 0
            ? &g_file
            : NULL;
  }
  if (r)
    write_record(r, st);
  errno = saved_errno;
}

/* The record for dev, keeping the record's staged rate when it names dev;
   remembered for write_stage_at_exit. */
static void write_file(const idiomrt_device *dev, uint64_t lat, uint64_t bw,
                       uint64_t start_ns, uint64_t age) {
  if (strcmp(g_file.device, dev->name) != 0) /* another device's */
    __atomic_store_n(&g_file_stage_bps, 0, __ATOMIC_RELAXED);
  snprintf(g_rec.device, sizeof g_rec.device, "%s", dev->name);
  g_rec.lat_ns = lat, g_rec.bw_bps = bw, g_rec.start_ns = start_ns;
  g_rec.age = age;
  g_rec.unified = dev->host_unified != 0;
  __atomic_store_n(&g_rec_set, 1, __ATOMIC_RELEASE);
  write_record(&g_rec, __atomic_load_n(&g_file_stage_bps, __ATOMIC_RELAXED));
}

void idiomrt_calib_stage_sample(uint64_t bytes, uint64_t ns) {
  if (!ns)
    ns = 1;
  uint64_t bps = (uint64_t)((double)bytes * 1e9 / (double)ns);
  uint64_t cur = __atomic_load_n(&g_stage_bps, __ATOMIC_RELAXED);
  while (bps > cur &&
         !__atomic_compare_exchange_n(&g_stage_bps, &cur, bps, 0,
                                      __ATOMIC_RELAXED, __ATOMIC_RELAXED))
    ;
  if (bps > cur && !__atomic_exchange_n(&g_exit_hooked, 1, __ATOMIC_RELAXED)) {
    idiomrt_debug("cost model: staged host-to-device %.2f GB/s (%llu bytes)",
                  (double)bps / 1e9, (unsigned long long)bytes);
    atexit(write_stage_at_exit);
  }
}

double idiomrt_calib_stage_bw(void) {
  uint64_t b = __atomic_load_n(&g_stage_bps, __ATOMIC_RELAXED);
  if (!b) {
    idiomrt_once_run(&g_file_once, read_file);
    b = __atomic_load_n(&g_file_stage_bps, __ATOMIC_RELAXED);
  }
  return (double)b / 1e9;
}

void idiomrt_cost_calibrate(const idiomrt_device *dev, uint64_t start_ns) {
  idiomrt_once_run(&g_file_once, read_file);
  if (g_file.lat_ns && g_file.age + 1 < CAL_EVERY && g_file.device[0] &&
      strcmp(g_file.device, dev->name) == 0) {
    __atomic_store_n(&g_bw_bps, g_file.bw_bps, __ATOMIC_RELAXED);
    __atomic_store_n(&g_lat_ns, g_file.lat_ns, __ATOMIC_RELEASE);
    idiomrt_debug("cost model: latency %.1f us, host-to-device %.2f GB/s "
                  "(the record's, measured %llu processes ago), start-up "
                  "%.1f ms",
                  (double)g_file.lat_ns / 1e3, (double)g_file.bw_bps / 1e9,
                  (unsigned long long)g_file.age + 1, (double)start_ns / 1e6);
    write_file(dev, g_file.lat_ns, g_file.bw_bps, start_ns, g_file.age + 1);
    return;
  }
  const idiomrt_cl *cl = dev->cl;
  cl_int err = CL_SUCCESS;
  cl_mem m = cl->clCreateBuffer(dev->ctx, CL_MEM_READ_WRITE, CAL_BYTES, NULL,
                                &err);
  char *host = malloc(CAL_BYTES);
  if (!m || err != CL_SUCCESS || !host) {
    if (m)
      cl->clReleaseMemObject(m);
    free(host);
    idiomrt_debug("cost model: calibration failed");
    return;
  }
  memset(host, 1, CAL_BYTES); /* fault the pages in before timing */
  double lat[CAL_SMALL];
  int ok = 1;
  for (int i = 0; i < CAL_SMALL && ok; ++i) {
    uint64_t t0 = idiomrt_now_ns();
    ok = cl->clEnqueueWriteBuffer(dev->queue, m, CL_TRUE, 0, 4, host, 0, NULL,
                                  NULL) == CL_SUCCESS;
    lat[i] = (double)(idiomrt_now_ns() - t0);
  }
  double best = 0; /* bytes per ns */
  for (int i = 0; i < 2 && ok; ++i) {
    uint64_t t0 = idiomrt_now_ns();
    ok = cl->clEnqueueWriteBuffer(dev->queue, m, CL_TRUE, 0, CAL_BYTES, host,
                                  0, NULL, NULL) == CL_SUCCESS;
    double bw = (double)CAL_BYTES / (double)(idiomrt_now_ns() - t0 + 1);
    if (bw > best)
      best = bw;
  }
  cl->clReleaseMemObject(m);
  free(host);
  if (!ok) {
    idiomrt_debug("cost model: calibration failed");
    return;
  }
  qsort(lat, CAL_SMALL, sizeof lat[0], cmp_double);
  uint64_t l = (uint64_t)lat[CAL_SMALL / 2], b = (uint64_t)(best * 1e9);
  if (l == 0)
    l = 1;
  __atomic_store_n(&g_bw_bps, b, __ATOMIC_RELAXED);
  __atomic_store_n(&g_lat_ns, l, __ATOMIC_RELEASE);
  idiomrt_debug("cost model: latency %.1f us, host-to-device %.2f GB/s, "
                "start-up %.1f ms",
                (double)l / 1e3, best, (double)start_ns / 1e6);
  write_file(dev, l, b, start_ns, 0);
}

int idiomrt_calib_get(double *lat_ns, double *bw) {
  uint64_t l = __atomic_load_n(&g_lat_ns, __ATOMIC_ACQUIRE);
  uint64_t b = __atomic_load_n(&g_bw_bps, __ATOMIC_RELAXED);
  if (!l || !b) {
    idiomrt_once_run(&g_file_once, read_file);
    l = g_file.lat_ns;
    b = g_file.bw_bps;
  }
  *lat_ns = (double)l;
  *bw = (double)b / 1e9;
  return l && b;
}

int idiomrt_calib_unified(void) {
  idiomrt_once_run(&g_file_once, read_file);
  return g_file.lat_ns && g_file.unified;
}

uint64_t idiomrt_calib_start_after_ns(void) {
  idiomrt_once_run(&g_file_once, read_file);
  if (!g_file.lat_ns)
    return DEFAULT_START_NS;
  uint64_t s = g_file.start_ns;
  return s < MIN_START_NS ? MIN_START_NS : s;
}
