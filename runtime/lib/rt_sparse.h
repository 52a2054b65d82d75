/*===- rt_sparse.h - CSR and JDS SpMV --------------------------------------===*
 *
 * Private to runtime/lib (rt_internal.h includes it).
 *
 * The sparse matrices of idiom_run_csr (csr.c) and their JDS
 * counterparts (jds.c): checks, ranges and row blocks.
 *
 *===----------------------------------------------------------------------===*/
#ifndef IDIOMRT_SPARSE_H
#define IDIOMRT_SPARSE_H

#include "idiomrt.h"
#include <stdint.h>

/*--- csr.c, jds.c: sparse matrix-vector products ---------------------------*/

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
   (for the cost model and the work gate before the check); 0 when
   unknown. Two loads, so not memoised: it follows a matrix rewritten in
   place at once (JDS's estimate, a pass over its counts, is memoised:
   jds.c). An estimate steers only the policy (host or device, the
   IDIOM_MIN_TRIP gate), never a range that is copied or checked. */
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

#endif /* IDIOMRT_SPARSE_H */
