/*===- pair.c - Two map idioms of one loop nest, both or neither ----------===*
 *
 * idiom_run_pair (idiomrt.h): the two GEMVs of a fused nest (PolyBench
 * bicg's `q[i] += A[i][j] * p[j]` and `s[j] += r[i] * A[i][j]` in one nest,
 * docs/ARCHITECTURE.md "GEMV pairs") run as two idiom_run calls, one per
 * kernel. The original nest computes both products, so the host must see
 * both results or neither: the first run writes its outputs into private
 * copies of their host ranges (launch.c asks idiomrt_defer_wanted before its
 * write-back), the second writes the host only once its own commands have
 * completed, and the copies reach the host only after that. A decline of
 * either leaves the host memory as it was; the caller runs the original
 * nest.
 *
 * Fission is legal only when no output range overlaps another range of
 * either kernel (the nest interleaves the two products' accesses): the
 * overlap check runs on the arguments of both kernels together before
 * either runs.
 *
 *===----------------------------------------------------------------------===*/

#include "idiomrt.h"
#include "rt_internal.h"

#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* One output range of the first run, written to the host on success. */
typedef struct deferred {
  void *host;
  void *copy;
  size_t bytes;
} deferred;

/* The calling thread's pair in progress. */
static _Thread_local const idiom_kernel_desc *t_defer_desc;
static _Thread_local const idiom_kernel_desc *t_forced_desc;
static _Thread_local int t_in_pair;
static _Thread_local deferred *t_def;
static _Thread_local unsigned t_ndef, t_capdef;
static _Thread_local int t_def_failed;

int idiomrt_defer_wanted(const idiom_kernel_desc *d) {
  return d && d == t_defer_desc;
}

int idiomrt_pair_forced(const idiom_kernel_desc *d) {
  return d && d == t_forced_desc;
}

void *idiomrt_defer_copy(void *host, size_t n) {
  if (t_ndef == t_capdef) {
    unsigned cap = t_capdef ? 2 * t_capdef : 8;
    deferred *p = realloc(t_def, cap * sizeof *p);
    if (!p) {
      t_def_failed = 1;
      return NULL;
    }
    t_def = p;
    t_capdef = cap;
  }
  void *copy = malloc(n ? n : 1);
  if (!copy) {
    t_def_failed = 1;
    return NULL;
  }
  memcpy(copy, host, n);
  t_def[t_ndef].host = host;
  t_def[t_ndef].copy = copy;
  t_def[t_ndef].bytes = n;
  t_ndef++;
  return copy;
}

/* Writes (when commit) and frees the first run's copies and their list. */
static void finish_deferred(int commit) {
  for (unsigned i = 0; i < t_ndef; ++i) {
    if (commit)
      memcpy(t_def[i].host, t_def[i].copy, t_def[i].bytes);
    free(t_def[i].copy);
  }
  /* a pair has few outputs: the list is not kept between calls (no
     thread-local allocation outlives the call) */
  free(t_def);
  t_def = NULL;
  t_ndef = t_capdef = 0;
  t_def_failed = 0;
}

/* Why the pair (first, second) cannot run at all, or NULL: the checks of
   both entry points before any kernel runs. */
static const char *pair_refusal(const idiom_kernel_desc *first,
                                const idiom_kernel_desc *second,
                                const idiom_arg *args, uint32_t nfirst,
                                uint32_t nsecond, const uint64_t *sizes) {
  if (!first || !second || !sizes || (nfirst + (uint64_t)nsecond && !args) ||
      nfirst > UINT32_MAX - nsecond)
    return "invalid arguments";
  if (t_in_pair || idiomrt_in_runtime())
    /* re-entered from a signal handler: the pair's state is in use */
    return idiomrt_busy_reason;
  if (idiomrt_resid_active()) {
    /* The first run's outputs would stay on the device and become
       device-valid before the second ran. The plugin places no pair in a
       region (an unknown call refuses one); a region of a caller's makes
       the pair run the original nest, on host memory. */
    idiomrt_resid_sync();
    return "a GEMV pair inside a residency region";
  }
  if (idiomrt_args_overlap(args, nfirst + nsecond))
    return "overlapping input/output ranges";
  return NULL;
}

/* The two kernels, first then second, both or neither. */
static int run_split(const idiom_kernel_desc *first,
                     const idiom_kernel_desc *second, const idiom_arg *args,
                     uint32_t nfirst, uint32_t nsecond, const uint64_t *sizes) {
  t_in_pair = 1;
  t_defer_desc = first;
  int ok = idiom_run(first, args, nfirst, sizes, NULL);
  t_defer_desc = NULL;
  double ms = idiom_last_kernel_ms();
  /* With the cost model on, it decided for the pair with the first run
     (whose host time, on a decline, is the whole nest's): the second is
     not asked again, so a pair never runs one kernel for nothing because
     the model kept the other on the host. */
  t_forced_desc = second;
  if (ok && !t_def_failed &&
      (ok = idiom_run(second, args + nfirst, nsecond, sizes + first->ndims,
                      NULL)))
    idiomrt_set_last_kernel_ms(ms + idiom_last_kernel_ms());
  else
    ok = 0;
  t_forced_desc = NULL;
  finish_deferred(ok);
  t_in_pair = 0;
  return ok;
}

int idiom_run_pair(const idiom_kernel_desc *first,
                   const idiom_kernel_desc *second, const idiom_arg *args,
                   uint32_t nfirst, uint32_t nsecond, const uint64_t *sizes) {
  int saved_errno = errno;
  const char *why = pair_refusal(first, second, args, nfirst, nsecond, sizes);
  int ok = why ? idiomrt_decline_pair(first, why)
               : run_split(first, second, args, nfirst, nsecond, sizes);
  errno = saved_errno;
  return ok;
}
