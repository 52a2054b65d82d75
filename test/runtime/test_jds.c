/*===- test_jds.c - idiom_run_csr for JDS ---------------------------------===*
 *
 * The host-side run-time conditions of an offloaded JDS SpMV
 * (runtime/lib/jds.c, idiom_csr::format IDIOM_SPARSE_JDS): with offload
 * forced, idiom_run_csr declines, before any device work, a negative row
 * count, a perm that sends two rows to one element, rows that do not write
 * consecutive elements of y, a column outside x and invalid arguments.
 *
 *===----------------------------------------------------------------------===*/

#include "test_common.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

static const idiom_kernel_desc jds_desc = {
    "jds_k", "test_jds.c:1", "spmv-jds", "__kernel void jds_k(void) {}",
    IDIOM_MAP, 1, 0, 1, NULL};

/* cnt, ptr, val, col, x, perm, y, n0, nz0, nnz, c0, nx, y0 as the SpMV
   lifter orders them. */
static void jds_args(idiom_arg a[13], const int *cnt, const int *ptr,
                     const double *val, const int *col, const double *x,
                     const int *perm, double *y, int64_t n) {
  a[0] = buf(IDIOM_ARG_BUF_IN, (void *)cnt, 4 * (uint64_t)n);
  a[1] = buf(IDIOM_ARG_BUF_IN, (void *)ptr, 0);
  a[2] = buf(IDIOM_ARG_BUF_IN, (void *)val, 0);
  a[3] = buf(IDIOM_ARG_BUF_IN, (void *)col, 0);
  a[4] = buf(IDIOM_ARG_BUF_IN, (void *)x, 0);
  a[5] = buf(IDIOM_ARG_BUF_IN, (void *)perm, 4 * (uint64_t)n);
  a[6] = buf(IDIOM_ARG_BUF_OUT, y, 0);
  a[7] = i64(n);
  for (int k = 8; k < 13; k++)
    a[k] = i64(0);
}

/* cnt_div 0 reads as 1 (one count per row). */
static idiom_csr jds_of(const int *cnt, const int *ptr, const double *val,
                        const int *col, const double *x, const int *perm,
                        double *y, int64_t n, uint64_t x_extent) {
  idiom_csr c;
  memset(&c, 0, sizeof c);
  c.format = IDIOM_SPARSE_JDS;
  c.ptr = ptr, c.val = val, c.col = col, c.x = x;
  c.cnt = cnt, c.perm = perm, c.y = y;
  c.rows = n, c.x_extent = x_extent;
  c.ptr_bytes = 4, c.col_bytes = 4, c.val_bytes = 8, c.x_bytes = 8;
  c.cnt_bytes = 4, c.perm_bytes = 4, c.y_bytes = 8;
  c.ptr_arg = 1, c.val_arg = 2, c.col_arg = 3, c.x_arg = 4, c.y_arg = 6;
  c.nz0_arg = 8, c.nnz_arg = 9, c.c0_arg = 10, c.nx_arg = 11, c.y0_arg = 12;
  return c;
}

static void expect_decline(const idiom_csr *c, const idiom_arg *a,
                           const char *why) {
  uint64_t sizes[1] = {(uint64_t)c->rows};
  CHECK(idiom_run_csr(&jds_desc, a, 13, sizes, NULL, c) == 0);
  CHECK_MSG(starts_with(idiom_last_reason(), why), "reason %s, wanted %s",
            reason_or_none(), why);
}

void case_jds_decline(void) {
  setenv("IDIOM_MIN_TRIP", "0", 1);
  /* 3 rows with 2, 1, 0 nonzeros: diagonal 0 at positions 0..1, diagonal 1
     at position 2 (row 0 only). */
  int cnt[] = {2, 1, 0}, ptr[] = {0, 2}, col[] = {0, 3, 1};
  int perm[] = {1, 2, 0};
  double val[3] = {1, 2, 3}, x[4] = {0}, y[3];
  idiom_arg a[13];
  jds_args(a, cnt, ptr, val, col, x, perm, y, 3);
  idiom_csr c;

  int neg[] = {2, -1, 0};
  c = jds_of(neg, ptr, val, col, x, perm, y, 3, 4);
  expect_decline(&c, a, "JDS row count negative");

  int dup[] = {1, 1, 0}; /* rows 0 and 1 write y[1] */
  c = jds_of(cnt, ptr, val, col, x, dup, y, 3, 4);
  expect_decline(&c, a, "JDS row permutation not one-to-one");

  int gap[] = {0, 1, 3}; /* distinct, but y[2] is skipped */
  c = jds_of(cnt, ptr, val, col, x, gap, y, 3, 4);
  expect_decline(&c, a, "JDS rows do not write consecutive elements of y");

  int cnt5[] = {0, 0, 0, 0, 0};
  int dup_in_span[] = {0, 2, 2, 1, 4}; /* span 4 = n - 1, 2 twice, 3 never */
  c = jds_of(cnt5, ptr, val, col, x, dup_in_span, y, 5, 4);
  expect_decline(&c, a, "JDS row permutation not one-to-one");

  /* One count per block of 2 rows: row 2 reads block 1's count, -1. */
  int blocks[] = {2, -1};
  c = jds_of(blocks, ptr, val, col, x, perm, y, 3, 4);
  c.cnt_div = 2;
  expect_decline(&c, a, "JDS row count negative");

  /* Column 3 outside an x of 3 elements; inside with the offset -1 only
     when column 0 is not read (it is: below x). */
  c = jds_of(cnt, ptr, val, col, x, perm, y, 3, 3);
  expect_decline(&c, a, "CSR column index outside x");
  c = jds_of(cnt, ptr, val, col, x, perm, y, 3, 4);
  c.x_offset = -1;
  expect_decline(&c, a, "CSR column index outside x");

  /* An argument index out of range, or of the wrong kind (y is an OUT
     buffer; nz0 must be an I64 value). */
  c = jds_of(cnt, ptr, val, col, x, perm, y, 3, 4);
  c.y0_arg = 13;
  expect_decline(&c, a, "invalid arguments: JDS");
  c.y0_arg = 12;
  c.y_arg = 5;
  expect_decline(&c, a, "invalid arguments: JDS");
  c.y_arg = 6;
  c.nz0_arg = 6;
  expect_decline(&c, a, "invalid arguments: JDS");
  c.nz0_arg = 8;
  c.cnt_bytes = 2;
  expect_decline(&c, a, "invalid arguments: JDS");
}

uint64_t idiomrt_jds_bytes_estimate(const idiom_csr *jds); /* jds.c */

/* The cost model's byte estimate of a JDS product passes over the counts;
   it is reused for the same counts array and recomputed on the 1st, 2nd,
   4th, 8th, ... use (a site kept on the host does not pay the pass on
   every call), and at once for another array. */
void case_jds_bytes_memo(void) {
  int cnt[] = {2, 1, 0}, other[] = {1, 1, 1}, ptr[] = {0, 2}, col[] = {0, 3, 1};
  int perm[] = {1, 2, 0};
  double val[3] = {1, 2, 3}, x[4] = {0}, y[3];
  idiom_csr c = jds_of(cnt, ptr, val, col, x, perm, y, 3, 4);
  /* nnz * (val 8 + col 4 + x 8) + y both ways (2 * 3 * 8) */
  uint64_t y2 = 2 * 3 * 8;
  CHECK(idiomrt_jds_bytes_estimate(&c) == 3 * 20 + y2); /* use 1 */
  cnt[0] = 5;
  CHECK(idiomrt_jds_bytes_estimate(&c) == 6 * 20 + y2); /* use 2: recomputed */
  cnt[0] = 2;
  CHECK(idiomrt_jds_bytes_estimate(&c) == 6 * 20 + y2); /* use 3: reused */
  CHECK(idiomrt_jds_bytes_estimate(&c) == 3 * 20 + y2); /* use 4: recomputed */
  idiom_csr d = jds_of(other, ptr, val, col, x, perm, y, 3, 4);
  CHECK(idiomrt_jds_bytes_estimate(&d) == 3 * 20 + y2); /* another array */
  other[0] = 3;
  CHECK(idiomrt_jds_bytes_estimate(&d) == 5 * 20 + y2); /* its use 2 */
  other[0] = 1;
  CHECK(idiomrt_jds_bytes_estimate(&d) == 5 * 20 + y2); /* its use 3 */
  CHECK(idiomrt_jds_bytes_estimate(&c) == 3 * 20 + y2); /* back: use 1 */
}
