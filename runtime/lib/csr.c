/*===- csr.c - Run-time conditions of an offloaded CSR SpMV ---------------===*
 *
 * idiom_csr_extent (idiomrt.h): the host-side pass over the row pointers and
 * column indices that an offloaded CSR sparse matrix-vector product needs
 * before its kernel may run (docs/ARCHITECTURE.md, "SpMV"). It reads only
 * memory the original loop reads: ptr[0..n] always, col[ptr[0]..ptr[n])
 * only once the row pointers are known to be monotone, when the loop reads
 * every one of those indices.
 *
 *===----------------------------------------------------------------------===*/

#include "idiomrt.h"

#include <stdint.h>

/* Element k of an integer array of elem_bytes (4 or 8) bytes, sign- or
 * zero-extended to 64 bits. */
static int64_t load_index(const void *base, uint32_t elem_bytes, int zext,
                          int64_t k) {
  if (elem_bytes == 4) {
    int32_t v = ((const int32_t *)base)[k];
    return zext ? (int64_t)(uint32_t)v : (int64_t)v;
  }
  return ((const int64_t *)base)[k];
}

int idiom_csr_extent(const void *ptr, uint32_t ptr_bytes, const void *col,
                     uint32_t col_bytes, uint32_t flags, int64_t n,
                     int64_t out[4]) {
  if (!ptr || !col || !out || n < 1 || (ptr_bytes != 4 && ptr_bytes != 8) ||
      (col_bytes != 4 && col_bytes != 8))
    return 0;
  int ptr_zext = (flags & IDIOM_CSR_PTR_ZEXT) != 0;
  int col_zext = (flags & IDIOM_CSR_COL_ZEXT) != 0;
  int64_t first = load_index(ptr, ptr_bytes, ptr_zext, 0), prev = first;
  for (int64_t i = 1; i <= n; ++i) {
    int64_t p = load_index(ptr, ptr_bytes, ptr_zext, i);
    if (p < prev)
      return 0; /* not monotone: the loop skips row i-1, the kernel would not */
    prev = p;
  }
  int64_t lo = 0, hi = 0;
  for (int64_t p = first; p < prev; ++p) {
    int64_t c = load_index(col, col_bytes, col_zext, p);
    if (p == first || c < lo)
      lo = c;
    if (p == first || c >= hi) {
      if (c == INT64_MAX)
        return 0; /* hi = c + 1 would overflow */
      hi = c + 1;
    }
  }
  out[0] = first;
  out[1] = prev;
  out[2] = lo;
  out[3] = hi;
  return 1;
}
