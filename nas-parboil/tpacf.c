/*
 * tpacf.c - two-point angular correlation after Parboil "tpacf": points on
 * the unit sphere (a clustered data set and a uniform random set, from the
 * NAS 46-bit LCG), and for each pair the bin of the angle between them,
 * found by a binary search over the cosines of the bin edges (descending,
 * as in tpacf: `if (dot >= binb[k]) max = k; else min = k;`):
 *   - DD: data-data pairs, upper triangle (j > i), as tpacf counts them
 *     (one histogram over the rectangle around the triangle, masked);
 *   - DR: data-random pairs, all j (the inner loop, 4096 random points, is
 *     a histogram whose bin comes from a search: offloaded per data point);
 *   - a 1-D histogram of each point's cosine to a pole, binned by the same
 *     search (the bins behind a pointer: a run-time extent);
 *   - the estimator (DD - 2 DR + RR) / RR with RR from the random set.
 * Bins are 64-bit integer counts, compared exactly: the bin of a pair is
 * computed with the same float operations on the host and on the device.
 *
 * Loops carry a trailing marker comment on their `for` line:
 *   idiom: histogram | map | reduction -- expected to be offloaded
 *   not-idiom: REASON                   -- must stay sequential
 *   maybe: REASON                       -- either is fine
 * Output: "n N" first, then "label value" lines (see compare.py).
 */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#define NPTS 4096 /* random points; DR pairs NDATA x NPTS */
#define NDATA 512
#define NSELF 2048 /* DD and RR: the first NSELF points of each set */
#define NBINS 20
#define BIN0_DEG 0.01 /* first bin edge, degrees; edges grow 10^(1/4) */

float dx[NPTS], dy[NPTS], dz[NPTS];
float rx[NPTS], ry[NPTS], rz[NPTS];
float binb[NBINS + 1]; /* cos of the edges, descending */
long dd[NBINS + 2], dr[NBINS + 2], rr[NBINS + 2];

static uint64_t lcg_state = 314159265ULL;

static double randlc(void)
{
  lcg_state = (1220703125ULL * lcg_state) & ((1ULL << 46) - 1);
  return (double)lcg_state * (1.0 / 70368744177664.0);
}

/* Uniform points on the sphere; with clustered != 0 half of them lie near
 * a few centres, so that small angles are frequent. */
static void make_points(float *x, float *y, float *z, int n, int clustered)
{
  int i;
  for (i = 0; i < n; i++) { /* not-idiom: recurrence (LCG state) */
    double u = 2.0 * randlc() - 1.0, phi = 6.283185307179586 * randlc();
    if (clustered && (i & 1)) {
      int c = (int)(randlc() * 4.0);
      u = 0.2 * c - 0.3 + 0.001 * (randlc() - 0.5);
      phi = 1.5 * c + 0.001 * (randlc() - 0.5);
    }
    double r = sqrt(1.0 - u * u);
    x[i] = (float)(r * cos(phi));
    y[i] = (float)(r * sin(phi));
    z[i] = (float)u;
  }
}

/* Bin of a cosine: nbins + 1 descending edges, the search of tpacf. */
static void make_edges(void)
{
  int k;
  for (k = 0; k <= NBINS; k++) { /* not-idiom: calls pow and cos (errno) */
    double deg = BIN0_DEG * pow(10.0, 0.25 * k);
    binb[k] = (float)cos(deg * 3.141592653589793 / 180.0);
  }
}

/* The bin of a pair whose unit vectors have dot product dot: tpacf's
 * binary search over the descending edges (bins 1 .. NBINS; 0 unused). */
static inline int bin_of(float dot)
{
  int min = 0, max = NBINS;
  while (max > min + 1) {
    int k = (min + max) / 2;
    if (dot >= binb[k])
      max = k;
    else
      min = k;
  }
  return max;
}

/* Pairs (i, j > i) of one set: the upper triangle. */
static void self_pairs(const float *x, const float *y, const float *z, int n, long *hist)
{
  int i, j;
  for (i = 0; i < n; i++) { /* idiom: histogram (upper triangle, masked rectangle) */
    for (j = i + 1; j < n; j++) { /* maybe: the triangle's rows (lifted with the nest) */
      hist[bin_of(x[i] * x[j] + y[i] * y[j] + z[i] * z[j])]++;
    }
  }
}

/* Pairs (i, j) across two sets: every j. */
static void cross_pairs(const float *x1, const float *y1, const float *z1, int n1,
                        const float *x2, const float *y2, const float *z2, int n2, long *hist)
{
  int i, j;
  for (i = 0; i < n1; i++) { /* not-idiom: nest (the j loop is the histogram) */
    for (j = 0; j < n2; j++) { /* idiom: histogram (bin by bisection search, per i) */
      hist[bin_of(x1[i] * x2[j] + y1[i] * y2[j] + z1[i] * z2[j])]++;
    }
  }
}

/* Cosine of each point to the pole, binned by the same search into bins
 * behind a pointer (run-time extent) with a run-time bin count. */
static void pole_histogram(const float *z, int n, const float *edges, int nb, int *hist)
{
  int i;
  for (i = 0; i < n; i++) { /* idiom: histogram (bin by bisection search) */
    int lo = 0, hi = nb;
    while (hi > lo + 1) {
      int k = lo + (hi - lo) / 2;
      if (z[i] >= edges[k])
        hi = k;
      else
        lo = k;
    }
    hist[lo] += 1;
  }
}

int main(void)
{
  int k;
  make_points(dx, dy, dz, NPTS, 1);
  make_points(rx, ry, rz, NPTS, 0);
  make_edges();
  self_pairs(dx, dy, dz, NSELF, dd);
  self_pairs(rx, ry, rz, NSELF, rr);
  cross_pairs(dx, dy, dz, NDATA, rx, ry, rz, NPTS, dr);
  float pole_edges[9];
  for (k = 0; k < 9; k++) /* not-idiom: too small to matter (9 trips) */
    pole_edges[k] = 1.0f - 0.25f * k;
  int *pole = calloc(9, sizeof(int));
  pole_histogram(dz, NPTS, pole_edges, 8, pole);
  pole_histogram(rz, NPTS, pole_edges, 8, pole);

  printf("n %d\n", NPTS);
  long tdd = 0, tdr = 0, trr = 0;
  for (k = 0; k <= NBINS + 1; k++) { /* maybe: three sums over 22 bins */
    tdd += dd[k];
    tdr += dr[k];
    trr += rr[k];
  }
  printf("dd_total %ld\ndr_total %ld\nrr_total %ld\n", tdd, tdr, trr);
  for (k = 0; k <= NBINS + 1; k++) { /* not-idiom: prints */
    printf("dd_%d %ld\n", k, dd[k]);
    printf("dr_%d %ld\n", k, dr[k]);
    printf("rr_%d %ld\n", k, rr[k]);
    if (rr[k] > 0)
      printf("w_%d %.10e\n", k,
             ((double)dd[k] - 2.0 * dr[k] * NSELF / NPTS * (NSELF - 1) / (2.0 * NDATA) + rr[k]) /
                 (double)rr[k]);
  }
  for (k = 0; k < 9; k++) /* not-idiom: prints */
    printf("pole_%d %d\n", k, pole[k]);
  free(pole);
  return 0;
}
