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

#endif /* IDIOMRT_PROGRAM_H */
