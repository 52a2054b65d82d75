/*===- rt_config.h - Environment and process -------------------------------===*
 *
 * Private to runtime/lib (rt_internal.h includes it).
 *
 * The configuration read from the environment once per process
 * (config.c), and fork and address-space limits (process.c).
 *
 *===----------------------------------------------------------------------===*/
#ifndef IDIOMRT_CONFIG_H
#define IDIOMRT_CONFIG_H

#include "idiomrt.h"

#include <stddef.h>
#include <stdint.h>

/* Zero-initialised state that every process's start touches (the
   configuration, the profile's and the start-up record's, the registry's
   lock): placed with the initialised data, next to the GOT that the dynamic
   linker writes at every start, instead of three pages of .bss, each
   faulted twice (read, then written) (bench/fixed_cost.sh); the plugin's
   host hint words and idiom_pending_work go there too (idiomrt.h,
   IDIOM_START_DATA_SECTION). */
#define IDIOMRT_START_DATA __attribute__((section(IDIOM_START_DATA_SECTION)))

/*--- config.c: environment, read once per process ------------------------*/

enum idiomrt_device_pref {
  IDIOMRT_DEV_AUTO = 0,
  IDIOMRT_DEV_GPU = 1,
  IDIOMRT_DEV_CPU = 2,
  IDIOMRT_DEV_SEQ = 3
};

/* IDIOM_STATS: unset or "0", "json", a name ending in ".json", else text. */
enum idiomrt_stats_mode {
  IDIOMRT_STATS_OFF = 0,
  IDIOMRT_STATS_TEXT = 1,
  IDIOMRT_STATS_JSON = 2,     /* one JSON document on stderr */
  IDIOMRT_STATS_JSON_FILE = 3 /* the same written to stats_file */
};

typedef struct idiomrt_config {
  int device_pref;            /* enum idiomrt_device_pref */
  int stats;                  /* IDIOM_STATS: enum idiomrt_stats_mode */
  const char *stats_file;     /* IDIOMRT_STATS_JSON_FILE: the path */
  int debug;                  /* IDIOM_DEBUG set and not "0" */
  int debug_time;             /* IDIOM_DEBUG=time: lines carry the ms since
                                 program start */
  uint64_t min_trip;          /* IDIOM_MIN_TRIP, default 4096 */
  const char *cache_dir;      /* NULL when the disk cache is off */
  const char *opencl_library; /* IDIOM_OPENCL_LIBRARY or "libOpenCL.so.1" */
  int opencl_library_explicit; /* IDIOM_OPENCL_LIBRARY set (not empty): the
                                  device opens through it, never directly
                                  (cl_direct.c) */
  int tune;                   /* IDIOM_TUNE: 1 (default) or 0 ("off") */
  uint64_t tune_min;          /* IDIOM_TUNE_MIN, default 1 << 20 */
  int variant;                /* IDIOM_VARIANT=K, else -1 */
  int device_explicit;        /* IDIOM_DEVICE=gpu or cpu */
  int min_trip_explicit;      /* IDIOM_MIN_TRIP set (to a number) */
  int cost;                   /* cost model and background start-up on
                                 (IDIOM_COST, see costmodel.c) */
  uint64_t tune_sample;       /* IDIOM_TUNE_SAMPLE, default 1 << 22 */
  uint32_t row_block_iters;   /* IDIOM_ROW_BLOCK_ITERS (1 .. 1024), default
                                 IDIOMRT_ROW_BLOCK_ITERS (csr.c) */
  int test_host;              /* IDIOM_TEST_HOST: enum idiomrt_test_host */
  int partial_sync;           /* IDIOM_PARTIAL_SYNC: 1 (default), 0 ("off":
                                 every host run in a region syncs the
                                 whole table, as before resid_sync.c; for
                                 A/B measurements) */
  int region_hold;            /* IDIOM_REGION_HOLD: 1 (default), 0 ("off":
                                 a region's sites go to the device while
                                 another's kernels build, as before
                                 region_hold.c; for A/B measurements) */
  const char *profile;        /* IDIOM_PROFILE, NULL when unset (profile.c) */
  uint64_t env_hash;          /* idiomrt_env_hash() when this was read */
} idiomrt_config;

/* IDIOM_TEST_HOST (test knob, bench/host_overhead.sh): the cost model runs
   as by default, but the device never starts (PRESTART: the start-up
   threshold is never reached), and under FLOOR no device run can win
   either (the device's floor is infinite: every class declines host-floor
   after its first timed run, and gives host hints). The declined paths of
   the GPU machine's programs whose sites all stay on the host. */
enum idiomrt_test_host {
  IDIOMRT_TEST_HOST_OFF = 0,
  IDIOMRT_TEST_HOST_PRESTART = 1,
  IDIOMRT_TEST_HOST_FLOOR = 2,
};

/* Reads the environment on first call; never NULL. */
const idiomrt_config *idiomrt_config_get(void);
/* The device default linked into the program: defined by the archive member
   default_device_<D>.c that idiom-cc --idiom-device=D pulls in with
   -Wl,-u,idiomrt_default_device_<D>; a null address when none is linked. */
const char *idiomrt_default_device(void) __attribute__((weak));
/* The configuration in effect when it was read, else what the environment
   says now, without reading it for good or printing warnings (program
   start). */
void idiomrt_config_preview(idiomrt_config *out);
/* The configuration when already read, else NULL; never blocks. */
const idiomrt_config *idiomrt_config_peek(void);
/* The sum of the FNV-1a 64 hashes of the environment's IDIOM_* entries
   ("NAME=VALUE"), in any order, IDIOM_DEBUG and IDIOM_STATS left out
   (diagnostics, which change no decision): the profile's env line
   (profile.c). */
uint64_t idiomrt_env_hash(void);
/* Prints "idiom: ..." on stderr when IDIOM_DEBUG is set. */
void idiomrt_debug(const char *fmt, ...)
    __attribute__((format(printf, 1, 2)));

/*--- process.c: fork and address-space limits -----------------------------*/

/* Reads at most cap - 1 bytes of path into buf, NUL-terminated, without
   stdio: no heap allocation, so reading the profile and calibration files
   at program start leaves the program's own malloc layout (and the speed
   of its loops) as in the sequential build. The byte count, or -1. */
long idiomrt_read_small_file(const char *path, char *buf, size_t cap);
/* A once-only initialisation, as pthread_once, without its system call:
   glibc's pthread_once wakes waiters with a futex call after every
   initialisation, waiters or not (three system calls at every start,
   bench/fixed_cost.sh). A caller that finds another thread initialising
   yields until it is done; one that finds an initialisation begun before
   a fork (in the parent, by a thread the child does not have) begins it
   again. */
typedef struct idiomrt_once {
  unsigned state; /* 0: not begun; 1: done; else running (fork count) */
} idiomrt_once;
#define IDIOMRT_ONCE_INIT {0}
/* The slow path of idiomrt_once_run (process.c). */
void idiomrt_once_begin(idiomrt_once *o, void (*fn)(void));
/* Runs fn unless o's initialisation is done; returns once it is. */
static inline void idiomrt_once_run(idiomrt_once *o, void (*fn)(void)) {
  if (__atomic_load_n(&o->state, __ATOMIC_ACQUIRE) != 1)
    idiomrt_once_begin(o, fn);
}
/* A run declines when RLIMIT_AS leaves less than this above VmSize. */
#define IDIOMRT_MIN_AS_HEADROOM ((uint64_t)4 << 30)
/* Registers the pthread_atfork child handler (config.c, once). */
void idiomrt_process_init(void);
/* Called before the first OpenCL call of the process (device.c). */
void idiomrt_note_opencl_started(void);
/* 1 in a child forked after its parent started OpenCL. */
int idiomrt_forked_child(void);
/* 1 when RLIMIT_AS is finite and too small to load OpenCL. */
int idiomrt_address_space_too_small(void);

#endif /* IDIOMRT_CONFIG_H */
