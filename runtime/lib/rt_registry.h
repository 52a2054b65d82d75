/*===- rt_registry.h - Per-descriptor state --------------------------------===*
 *
 * Private to runtime/lib (rt_internal.h includes it).
 *
 * The registry entry of a kernel descriptor (registry.c): its programs
 * and variants, tuning choices, stats counters and cost-model samples,
 * each field guarded as its comment says.
 *
 *===----------------------------------------------------------------------===*/
#ifndef IDIOMRT_REGISTRY_H
#define IDIOMRT_REGISTRY_H

#include "rt_cl.h"
#include "idiomrt.h"
#include <pthread.h>
#include <stdint.h>

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
  int launched;               /* a second entry's variant: launched once
                                 (IDIOM_TEST_SLOW_BUILD_MS), under the
                                 entry's lock (enqueue.c) */
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
  IDIOMRT_DEC_DEVICE_WAIT,      /* no host sample, its lower bound large:
                                   wait for the device (devwait.c) */
  IDIOMRT_DEC_REPROBE,          /* device: a stale seed measured again */
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
  uint32_t cpu_warm;      /* startup_warm.c: 1 warm-up queued, 2 done */
  double cpu_credit;      /* ns the second device could have saved so far
                             (ski rental for its exploration, costmodel.c) */
  int remeasure;          /* which loser is measured next (three-way) */
  uint32_t dev_tries;     /* device explorations without a sample */
  uint32_t fill_runs;     /* device runs inside a region that filled copies */
  uint64_t fill_region;   /* idiomrt_resid_region_id of the last of them */
  uint32_t dev_runs;      /* successful device runs (the first warms up) */
  uint32_t host_skip;     /* host decisions, for sampling one in 16 */
  int winner;             /* 0 none yet, 1 device, 2 host, 3 second device */
  uint64_t since;         /* decisions since the loser was last measured */
  uint64_t gap;           /* decisions before the loser is measured again */
  double win_ns;          /* estimated time of the winner since then */
  int hint_ok;            /* the last choice kept the host by more than the
                             spread of both sides' samples (or no device
                             can be measured): a host hint may follow */
  /* stale.c: the device's sample seeded by the profile (profile.c) */
  unsigned char dev_seed;    /* 1 while the device's estimate is the seed */
  unsigned char seed_age;    /* runs since the seed was measured */
  unsigned char seed_losses; /* measuring runs in a row the device lost */
  signed char seed_load;     /* contention of that run, %; -1 unknown */
  unsigned char stale;       /* enum idiomrt_stale_state */
  unsigned char host_cold;   /* host runs left out for first-touch page
                                faults (costmodel.c, COLD_RUNS_MAX) */
  unsigned char host_cold_only; /* the host ring holds one cold run only */
  unsigned char hint_grow;   /* host-floor hints in a row, each after the
                                first doubling the calls the next one
                                skips (costmodel.c, HINT_GROW_MAX) */
} idiomrt_cost_class;

/* Size classes stored in the site itself: the first ones a site uses. */
#define IDIOMRT_COST_INLINE 2

/* costmodel.c: cost-model state of one descriptor, under stats_lock. */
typedef struct idiomrt_cost_site {
  /* Class c's state, NULL until a call first uses the class
     (idiomrt_cost_class_get): a site touches the few classes its calls
     have, not 64 of them (12 KB a site, cleared by calloc at its first
     call: bench/tiny_host.sh). Set once, with a release store, under
     stats_lock; never freed. */
  idiomrt_cost_class *cls[IDIOMRT_SIZE_CLASSES];
  idiomrt_cost_class first[IDIOMRT_COST_INLINE]; /* the first classes used */
  unsigned nfirst;        /* entries of first[] in use */
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
  idiomrt_variant *var;       /* nvariants of them, allocated by the first
                                 build (NULL before: a site that stays on
                                 the host never has 5 KB of them) */
  const char *offsets;        /* a map's element bytes per buffer argument,
                                 after "//@idiom-offsets" in the shared part
                                 of the source; NULL: the kernels take no
                                 offsets (set when the entry is made,
                                 never changed) */

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
  unsigned char hint_gate;    /* that hint was the work gate's (its calls
                                 count as "work below threshold") */
  unsigned char gate_grow;    /* work-gate hints in a row (costmodel.c) */
  const char *device_name;    /* device this entry saw, or NULL */
  unsigned nreasons;
  struct {
    char text[IDIOMRT_REASON_LEN];
    uint64_t count;
  } reasons[IDIOMRT_MAX_REASONS];
  uint64_t other_reasons;     /* declines whose reason did not fit */

  /* costmodel.c, under stats_lock */
  idiomrt_cost_site cost;
  /* run_buffers.c, under lock: a reduction's part_k and out_k buffers, kept
     from run to run on scratch_dev (creating and freeing them every run
     cost a GPU driver more than the kernels of a small reduction) */
  const struct idiomrt_device *scratch_dev;
  cl_mem scratch_parts[IDIOM_MAX_RESULTS];
  cl_mem scratch_outs[IDIOM_MAX_RESULTS];
  /* startup.c: 0 no background build asked, 1 queued, 2 tried (atomic) */
  int bg_build;
  /* startup.c: a device-wait run waits for this entry (devwait.c): its
     background build makes variant 0 ready first (atomic) */
  int bg_first;
  /* startup.c: its first build is a load from the disk cache: 1 yes, -1
     no, 0 not known yet (the device not up); atomic */
  int disk_first;
  /* program_cache.c, under lock: variants 1.. still building after
     variant 0 (idiomrt_program_build_rest_one); tuning waits for them */
  int rest_pending;
  /* program_cache.c, the staged rest (set by the runtime thread; read by
     the stats report under lock): the next variant to build, the variants
     ready so far, the last build from source of one variant (ns, 0: none
     measured), and the variants left out (idiomrt_program_leave_rest)
     with the reason (a static string) */
  unsigned rest_next;
  unsigned rest_ready;
  uint64_t rest_ns;
  unsigned rest_left;
  const char *rest_why;
  /* startup.c: the rest queue (entries whose rest_pending is set), under
     its lock */
  struct idiomrt_entry *rest_q_next;
  /* registry.c: the program, variants, tuning and reduction scratch of
     this descriptor on the second device (idiomrt_entry_second), an entry
     of its own that the registry does not list; NULL until first wanted.
     second: 1 in such an entry (its builds use the second device). */
  struct idiomrt_entry *alt;
  int second;
  /* resid_sync.c: the caller calls idiom_region_sync_args before its
     fallback loop (atomic): a decline syncs only the run's own ranges */
  int sync_args;
  struct idiomrt_entry *bg_next; /* build queue, under startup.c's lock */
} idiomrt_entry;

/* Class c (< IDIOMRT_SIZE_CLASSES) of s, created zeroed at its first use
   (one of s->first, else calloc'd); NULL only when out of memory. With the
   entry's stats_lock held, or before the entry is published. It may
   allocate: idiom_host_end and idiom_host_hint, which must not (a signal
   handler may reach them), use idiomrt_cost_class_find. */
idiomrt_cost_class *idiomrt_cost_class_get(idiomrt_cost_site *s, unsigned c);
/* Class c of s, or NULL while no call has used it. */
static inline idiomrt_cost_class *
idiomrt_cost_class_find(const idiomrt_cost_site *s, unsigned c) {
  return __atomic_load_n(&s->cls[c], __ATOMIC_ACQUIRE);
}
/* Class c of s to read: the class, or a shared all-zero one (no samples,
   no winner: what a class no call has used holds) while none exists. */
const idiomrt_cost_class *idiomrt_cost_class_peek(const idiomrt_cost_site *s,
                                                  unsigned c);

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

#endif /* IDIOMRT_REGISTRY_H */
