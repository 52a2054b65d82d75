/*===- csr.c - Run-time conditions of an offloaded CSR SpMV ---------------===*
 *
 * idiom_csr_extent (idiomrt.h): the host-side pass over the row pointers and
 * column indices that an offloaded CSR sparse matrix-vector product needs
 * before its kernel may run (docs/ARCHITECTURE.md, "SpMV"). It reads only
 * memory the original loop reads: ptr[0..n] always, col[ptr[0]..ptr[n])
 * only once the row pointers are known to be monotone, when the loop reads
 * every one of those indices.
 *
 * Inside a residency region the pass reads the host's bytes after copying
 * back any device-valid bytes of them, and a check that passed is
 * remembered for the rest of the region's epoch (idiomrt_resid_epoch): the
 * plugin forms a region only where no host code writes an idiom's buffers
 * (ptr and col included), the epoch changes whenever host code may run on
 * them (a sync before a fallback loop, a decline), and every device-side
 * write (a run's outputs, idiom_region_memmove/memset) forgets the checks
 * whose ptr or col range it touches. A conjugate-gradient loop thus checks
 * its matrix once per region, not once per iteration.
 *
 * idiom_csr_row_blocks: the row blocks of the load-balanced variant
 * (CSR-Adaptive), built by idiomrt_csr_row_blocks when that variant runs
 * and, inside a region, memoised with the check: forgotten with it.
 *
 *===----------------------------------------------------------------------===*/

#include "idiomrt.h"
#include "rt_internal.h"

#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* The scans of idiom_csr_extent, one per element type, in loops the
   compiler vectorises (no early exit, no per-element width test), split
   over the copy helpers (parcopy.c: idiomrt_parallel_range, in bytes) on
   machines with 4 cores or more. A conjugate-gradient matrix of 4M rows
   and 21M nonzeros took 21 ms here through idiomrt_load_index (11 ms so),
   and 45 ms on the lent H200's host, before its first device run. */
typedef struct csr_scan {
  const void *base;
  int64_t lo, hi;    /* min_max: the smallest and largest so far */
  unsigned bad;      /* monotone: a pointer decreased */
  unsigned any;      /* min_max: lo and hi set */
} csr_scan;

/* Bytes [lo, hi) of p[1..n]: p[i] < p[i - 1] for one of their elements. */
#define CSR_MONOTONE(NAME, T)                                                  \
  static void NAME(void *ctx, size_t lo, size_t hi) {                          \
    csr_scan *s = ctx;                                                         \
    const T *p = (const T *)s->base + 1;                                       \
    unsigned bad = 0;                                                          \
    for (size_t i = lo / sizeof(T); i < hi / sizeof(T); ++i)                   \
      bad |= p[i] < p[i - 1];                                                  \
    if (bad)                                                                   \
      __atomic_store_n(&s->bad, 1u, __ATOMIC_RELAXED);                         \
  }
CSR_MONOTONE(monotone_i32, int32_t)
CSR_MONOTONE(monotone_u32, uint32_t)
CSR_MONOTONE(monotone_i64, int64_t)

/* Folds a part's smallest and largest elements into s. */
static void fold_min_max(csr_scan *s, int64_t a, int64_t b) {
  static pthread_mutex_t mu = PTHREAD_MUTEX_INITIALIZER;
  pthread_mutex_lock(&mu);
  if (!s->any || a < s->lo)
    s->lo = a;
  if (!s->any || b > s->hi)
    s->hi = b;
  s->any = 1;
  pthread_mutex_unlock(&mu);
}

/* Bytes [lo, hi) of the column indices: their smallest and largest. */
#define CSR_MIN_MAX(NAME, T)                                                   \
  static void NAME(void *ctx, size_t lo, size_t hi) {                          \
    csr_scan *s = ctx;                                                         \
    const T *c = s->base;                                                      \
    size_t k0 = lo / sizeof(T), k1 = hi / sizeof(T);                           \
    if (k0 >= k1)                                                              \
      return;                                                                  \
    T a = c[k0], b = c[k0];                                                    \
    for (size_t k = k0 + 1; k < k1; ++k) {                                     \
      a = c[k] < a ? c[k] : a;                                                 \
      b = c[k] > b ? c[k] : b;                                                 \
    }                                                                          \
    fold_min_max(s, (int64_t)a, (int64_t)b);                                   \
  }
CSR_MIN_MAX(min_max_i32, int32_t)
CSR_MIN_MAX(min_max_u32, uint32_t)
CSR_MIN_MAX(min_max_i64, int64_t)

int idiom_csr_extent(const void *ptr, uint32_t ptr_bytes, const void *col,
                     uint32_t col_bytes, uint32_t flags, int64_t n,
                     int64_t out[4]) {
  if (!ptr || !col || !out || n < 1 || (ptr_bytes != 4 && ptr_bytes != 8) ||
      (col_bytes != 4 && col_bytes != 8))
    return 0;
  int ptr_zext = (flags & IDIOM_CSR_PTR_ZEXT) != 0;
  int col_zext = (flags & IDIOM_CSR_COL_ZEXT) != 0;
  if ((uint64_t)n >= UINT64_MAX / ptr_bytes)
    return 0;
  idiomrt_resid_host_read(ptr, (uint64_t)(n + 1) * ptr_bytes);
  /* not monotone: the loop skips a row, the kernel would not */
  csr_scan scan = {.base = ptr};
  idiomrt_parallel_range((size_t)n * ptr_bytes,
                         ptr_bytes == 8 ? monotone_i64
                         : ptr_zext     ? monotone_u32
                                        : monotone_i32,
                         &scan);
  if (scan.bad)
    return 0;
  int64_t first = idiomrt_load_index(ptr, ptr_bytes, ptr_zext, 0);
  int64_t last = idiomrt_load_index(ptr, ptr_bytes, ptr_zext, n);
  int64_t lo = 0, hi = 0;
  if (first < last) {
    const char *c = (const char *)col + first * (int64_t)col_bytes;
    uint64_t m = (uint64_t)(last - first);
    if (m > SIZE_MAX / col_bytes)
      return 0;
    idiomrt_resid_host_read(c, m * col_bytes);
    scan = (csr_scan){.base = c};
    idiomrt_parallel_range((size_t)m * col_bytes,
                           col_bytes == 8 ? min_max_i64
                           : col_zext     ? min_max_u32
                                          : min_max_i32,
                           &scan);
    lo = scan.lo;
    hi = scan.hi;
    if (hi == INT64_MAX)
      return 0; /* hi + 1 would overflow */
    ++hi;
  }
  out[0] = first;
  out[1] = last;
  out[2] = lo;
  out[3] = hi;
  return 1;
}

/* Lanes per row of a block of `rows` rows on `group` work-items: group /
   rows rounded down to a power of two (at least 1). */
static uint64_t block_lanes(int64_t rows, uint32_t group) {
  uint64_t w = group;
  while (w > 1 && w * (uint64_t)rows > group)
    w >>= 1;
  return w;
}

int64_t idiom_csr_row_blocks(const void *ptr, uint32_t ptr_bytes,
                             uint32_t flags, int64_t n, uint32_t group,
                             uint32_t iters, int64_t *out) {
  if (!ptr || !out || n < 0 || (ptr_bytes != 4 && ptr_bytes != 8) ||
      !group || (group & (group - 1)) || !iters)
    return -1;
  int zext = (flags & IDIOM_CSR_PTR_ZEXT) != 0;
  int64_t nb = 0, start = 0;
  uint64_t longest = 0;
  out[0] = 0;
  int64_t prev = n ? idiomrt_load_index(ptr, ptr_bytes, zext, 0) : 0;
  for (int64_t i = 0; i < n; ++i) {
    int64_t p = idiomrt_load_index(ptr, ptr_bytes, zext, i + 1);
    /* decreasing pointers: an empty row (balance only; never run); the
       difference in 64 unsigned bits (no signed overflow) */
    uint64_t len = p > prev ? (uint64_t)p - (uint64_t)prev : 0;
    prev = p;
    if (i > start) {
      int64_t rows = i - start + 1;
      uint64_t m = len > longest ? len : longest;
      if (rows > (int64_t)group ||
          m > (uint64_t)iters * block_lanes(rows, group)) {
        out[++nb] = i; /* row i starts the next block */
        start = i;
        longest = len;
        continue;
      }
      longest = m;
    } else {
      longest = len;
    }
  }
  if (n)
    out[++nb] = n;
  return nb;
}

uint64_t idiomrt_csr_bytes_estimate(const idiom_csr *csr) {
  if (csr && csr->format == IDIOM_SPARSE_JDS)
    return idiomrt_jds_bytes_estimate(csr);
  if (!csr || !csr->ptr || csr->rows < 1 ||
      (csr->ptr_bytes != 4 && csr->ptr_bytes != 8))
    return 0;
  int zext = (csr->flags & IDIOM_CSR_PTR_ZEXT) != 0;
  int64_t first = idiomrt_load_index(csr->ptr, csr->ptr_bytes, zext, 0);
  int64_t last = idiomrt_load_index(csr->ptr, csr->ptr_bytes, zext, csr->rows);
  if (last <= first)
    return 0;
  uint64_t nnz = (uint64_t)last - (uint64_t)first;
  /* val, col and (at most) one x element per nonzero */
  return nnz * ((uint64_t)csr->val_bytes + csr->col_bytes + csr->x_bytes);
}

/* Checks that passed in the current epoch of the calling thread's region,
   keyed by everything idiom_csr_extent reads; a few matrices per loop. */
typedef struct csr_memo {
  uint64_t epoch; /* 0: empty */
  const void *ptr, *col;
  uint32_t ptr_bytes, col_bytes, flags;
  int64_t n;
  int64_t ext[4];
  /* the row blocks of this matrix (idiomrt_csr_row_blocks), valid while
     blocks_epoch == epoch; the array is kept for the slot's next matrix */
  uint64_t blocks_epoch;
  uint32_t blocks_group;
  int64_t nblocks;
  int64_t *blocks;
  int64_t blocks_cap; /* elements */
} csr_memo;

/* Process-wide: passes over a matrix, and checks served by a memo. */
static uint64_t g_checks, g_memo_hits;

void idiomrt_csr_counts(uint64_t out[2]) {
  out[0] = __atomic_load_n(&g_checks, __ATOMIC_RELAXED);
  out[1] = __atomic_load_n(&g_memo_hits, __ATOMIC_RELAXED);
}

#define CSR_MEMOS 4
static _Thread_local csr_memo t_memo[CSR_MEMOS];
static _Thread_local unsigned t_memo_next;

static int memo_overlaps(const csr_memo *m, uintptr_t a0, uintptr_t a1) {
  uintptr_t p0 = (uintptr_t)m->ptr;
  uintptr_t p1 = p0 + (uint64_t)(m->n + 1) * m->ptr_bytes;
  uintptr_t c0 = (uintptr_t)m->col + m->ext[0] * (int64_t)m->col_bytes;
  uintptr_t c1 = (uintptr_t)m->col + m->ext[1] * (int64_t)m->col_bytes;
  return (a0 < p1 && p0 < a1) || (c0 < c1 && a0 < c1 && c0 < a1);
}

void idiomrt_csr_forget(const void *p, uint64_t n) {
  uintptr_t a0 = (uintptr_t)p;
  uintptr_t a1 = n > UINTPTR_MAX - a0 ? UINTPTR_MAX : a0 + n;
  for (unsigned k = 0; k < CSR_MEMOS; ++k)
    if (t_memo[k].epoch && (!n || memo_overlaps(&t_memo[k], a0, a1)))
      t_memo[k].epoch = 0;
}

/* idiom_csr_extent, or inside a region the result it gave earlier in this
   epoch for the same matrix. */
static int csr_extent_memo(const idiom_csr *csr, int64_t ext[4]) {
  uint64_t epoch = idiomrt_resid_epoch();
  for (unsigned k = 0; epoch && k < CSR_MEMOS; ++k) {
    const csr_memo *m = &t_memo[k];
    if (m->epoch == epoch && m->ptr == csr->ptr && m->col == csr->col &&
        m->ptr_bytes == csr->ptr_bytes && m->col_bytes == csr->col_bytes &&
        m->flags == csr->flags && m->n == csr->rows) {
      memcpy(ext, m->ext, sizeof m->ext);
      __atomic_add_fetch(&g_memo_hits, 1, __ATOMIC_RELAXED);
      return 1;
    }
  }
  __atomic_add_fetch(&g_checks, 1, __ATOMIC_RELAXED);
  if (!idiom_csr_extent(csr->ptr, csr->ptr_bytes, csr->col, csr->col_bytes,
                        csr->flags, csr->rows, ext))
    return 0;
  if (epoch) {
    csr_memo *m = &t_memo[t_memo_next++ % CSR_MEMOS];
    /* the blocks' array is kept; blocks_epoch 0: not built for this
       matrix */
    *m = (csr_memo){.epoch = epoch,
                    .ptr = csr->ptr,
                    .col = csr->col,
                    .ptr_bytes = csr->ptr_bytes,
                    .col_bytes = csr->col_bytes,
                    .flags = csr->flags,
                    .n = csr->rows,
                    .ext = {ext[0], ext[1], ext[2], ext[3]},
                    .blocks = m->blocks,
                    .blocks_cap = m->blocks_cap};
  }
  return 1;
}

/* Frees the memo's row blocks when a thread that built some exits. */
static pthread_key_t g_blocks_key;
static pthread_once_t g_blocks_once = PTHREAD_ONCE_INIT;

static void free_memo_blocks(void *unused) {
  (void)unused;
  for (unsigned k = 0; k < CSR_MEMOS; ++k) {
    free(t_memo[k].blocks);
    t_memo[k].blocks = NULL;
    t_memo[k].blocks_cap = 0;
    t_memo[k].blocks_epoch = 0;
  }
}

static void make_blocks_key(void) {
  if (pthread_key_create(&g_blocks_key, free_memo_blocks) != 0)
    g_blocks_key = (pthread_key_t)-1;
}

/* Rows [0, n) one per block: the schedule of a work-group per row. */
static void one_row_per_block(int64_t n, int64_t *out) {
  for (int64_t i = 0; i <= n; ++i)
    out[i] = i;
}

const int64_t *idiomrt_csr_row_blocks(const idiom_csr *csr, int64_t n,
                                      uint32_t group, int64_t *nblocks,
                                      int64_t **owned) {
  *owned = NULL;
  if (n < 0 || (uint64_t)n >= SIZE_MAX / sizeof(int64_t) - 1)
    return NULL;
  int csr_rows = csr && csr->format == IDIOM_SPARSE_CSR && csr->rows == n;
  /* inside a region: the memo entry the check of this run left */
  uint64_t epoch = csr_rows ? idiomrt_resid_epoch() : 0;
  csr_memo *m = NULL;
  for (unsigned k = 0; epoch && k < CSR_MEMOS; ++k)
    if (t_memo[k].epoch == epoch && t_memo[k].ptr == csr->ptr &&
        t_memo[k].col == csr->col && t_memo[k].ptr_bytes == csr->ptr_bytes &&
        t_memo[k].col_bytes == csr->col_bytes &&
        t_memo[k].flags == csr->flags && t_memo[k].n == n)
      m = &t_memo[k];
  if (m && m->blocks_epoch == epoch && m->blocks_group == group) {
    *nblocks = m->nblocks;
    return m->blocks;
  }
  int64_t *out;
  if (m && m->blocks_cap > n) {
    out = m->blocks;
  } else {
    out = malloc((size_t)(n + 1) * sizeof *out);
    if (!out)
      return NULL;
  }
  int64_t nb = n;
  if (csr_rows)
    nb = idiom_csr_row_blocks(csr->ptr, csr->ptr_bytes, csr->flags, n, group,
                              idiomrt_config_get()->row_block_iters, out);
  else
    one_row_per_block(n, out);
  if (nb < 0) {
    if (!m || out != m->blocks)
      free(out);
    return NULL;
  }
  if (m) {
    pthread_once(&g_blocks_once, make_blocks_key);
    if (out != m->blocks) {
      free(m->blocks);
      m->blocks = out;
      m->blocks_cap = n + 1;
    }
    if (g_blocks_key != (pthread_key_t)-1)
      pthread_setspecific(g_blocks_key, t_memo);
    m->blocks_epoch = epoch;
    m->blocks_group = group;
    m->nblocks = nb;
  } else {
    *owned = out;
  }
  *nblocks = nb;
  return out;
}

const char *idiomrt_csr_x_range(const idiom_csr *csr, int64_t *lo,
                                int64_t *hi) {
  if (*lo < *hi) {
    if (csr->x_offset > 0 ? *hi > INT64_MAX - csr->x_offset
                          : *lo < INT64_MIN - csr->x_offset)
      return "CSR column index outside x";
    *lo += csr->x_offset;
    *hi += csr->x_offset;
    if (csr->x_extent && (*lo < 0 || (uint64_t)*hi > csr->x_extent))
      return "CSR column index outside x";
  }
  return NULL;
}

const char *idiomrt_csr_patch(const idiom_csr *csr, const idiom_arg *args,
                              uint32_t nargs, idiom_arg *out) {
  if (csr && csr->format == IDIOM_SPARSE_JDS)
    return idiomrt_jds_patch(csr, args, nargs, out);
  if (!csr || nargs > IDIOMRT_CSR_MAX_ARGS || csr->val_arg >= nargs ||
      csr->col_arg >= nargs || csr->x_arg >= nargs || csr->nz0_arg >= nargs ||
      csr->c0_arg >= nargs || csr->nx_arg >= nargs || !csr->val || !csr->x ||
      !csr->val_bytes || !csr->x_bytes)
    return "invalid arguments: CSR";
  if (args[csr->val_arg].kind != IDIOM_ARG_BUF_IN ||
      args[csr->col_arg].kind != IDIOM_ARG_BUF_IN ||
      args[csr->x_arg].kind != IDIOM_ARG_BUF_IN ||
      args[csr->nz0_arg].kind != IDIOM_ARG_I64 ||
      args[csr->c0_arg].kind != IDIOM_ARG_I64 ||
      args[csr->nx_arg].kind != IDIOM_ARG_I64)
    return "invalid arguments: CSR";
  int64_t ext[4];
  if (!csr_extent_memo(csr, ext))
    return "CSR row pointers not monotone";
  int64_t lo = ext[2], hi = ext[3];
  const char *why = idiomrt_csr_x_range(csr, &lo, &hi);
  if (why)
    return why;
  memcpy(out, args, nargs * sizeof *args);
  idiom_arg *v = &out[csr->val_arg], *c = &out[csr->col_arg], *x = &out[csr->x_arg];
  v->ptr = (char *)(uintptr_t)csr->val + ext[0] * (int64_t)csr->val_bytes;
  v->bytes = (uint64_t)(ext[1] - ext[0]) * csr->val_bytes;
  c->ptr = (char *)(uintptr_t)csr->col + ext[0] * (int64_t)csr->col_bytes;
  c->bytes = (uint64_t)(ext[1] - ext[0]) * csr->col_bytes;
  x->ptr = (char *)(uintptr_t)csr->x + lo * (int64_t)csr->x_bytes;
  x->bytes = (uint64_t)(hi - lo) * csr->x_bytes;
  out[csr->nz0_arg].value.i64 = ext[0];
  out[csr->c0_arg].value.i64 = ext[2];
  out[csr->nx_arg].value.i64 = ext[3] - ext[2];
  return NULL;
}
