/*===- jds.c - Run-time conditions of an offloaded JDS SpMV ---------------===*
 *
 * The jagged diagonal storage counterpart of csr.c (idiom_run_csr with
 * idiom_csr::format IDIOM_SPARSE_JDS, idiomrt.h; docs/ARCHITECTURE.md, "JDS
 * SpMV"). Row i of
 *
 *   for (i < n) { s = INIT; for (k < cnt[i]) s = STEP(val[ptr[k] + i],
 *                   x[col[ptr[k] + i] + x_offset]);  y[perm[i] + y_offset] = s; }
 *
 * reads the positions ptr[k] + i for k < cnt[i]. Before the kernel may run,
 * one host pass over what the loop itself reads (cnt[0..n), perm[0..n),
 * ptr[0..K) with K the largest count, col at every position) checks that
 * no count is negative, that the rows write n distinct consecutive elements
 * of y (a permutation: the kernel scatters one row per work-item), and
 * finds the ranges of the positions and of the columns.
 *
 *===----------------------------------------------------------------------===*/

#include "idiomrt.h"
#include "rt_internal.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* The extents of a JDS product: the diagonals (the largest count), the
   positions [pos_lo, pos_hi), the columns [col_lo, col_hi) (both empty
   without nonzeros) and the first element of y the rows write. */
typedef struct jds_extent {
  int64_t diagonals, pos_lo, pos_hi, col_lo, col_hi, y_lo;
} jds_extent;

/* The count of row i: cnt[i / cnt_div]. */
static int64_t row_count(const idiom_csr *m, int64_t i) {
  int64_t div = m->cnt_div > 1 ? m->cnt_div : 1;
  return idiomrt_load_index(m->cnt, m->cnt_bytes,
                            (m->flags & IDIOM_CSR_CNT_ZEXT) != 0, i / div);
}

/* NULL with *ext filled in, else the reason the kernel may not run. O(n +
   nonzeros) time; one allocation of n bits. */
static const char *jds_extent_of(const idiom_csr *m, jds_extent *ext) {
  int64_t n = m->rows;
  int ptr_zext = (m->flags & IDIOM_CSR_PTR_ZEXT) != 0;
  int col_zext = (m->flags & IDIOM_CSR_COL_ZEXT) != 0;
  int perm_zext = (m->flags & IDIOM_CSR_PERM_ZEXT) != 0;
  int64_t k_max = 0;
  for (int64_t i = 0; i < n; ++i) {
    int64_t c = row_count(m, i);
    if (c < 0)
      return "JDS row count negative";
    if (c > k_max)
      k_max = c;
  }
  /* The rows' elements of y: n distinct values in [lo, lo + n). */
  int64_t y_lo = INT64_MAX, y_hi = INT64_MIN;
  for (int64_t i = 0; i < n; ++i) {
    int64_t e = idiomrt_load_index(m->perm, m->perm_bytes, perm_zext, i);
    if (__builtin_add_overflow(e, m->y_offset, &e))
      return "JDS rows do not write consecutive elements of y";
    y_lo = e < y_lo ? e : y_lo;
    y_hi = e > y_hi ? e : y_hi;
  }
  int64_t span;
  if (__builtin_sub_overflow(y_hi, y_lo, &span) || span > n - 1)
    return "JDS rows do not write consecutive elements of y";
  if (span < n - 1) /* n rows, fewer elements */
    return "JDS row permutation not one-to-one";
  unsigned char *seen = calloc((size_t)(n + 7) / 8, 1);
  if (!seen)
    return "out of host memory";
  for (int64_t i = 0; i < n; ++i) {
    int64_t e = idiomrt_load_index(m->perm, m->perm_bytes, perm_zext, i) +
                m->y_offset - y_lo;
    if (seen[e >> 3] & (1u << (e & 7))) {
      free(seen);
      return "JDS row permutation not one-to-one";
    }
    seen[e >> 3] |= (unsigned char)(1u << (e & 7));
  }
  free(seen);
  /* Every position the loop reads, and its column. */
  int64_t p_lo = 0, p_hi = 0, c_lo = 0, c_hi = 0;
  int any = 0;
  for (int64_t i = 0; i < n; ++i) {
    int64_t c = row_count(m, i);
    for (int64_t k = 0; k < c; ++k) {
      int64_t p;
      if (__builtin_add_overflow(
              idiomrt_load_index(m->ptr, m->ptr_bytes, ptr_zext, k), i, &p) ||
          p == INT64_MAX)
        return "JDS position overflows";
      int64_t col = idiomrt_load_index(m->col, m->col_bytes, col_zext, p);
      if (col == INT64_MAX)
        return "CSR column index outside x"; /* col + 1 would overflow */
      if (!any || p < p_lo)
        p_lo = p;
      if (!any || p >= p_hi)
        p_hi = p + 1;
      if (!any || col < c_lo)
        c_lo = col;
      if (!any || col >= c_hi)
        c_hi = col + 1;
      any = 1;
    }
  }
  ext->diagonals = k_max;
  ext->pos_lo = p_lo;
  ext->pos_hi = p_hi;
  ext->col_lo = c_lo;
  ext->col_hi = c_hi;
  ext->y_lo = y_lo;
  return NULL;
}

/* The last estimate of this thread: the cost model asks before every call,
   also of a loop it keeps on the host, and the pass over the counts costs
   about a tenth of such a loop (a 65536-row matrix: 0.2 ms a call). The
   estimate is a policy input only (never a range that is copied or
   checked), so it is reused for the same counts array and recomputed on
   the 1st, 2nd, 4th, 8th, ... use: a matrix rewritten in place is seen
   again after at most as many calls as have been made. */
typedef struct jds_bytes_memo {
  const void *cnt;
  int64_t rows, cnt_div;
  uint32_t cnt_bytes, flags, val_bytes, col_bytes, x_bytes, y_bytes;
  uint64_t uses, bytes;
} jds_bytes_memo;
static _Thread_local jds_bytes_memo t_bytes_memo;

static uint64_t jds_bytes_pass(const idiom_csr *m);

uint64_t idiomrt_jds_bytes_estimate(const idiom_csr *m) {
  if (!m || !m->cnt || m->rows < 1 ||
      (m->cnt_bytes != 4 && m->cnt_bytes != 8))
    return 0;
  jds_bytes_memo *t = &t_bytes_memo;
  if (t->cnt == m->cnt && t->rows == m->rows && t->cnt_div == m->cnt_div &&
      t->cnt_bytes == m->cnt_bytes && t->flags == m->flags &&
      t->val_bytes == m->val_bytes && t->col_bytes == m->col_bytes &&
      t->x_bytes == m->x_bytes && t->y_bytes == m->y_bytes) {
    uint64_t use = ++t->uses;
    if (use & (use - 1))
      return t->bytes; /* not a power of two: reuse */
  } else {
    *t = (jds_bytes_memo){.cnt = m->cnt,
                          .rows = m->rows,
                          .cnt_div = m->cnt_div,
                          .cnt_bytes = m->cnt_bytes,
                          .flags = m->flags,
                          .val_bytes = m->val_bytes,
                          .col_bytes = m->col_bytes,
                          .x_bytes = m->x_bytes,
                          .y_bytes = m->y_bytes,
                          .uses = 1};
  }
  t->bytes = jds_bytes_pass(m);
  return t->bytes;
}

static uint64_t jds_bytes_pass(const idiom_csr *m) {
  uint64_t nnz = 0;
  for (int64_t i = 0; i < m->rows; ++i) {
    int64_t c = row_count(m, i);
    if (c < 0)
      return 0;
    nnz += (uint64_t)c;
  }
  /* val, col and (at most) one x element per nonzero; y copied both ways */
  return nnz * ((uint64_t)m->val_bytes + m->col_bytes + m->x_bytes) +
         2 * (uint64_t)m->rows * m->y_bytes;
}

static int valid_index(uint32_t bytes) { return bytes == 4 || bytes == 8; }

const char *idiomrt_jds_patch(const idiom_csr *m, const idiom_arg *args,
                              uint32_t nargs, idiom_arg *out) {
  const char *bad = "invalid arguments: JDS";
  if (!m || nargs > IDIOMRT_CSR_MAX_ARGS || m->rows < 1 || !m->ptr ||
      !m->val || !m->col || !m->x || !m->cnt || !m->perm || !m->y ||
      !valid_index(m->ptr_bytes) || !valid_index(m->col_bytes) ||
      !valid_index(m->cnt_bytes) || !valid_index(m->perm_bytes) ||
      !m->val_bytes || !m->x_bytes || !m->y_bytes)
    return bad;
  uint32_t bufs[] = {m->ptr_arg, m->val_arg, m->col_arg, m->x_arg};
  for (unsigned b = 0; b < 4; ++b)
    if (bufs[b] >= nargs || args[bufs[b]].kind != IDIOM_ARG_BUF_IN)
      return bad;
  if (m->y_arg >= nargs || (args[m->y_arg].kind != IDIOM_ARG_BUF_OUT &&
                            args[m->y_arg].kind != IDIOM_ARG_BUF_INOUT))
    return bad;
  uint32_t vals[] = {m->nz0_arg, m->nnz_arg, m->c0_arg, m->nx_arg, m->y0_arg};
  for (unsigned v = 0; v < 5; ++v)
    if (vals[v] >= nargs || args[vals[v]].kind != IDIOM_ARG_I64)
      return bad;
  jds_extent e;
  const char *why = jds_extent_of(m, &e);
  if (why)
    return why;
  int64_t lo = e.col_lo, hi = e.col_hi;
  if ((why = idiomrt_csr_x_range(m, &lo, &hi)))
    return why;
  memcpy(out, args, nargs * sizeof *args);
  out[m->ptr_arg].ptr = (void *)(uintptr_t)m->ptr;
  out[m->ptr_arg].bytes = (uint64_t)e.diagonals * m->ptr_bytes;
  idiom_arg *v = &out[m->val_arg], *c = &out[m->col_arg], *x = &out[m->x_arg];
  v->ptr = (char *)(uintptr_t)m->val + e.pos_lo * (int64_t)m->val_bytes;
  v->bytes = (uint64_t)(e.pos_hi - e.pos_lo) * m->val_bytes;
  c->ptr = (char *)(uintptr_t)m->col + e.pos_lo * (int64_t)m->col_bytes;
  c->bytes = (uint64_t)(e.pos_hi - e.pos_lo) * m->col_bytes;
  x->ptr = (char *)(uintptr_t)m->x + lo * (int64_t)m->x_bytes;
  x->bytes = (uint64_t)(hi - lo) * m->x_bytes;
  idiom_arg *y = &out[m->y_arg];
  y->ptr = (char *)(uintptr_t)m->y + e.y_lo * (int64_t)m->y_bytes;
  y->bytes = (uint64_t)m->rows * m->y_bytes;
  out[m->nz0_arg].value.i64 = e.pos_lo;
  out[m->nnz_arg].value.i64 = e.pos_hi - e.pos_lo;
  out[m->c0_arg].value.i64 = e.col_lo;
  out[m->nx_arg].value.i64 = e.col_hi - e.col_lo;
  out[m->y0_arg].value.i64 = e.y_lo;
  return NULL;
}
