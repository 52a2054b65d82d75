/*
 * is.c - IS-like integer key statistics (after the NAS Parallel Benchmarks
 * "IS"): keys with a bell-shaped distribution from the NAS LCG (mean of four
 * uniforms), reductions over the keys (max, min, sum, sum of squares, counts
 * below and inside a threshold window), bucket indices by a shift map, then a
 * counting sort (histogram, prefix sum, scatter) whose ranks are checked.
 *
 * Loops carry a trailing marker comment on their `for` line:
 *   idiom: reduction | map   -- expected to be offloaded
 *   not-idiom: REASON        -- must stay sequential (or be declined)
 * Output: "n N" first, then "label value" lines (see compare.py).
 */
#include <stdint.h>
#include <stdio.h>

#define NKEYS (1 << 22)
#define MAXKEY (1 << 16)
#define NBUCKET_SHIFT 10

int key[NKEYS];
int sorted[NKEYS];
int bucket[NKEYS];
int hist[MAXKEY];
int start[MAXKEY];

static uint64_t lcg_state = 314159265ULL;

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
    x += randlc();
    k[i] = (int)(x * (maxkey / 4));
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

static int min_key(const int *k, int n)
{
  int m = MAXKEY, i;
  for (i = 0; i < n; i++) /* idiom: reduction (int min, ternary) */
    m = k[i] < m ? k[i] : m;
  return m;
}

static void key_sums(const int *k, int n, long *s, long long *s2)
{
  long t = 0;
  long long t2 = 0;
  int i;
  for (i = 0; i < n; i++) { /* idiom: reduction (long sum, sum of squares) */
    t += k[i];
    t2 += (long long)k[i] * k[i];
  }
  *s = t;
  *s2 = t2;
}

static long count_below(const int *k, long n, int thr)
{
  long c = 0, i;
  for (i = 0; i < n; i++) /* idiom: reduction (conditional count) */
    if (k[i] < thr)
      c++;
  return c;
}

static int count_window(const int *k, int n, int lo, int hi)
{
  int c = 0, i;
  for (i = 0; i < n; i++) /* idiom: reduction (count via comparison sum) */
    c += (k[i] >= lo) & (k[i] < hi);
  return c;
}

static void bucket_index(int *b, const int *k, int n, int shift)
{
  int i;
  for (i = 0; i < n; i++) /* idiom: map (shift) */
    b[i] = k[i] >> shift;
}

static long bucket_sum(const int *b, int n)
{
  long s = 0;
  int i;
  for (i = 0; i < n; i++) /* idiom: reduction (long sum) */
    s += b[i];
  return s;
}

static void counting_sort(int *out, const int *k, int n, int *h, int *st)
{
  int i;
  for (i = 0; i < MAXKEY; i++) /* idiom: map (fill, 65536 trips) */
    h[i] = 0;
  for (i = 0; i < n; i++) /* idiom: histogram (key histogram: hist[] is the global array once inlined) */
    h[k[i]]++;
  st[0] = 0;
  for (i = 1; i < MAXKEY; i++) /* not-idiom: recurrence (prefix sum) */
    st[i] = st[i - 1] + h[i - 1];
  for (i = 0; i < n; i++) /* not-idiom: indirect store (scatter) */
    out[st[k[i]]++] = k[i];
}

/* Sortedness check: exits at the first descent. */
static int first_unsorted(const int *a, int n)
{
  int i;
  for (i = 1; i < n; i++) /* not-idiom: early exit (return) */
    if (a[i] < a[i - 1])
      return i;
  return -1;
}

/* Rank of key value kv: the number of keys smaller than kv, by a search
 * with break over the sorted array. */
static int rank_of(const int *a, int n, int kv)
{
  int i, r = n;
  for (i = 0; i < n; i++) { /* not-idiom: early exit (break) */
    if (a[i] >= kv) {
      r = i;
      break;
    }
  }
  return r;
}

int main(void)
{
  int n = NKEYS, kmax, kmin;
  long ksum;
  long long ksum2;
  int probes[5] = {48427, 17148, 23627, 62548, 4431};
  int p;

  create_seq(key, n, MAXKEY);
  printf("n %d\n", n);

  kmax = max_key(key, n);
  kmin = min_key(key, n);
  key_sums(key, n, &ksum, &ksum2);
  printf("max_key %d\n", kmax);
  printf("min_key %d\n", kmin);
  printf("sum_keys %ld\n", ksum);
  printf("sum_keys_sq %lld\n", ksum2);
  printf("mean_key %.10e\n", (double)ksum / n);
  printf("below_quarter %ld\n", count_below(key, n, MAXKEY / 4));
  printf("window_mid %d\n", count_window(key, n, MAXKEY / 2 - 512,
                                        MAXKEY / 2 + 512));

  bucket_index(bucket, key, n, NBUCKET_SHIFT);
  printf("bucket_sum %ld\n", bucket_sum(bucket, n));
  printf("bucket_mid %d\n", bucket[n / 2]);

  counting_sort(sorted, key, n, hist, start);
  printf("first_unsorted %d\n", first_unsorted(sorted, n));
  printf("sorted_sum %ld\n", bucket_sum(sorted, n));
  for (p = 0; p < 5; p++)
    printf("rank_%d %d\n", probes[p], rank_of(sorted, n, probes[p]));
  printf("hist_mid %d\n", hist[MAXKEY / 2]);
  return 0;
}
