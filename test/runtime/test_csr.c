/*===- test_csr.c - idiom_csr_extent and idiom_csr_row_blocks -----------===*
 *
 * The host-side run-time conditions of an offloaded CSR SpMV
 * (runtime/lib/csr.c): extents of monotone row pointers and of the column
 * indices, refusal of decreasing row pointers, widening of unsigned
 * elements, empty matrices, and no read of col when ptr is refused.
 *
 *===----------------------------------------------------------------------===*/

#include "test_common.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

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

/* Element k of an array of 4- or 8-byte integers, widened as the loop
   widens it: the reference for case_csr_extent_scan. */
static int64_t ref_load(const void *a, uint32_t bytes, int zext, int64_t k) {
  if (bytes == 8)
    return ((const int64_t *)a)[k];
  int32_t v = ((const int32_t *)a)[k];
  return zext ? (int64_t)(uint32_t)v : (int64_t)v;
}

/* The definition of idiom_csr_extent, element by element. */
static int ref_extent(const void *ptr, uint32_t pb, const void *col,
                      uint32_t cb, uint32_t flags, int64_t n, int64_t out[4]) {
  int pz = (flags & IDIOM_CSR_PTR_ZEXT) != 0;
  int cz = (flags & IDIOM_CSR_COL_ZEXT) != 0;
  for (int64_t i = 1; i <= n; ++i)
    if (ref_load(ptr, pb, pz, i) < ref_load(ptr, pb, pz, i - 1))
      return 0;
  int64_t first = ref_load(ptr, pb, pz, 0), last = ref_load(ptr, pb, pz, n);
  int64_t lo = 0, hi = 0;
  for (int64_t p = first; p < last; ++p) {
    int64_t c = ref_load(col, cb, cz, p);
    if (c == INT64_MAX)
      return 0;
    if (p == first || c < lo)
      lo = c;
    if (p == first || c + 1 > hi)
      hi = c + 1;
  }
  out[0] = first, out[1] = last, out[2] = lo, out[3] = hi;
  return 1;
}

/* Stores v as element k of a 4- or 8-byte array. */
static void put(void *a, uint32_t bytes, int64_t k, int64_t v) {
  if (bytes == 8)
    ((int64_t *)a)[k] = v;
  else
    ((int32_t *)a)[k] = (int32_t)v;
}

/* idiom_csr_extent's vectorised, split scans (csr.c) against the
   element-by-element definition, for every element width and widening:
   random matrices of up to 3000 rows, column indices of either sign and
   at the types' ends, and row pointers that decrease once, anywhere (the
   first and last pointers, and the boundaries of the copy helpers' parts:
   runtime.parcopy.csr_extent_scan splits every scan of 64 bytes or more). */
void case_csr_extent_scan(void) {
  uint64_t seed = 0x9E3779B97F4A7C15ull;
#define NEXT() (seed = seed * 6364136223846793005ull + 1442695040888963407ull, \
                seed >> 33)
  int checked = 0, refused = 0;
  for (int round = 0; round < 400; ++round) {
    uint32_t pb = (round & 1) ? 8 : 4, cb = (round & 2) ? 8 : 4;
    uint32_t flags = (uint32_t)(round >> 2 & 3); /* PTR_ZEXT 1, COL_ZEXT 2 */
    int64_t n = 1 + (int64_t)(NEXT() % 3000);
    int64_t *rows = malloc(sizeof(int64_t) * (size_t)(n + 1));
    void *ptr = malloc((size_t)(n + 1) * pb);
    CHECK(rows && ptr);
    int64_t nz = 1 + (int64_t)(NEXT() % 4); /* a decrease stays >= 0 */
    for (int64_t i = 0; i <= n; ++i) {
      rows[i] = nz;
      nz += (int64_t)(NEXT() % 6);
    }
    int64_t total = rows[n];
    if (round % 5 == 3) {
      /* one decrease (to 0 or more: widened, a negative pointer would be
         huge): at an end, at either side of a part boundary of the split
         scan (p[j] against p[j - 1] with p = ptr + 1), or anywhere */
      int64_t at, how = (int64_t)(NEXT() % 4);
      if (how == 0)
        at = (int64_t)(NEXT() % 2) ? 1 : n;
      else if (how == 1)
        at = (int64_t)(64 / pb) * (1 + (int64_t)(NEXT() % (uint64_t)(n * pb / 64 + 1))) +
             (int64_t)(NEXT() % 2);
      else
        at = 1 + (int64_t)(NEXT() % (uint64_t)n);
      if (at > n)
        at = n;
      rows[at] = rows[at - 1] - 1 - (int64_t)(NEXT() % (uint64_t)rows[at - 1]);
    }
    for (int64_t i = 0; i <= n; ++i)
      put(ptr, pb, i, rows[i]);
    void *col = malloc((size_t)(total + 1) * cb);
    CHECK(col != NULL);
    for (int64_t k = 0; k <= total; ++k) {
      int64_t v;
      switch (NEXT() % 8) {
      case 0:
        v = cb == 8 ? INT64_MIN : INT32_MIN;
        break;
      case 1:
        v = cb == 8 && NEXT() % 64 == 0 ? INT64_MAX : INT32_MAX;
        break;
      case 2:
        v = -(int64_t)(NEXT() % 1000);
        break;
      default:
        v = (int64_t)(NEXT() % 100000);
      }
      put(col, cb, k, v);
    }
    int64_t got[4] = {-7, -7, -7, -7}, want[4] = {-7, -7, -7, -7};
    int r = idiom_csr_extent(ptr, pb, col, cb, flags, n, got);
    int w = ref_extent(ptr, pb, col, cb, flags, n, want);
    CHECK(r == w);
    CHECK(memcmp(got, want, sizeof got) == 0);
    checked += w;
    refused += !w;
    free(rows);
    free(ptr);
    free(col);
  }
#undef NEXT
  /* both outcomes came up often */
  CHECK(checked > 100 && refused > 40);
}

/* Lanes per row of a block of `rows` rows on `group` work-items (the
   kernel's w: group / rows rounded down to a power of two). */
static int64_t lanes_of(int64_t rows, int64_t group) {
  int64_t w = group;
  while (w > 1 && w * rows > group)
    w /= 2;
  return w;
}

/* Longest row of rows [lo, hi) of long row pointers p. */
static int64_t longest(const long *p, int64_t lo, int64_t hi) {
  int64_t m = 0;
  for (int64_t i = lo; i < hi; ++i)
    if (p[i + 1] - p[i] > m)
      m = p[i + 1] - p[i];
  return m;
}

/* out[0..nb] partitions rows [0, n) into blocks of at most group rows
   whose longest row needs at most iters steps of its lanes (or which hold
   one row), and no block could take the next block's first row: returns 1
   when so. */
static int blocks_ok(const long *p, int64_t n, int64_t group, int64_t iters,
                     const int64_t *out, int64_t nb) {
  if (nb < 0 || out[0] != 0 || out[nb] != n || (n > 0) != (nb > 0))
    return 0;
  for (int64_t b = 0; b < nb; ++b) {
    int64_t rows = out[b + 1] - out[b];
    if (rows < 1 || rows > group)
      return 0;
    if (rows > 1 &&
        longest(p, out[b], out[b + 1]) > iters * lanes_of(rows, group))
      return 0;
    if (b + 1 < nb && rows + 1 <= group &&
        longest(p, out[b], out[b + 1] + 1) <= iters * lanes_of(rows + 1, group))
      return 0; /* the greedy cut would have taken the next row */
  }
  return 1;
}

void case_csr_row_blocks(void) {
  enum { N = 5000 };
  static long p[N + 1];
  static int64_t out[N + 2];
  /* n = 0: no blocks, out[0] = 0. */
  p[0] = 7;
  out[0] = -1;
  CHECK(idiom_csr_row_blocks(p, 8, 0, 0, 256, 4, out) == 0 && out[0] == 0);

  /* All rows empty: blocks of 256 rows (the work-group), the last shorter. */
  for (int i = 0; i <= 1000; ++i)
    p[i] = 3;
  CHECK(idiom_csr_row_blocks(p, 8, 0, 1000, 256, 4, out) == 4);
  CHECK(out[1] == 256 && out[2] == 512 && out[3] == 768 && out[4] == 1000);
  CHECK(blocks_ok(p, 1000, 256, 4, out, 4));

  /* Rows of 8: 4 steps of 2 lanes each, 128 rows a block. */
  for (int i = 0; i <= 1000; ++i)
    p[i] = 8L * i;
  CHECK(idiom_csr_row_blocks(p, 8, 0, 1000, 256, 4, out) == 8);
  CHECK(out[1] == 128 && out[7] == 896 && out[8] == 1000);

  /* One row with more nonzeros than a block's lanes cover (100000 >
     4 * 256), between short rows: a block alone; the rows around it are
     blocks of their own. */
  for (int i = 0; i <= 300; ++i)
    p[i] = 2L * i + (i > 150 ? 100000 : 0);
  int64_t nb = idiom_csr_row_blocks(p, 8, 0, 300, 256, 4, out);
  CHECK(blocks_ok(p, 300, 256, 4, out, nb));
  int alone = 0;
  for (int64_t b = 0; b < nb; ++b)
    alone |= out[b] == 150 && out[b + 1] == 151;
  CHECK(alone);

  /* A skewed matrix (empty, short, medium and long rows, two huge ones),
     several work-group sizes and step budgets. */
  unsigned long long seed = 5;
  p[0] = 0;
  for (int i = 0; i < N; ++i) {
    seed = seed * 6364136223846793005ULL + 1442695040888963407ULL;
    unsigned u = (unsigned)(seed >> 33) % 100;
    long r = (long)(seed >> 40);
    long len = u < 20 ? 0 : u < 90 ? r % 17 : u < 99 ? 64 + r % 448 : 5000;
    if (i == 17 || i == N - 1)
      len = 70000;
    p[i + 1] = p[i] + len;
  }
  static const int64_t groups[] = {1, 2, 64, 256, 1024};
  for (int g = 0; g < 5; ++g)
    for (int64_t iters = 1; iters <= 16; iters *= 4) {
      nb = idiom_csr_row_blocks(p, 8, 0, N, (uint32_t)groups[g],
                                (uint32_t)iters, out);
      CHECK(blocks_ok(p, N, groups[g], iters, out, nb));
    }

  /* 32-bit pointers, zero-extended: 0x80000000 is a length of 2^31 - 1,
     not a decrease (a block alone); sign-extended it decreases: an empty
     row. */
  unsigned up[] = {1u, 2u, 0x80000000u, 0x80000001u};
  long upl[] = {1, 2, 0x80000000L, 0x80000001L};
  CHECK(idiom_csr_row_blocks(up, 4, IDIOM_CSR_PTR_ZEXT, 3, 256, 4, out) == 3);
  CHECK(blocks_ok(upl, 3, 256, 4, out, 3));
  CHECK(idiom_csr_row_blocks(up, 4, 0, 3, 256, 4, out) == 1 && out[1] == 3);

  /* Invalid arguments. */
  CHECK(idiom_csr_row_blocks(NULL, 8, 0, 3, 256, 4, out) == -1);
  CHECK(idiom_csr_row_blocks(p, 8, 0, 3, 256, 4, NULL) == -1);
  CHECK(idiom_csr_row_blocks(p, 2, 0, 3, 256, 4, out) == -1);
  CHECK(idiom_csr_row_blocks(p, 8, 0, -1, 256, 4, out) == -1);
  CHECK(idiom_csr_row_blocks(p, 8, 0, 3, 0, 4, out) == -1);
  CHECK(idiom_csr_row_blocks(p, 8, 0, 3, 96, 4, out) == -1);
  CHECK(idiom_csr_row_blocks(p, 8, 0, 3, 256, 0, out) == -1);
}

/* A map descriptor; idiom_run_csr declines the cases below before it needs
   a device or the kernel. */
static const idiom_kernel_desc csr_desc = {
    "csr_k", "test_csr.c:1", "spmv-csr", "__kernel void csr_k(void) {}",
    IDIOM_MAP, 1, 0, 1, NULL};

/* ptr, val, col, x, y, n0, nz0, c0, nx as the SpMV lifter orders them. */
static void csr_args(idiom_arg a[9], const void *val, const void *col,
                     const void *x, void *y, int64_t n) {
  a[0] = buf(IDIOM_ARG_BUF_IN, (void *)val, 0); /* ptr: any range */
  a[1] = buf(IDIOM_ARG_BUF_IN, (void *)val, 0);
  a[2] = buf(IDIOM_ARG_BUF_IN, (void *)col, 0);
  a[3] = buf(IDIOM_ARG_BUF_IN, (void *)x, 0);
  a[4] = buf(IDIOM_ARG_BUF_OUT, y, 8 * (uint64_t)n);
  a[5] = i64(n);
  a[6] = i64(0);
  a[7] = i64(0);
  a[8] = i64(0);
}

static idiom_csr csr_of(const void *ptr, const void *val, const void *col,
                        const void *x, int64_t n, uint64_t x_extent) {
  idiom_csr c;
  memset(&c, 0, sizeof c);
  c.ptr = ptr, c.val = val, c.col = col, c.x = x;
  c.rows = n, c.x_extent = x_extent;
  c.ptr_bytes = 4, c.col_bytes = 4, c.val_bytes = 8, c.x_bytes = 8;
  c.val_arg = 1, c.col_arg = 2, c.x_arg = 3;
  c.nz0_arg = 6, c.c0_arg = 7, c.nx_arg = 8;
  return c;
}

/* IDIOM_DEVICE=seq: declined before the check, which would read col (here
   an invalid address) since the pointers are monotone. */
void case_csr_seq(void) {
  setenv("IDIOM_DEVICE", "seq", 1);
  int ptr[] = {0, 2, 3};
  double val[3] = {1, 2, 3}, x[4] = {0}, y[2];
  idiom_arg a[9];
  csr_args(a, val, (const void *)16, x, y, 2);
  idiom_csr c = csr_of(ptr, val, (const void *)16, x, 2, 0);
  uint64_t sizes[1] = {2};
  CHECK(idiom_run_csr(&csr_desc, a, 9, sizes, NULL, &c) == 0);
  CHECK_MSG(starts_with(idiom_last_reason(), "IDIOM_DEVICE=seq"), "reason %s",
            reason_or_none());
}

/* Forced offload (the test driver's IDIOM_COST=off): the check runs and
   declines with its reason, before any device work. */
void case_csr_decline(void) {
  setenv("IDIOM_MIN_TRIP", "0", 1);
  int ptr[] = {0, 2, 1, 3};
  int col[] = {0, 3, 1};
  double val[3] = {1, 2, 3}, x[4] = {0}, y[3];
  idiom_arg a[9];
  uint64_t sizes[1] = {3};
  csr_args(a, val, col, x, y, 3);
  idiom_csr c = csr_of(ptr, val, col, x, 3, 4);
  CHECK(idiom_run_csr(&csr_desc, a, 9, sizes, NULL, &c) == 0);
  CHECK_MSG(starts_with(idiom_last_reason(), "CSR row pointers not monotone"),
            "reason %s", reason_or_none());
  /* Monotone, but column 3 outside an x of 3 elements. */
  int ok_ptr[] = {0, 2, 2, 3};
  c = csr_of(ok_ptr, val, col, x, 3, 3);
  CHECK(idiom_run_csr(&csr_desc, a, 9, sizes, NULL, &c) == 0);
  CHECK_MSG(starts_with(idiom_last_reason(), "CSR column index outside x"),
            "reason %s", reason_or_none());
  /* A negative offset takes column 0 below x. */
  c = csr_of(ok_ptr, val, col, x, 3, 4);
  c.x_offset = -1;
  CHECK(idiom_run_csr(&csr_desc, a, 9, sizes, NULL, &c) == 0);
  CHECK_MSG(starts_with(idiom_last_reason(), "CSR column index outside x"),
            "reason %s", reason_or_none());
  /* An argument index out of range, or of the wrong kind. */
  c = csr_of(ok_ptr, val, col, x, 3, 4);
  c.nx_arg = 9;
  CHECK(idiom_run_csr(&csr_desc, a, 9, sizes, NULL, &c) == 0);
  CHECK_MSG(starts_with(idiom_last_reason(), "invalid arguments: CSR"),
            "reason %s", reason_or_none());
  c.nx_arg = 4; /* y, a buffer */
  CHECK(idiom_run_csr(&csr_desc, a, 9, sizes, NULL, &c) == 0);
  CHECK_MSG(starts_with(idiom_last_reason(), "invalid arguments: CSR"),
            "reason %s", reason_or_none());
}

uint64_t idiomrt_csr_bytes_estimate(const idiom_csr *csr); /* csr.c */

/* The cost model's and the work gate's byte estimate of a CSR product
   (idiomrt_csr_bytes_estimate, both ask it on every call, also of a loop
   kept on the host) reads ptr[0] and ptr[rows] only: no pass over the row
   pointers, so nothing to memoise (JDS's estimate passes over its counts
   and is memoised, jds.c). Here the row pointers between the two lie on a
   page that cannot be read: a pass over them faults. The estimate follows
   an in-place change of the matrix at once (nothing stale to serve). */
void case_csr_bytes_estimate(void) {
  long page = sysconf(_SC_PAGESIZE);
  CHECK(page >= 64);
  char *m = mmap(NULL, 3 * (size_t)page, PROT_READ | PROT_WRITE,
                 MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  CHECK(m != MAP_FAILED);
  CHECK(mprotect(m + page, (size_t)page, PROT_NONE) == 0);
  int64_t rows = 2 * page / (int64_t)sizeof(int32_t);
  int32_t *ptr = (int32_t *)m; /* ptr[rows] starts the third page */
  ptr[0] = 7;
  ptr[rows] = 5007;
  idiom_csr c = csr_of(ptr, NULL, NULL, NULL, rows, 0);
  /* nnz * (val 8 + col 4 + x 8) */
  CHECK(idiomrt_csr_bytes_estimate(&c) == 5000 * 20);
  CHECK(idiomrt_csr_bytes_estimate(&c) == 5000 * 20);
  ptr[rows] = 1007; /* the matrix rewritten in place: seen at once */
  CHECK(idiomrt_csr_bytes_estimate(&c) == 1000 * 20);
  ptr[0] = 1007; /* empty */
  CHECK(idiomrt_csr_bytes_estimate(&c) == 0);
  ptr[0] = 2000; /* decreasing: unknown, 0 (the check declines it later) */
  CHECK(idiomrt_csr_bytes_estimate(&c) == 0);
  /* 8-byte row pointers, unsigned: ptr[0] and ptr[rows / 2] of the same
     pages (the third page starts at element rows / 2) */
  uint64_t *p64 = (uint64_t *)m;
  p64[0] = 0;
  p64[rows / 2] = UINT64_C(0x80000000);
  c = csr_of(p64, NULL, NULL, NULL, rows / 2, 0);
  c.ptr_bytes = 8;
  c.flags = IDIOM_CSR_PTR_ZEXT;
  CHECK(idiomrt_csr_bytes_estimate(&c) == UINT64_C(0x80000000) * 20);
  CHECK(munmap(m, 3 * (size_t)page) == 0);
}
