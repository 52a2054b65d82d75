/*===- rt_program.h - Programs and tuning ----------------------------------===*
 *
 * Private to runtime/lib (rt_internal.h includes it).
 *
 * A descriptor's programs, built once per process with binaries kept on
 * disk (program_cache.c), and the choice among its kernel variants per
 * size class (tuning.c).
 *
 *===----------------------------------------------------------------------===*/
#ifndef IDIOMRT_PROGRAM_H
#define IDIOMRT_PROGRAM_H

#include "rt_device.h"
#include "rt_registry.h"
#include <stddef.h>
#include <stdint.h>

/*--- program_cache.c: build once per process, binaries on disk -----------*/

/* A map descriptor's element bytes per buffer argument: the text after
   "//@idiom-offsets" in its source's shared part (before the first
   "//@idiom-variant " line); NULL for none or another kind. */
const char *idiomrt_source_offsets(const idiom_kernel_desc *d);
/* The next buffer argument's element bytes in such a list (1, 2, 4, 8 or
   16; 0 for another or a missing number), advancing *p past it; 0 with
   *p NULL. */
uint32_t idiomrt_offsets_next(const char **p);

/* With e->lock held: builds the descriptor's source (or, when the whole
   does not build, each variant's section alone) and makes the kernels of
   every variant that builds ready. Returns 1 when at least one variant is
   ready, or 0 with the reason in reason[0..n) (a failure is remembered). */
int idiomrt_program_ensure(idiomrt_entry *e, const idiomrt_device *dev,
                           char *reason, size_t n);
/* Test knob IDIOM_TEST_SLOW_BUILD_MS=N: sleeps N ms per unit. Called for
   every build from source (a unit per variant of the source) and for the
   first launch of each variant on the second device (enqueue.c), where
   PoCL compiles a kernel for its work-group size. */
void idiomrt_test_slow_build(unsigned units);
/* The staged build's rule, after variant 0 of nv built alone in first_ns:
   1 when the rest go one per step (the whole would take more than 0.5 s,
   estimated as nv times the first), 0 when the whole source is built in
   one step instead. */
int idiomrt_program_stage_rest(uint64_t first_ns, unsigned nv);
/* As idiomrt_program_ensure, on the runtime thread (startup.c): on a
   device that is not a CPU device (or under IDIOM_TEST_SLOW_BUILD_MS), a
   source of several variants that is not in the disk cache is built one
   variant per program (unless the first one's build says the whole takes
   under 0.5 s: idiomrt_program_stage_rest), and stop() is asked before
   each: exit waits for one variant's build, not the whole program's (5 s
   for nas-parboil/mg.c:156's 8 variants on an H100). When stop() says so,
   nothing is kept (build_state stays 0) and 0 is returned with the reason
   "process exiting". A later process loads each variant's binary from the
   disk cache. */
int idiomrt_program_ensure_staged(idiomrt_entry *e, const idiomrt_device *dev,
                                  char *reason, size_t n, int (*stop)(void));
/* As idiomrt_program_ensure_staged, for the primary device's builds on
   the runtime thread (startup.c): a source of several variants whose
   variant 0 is built alone (a staged build) stops there, variant 0 ready,
   the others not ready ("building"), e->rest_pending set and e->rest_next
   1, so that the entry's runs wait for one variant's build, not the whole
   program's (about 1.2 s of PolyBench trmm's 6 variants cold on the H100,
   docs/Benchmarks.md), and the next site's variant 0 goes before this
   one's rest (idiomrt_program_build_rest_one). waited: a device-wait run
   waits for the entry (devwait.c): variant 0 alone whenever it is built
   alone; else only when the rest would go one per step anyway
   (idiomrt_program_stage_rest, or variant 0 loaded from the disk cache),
   a cheap whole being one step as before. A fixed-order reduction
   (tuning.c) builds its device type's variant alone and stops there (the
   only one it runs); the others only when that one cannot be built.
   Returns as ensure_staged. */
int idiomrt_program_ensure_first(idiomrt_entry *e, const idiomrt_device *dev,
                                 char *reason, size_t n, int (*stop)(void),
                                 int waited);
/* 1 when the entry's first build on dev would be a load from the disk
   cache (a few ms): its whole source's binary, or its variant 0's (a
   fixed-order reduction's: its device type's variant), is there; reads
   no OpenCL state, only the cache directory. */
int idiomrt_program_first_on_disk(const idiomrt_entry *e,
                                  const idiomrt_device *dev);
/* On the runtime thread, with e->rest_pending set: the variants from
   e->rest_next on whose binary is not in the disk cache (each a build
   from source; the others are loads of a few ms). */
unsigned idiomrt_program_rest_to_build(const idiomrt_entry *e,
                                       const idiomrt_device *dev);
/* Without e->lock, on the runtime thread, after ensure_first left
   e->rest_pending: builds variant e->rest_next alone outside e->lock
   (runs of variant 0 go on meanwhile), publishes it under the lock and
   advances rest_next, recording its build time in e->rest_ns when it was
   built from source. Returns the variants still to build; at 0
   rest_pending is cleared (tuning then times the variants ready). One
   variant per call: the runtime thread serves a new variant-0 request
   between two calls. */
unsigned idiomrt_program_build_rest_one(idiomrt_entry *e,
                                        const idiomrt_device *dev);
/* Takes e->lock: the variants from e->rest_next on are left out (not
   ready, why[] = why, a static string kept in e->rest_why for the stats
   report, their count in e->rest_left) and rest_pending is cleared, so
   tuning has the variants ready so far as candidates, as after a failed
   variant build: no wait, no request again in this process. */
void idiomrt_program_leave_rest(idiomrt_entry *e, const char *why);
/* FNV-1a 64 over [p, p + n), continuing from h. */
uint64_t idiomrt_fnv1a(uint64_t h, const void *p, size_t n);
#define IDIOMRT_FNV_OFFSET 0xcbf29ce484222325ULL

/* Writes path atomically (temporary file, then rename), creating dir. */
int idiomrt_write_file(const char *dir, const char *path, const void *data,
                       size_t size);
/* mkdir -p; returns 1 when dir exists afterwards. */
int idiomrt_make_dirs(const char *dir);

/*--- tuning.c: choice among variants, remembered per size class ----------*/

/* The variant that a fixed-order reduction (src has the line
   IDIOMRT_FIXED_ORDER_MARKER before its first variant) runs on dev: the
   marker's gpu=G or cpu=C, else 0; -1 when src is no such reduction. */
int idiomrt_fixed_order_variant(const char *src, const idiomrt_device *dev);
/* floor(log2(trip)), 0 for trip <= 1. */
unsigned idiomrt_size_class(uint64_t trip);
/* With e->lock held and the program built: the variant to run for size
   class cls when already known (memory, IDIOM_TUNE=off, a single usable
   variant, or a valid tuning file), else -1: the caller times the usable
   variants and calls idiomrt_tune_record. */
int idiomrt_tune_lookup(idiomrt_entry *e, const idiomrt_device *dev,
                        unsigned cls, uint64_t work_iters);
/* With e->lock held and the program built: the variant a class not tuned
   yet runs without timing the others (variant 0, the default lowering,
   else the first usable one; -1 when none is), nothing recorded. */
int idiomrt_tune_default(const idiomrt_entry *e);
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

#endif /* IDIOMRT_PROGRAM_H */
