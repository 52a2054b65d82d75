/*===- checks.c - What a run checks before it needs a device -------------===*
 *
 * The descriptor and argument checks of idiom_run (launch.c) and of the
 * pair and CSR paths: a malformed descriptor or argument list, an empty
 * iteration space, the trip count (the product of the sizes, saturating),
 * and OUT / INOUT ranges that overlap another range. None touches OpenCL.
 *
 *===----------------------------------------------------------------------===*/
#include "rt_internal.h"

#include <stdint.h>

const char *idiomrt_check_desc(const idiom_kernel_desc *d,
                               const idiom_arg *args, uint32_t nargs,
                               const uint64_t *sizes, const void *results) {
  if (!d->name || !d->name[0] || !d->source)
    return "invalid descriptor";
  if (d->kind == IDIOM_MAP) {
    if (d->ndims < 1 || d->ndims > IDIOM_MAX_MAP_DIMS)
      return "invalid descriptor: rank";
  } else if (d->kind == IDIOM_REDUCE) {
    if (d->ndims < 1 || d->ndims > IDIOM_MAX_REDUCE_DIMS)
      return "invalid descriptor: rank";
    if (d->nresults < 1 || d->nresults > IDIOM_MAX_RESULTS || !d->result_bytes)
      return "invalid descriptor: results";
    for (unsigned k = 0; k < d->nresults; ++k)
      if (d->result_bytes[k] < 1 || d->result_bytes[k] > IDIOM_MAX_RESULT_BYTES)
        return "invalid descriptor: results";
    if (!results)
      return "invalid arguments: no results";
  } else {
    return "invalid descriptor: kind";
  }
  if (!sizes || (nargs && !args))
    return "invalid arguments";
  for (uint32_t i = 0; i < nargs; ++i) {
    const idiom_arg *a = &args[i];
    if (a->kind > IDIOM_ARG_F64)
      return "invalid arguments: kind";
    if ((a->flags & ~(uint32_t)(IDIOM_ARG_DENSE | IDIOM_ARG_SNAPSHOT |
                                IDIOM_ARG_INPLACE)) ||
        ((a->flags & (IDIOM_ARG_SNAPSHOT | IDIOM_ARG_INPLACE)) &&
         a->kind != IDIOM_ARG_BUF_IN))
      return "invalid arguments: flags";
    if (idiomrt_arg_is_buffer(a->kind) && a->bytes &&
        (!a->ptr || (uint64_t)(uintptr_t)a->ptr > UINT64_MAX - a->bytes))
      return "invalid arguments: buffer";
  }
  for (unsigned i = 0; i < d->ndims; ++i)
    if (sizes[i] == 0)
      return "empty iteration space";
  return NULL;
}

uint64_t idiomrt_trip_count(const idiom_kernel_desc *d,
                            const uint64_t *sizes) {
  uint64_t t = 1;
  for (unsigned i = 0; i < d->ndims; ++i) {
    if (sizes[i] && t > UINT64_MAX / sizes[i])
      return UINT64_MAX;
    t *= sizes[i];
  }
  return t;
}

/* 1 when an OUT / INOUT range overlaps another non-empty range, but with
   snapshots allowed (non-null snapshot) an IN range flagged
   IDIOM_ARG_SNAPSHOT, which sets *snapshot to 1 instead, and an IN range
   flagged IDIOM_ARG_INPLACE identical to the output's (idiomrt_inplace). */
static int overlap(const idiom_arg *args, uint32_t nargs, int *snapshot) {
  for (uint32_t i = 0; i < nargs; ++i) {
    if (!idiomrt_arg_is_output(args[i].kind) || args[i].bytes == 0)
      continue;
    uint64_t a0 = (uint64_t)(uintptr_t)args[i].ptr, a1 = a0 + args[i].bytes;
    for (uint32_t j = 0; j < nargs; ++j) {
      if (j == i || !idiomrt_arg_is_buffer(args[j].kind) || args[j].bytes == 0)
        continue;
      uint64_t b0 = (uint64_t)(uintptr_t)args[j].ptr, b1 = b0 + args[j].bytes;
      if (!(a0 < b1 && b0 < a1))
        continue;
      if (snapshot && idiomrt_inplace_alias(&args[j], &args[i]))
        continue;
      if (!snapshot || args[j].kind != IDIOM_ARG_BUF_IN ||
          !(args[j].flags & IDIOM_ARG_SNAPSHOT))
        return 1;
      *snapshot = 1;
    }
  }
  return 0;
}

int idiomrt_args_overlap_snapshot(const idiom_arg *args, uint32_t nargs,
                                  int *snapshot) {
  *snapshot = 0;
  return overlap(args, nargs, snapshot);
}

/* 1 when an OUT / INOUT range overlaps any other non-empty range. */
int idiomrt_args_overlap(const idiom_arg *args, uint32_t nargs) {
  return overlap(args, nargs, NULL);
}
