/*===- test_csr.c - idiom_csr_extent -------------------------------------===*
 *
 * The host-side run-time conditions of an offloaded CSR SpMV
 * (runtime/lib/csr.c): extents of monotone row pointers and of the column
 * indices, refusal of decreasing row pointers, widening of unsigned
 * elements, empty matrices, and no read of col when ptr is refused.
 *
 *===----------------------------------------------------------------------===*/

#include "test_common.h"

#include <stdint.h>

void case_csr_extent(void) {
  int64_t out[4];
  /* Rows 0..3 of a matrix whose nonzeros start at 2 (a sub-matrix). */
  int ptr[] = {2, 4, 4, 7, 8};
  int col[] = {99, 99, 5, 1, 9, 3, 3, 0, 99};
  CHECK(idiom_csr_extent(ptr, 4, col, 4, 0, 4, out) == 1);
  CHECK(out[0] == 2 && out[1] == 8);
  CHECK(out[2] == 0 && out[3] == 10); /* columns 0 .. 9 */

  /* One decreasing pair: refused, out untouched. */
  int bad[] = {0, 3, 2, 5};
  int64_t keep[4] = {-7, -7, -7, -7};
  CHECK(idiom_csr_extent(bad, 4, col, 4, 0, 3, keep) == 0);
  CHECK(keep[0] == -7 && keep[1] == -7 && keep[2] == -7 && keep[3] == -7);

  /* Decreasing pointers: col is never read (a null col would crash). The
     first pass refuses before the second starts. */
  int far[] = {0, 1000000000, 5};
  CHECK(idiom_csr_extent(far, 4, (const void *)0x10, 4, 0, 2, keep) == 0);

  /* No nonzeros: empty column range. */
  long empty[] = {3, 3, 3};
  CHECK(idiom_csr_extent(empty, 8, col, 4, 0, 2, out) == 1);
  CHECK(out[0] == 3 && out[1] == 3 && out[2] == 0 && out[3] == 0);

  /* Negative columns (x points into an array) and 64-bit columns. */
  long ptr64[] = {0, 2, 3};
  long col64[] = {-4, 6, -1};
  CHECK(idiom_csr_extent(ptr64, 8, col64, 8, 0, 2, out) == 1);
  CHECK(out[2] == -4 && out[3] == 7);

  /* Unsigned 32-bit columns: 0xFFFFFFFF is 4294967295, not -1. */
  unsigned ucol[] = {0xFFFFFFFFu, 1u};
  int p2[] = {0, 2};
  CHECK(idiom_csr_extent(p2, 4, ucol, 4, IDIOM_CSR_COL_ZEXT, 1, out) == 1);
  CHECK(out[2] == 1 && out[3] == 4294967296LL);
  CHECK(idiom_csr_extent(p2, 4, ucol, 4, 0, 1, out) == 1);
  CHECK(out[2] == -1 && out[3] == 2);

  /* Row pointers 0x7FFFFFFF, 0x80000000 decrease when sign-extended (the
     zero-extended pair would be accepted and make col be read at 2^31 - 1,
     which this test cannot provide). Zero-extended small pointers behave
     as signed ones. */
  unsigned up[] = {0x7FFFFFFFu, 0x80000000u};
  CHECK(idiom_csr_extent(up, 4, col, 4, 0, 1, keep) == 0);
  unsigned small[] = {2, 4};
  CHECK(idiom_csr_extent(small, 4, col, 4, IDIOM_CSR_PTR_ZEXT, 1, out) == 1);
  CHECK(out[0] == 2 && out[1] == 4 && out[2] == 1 && out[3] == 6);

  /* Invalid arguments. */
  CHECK(idiom_csr_extent(ptr, 4, col, 4, 0, 0, out) == 0);
  CHECK(idiom_csr_extent(ptr, 2, col, 4, 0, 4, out) == 0);
  CHECK(idiom_csr_extent(ptr, 4, col, 3, 0, 4, out) == 0);
  CHECK(idiom_csr_extent(NULL, 4, col, 4, 0, 4, out) == 0);
}
