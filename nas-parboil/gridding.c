/*
 * gridding.c - scatter-adds over a data-dependent neighbourhood of a grid
 * point (issue #14), as particle codes and Parboil "cutcp" write them:
 *   - charge deposition (cloud in cell): each particle adds q wx wy wz to
 *     the 8 points of its cell on a 3-D lattice, eight explicit updates
 *     (not lifted yet: -O2 folds the constant offsets of g[b + 1] & co.
 *     into the addresses, which are then not bins[index]);
 *   - a cut-off kernel on a 1-D lattice: each sample adds w (1 - r^2/c^2)
 *     to the points of a 5-point neighbourhood of its cell that lie within
 *     the cut-off (`if (r2 >= cut2) continue;`; the loop over the
 *     neighbourhood is unrolled at -O2, five guarded updates);
 *   - the same neighbourhood counting integer weights (exact);
 *   - Parboil cutcp's 3 x 3 x 3 neighbourhood with a cut-off on the 3-D
 *     lattice (the outer neighbourhood loops stay loops at -O2: a nest of
 *     depth 4, sequential).
 * Float sums reassociate on the device: compared with a tolerance.
 *
 * Loops carry a trailing marker comment on their `for` line:
 *   idiom: histogram | map | reduction -- expected to be offloaded
 *   not-idiom: REASON                   -- must stay sequential
 *   maybe: REASON                       -- either is fine
 * Output: "n N" first, then "label value" lines (see compare.py).
 *   # tol rho_* 1e-4
 *   # tol line_* 1e-4
 *   # tol pot_* 1e-4
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#define NG 24        /* 3-D lattice points per dimension */
#define NL 4096      /* 1-D lattice points */
#define NP 50000     /* particles */
#define CUT2 2.25f   /* 1-D cut-off 1.5 cells, squared */
#define CUT3 0.5625f /* 3-D cut-off 0.75 cells, squared */

float px[NP], py[NP], pz[NP], pq[NP], sx[NP], sw[NP];
int scls[NP];
float rho[NG * NG * NG], pot[NG * NG * NG], line[NL];
int hits[NL];

static uint64_t lcg_state = 271828183ULL;

static double randlc(void)
{
  lcg_state = (1220703125ULL * lcg_state) & ((1ULL << 46) - 1);
  return (double)lcg_state * (1.0 / 70368744177664.0);
}

/* Particles inside the lattices, two cells from each end. */
static void make_particles(void)
{
  int i;
  for (i = 0; i < NP; i++) { /* not-idiom: recurrence (LCG state) */
    px[i] = (float)(2.0 + (NG - 5) * randlc());
    py[i] = (float)(2.0 + (NG - 5) * randlc());
    pz[i] = (float)(2.0 + (NG - 5) * randlc());
    pq[i] = (float)(randlc() - 0.5);
    sx[i] = (float)(2.0 + (NL - 5) * randlc() * randlc());
    sw[i] = (float)randlc();
    scls[i] = (int)(4.0 * randlc()) + 1;
  }
}

/* Cloud in cell: the 8 points of each particle's cell. */
static void deposit(const float *x, const float *y, const float *z, const float *q, int n,
                    float *g)
{
  int i;
  for (i = 0; i < n; i++) { /* maybe: 8 scatter-adds (g[b + 1]: offsets folded into the address) */
    int ci = (int)x[i], cj = (int)y[i], ck = (int)z[i];
    float fx = x[i] - ci, fy = y[i] - cj, fz = z[i] - ck, qi = q[i];
    int b = (ci * NG + cj) * NG + ck;
    g[b] += qi * (1 - fx) * (1 - fy) * (1 - fz);
    g[b + 1] += qi * (1 - fx) * (1 - fy) * fz;
    g[b + NG] += qi * (1 - fx) * fy * (1 - fz);
    g[b + NG + 1] += qi * (1 - fx) * fy * fz;
    g[b + NG * NG] += qi * fx * (1 - fy) * (1 - fz);
    g[b + NG * NG + 1] += qi * fx * (1 - fy) * fz;
    g[b + NG * NG + NG] += qi * fx * fy * (1 - fz);
    g[b + NG * NG + NG + 1] += qi * fx * fy * fz;
  }
}

/* A cut-off kernel on the 1-D lattice. */
static void spread(const float *x, const float *w, int n, float *g)
{
  int i, d;
  for (i = 0; i < n; i++) { /* idiom: histogram (5 guarded scatter-adds) */
    float xi = x[i], wi = w[i];
    int c = (int)xi;
    for (d = -2; d <= 2; d++) { /* maybe: the neighbourhood (unrolled) */
      float e = (float)(c + d) - xi;
      float r2 = e * e;
      if (r2 >= CUT2)
        continue;
      g[c + d] += wi * (1.0f - r2 * (1.0f / CUT2));
    }
  }
}

/* The same neighbourhood, integer weights: exact. */
static void count(const float *x, const int *cls, int n, int *g)
{
  int i, d;
  for (i = 0; i < n; i++) { /* idiom: histogram (5 guarded scatter-adds, integer) */
    float xi = x[i];
    int c = (int)xi, k = cls[i];
    for (d = -2; d <= 2; d++) { /* maybe: the neighbourhood (unrolled) */
      float e = (float)(c + d) - xi;
      if (e * e >= CUT2)
        continue;
      g[c + d] += k;
    }
  }
}

/* cutcp's neighbourhood: 3 x 3 x 3 lattice points within the cut-off. */
static void cutoff_3d(const float *x, const float *y, const float *z, const float *q, int n,
                      float *g)
{
  int i, di, dj, dk;
  for (i = 0; i < n; i++) { /* not-idiom: nest of depth 4 (neighbourhood loops stay loops) */
    float xi = x[i], yi = y[i], zi = z[i], qi = q[i];
    int ci = (int)xi, cj = (int)yi, ck = (int)zi;
    for (di = -1; di <= 1; di++) { /* not-idiom: nest of depth 3 */
      for (dj = -1; dj <= 1; dj++) { /* maybe: inner neighbourhood */
        for (dk = -1; dk <= 1; dk++) { /* maybe: unrolled */
          float ex = (ci + di) - xi, ey = (cj + dj) - yi, ez = (ck + dk) - zi;
          float r2 = ex * ex + ey * ey + ez * ez;
          if (r2 >= CUT3)
            continue;
          float s = 1.0f - r2 * (1.0f / CUT3);
          g[((ci + di) * NG + cj + dj) * NG + ck + dk] += qi * s * s;
        }
      }
    }
  }
}

int main(void)
{
  int k;
  make_particles();
  deposit(px, py, pz, pq, NP, rho);
  spread(sx, sw, NP, line);
  count(sx, scls, NP, hits);
  cutoff_3d(px, py, pz, pq, NP / 10, pot);
  printf("n %d\n", NP);
  double trho = 0.0, tline = 0.0, tpot = 0.0;
  long thits = 0;
  for (k = 0; k < NG * NG * NG; k++) { /* maybe: two sums */
    trho += rho[k];
    tpot += pot[k];
  }
  for (k = 0; k < NL; k++) { /* maybe: two sums */
    tline += line[k];
    thits += hits[k];
  }
  printf("rho_total %.6e\nline_total %.6e\npot_total %.6e\nhits_total %ld\n", trho, tline,
         tpot, thits);
  for (k = 0; k < NG * NG * NG; k += 311) /* not-idiom: prints */
    printf("rho_%d %.6e\npot_%d %.6e\n", k, rho[k], k, pot[k]);
  for (k = 0; k < NL; k += 97) /* not-idiom: prints */
    printf("line_%d %.6e\nhits_%d %d\n", k, line[k], k, hits[k]);
  return 0;
}
