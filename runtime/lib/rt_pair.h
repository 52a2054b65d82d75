/*===- rt_pair.h - Pairs of idioms -----------------------------------------===*
 *
 * Private to runtime/lib (rt_internal.h includes it).
 *
 * Two map idioms of one nest run both or neither (pair.c).
 *
 *===----------------------------------------------------------------------===*/
#ifndef IDIOMRT_PAIR_H
#define IDIOMRT_PAIR_H

#include "idiomrt.h"
#include <stddef.h>

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

#endif /* IDIOMRT_PAIR_H */
