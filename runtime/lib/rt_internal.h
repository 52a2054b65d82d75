/*===- rt_internal.h - Shared declarations of the runtime's parts ---------===*
 *
 * Private to runtime/lib. Every non-static symbol starts with idiomrt_ so
 * that the static archive does not collide with a user program's names.
 *
 * Lock order: a registry entry's lock may be held while nothing else is
 * taken; the device lock and the registry lock are leaves (never held while
 * taking another lock).
 *
 *===----------------------------------------------------------------------===*/
#ifndef IDIOMRT_INTERNAL_H
#define IDIOMRT_INTERNAL_H

#ifndef CL_TARGET_OPENCL_VERSION
#define CL_TARGET_OPENCL_VERSION 120
#endif
#include <CL/cl.h>

#include <pthread.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "idiomrt.h"

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
} idiomrt_config;

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
/* Prints "idiom: ..." on stderr when IDIOM_DEBUG is set. */
void idiomrt_debug(const char *fmt, ...)
    __attribute__((format(printf, 1, 2)));

/*--- cl_loader.c: libOpenCL.so.1 through dlopen --------------------------*/

#define IDIOMRT_CL_FUNCS(X)                                                    \
  X(clGetPlatformIDs)                                                          \
  X(clGetPlatformInfo)                                                         \
  X(clGetDeviceIDs)                                                            \
  X(clGetDeviceInfo)                                                           \
  X(clCreateContext)                                                           \
  X(clReleaseContext)                                                          \
  X(clCreateCommandQueue)                                                      \
  X(clReleaseCommandQueue)                                                     \
  X(clCreateProgramWithSource)                                                 \
  X(clCreateProgramWithBinary)                                                 \
  X(clBuildProgram)                                                            \
  X(clGetProgramInfo)                                                          \
  X(clGetProgramBuildInfo)                                                     \
  X(clReleaseProgram)                                                          \
  X(clCreateKernel)                                                            \
  X(clGetKernelInfo)                                                          \
  X(clGetKernelWorkGroupInfo)                                                  \
  X(clSetKernelArg)                                                            \
  X(clReleaseKernel)                                                           \
  X(clCreateBuffer)                                                            \
  X(clReleaseMemObject)                                                        \
  X(clRetainMemObject)                                                         \
  X(clEnqueueReadBuffer)                                                       \
  X(clFinish)                                                                  \
  X(clEnqueueWriteBuffer)                                                      \
  X(clEnqueueReadBufferRect)                                                   \
  X(clEnqueueWriteBufferRect)                                                  \
  X(clEnqueueCopyBuffer)                                                       \
  X(clEnqueueFillBuffer)                                                       \
  X(clEnqueueMapBuffer)                                                        \
  X(clEnqueueUnmapMemObject)                                                   \
  X(clEnqueueNDRangeKernel)                                                    \
  X(clFlush)                                                                   \
  X(clWaitForEvents)                                                           \
  X(clGetEventInfo)                                                            \
  X(clGetEventProfilingInfo)                                                   \
  X(clCreateUserEvent)                                                         \
  X(clSetUserEventStatus)                                                      \
  X(clReleaseEvent)

typedef struct idiomrt_cl {
  void *handle;
#define IDIOMRT_CL_MEMBER(f) __typeof__(&f) f;
  IDIOMRT_CL_FUNCS(IDIOMRT_CL_MEMBER)
#undef IDIOMRT_CL_MEMBER
} idiomrt_cl;

/* Loads the library and resolves every function once; NULL when the library
   or any function is missing. */
const idiomrt_cl *idiomrt_cl_load(void);
/* "CL_OUT_OF_RESOURCES" etc.; "CL_UNKNOWN_ERROR" for codes it does not know. */
const char *idiomrt_cl_error_name(cl_int err);

/*--- device.c: platform / device selection, context and queue ------------*/

typedef struct idiomrt_device {
  const idiomrt_cl *cl;
  cl_platform_id platform;
  cl_device_id id;
  cl_context ctx;
  cl_command_queue queue; /* in order, CL_QUEUE_PROFILING_ENABLE */
  cl_device_type type;
  char name[256];         /* CL_DEVICE_NAME */
  char driver[128];       /* CL_DRIVER_VERSION */
  char version[128];      /* CL_DEVICE_VERSION */
  char platform_name[128];
  size_t max_wg;          /* CL_DEVICE_MAX_WORK_GROUP_SIZE */
  size_t max_item[3];     /* CL_DEVICE_MAX_WORK_ITEM_SIZES */
  cl_uint compute_units;
  cl_ulong local_mem;
  cl_ulong max_alloc;
  int fp32_denorm;          /* CL_FP_DENORM in CL_DEVICE_SINGLE_FP_CONFIG */
  int fp32_correct_divsqrt; /* CL_FP_CORRECTLY_ROUNDED_DIVIDE_SQRT there */
  const char *build_options; /* options of every clBuildProgram */
  int host_unified;         /* CL_DEVICE_HOST_UNIFIED_MEMORY (zerocopy.c) */
  size_t base_align;        /* CL_DEVICE_MEM_BASE_ADDR_ALIGN, in bytes */
} idiomrt_device;

/* Selects and initializes the device once per process (the outcome, success
   or failure, is kept). On failure returns NULL and sets *reason to a static
   string. Must not be called under IDIOM_DEVICE=seq. */
const idiomrt_device *idiomrt_device_get(const char **reason);
/* The device when already initialized, else NULL; never initializes, takes
   no lock. */
const idiomrt_device *idiomrt_device_peek(void);
/* On a runtime thread (startup.c): initializes the device here when nobody
   has tried yet; waits for the device lock. */
void idiomrt_device_init_here(void);
/* 0: not tried or in progress, 1: ready, -1: failed (*reason set); takes no
   lock. */
int idiomrt_device_state(const char **reason);
/* pthread_atfork child handler's part: re-initializes the device lock. */
void idiomrt_device_after_fork(void);
/* Returned through *reason by idiomrt_device_get (and used by launch.c)
   when another thread holds the lock or the runtime thread is busy. */
extern const char idiomrt_busy_reason[];

/* The second device (a CPU OpenCL device beside a GPU; issue 12 item 4):
   its own context and queue, opened on the runtime thread when the cost
   model first wants it. IDIOM_TEST_SECOND_CPU (a test knob): unset or 0,
   1 (the first CPU device opened again as the second device, whatever the
   primary is), "alternate" (also: with the cost model off, runs outside
   residency regions alternate between the two devices), "fail" (the second
   device fails to open; with the model off, runs alternate as under
   "alternate" and those sent to the second device decline), "regions"
   (as "alternate", inside residency regions too: the range table then
   meets entries of both devices). */
enum idiomrt_second_knob {
  IDIOMRT_SECOND_OFF = 0,
  IDIOMRT_SECOND_ON = 1,
  IDIOMRT_SECOND_ALTERNATE = 2, /* this and the ones below alternate */
  IDIOMRT_SECOND_FAIL = 3,
  IDIOMRT_SECOND_REGIONS = 4
};
int idiomrt_device2_knob(void);
/* 1 when a second device may be used: the primary is up and a GPU under
   IDIOM_DEVICE=auto with the cost model on, or the knob is set (under
   auto or cpu). */
int idiomrt_device2_wanted(void);
/* Opens the second device (on a runtime thread, waiting) unless tried;
   NULL with *reason when it is not wanted or failed. */
const idiomrt_device *idiomrt_device2_get(const char **reason);
/* On the start-up thread: opens it when wanted and not tried. */
void idiomrt_device2_init_here(void);
/* 0: not tried or in progress, 1: ready, -1: failed; takes no lock. */
int idiomrt_device2_state(void);
/* The second device when ready, else NULL; takes no lock. */
const idiomrt_device *idiomrt_device2_peek(void);

/*--- registry.c: per-descriptor state keyed by descriptor address --------*/

#define IDIOMRT_MAX_REASONS 8
#define IDIOMRT_REASON_LEN 160

#define IDIOMRT_MAX_VARIANTS 16
#define IDIOMRT_SIZE_CLASSES 64

/* One kernel variant of a descriptor (program_cache.c fills it). */
typedef struct idiomrt_variant {
  int ready;                  /* kernels created */
  cl_program own_program;     /* built from its own section, else NULL */
  cl_kernel kernel[2];        /* map: [0]; reduce: [0] partial, [1] final */
  size_t kernel_wg[2];        /* CL_KERNEL_WORK_GROUP_SIZE */
  size_t kernel_reqd[2][3];   /* CL_KERNEL_COMPILE_WORK_GROUP_SIZE */
  cl_ulong kernel_local[2];   /* CL_KERNEL_LOCAL_MEM_SIZE before args */
  cl_uint kernel_nargs[2];    /* CL_KERNEL_NUM_ARGS */
  uint32_t ept;               /* elements per work-item step, >= 1 (dim 0) */
  uint32_t ept1;              /* the same in NDRange dimension 1, >= 1 */
  uint32_t ept2;              /* the same in NDRange dimension 2 (ept=E0xE1xE2:
                                 a 3-D map walking E2 planes), >= 1 */
  uint32_t lanes;             /* ept=1/W: W work-items per element (dim 0), >= 1 */
  uint32_t row_blocks;        /* ept=blocks/G: a work-group of G per row block
                                 (idiomrt_csr_row_blocks), 0 when absent */
  uint32_t row_walk;          /* ept=*xR: a 2-D map on a 1-D NDRange of
                                 chunks of R whole rows per work-item (CPU
                                 devices), 0 when absent */
  uint32_t wg[2];             /* the marker's wg=X[xY], 0 when absent */
  char why[IDIOMRT_REASON_LEN]; /* why not ready */
} idiomrt_variant;

/* Source line of an order-sensitive reduction (see tuning.c). */
#define IDIOMRT_FIXED_ORDER_MARKER "//@idiom-fixed-order"

/* How a size class's variant was chosen (tuning.c). */
enum idiomrt_tuned {
  IDIOMRT_TUNED_NONE = 0,   /* not chosen yet */
  IDIOMRT_TUNED_SINGLE = 1, /* only one usable variant */
  IDIOMRT_TUNED_OFF = 2,    /* IDIOM_TUNE=off */
  IDIOMRT_TUNED_TIMED = 3,  /* timed in this process */
  IDIOMRT_TUNED_CACHE = 4,  /* read from the tuning file */
  IDIOMRT_TUNED_SMALL = 5,  /* iteration count below IDIOM_TUNE_MIN */
  IDIOMRT_TUNED_FORCED = 6, /* IDIOM_VARIANT */
  IDIOMRT_TUNED_FIXED = 7   /* order-sensitive (float) reduction: variant 0 */
};

/* costmodel.c: what the cost model decided for one call. */
enum idiomrt_decision {
  IDIOMRT_DEC_FORCED = 0,       /* cost model off: device (as before it) */
  IDIOMRT_DEC_DEVICE,           /* device measured faster */
  IDIOMRT_DEC_EXPLORE_DEVICE,   /* device not (re)measured yet */
  IDIOMRT_DEC_UNTIMED,          /* caller never times its fallback: device */
  IDIOMRT_DEC_STARTING,         /* host: device start-up not finished */
  IDIOMRT_DEC_BUILDING,         /* host: kernels building in the background */
  IDIOMRT_DEC_PRESTART,         /* host: device not worth starting yet */
  IDIOMRT_DEC_EXPLORE_HOST,     /* host: host time not (re)measured yet */
  IDIOMRT_DEC_HOST_FASTER,      /* host: host measured faster */
  IDIOMRT_DEC_CANNOT_WIN,       /* host: transfers + launch > host time */
  IDIOMRT_DEC_CPU_DEVICE,       /* second (CPU) device measured fastest */
  IDIOMRT_DEC_EXPLORE_CPU,      /* second device not (re)measured yet */
  IDIOMRT_DEC_HOST_HINT,        /* host: the caller's hint skipped idiom_run */
  IDIOMRT_NDECISIONS
};

#define IDIOMRT_COST_RING 3 /* samples kept per side and size class */

/* costmodel.c: measurements of one size class of one call site. Times are
   ns per iteration (device: after the launch latency). */
typedef struct idiomrt_cost_class {
  double host_pi[IDIOMRT_COST_RING];
  double dev_pi[IDIOMRT_COST_RING];
  uint32_t hn, dn;        /* samples taken (ring index: n % RING) */
  double host_est, dev_est; /* medians of the rings, updated on push */
  double cpu_pi[IDIOMRT_COST_RING]; /* the second (CPU) device's samples */
  uint32_t cn;            /* its samples taken */
  double cpu_est;         /* their median */
  uint32_t cpu_tries;     /* its explorations without a sample */
  uint32_t cpu_runs;      /* its successful runs (the first warms up) */
  int remeasure;          /* which loser is measured next (three-way) */
  uint32_t dev_tries;     /* device explorations without a sample */
  uint32_t fill_runs;     /* device runs inside a region that filled copies */
  uint32_t dev_runs;      /* successful device runs (the first warms up) */
  uint32_t host_skip;     /* host decisions, for sampling one in 16 */
  int winner;             /* 0 none yet, 1 device, 2 host, 3 second device */
  uint64_t since;         /* decisions since the loser was last measured */
  uint64_t gap;           /* decisions before the loser is measured again */
  double win_ns;          /* estimated time of the winner since then */
} idiomrt_cost_class;

/* costmodel.c: cost-model state of one descriptor, under stats_lock. */
typedef struct idiomrt_cost_site {
  idiomrt_cost_class cls[IDIOMRT_SIZE_CLASSES];
  uint64_t host_wanted;   /* host samples asked of the caller */
  uint64_t host_got;      /* host samples received (idiom_host_end) */
  uint64_t host_ns;       /* sum of the host samples */
  uint64_t decisions[IDIOMRT_NDECISIONS];
} idiomrt_cost_site;

typedef struct idiomrt_entry {
  const idiom_kernel_desc *desc;
  struct idiomrt_entry *bucket_next;
  struct idiomrt_entry *next; /* creation order; guarded by the registry */
  pthread_mutex_t lock;       /* guards the program and tuning state */
  pthread_mutex_t stats_lock; /* guards the stats counters (a leaf) */
  unsigned fp_bits;           /* idiomrt_fp_scan of the source, 0: not yet */

  /* program_cache.c */
  int build_state;            /* 0: not tried, 1: built, -1: failed */
  char build_reason[IDIOMRT_REASON_LEN];
  cl_program program;         /* the whole source, when it built */
  unsigned nvariants;         /* 1 .. IDIOMRT_MAX_VARIANTS once built */
  idiomrt_variant var[IDIOMRT_MAX_VARIANTS];
  const char *offsets;        /* a map's element bytes per buffer argument,
                                 after "//@idiom-offsets" in the shared part
                                 of the source; NULL: the kernels take no
                                 offsets */

  /* tuning.c: per size class floor(log2(iteration count)) */
  signed char chosen[IDIOMRT_SIZE_CLASSES];       /* -1: not chosen */
  unsigned char tuned[IDIOMRT_SIZE_CLASSES];      /* enum idiomrt_tuned */
  uint64_t tune_ns;           /* device time spent timing variants */

  /* stats.c, under stats_lock */
  uint64_t calls;             /* idiom_run + idiom_note_fallback calls */
  uint64_t offloaded;         /* idiom_run calls that returned 1 */
  uint64_t fallbacks;         /* declines + idiom_note_fallback */
  uint64_t kernel_ns;
  uint64_t transfer_ns;
  uint64_t run_ns;            /* wall time of the runs that offloaded */
  uint64_t bytes_in;          /* host to device, every run (residency.c) */
  uint64_t bytes_out;         /* device to host, every run */
  uint64_t *hint;             /* the caller's host hint (idiom_host_hint), */
  uint64_t hint_set;          /* and what the runtime last wrote or counted */
  const char *device_name;    /* device this entry saw, or NULL */
  unsigned nreasons;
  struct {
    char text[IDIOMRT_REASON_LEN];
    uint64_t count;
  } reasons[IDIOMRT_MAX_REASONS];
  uint64_t other_reasons;     /* declines whose reason did not fit */

  /* costmodel.c, under stats_lock */
  idiomrt_cost_site cost;
  /* launch.c, under lock: a reduction's part_k and out_k buffers, kept
     from run to run on scratch_dev (creating and freeing them every run
     cost a GPU driver more than the kernels of a small reduction) */
  const struct idiomrt_device *scratch_dev;
  cl_mem scratch_parts[IDIOM_MAX_RESULTS];
  cl_mem scratch_outs[IDIOM_MAX_RESULTS];
  /* startup.c: 0 no background build asked, 1 queued, 2 tried (atomic) */
  int bg_build;
  /* registry.c: the program, variants, tuning and reduction scratch of
     this descriptor on the second device (idiomrt_entry_second), an entry
     of its own that the registry does not list; NULL until first wanted.
     second: 1 in such an entry (its builds use the second device). */
  struct idiomrt_entry *alt;
  int second;
  struct idiomrt_entry *bg_next; /* build queue, under startup.c's lock */
} idiomrt_entry;

/* Finds or creates the entry of desc; NULL only when out of memory. */
idiomrt_entry *idiomrt_entry_get(const idiom_kernel_desc *desc);
/* The entry of desc when it exists and the registry lock is free, else
   NULL; never blocks, never allocates. */
idiomrt_entry *idiomrt_entry_try(const idiom_kernel_desc *desc);
/* pthread_atfork child handler's part: re-initializes every lock. */
void idiomrt_registry_after_fork(void);
/* e's state on the second device (e->alt), created on first use; NULL only
   when out of memory. Only its program, variants, tuning and scratch are
   used: stats and cost samples stay in e. */
idiomrt_entry *idiomrt_entry_second(idiomrt_entry *e);
/* First entry in creation order (entries are never freed). */
idiomrt_entry *idiomrt_entry_first(void);
/* The entry created after e, or NULL. */
idiomrt_entry *idiomrt_entry_next(const idiomrt_entry *e);

/*--- program_cache.c: build once per process, binaries on disk -----------*/

/* With e->lock held: builds the descriptor's source (or, when the whole
   does not build, each variant's section alone) and makes the kernels of
   every variant that builds ready. Returns 1 when at least one variant is
   ready, or 0 with the reason in reason[0..n) (a failure is remembered). */
int idiomrt_program_ensure(idiomrt_entry *e, const idiomrt_device *dev,
                           char *reason, size_t n);
/* FNV-1a 64 over [p, p + n), continuing from h. */
uint64_t idiomrt_fnv1a(uint64_t h, const void *p, size_t n);
#define IDIOMRT_FNV_OFFSET 0xcbf29ce484222325ULL

/* Writes path atomically (temporary file, then rename), creating dir. */
int idiomrt_write_file(const char *dir, const char *path, const void *data,
                       size_t size);
/* mkdir -p; returns 1 when dir exists afterwards. */
int idiomrt_make_dirs(const char *dir);

/*--- tuning.c: choice among variants, remembered per size class ----------*/

/* floor(log2(trip)), 0 for trip <= 1. */
unsigned idiomrt_size_class(uint64_t trip);
/* With e->lock held and the program built: the variant to run for size
   class cls when already known (memory, IDIOM_TUNE=off, a single usable
   variant, or a valid tuning file), else -1: the caller times the usable
   variants and calls idiomrt_tune_record. */
int idiomrt_tune_lookup(idiomrt_entry *e, const idiomrt_device *dev,
                        unsigned cls);
/* With e->lock held: remembers variant k for cls (chosen by timing; ms[v]
   is variant v's median kernel time, negative when it was skipped) and
   writes the tuning file. */
void idiomrt_tune_record(idiomrt_entry *e, const idiomrt_device *dev,
                         unsigned cls, int k, const double *ms);
/* "timed", "cache", "off", "single", "small" or "none". */
const char *idiomrt_tuned_name(int how);

/* A map variant's launch shape, for the tuning sample: the work-group size
   and elements per work-item in each NDRange dimension (0 innermost), and
   the work-items per element in dimension 0 (row lanes, ept=1/W). */
typedef struct {
  size_t local[3];
  uint32_t ept[3];
  uint32_t lanes;
} idiomrt_sample_shape;
/* The iterations a map of nd dimensions (sizes outermost first) is timed
   on when tuning its variants (IDIOM_TUNE_SAMPLE = cap): 0, the whole map,
   when it has at most cap iterations or when a sample that represents
   every variant is not smaller than the map; else whole outer rows, at
   least enough that every variant of shapes[0..n) launches
   fill_groups work-groups (its full-size occupancy) and a multiple of
   every variant's outer ept (a plane walk times whole walks), near cap
   otherwise (rounded down to whole walks). */
uint64_t idiomrt_tune_sample(const uint64_t *sizes, unsigned nd, uint64_t cap,
                             const idiomrt_sample_shape *shapes, unsigned n,
                             uint64_t fill_groups);

/*--- json.c: a small JSON writer (IDIOM_STATS=json) -----------------------*/

#define IDIOMRT_JSON_MAX_DEPTH 16

/* Writer state: nesting depth and, per level, the elements written. */
typedef struct idiomrt_json {
  FILE *f;
  int depth;
  int after_key; /* the next value follows its key on the same line */
  unsigned count[IDIOMRT_JSON_MAX_DEPTH];
} idiomrt_json;

/* Starts a document on f (one value: an object or an array). */
void idiomrt_json_init(idiomrt_json *j, FILE *f);
void idiomrt_json_begin_object(idiomrt_json *j);
void idiomrt_json_end_object(idiomrt_json *j);
void idiomrt_json_begin_array(idiomrt_json *j);
void idiomrt_json_end_array(idiomrt_json *j);
/* The key of the next member of the current object. */
void idiomrt_json_key(idiomrt_json *j, const char *key);
/* A string, escaped (invalid UTF-8 becomes U+FFFD); NULL writes null. */
void idiomrt_json_string(idiomrt_json *j, const char *s);
void idiomrt_json_uint(idiomrt_json *j, uint64_t v);
/* A number (%.6g); NaN and infinities write null. */
void idiomrt_json_double(idiomrt_json *j, double v);
/* ns as milliseconds with three decimals, like the text report. */
void idiomrt_json_ms(idiomrt_json *j, uint64_t ns);
void idiomrt_json_bool(idiomrt_json *j, int v);
void idiomrt_json_null(idiomrt_json *j);

/*--- stats.c ---------------------------------------------------------------*/

/* Each takes e->stats_lock itself (a leaf lock). */
void idiomrt_stats_success(idiomrt_entry *e, uint64_t kernel_ns,
                           uint64_t transfer_ns, uint64_t run_ns);
void idiomrt_stats_decline(idiomrt_entry *e, const char *reason);
/* The same with e->stats_lock already held (costmodel.c). */
void idiomrt_stats_decline_locked(idiomrt_entry *e, const char *reason);
/* The same for n calls that declined for one reason. */
void idiomrt_stats_declines_locked(idiomrt_entry *e, const char *reason,
                                   uint64_t n);
/* A decline of a re-entered run ("runtime busy"): lock-free, allocates
   nothing; the report adds it to d's line as "runtime busy (re-entered)". */
void idiomrt_stats_busy(const idiom_kernel_desc *d);
void idiomrt_stats_note(idiomrt_entry *e, const char *reason);
/* Bytes a run of e copied to and from the device. */
void idiomrt_stats_bytes(idiomrt_entry *e, uint64_t to_device,
                         uint64_t to_host);
/* atexit handler installed by config.c when IDIOM_STATS is set. */
void idiomrt_stats_report(void);

/*--- worker.c: OpenCL initialization and builds on a runtime thread -------*/

/* Stack of the runtime thread. */
#define IDIOMRT_WORKER_STACK ((size_t)16 << 20)
/* Runs fn(arg) on a new runtime thread (IDIOMRT_WORKER_STACK bytes of
   stack, every blockable signal blocked) and waits for it; the process's
   signal dispositions are saved before and restored after. Returns 1 when it
   ran, 0 when the thread could not be created, -1 (without waiting) when
   another job is running. */
int idiomrt_worker_run(void (*fn)(void *), void *arg);
/* Starts fn(arg) on a new runtime thread (same stack and signal mask) that
   waits for any running job, then runs fn; afterwards only the signal
   handlers that point into objects loaded during the job are put back.
   Returns 1 when the thread started (*thread: the caller joins it), 0 when
   it could not be created. */
int idiomrt_worker_start(void (*fn)(void *), void *arg, pthread_t *thread);
void idiomrt_worker_after_fork(void);

/*--- costmodel.c: device or original loop, per call site and size class ---*/

/* Bytes a run moves between host and device: IN buffers once, OUT and
   INOUT buffers twice (copied in, then back); 0 inside a residency region
   (residency.c), where buffers are copied in once per region. */
uint64_t idiomrt_cost_bytes(const idiom_arg *args, uint32_t nargs);

/* Element k of an integer array of elem_bytes (4 or 8) bytes, sign- or
   zero-extended to 64 bits (csr.c, jds.c). */
static inline int64_t idiomrt_load_index(const void *base, uint32_t elem_bytes,
                                         int zext, int64_t k) {
  if (elem_bytes == 4) {
    int32_t v = ((const int32_t *)base)[k];
    return zext ? (int64_t)(uint32_t)v : (int64_t)v;
  }
  return ((const int64_t *)base)[k];
}

/* CSR SpMV (csr.c; idiom_run_csr in idiomrt.h); JDS through the same
   entry points (jds.c, called for csr->format IDIOM_SPARSE_JDS). */
#define IDIOMRT_CSR_MAX_ARGS 64
/* Bytes of val, col and x the kernel reads, from ptr[0] and ptr[n] only
   (for the cost model before the check); 0 when unknown. */
uint64_t idiomrt_csr_bytes_estimate(const idiom_csr *csr);
/* A device run or device-side copy wrote [p, p + n): checks remembered
   for row pointers or column indices in that range are forgotten. */
void idiomrt_csr_forget(const void *p, uint64_t n);
/* Host passes over a matrix (idiom_csr_extent) and checks answered from
   a region's memo instead, process-wide. */
void idiomrt_csr_counts(uint64_t out[2]);
/* Runs idiom_csr_extent (inside a region: once per epoch and matrix, see
   csr.c) and writes into out (nargs entries) args with the val, col and x
   ranges and the nz0, c0, nx values filled in; NULL on success, else the
   reason to decline (out is then not complete). */
const char *idiomrt_csr_patch(const idiom_csr *csr, const idiom_arg *args,
                              uint32_t nargs, idiom_arg *out);
/* The row blocks (idiom_csr_row_blocks, IDIOM_ROW_BLOCK_ITERS steps per
   lane, default IDIOMRT_ROW_BLOCK_ITERS) of the n rows of a run of the
   load-balanced SpMV variant for work-groups of `group` work-items: of
   csr's row pointers when csr is a CSR matrix of n rows, else one row per
   block (any partition is correct; the blocks decide only the balance). Inside a region memoised
   with the run's check (forgotten with it: idiomrt_csr_forget, a new
   epoch); else built into *owned, which the caller frees after the run.
   Sets *nblocks; NULL when out of memory. */
#define IDIOMRT_ROW_BLOCK_ITERS 4
const int64_t *idiomrt_csr_row_blocks(const idiom_csr *csr, int64_t n,
                                      uint32_t group, int64_t *nblocks,
                                      int64_t **owned);
/* The columns [*lo, *hi) (empty when *lo >= *hi) as elements of x: plus
   x_offset, checked against x_extent when it is known; NULL, or "CSR
   column index outside x" (csr.c; for CSR and JDS). */
const char *idiomrt_csr_x_range(const idiom_csr *csr, int64_t *lo, int64_t *hi);
/* The JDS counterparts (jds.c): the estimate reads cnt[0..n). */
uint64_t idiomrt_jds_bytes_estimate(const idiom_csr *jds);
const char *idiomrt_jds_patch(const idiom_csr *jds, const idiom_arg *args,
                              uint32_t nargs, idiom_arg *out);
/*--- calibration.c: latency, bandwidth and start-up time, kept on disk ---*/

/* On a runtime thread, once the device is ready: measures the queue's
   round-trip latency and the host-to-device bandwidth (cheap: a few small
   writes and two 8 MiB writes) and writes them, with start_ns (the time the
   start-up took), to IDIOM_CACHE_DIR for later processes. */
void idiomrt_cost_calibrate(const idiomrt_device *dev, uint64_t start_ns);
/* Latency (ns) and bandwidth (bytes per ns) measured in this process, else
   read from the last process's file; 0 when neither exists. */
int idiomrt_calib_get(double *lat_ns, double *bw_bytes_per_ns);
/* Host time (ns) worth one device start-up: the last process's measured
   start-up time from the file (at least 50 ms), else 200 ms. */
uint64_t idiomrt_calib_start_after_ns(void);
/* Device (IDIOMRT_DEC_DEVICE, _EXPLORE_DEVICE, _UNTIMED) or host
   (_EXPLORE_HOST, _HOST_FASTER, _CANNOT_WIN) for a run of trip iterations
   moving bytes, counted in the stats; a host decision is also counted as a
   decline with the reason it returns in *reason (a static string) and asks
   the calling thread's idiom_host_begin for a measurement. One acquisition
   of e->stats_lock: the path of a loop kept on the host is short. */
int idiomrt_cost_decide(idiomrt_entry *e, uint64_t trip, uint64_t bytes,
                        const char **reason);
/* 1 for the decisions that run a device (either one). */
int idiomrt_cost_is_device(int decision);
/* 1 for the decisions that run the second (CPU) device. */
int idiomrt_cost_is_second(int decision);
/* What the three-way choice sees of one run (costmodel.c). Times in ns. */
typedef struct idiomrt_cost_inputs {
  uint64_t trip;
  double host;     /* the host's estimate of this run (region syncs in) */
  double floor_ns; /* the primary device's floor: latency + bytes / bw */
  double lat;      /* launch latency, also the second device's floor */
  int second;      /* the second device: 1 open and e's kernels built, 0
                      allowed but not ready, -1 not allowed or failed */
} idiomrt_cost_inputs;
/* Steps 2, 4 and 5 of the model for class c once the host is measured:
   among the host, the primary device and the second device (the lowest
   estimate wins; a device must be 10% below the host), exploring an
   unmeasured device first; sets *want_second when the second device
   should be opened (it is then not chosen by this call). Pure but for c's
   re-measurement schedule: the unit tests call it with faked samples. */
int idiomrt_cost_choose(idiomrt_cost_class *c, const idiomrt_cost_inputs *in,
                        int *want_second);
/* A successful run of the second device (see idiomrt_cost_device_sample);
   tuned: not a sample, a try (launch.c also counts a failed run so). */
void idiomrt_cost_second_sample(idiomrt_entry *e, uint64_t trip,
                                uint64_t wall_ns, int tuned);
/* Counts decision dec for e (stats), in place of decision `from` already
   counted by idiomrt_cost_decide (-1: none). Takes e->stats_lock. */
void idiomrt_cost_count(idiomrt_entry *e, int from, int dec);
/* After a policy decline: asks the calling thread's next idiom_host_begin
   for desc to time the original loop of trip iterations. */
void idiomrt_cost_want_host(idiomrt_entry *e, uint64_t trip);
/* Forgets the calling thread's pending host-timing request. */
void idiomrt_cost_clear_want(void);
/* With e->stats_lock held: counts the calls that e's host hint skipped
   since the last count (decision "host-hint", declines, calls). */
void idiomrt_cost_hint_fold_locked(idiomrt_entry *e);
/* A successful device run of trip iterations took wall_ns in idiom_run;
   tuned: it timed kernel variants first (not a sample then); filled: inside
   a region it filled device copies (not a sample, and not a try for the
   class's first few such runs). */
void idiomrt_cost_device_sample(idiomrt_entry *e, uint64_t trip,
                                uint64_t wall_ns, int tuned, int filled);
/* Name of a decision for the stats ("device", "host-cost", ...). */
const char *idiomrt_decision_name(int dec);
/* Appends the site's decisions and estimates to a stats line (with
   e->stats_lock held). */
int idiomrt_cost_report(const idiomrt_entry *e, char *buf, size_t n);
/* The same as members of the JSON object of the site (with e->stats_lock
   held): "decisions" {name: count}, "host_ms" (null when never measured),
   "cost" [{"class", "host_us", "device_us"}]. */
void idiomrt_cost_json(const idiomrt_entry *e, idiomrt_json *j);
/* The class's host estimate for a run of trip iterations, in ns (0 when
   the host was never measured). */
double idiomrt_cost_host_ns(idiomrt_entry *e, uint64_t trip);
/* Host time (ns, estimated) of every run so far that the model sent, or
   would have sent, to the device: the profile keeps it for the next run's
   start-up decision. */
uint64_t idiomrt_cost_worthy_total_ns(void);

/*--- startup.c: device start-up and kernel builds in the background -------*/

/* The decline reasons of startup.c. */
extern const char idiomrt_starting_reason[]; /* "device starting" */
extern const char idiomrt_building_reason[]; /* "kernels building" */
extern const char idiomrt_exiting_reason[];  /* "process exiting" */
/* 1 once exit() has begun after a background start: the start-up stops at
   its next step (device.c checks between its steps). */
int idiomrt_startup_exiting(void);
/* 1 while the background thread (start-up, calibration, kernel builds)
   runs: it takes a core, so host loops timed meanwhile run slow. */
int idiomrt_startup_running(void);
/* The device when ready; else NULL and *reason: idiomrt_starting_reason
   while the start-up thread (started by the first call) runs, or why there
   is no device. Never waits. */
const idiomrt_device *idiomrt_startup_poll(const char **reason);
/* 1 once the start-up thread has been started in this process. */
int idiomrt_startup_begun(void);
/* Starts the background start-up if needed and waits for its outcome. */
const idiomrt_device *idiomrt_startup_wait(const char **reason);
/* 1 when e's kernels have been built (or their build has failed, which the
   run then reports); else queues the build on the background thread and
   returns 0. */
int idiomrt_startup_built(idiomrt_entry *e);
void idiomrt_startup_after_fork(void);
/* The device for a run of trip iterations of e with the cost model on:
   when the device and e's kernels are ready, at once; else, when the
   start-up under way is expected to end well before the original loop
   would (remaining start-up, from the calibrated start-up time, at most a
   quarter of the cost model's host estimate host_ns), it polls until both
   are ready or half of host_ns has passed; so a program whose one long call
   comes while the device starts runs it there, and a wait that runs long
   costs at most half the loop again. NULL when the run should decline as
   before (*reason: starting, building, or why there is no device). */
const idiomrt_device *idiomrt_startup_wait_for_run(idiomrt_entry *e,
                                                   uint64_t trip,
                                                   const char **reason);
/* Starts the background start-up now unless it was started (profile.c, at
   program start). */
void idiomrt_startup_kick(void);
/* The second device for e (costmodel.c, launch.c): 1 when it is open and
   e's kernels for it are built, -1 when it failed to open or e's kernels
   do not build there, else 0. Takes no lock. */
int idiomrt_startup_second_ready(idiomrt_entry *e);
/* Asks the runtime thread to open the second device (once) and build e's
   kernels for it; never waits. Nothing when no second device is wanted. */
void idiomrt_startup_second_request(idiomrt_entry *e);

/*--- parcopy.c: host copies split over helper threads --------------------*/

/* Runs fn(ctx, lo, hi) over parts of [0, n) (cut at 64-byte boundaries) on
   the calling thread and the copy helpers, and returns when every part is
   done; on one thread (fn(ctx, 0, n)) for small n, without helpers, or
   while another thread's copy has them. */
void idiomrt_parallel_range(size_t n,
                            void (*fn)(void *ctx, size_t lo, size_t hi),
                            void *ctx);
/* memcpy through idiomrt_parallel_range. */
void idiomrt_parallel_memcpy(void *dst, const void *src, size_t n);
/* pthread_atfork child handler's part: no helpers in the child. */
void idiomrt_parcopy_after_fork(void);

/*--- profile.c: per-site cost samples kept across runs -------------------*/

/* A new entry's cost classes start from the last process's medians for its
   site (one sample of each side), when the profile has them. Called before
   the entry is published. */
void idiomrt_profile_seed(idiomrt_entry *e);
/* CLOCK_MONOTONIC ns at the runtime's constructor (program start). */
uint64_t idiomrt_profile_t0_ns(void);
/* The last process's idiomrt_cost_worthy_total_ns at its exit, from the
   profile; -1 when unknown (no profile, an older file, IDIOM_PROFILE=off). */
int64_t idiomrt_profile_last_worthy_ns(void);

/*--- process.c: fork and address-space limits -----------------------------*/

/* Reads at most cap - 1 bytes of path into buf, NUL-terminated, without
   stdio: no heap allocation, so reading the profile and calibration files
   at program start leaves the program's own malloc layout (and the speed
   of its loops) as in the sequential build. The byte count, or -1. */
long idiomrt_read_small_file(const char *path, char *buf, size_t cap);
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

/*--- fpenv.c: host floating-point environment, device FP limits ----------*/

#define IDIOMRT_FP_SCANNED 1u /* always set by idiomrt_fp_scan */
#define IDIOMRT_FP_FLOAT 2u   /* float or half arithmetic */
#define IDIOMRT_FP_DOUBLE 4u  /* double arithmetic */
#define IDIOMRT_FP_DIVSQRT 8u /* a '/' or a sqrt / divide call */
/* Classifies an OpenCL C source (comments and strings skipped). */
unsigned idiomrt_fp_scan(const char *source);
/* The calling thread's FP environment: NULL when it is the device's (round
   to nearest, subnormals kept), else the decline reason. */
const char *idiomrt_host_fp_check(void);
/* NULL when dev computes a source with fp_bits as the host does, else the
   decline reason. */
const char *idiomrt_device_fp_check(const idiomrt_device *dev,
                                    unsigned fp_bits);

/*--- writeback.c -----------------------------------------------------------*/

/* Stores to host[i] = dev[i] for every i < n where dev[i] != snap[i], and
   to no other byte. */
void idiomrt_write_changed(void *host, const void *dev, const void *snap,
                           size_t n);

/*--- launch.c ------------------------------------------------------------*/

/* 1 while the calling thread is inside an idiom_run (a signal handler that
   calls into the runtime then must not touch the thread's state). */
int idiomrt_in_runtime(void);

/*--- residency.c: device copies of host ranges inside regions ------------*/

/* One buffer argument of a run that uses the range table. */
typedef struct idiomrt_resid_arg {
  int entry;     /* index in the calling thread's table */
  size_t off;    /* of the argument's range in the entry's range */
  int out;       /* OUT or INOUT */
  cl_mem view;   /* range strictly inside the entry: its own buffer */
  int direct;    /* strictly inside, passed as the entry's buffer and an
                    element offset (off / the call's elem[i]): no view */
  cl_mem backup; /* INOUT of a dirty entry: the bytes before the run */
  int view_spare, backup_spare; /* kept by the entry for later runs */
} idiomrt_resid_arg;

/* A run's use of the table. dev, sink and sink_ctx are set by the caller;
   sink receives every event residency.c enqueues (the run waits for them,
   checks and profiles them). */
typedef struct idiomrt_resid_call {
  const idiomrt_device *dev;
  void (*sink)(void *ctx, cl_event ev);
  void *sink_ctx;
  uint32_t nargs;
  const unsigned char *zc; /* per argument: 1 when it is a buffer over the
                              program's memory (zerocopy.c): no entry, and
                              overlapping entries go back first; or NULL */
  const uint32_t *elem;    /* per argument: element bytes when the kernels
                              take an element offset for it (the source's
                              //@idiom-offsets line), 0 or NULL: they do not */
  int used;                /* the run's buffers come from the table */
  idiomrt_resid_arg *arg;  /* nargs, when used */
  uint64_t bytes_in;       /* host to device copies enqueued */
  unsigned reused;         /* arguments served by an existing entry */
} idiomrt_resid_call;

/* 1 when the calling thread is inside a region (idiom_region_begin). */
int idiomrt_resid_active(void);
/* Inside a region: gives every non-empty buffer argument its device buffer
   in mems[i] (a reference the run releases), copying in only what the
   table lacks; entries that overlap an argument without containing it are
   copied back and dropped. When two arguments overlap each other, only the
   entries overlapping them are copied back and dropped, c->used stays 0 and
   mems is untouched (the run copies in and out itself). 0 with the reason
   on failure; the caller then calls idiomrt_resid_abort. */
int idiomrt_resid_acquire(idiomrt_resid_call *c, const idiom_arg *args,
                          uint32_t nargs, cl_mem *mems, char *reason,
                          size_t reason_len);
/* After the kernels were enqueued: copies outputs passed as views back into
   their entries (on the device). */
int idiomrt_resid_after_kernels(idiomrt_resid_call *c, const idiom_arg *args,
                                char *reason, size_t reason_len);
/* After every command of the run completed: outputs' entries become
   device-valid (dirty). */
void idiomrt_resid_commit(idiomrt_resid_call *c);
/* After a failed run: restores INOUT backups (waits for the queue). */
void idiomrt_resid_abort(idiomrt_resid_call *c, const idiom_arg *args);
/* Copies every dirty entry back to the host and empties the calling
   thread's table (decline, idiom_region_sync). */
void idiomrt_resid_sync(void);
/* Adds to the process-wide transfer counters (idiom_transfer_bytes). */
void idiomrt_count_transfer(uint64_t to_device, uint64_t to_host);
/* The "idiom-stats: residency" line, when a region was entered. */
void idiomrt_resid_report(void);
/* The counters of that line: regions, reused, syncs, flushed_bytes, evicted. */
void idiomrt_resid_counts(uint64_t out[6]);
/* Bytes of host ranges this thread's open region holds on the device (0
   outside regions): what running a loop on the host inside the region
   costs in copies (back, and in again later). */
uint64_t idiomrt_resid_bytes(void);
/* The calling thread's host-stability epoch: 0 outside regions; inside one,
   a number that changes whenever the host may have written a region's
   buffers since (region entry, every sync, decline and region end). Host
   memory that only idioms write (tracked by idiomrt_csr_forget) keeps its
   bytes while the epoch stays the same. */
uint64_t idiomrt_resid_epoch(void);
/* The host is about to read [p, p + n) inside a region: entries holding
   device-valid bytes of it are copied back (and kept, now clean). */
void idiomrt_resid_host_read(const void *p, uint64_t n);

/*--- zerocopy.c: buffers over the program's memory on host-unified devices -*/

/* 1 when runs on dev create their buffers over the program's own memory
   (CL_MEM_USE_HOST_PTR): dev->host_unified and IDIOM_ZERO_COPY not off. */
int idiomrt_zc_device(const idiomrt_device *dev);
/* The alignment (bytes, a power of two) that a range's start needs to be
   passed as it is (IDIOM_ZERO_COPY_ALIGN, default 16). */
size_t idiomrt_zc_align(void);
/* Plans a run's buffer arguments on a zero-copy device: per argument,
   zc[i] = 1 when it gets a buffer over its own bytes, and base[i] the
   bytes the buffer starts before the argument (the start aligned down;
   only where elem[i] says the kernels take an element offset for it, else
   the start must be aligned). An argument overlapping another argument's
   covered bytes, and every output when no_outputs, get zc[i] = 0. */
void idiomrt_zc_plan(const idiomrt_device *dev, const idiom_arg *args,
                     uint32_t nargs, const uint32_t *elem, int no_outputs,
                     unsigned char *zc, size_t *base);
/* A CL_MEM_USE_HOST_PTR buffer over [p - base, p + bytes); NULL with *err
   when the driver refuses it (the caller copies instead). */
cl_mem idiomrt_zc_buffer(const idiomrt_device *dev, cl_mem_flags flags,
                         void *p, size_t base, size_t bytes, cl_int *err);
/* The buffers of a run's zero-copy arguments (zc[i] set by
   idiomrt_zc_plan): over the program's bytes, with backup each INOUT
   argument's bytes first copied into the calling thread's backup area (the
   time added to *host_copy_ns); one the driver refuses is marked zc[i] = 2
   and left to be copied as outside a region. 0 when out of host memory. */
int idiomrt_zc_buffers(const idiomrt_device *dev, const idiom_arg *args,
                       uint32_t nargs, unsigned char *zc, size_t *base,
                       cl_mem *mems, int backup, uint64_t *host_copy_ns);
/* Whether an INOUT argument is zero-copy (zc[i] == 1). */
int idiomrt_zc_inout(const idiom_arg *args, uint32_t nargs,
                     const unsigned char *zc);
/* After a failed run: waits for dev's commands, then puts the INOUT
   zero-copy arguments' bytes back as they were before the run (backed_up);
   without a backup, nothing when no kernel of the run can have run (the
   gate, launch.c), else a message naming loc and abort(). */
void idiomrt_zc_abort(const idiomrt_device *dev, const idiom_arg *args,
                      uint32_t nargs, const unsigned char *zc, int backed_up,
                      int may_have_written, const char *loc);
/* IDIOM_ZERO_COPY_BACKUP=always: every run backs its INOUT arguments up. */
int idiomrt_zc_backup_always(void);
/* INOUT bytes copied aside so far (tests). */
uint64_t idiomrt_zc_backup_bytes(void);
/* Counts zero-copy arguments and those copied for their alignment. */
void idiomrt_zc_count(uint64_t zc_args, uint64_t copied_args);
/* IDIOM_ZERO_COPY_TEST_FAIL (a test knob): 1, every run fails after its
   kernels completed; 2 (=enqueued), after its commands are enqueued, before
   its gate opens; else 0. */
int idiomrt_zc_test_fail(void);
/* The "idiom-stats: zero-copy" line, when a zero-copy device ran. */
void idiomrt_zc_report(void);

/*--- staging.c: copies through pinned host memory --------------------------*/

/* Copies src[0, n) into dst at off through the pinned staging slots when
   IDIOM_STAGING allows it for dev and n and the slots are free: then
   *staged = 1 and the copy has completed (or failed: the error) on return.
   Otherwise *staged = 0, nothing was done, and the caller copies itself. */
cl_int idiomrt_stage_write(const idiomrt_device *dev, cl_mem dst, size_t off,
                           const void *src, size_t n, int *staged);
/* Reads src[off, off + n) through the slots, handing each chunk to
   consume(arg, pos, chunk, len) (pos: offset in the n bytes); *staged as
   above. Synchronous. */
cl_int idiomrt_stage_read(const idiomrt_device *dev, cl_mem src, size_t off,
                          size_t n,
                          void (*consume)(void *arg, size_t pos,
                                          const void *chunk, size_t len),
                          void *arg, int *staged);

/*--- pair.c: two map idioms of one nest, both or neither -------------------*/

/* 1 when a run of descriptor d on the calling thread must not write the
   host yet: idiom_run_pair is running d as the first idiom of a pair. */
int idiomrt_defer_wanted(const idiom_kernel_desc *d);
/* 1 when a run of descriptor d on the calling thread is the second of an
   idiom_run_pair whose first ran: the cost model is not asked again (it
   decided for the pair with the first run). */
int idiomrt_pair_forced(const idiom_kernel_desc *d);
/* A private copy of host[0, n) that the run writes its results into in place
   of host; idiom_run_pair copies it to host once the whole pair succeeded,
   or drops it. NULL when out of host memory (the run then fails, having
   written nothing). */
void *idiomrt_defer_copy(void *host, size_t n);
/* calibration.c: CLOCK_MONOTONIC in nanoseconds. */
uint64_t idiomrt_now_ns(void);
/* checks.c: why descriptor d or its arguments cannot run (a decline
   reason), or NULL. */
const char *idiomrt_check_desc(const idiom_kernel_desc *d,
                               const idiom_arg *args, uint32_t nargs,
                               const uint64_t *sizes, const void *results);
/* checks.c: the product of d's ndims sizes, UINT64_MAX on overflow. */
uint64_t idiomrt_trip_count(const idiom_kernel_desc *d,
                            const uint64_t *sizes);
/* checks.c: 1 when an OUT / INOUT range of args overlaps any other
   non-empty buffer range of args (the runtime's overlap check). */
int idiomrt_args_overlap(const idiom_arg *args, uint32_t nargs);
/* launch.c: declines a run of d with reason (idiom_last_reason, stats);
   returns 0. */
int idiomrt_decline_pair(const idiom_kernel_desc *d, const char *reason);
/* launch.c: sets what idiom_last_kernel_ms returns on the calling thread. */
void idiomrt_set_last_kernel_ms(double ms);
/* launch.c: 1 when the calling thread's latest decline was the cost
   model's or the start-up's (a policy: the original loop is to run, maybe
   timed), 0 when it was a failure or a check. */
int idiomrt_last_decline_policy(void);
/* costmodel.c: when the model asked for the host time of the original loop
   of desc from (idiom_host_begin), it accepts idiom_host_begin(to) for it
   instead (the sample still goes to from's model). */
void idiomrt_cost_retarget_want(const idiom_kernel_desc *from,
                                const idiom_kernel_desc *to);

#endif /* IDIOMRT_INTERNAL_H */
