/*===- inplace.c - In-place inputs (IDIOM_ARG_INPLACE) --------------------===*
 *
 * An IN argument flagged IDIOM_ARG_INPLACE whose range is identical to an
 * output's (NAS MG's resid(u, r, r): r = v - A u with v == r) reads each
 * element only where the same work item writes it, before it writes it, so
 * the kernel may read it from the output's own device buffer. A run over
 * such arguments works on a view of its arguments (idiomrt_inplace_view):
 * the input emptied, the output made INOUT (copied in, or kept resident),
 * and run_buffers.c binds the output's buffer to the input after creating
 * the buffers.
 *
 *===----------------------------------------------------------------------===*/
#include "rt_internal.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

int idiomrt_inplace_alias(const idiom_arg *in, const idiom_arg *out) {
  return in->kind == IDIOM_ARG_BUF_IN && (in->flags & IDIOM_ARG_INPLACE) &&
         (out->kind == IDIOM_ARG_BUF_OUT || out->kind == IDIOM_ARG_BUF_INOUT) &&
         in->bytes && in->ptr == out->ptr && in->bytes == out->bytes;
}

int idiomrt_inplace_view(const idiom_arg *args, uint32_t nargs,
                         idiom_arg **view, uint32_t **alias) {
  *view = NULL;
  *alias = NULL;
  for (uint32_t i = 0; i < nargs; ++i)
    for (uint32_t j = 0; j < nargs; ++j) {
      if (j == i || !idiomrt_inplace_alias(&args[i], &args[j]))
        continue;
      if (!*view) {
        *view = malloc(nargs * sizeof **view);
        *alias = calloc(nargs, sizeof **alias);
        if (!*view || !*alias) {
          free(*view);
          free(*alias);
          *view = NULL;
          *alias = NULL;
          return -1;
        }
        memcpy(*view, args, nargs * sizeof **view);
      }
      (*alias)[i] = j + 1;
      (*view)[i].bytes = 0;
      (*view)[i].flags &= ~(uint32_t)IDIOM_ARG_INPLACE;
      (*view)[j].kind = IDIOM_ARG_BUF_INOUT;
      break;
    }
  return *view ? 1 : 0;
}
