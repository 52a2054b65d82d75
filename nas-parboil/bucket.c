/*
 * bucket.c - bucket sort with pointer bins (after the bucketed ranking of
 * the NAS Parallel Benchmarks "IS"): keys from the NAS LCG, the largest key
 * decides how many buckets and key counts are allocated (malloc, so their
 * extent is known only at run time), the bucket sizes are a histogram of
 * key >> shift and the key counts a histogram of the keys, both into the
 * malloc'd arrays; then prefix sums, a scatter into buckets, a counting
 * sort inside each bucket, and rank checks.
 *
 * Loops carry a trailing marker comment on their `for` line:
 *   idiom: reduction | histogram  -- expected to be offloaded
 *   not-idiom: REASON             -- must stay sequential (or be declined)
 * Output: "n N" first, then "label value" lines (see compare.py).
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#define NKEYS (1 << 20)
#define MAXKEY (1 << 19)
#define SHIFT 9

int key[NKEYS];
int sorted[NKEYS];

static uint64_t lcg_state = 271828183ULL;

static double randlc(void)
{
  lcg_state = (1220703125ULL * lcg_state) & ((1ULL << 46) - 1);
  return (double)lcg_state * (1.0 / 70368744177664.0);
}

static void create_seq(int *k, int n, int maxkey)
{
  int i;
  double x;
  for (i = 0; i < n; i++) { /* not-idiom: recurrence (LCG state) */
    x = randlc();
    x += randlc();
    x += randlc();
    k[i] = (int)(x * (maxkey / 3));
  }
}

static int max_key(const int *k, int n)
{
  int m = 0, i;
  for (i = 0; i < n; i++) /* idiom: reduction (int max) */
    if (k[i] > m)
      m = k[i];
  return m;
}

/* The bucket sizes: a histogram of key >> shift into malloc'd bins. */
static void bucket_sizes(int *size, const int *k, int n, int shift)
{
  int i;
  for (i = 0; i < n; i++) /* idiom: histogram (run-time bins: key >> shift) */
    size[k[i] >> shift]++;
}

/* The key counts: a histogram of the keys into malloc'd bins. */
static void key_counts(int *count, const int *k, int n)
{
  int i;
  for (i = 0; i < n; i++) /* idiom: histogram (run-time bins: key) */
    count[k[i]]++;
}

static void prefix(int *start, const int *size, int nb)
{
  int i;
  start[0] = 0;
  for (i = 1; i < nb; i++) /* not-idiom: recurrence (prefix sum) */
    start[i] = start[i - 1] + size[i - 1];
}

static void scatter(int *out, int *fill, const int *k, int n, int shift)
{
  int i;
  for (i = 0; i < n; i++) /* not-idiom: indirect store (scatter) */
    out[fill[k[i] >> shift]++] = k[i];
}

/* Sorts one bucket in place by counting, from the global key counts. */
static void sort_bucket(int *b, int len, int first_key, int nkeys, const int *count)
{
  int v, i, p = 0;
  for (v = first_key; v < first_key + nkeys; v++) { /* not-idiom: recurrence (output position) */
    for (i = 0; i < count[v]; i++)
      b[p++] = v;
  }
  if (p != len)
    printf("bucket_mismatch %d %d\n", p, len);
}

static int first_unsorted(const int *a, int n)
{
  int i;
  for (i = 1; i < n; i++) /* not-idiom: early exit (return) */
    if (a[i] < a[i - 1])
      return i;
  return -1;
}

int main(void)
{
  int n = NKEYS, kmax, nbuckets, nkeys, b, i;
  int *size, *start, *fill, *count;
  long check = 0;

  create_seq(key, n, MAXKEY);
  printf("n %d\n", n);
  kmax = max_key(key, n);
  printf("max_key %d\n", kmax);

  nbuckets = (kmax >> SHIFT) + 1;
  nkeys = kmax + 1;
  size = (int *)malloc(nbuckets * sizeof(int));
  start = (int *)malloc(nbuckets * sizeof(int));
  fill = (int *)malloc(nbuckets * sizeof(int));
  count = (int *)malloc(nkeys * sizeof(int));
  if (!size || !start || !fill || !count)
    return 1;
  for (b = 0; b < nbuckets; b++) /* not-idiom: memset at -O2 */
    size[b] = 0;
  for (i = 0; i < nkeys; i++) /* not-idiom: memset at -O2 */
    count[i] = 0;

  bucket_sizes(size, key, n, SHIFT);
  key_counts(count, key, n);
  /* The same sizes counted in two halves into other bins: the second call
   * adds into the counts of the first. */
  for (b = 0; b < nbuckets; b++) /* not-idiom: memset at -O2 */
    fill[b] = 0;
  bucket_sizes(fill, key, n / 2, SHIFT);
  bucket_sizes(fill, key + n / 2, n - n / 2, SHIFT);
  for (b = 0; b < nbuckets; b++) /* not-idiom: weighted checksum (recurrence) */
    check = check * 3 + size[b] - fill[b];
  printf("halves_differ %ld\n", check);
  for (b = 0; b < nbuckets; b++) /* not-idiom: weighted checksum (recurrence) */
    check = check * 3 + size[b];
  printf("bucket_checksum %ld\n", check);
  printf("nbuckets %d\n", nbuckets);
  printf("bucket_mid %d\n", size[nbuckets / 2]);

  prefix(start, size, nbuckets);
  for (b = 0; b < nbuckets; b++) /* maybe: map (copy) */
    fill[b] = start[b];
  scatter(sorted, fill, key, n, SHIFT);
  for (b = 0; b < nbuckets; b++) { /* not-idiom: calls */
    int first = b << SHIFT;
    int len = b + 1 < nbuckets ? start[b + 1] - start[b] : n - start[b];
    int nk = first + (1 << SHIFT) <= nkeys ? 1 << SHIFT : nkeys - first;
    sort_bucket(sorted + start[b], len, first, nk, count);
  }
  printf("first_unsorted %d\n", first_unsorted(sorted, n));
  printf("sorted_first %d\n", sorted[0]);
  printf("sorted_mid %d\n", sorted[n / 2]);
  printf("sorted_last %d\n", sorted[n - 1]);
  printf("count_mid %d\n", count[nkeys / 2]);
  free(size);
  free(start);
  free(fill);
  free(count);
  return 0;
}
