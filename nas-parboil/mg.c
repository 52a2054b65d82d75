/*
 * mg.c - a multigrid V-cycle after NAS MG (NPB 3, its C translation):
 * the discrete Poisson problem A u = v on a periodic n^3 grid with a
 * right-hand side of +1 and -1 charges at 20 points (placed by the NAS
 * 46-bit LCG), NIT V-cycles, each a restriction down to a 2^3 grid
 * (rprj3), a smoothing at the coarsest level (psinv), then back up: a
 * prolongation (interp), a residual (resid) and a smoothing at each finer
 * level; a residual and its norms after every cycle. Every grid carries a
 * ghost layer (sizes 2^k + 2), filled by periodic copies (comm3). The
 * routines reach their grids as NAS does, through VLA-typed pointer casts
 * of one flat array with an offset per level (`double (*u)[n2][n1] =
 * (void *)ou`), and psinv, resid and rprj3 fill small row temporaries
 * (r1/r2, u1/u2, x1/y1) with sums of neighbours in one i1 loop that the
 * next i1 loop reads at i1 - 1, i1 and i1 + 1 (27-point stencils).
 *
 * Usage: mg [LT [NIT]] (default 7 and 16: a 128^3 grid, the size of NPB's
 * class W, and 16 cycles).
 *
 * Loops carry a trailing marker comment on their `for` line:
 *   idiom: map | reduction  -- expected to be offloaded
 *   not-idiom: REASON       -- must stay sequential
 *   maybe: REASON           -- either is fine
 * Output: "n N" first, then "label value" lines (see compare.py).
 *
 * The grids are computed point by point as in the loops, so u and r are
 * the sequential ones bit for bit; the norms are reassociated sums and
 * maxima over n^3 points (compare.py's default tolerance).
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#define MAXLEVEL 10
#define NM (2 + (1 << MAXLEVEL)) /* longest row, ghosts included */
#define NCHARGE 10

static int lt = 7;   /* finest level: n = 2^lt */
static int nit = 16; /* V-cycles */
static int m1[MAXLEVEL + 1], m2[MAXLEVEL + 1], m3[MAXLEVEL + 1];
static long ir[MAXLEVEL + 1]; /* offset of level k in u and r */
static double *u, *v, *r;

/* The 27-point operator A (a[1] multiplies the 6 face neighbours, zero as
   in NAS) and the smoother S of NPB's classes S and W. */
static const double a[4] = {-8.0 / 3.0, 0.0, 1.0 / 6.0, 1.0 / 12.0};
static const double c[4] = {-3.0 / 8.0, 1.0 / 32.0, -1.0 / 64.0, 0.0};

/* NAS's 46-bit multiplicative LCG (randlc), in doubles as NAS writes it. */
static double randlc(double *x, double a)
{
  const double r23 = 1.1920928955078125e-07, t23 = 8388608.0;
  const double r46 = r23 * r23, t46 = t23 * t23;
  double t1 = r23 * a, a1 = (int)t1, a2 = a - t23 * a1;
  t1 = r23 * *x;
  double x1 = (int)t1, x2 = *x - t23 * x1;
  t1 = a1 * x2 + a2 * x1;
  double t2 = (int)(r23 * t1), z = t1 - t23 * t2;
  double t3 = t23 * z + a2 * x2, t4 = (int)(r46 * t3);
  *x = t3 - t46 * t4;
  return r46 * *x;
}

/* Periodic boundary: the ghost faces of u are copies of the opposite
   interior faces, in i1, then i2, then i3 (edges and corners follow). */
static void comm3(void *ou, int n1, int n2, int n3)
{
  double (*u)[n2][n1] = (double (*)[n2][n1])ou;
  int i1, i2, i3;
  for (i3 = 1; i3 < n3 - 1; i3++) /* idiom: map (ghost columns, 2-D) */
    for (i2 = 1; i2 < n2 - 1; i2++) {
      u[i3][i2][0] = u[i3][i2][n1 - 2];
      u[i3][i2][n1 - 1] = u[i3][i2][1];
    }
  for (i3 = 1; i3 < n3 - 1; i3++) /* idiom: map (ghost rows, 2-D) */
    for (i1 = 0; i1 < n1; i1++) {
      u[i3][0][i1] = u[i3][n2 - 2][i1];
      u[i3][n2 - 1][i1] = u[i3][1][i1];
    }
  for (i2 = 0; i2 < n2; i2++) /* idiom: map (ghost planes, 2-D) */
    for (i1 = 0; i1 < n1; i1++) {
      u[0][i2][i1] = u[n3 - 2][i2][i1];
      u[n3 - 1][i2][i1] = u[1][i2][i1];
    }
}

static void zero3(void *oz, int n1, int n2, int n3)
{
  double (*z)[n2][n1] = (double (*)[n2][n1])oz;
  int i1, i2, i3;
  for (i3 = 0; i3 < n3; i3++) /* maybe: fill (memset rows at -O2) */
    for (i2 = 0; i2 < n2; i2++)
      for (i1 = 0; i1 < n1; i1++)
        z[i3][i2][i1] = 0.0;
}

/* r = v - A u on the interior, then the ghosts of r. u1 and u2 hold, for
   the row (i3, i2), the sums of the 4 edge and the 4 corner neighbours of
   each point in the (i2, i3) plane. */
static void resid(void *ou, void *ov, void *or, int n1, int n2, int n3)
{
  double (*u)[n2][n1] = (double (*)[n2][n1])ou;
  double (*v)[n2][n1] = (double (*)[n2][n1])ov;
  double (*r)[n2][n1] = (double (*)[n2][n1])or;
  double u1[NM], u2[NM];
  int i1, i2, i3;
  for (i3 = 1; i3 < n3 - 1; i3++) /* idiom: map (3-D, row temporaries privatised) */
    for (i2 = 1; i2 < n2 - 1; i2++) {
      for (i1 = 0; i1 < n1; i1++) {
        u1[i1] = u[i3][i2 - 1][i1] + u[i3][i2 + 1][i1] + u[i3 - 1][i2][i1] +
                 u[i3 + 1][i2][i1];
        u2[i1] = u[i3 - 1][i2 - 1][i1] + u[i3 - 1][i2 + 1][i1] +
                 u[i3 + 1][i2 - 1][i1] + u[i3 + 1][i2 + 1][i1];
      }
      for (i1 = 1; i1 < n1 - 1; i1++)
        r[i3][i2][i1] = v[i3][i2][i1] - a[0] * u[i3][i2][i1] -
                        a[2] * (u2[i1] + u1[i1 - 1] + u1[i1 + 1]) -
                        a[3] * (u2[i1 - 1] + u2[i1 + 1]);
    }
  comm3(r, n1, n2, n3);
}

/* u = u + S r on the interior (S the 27-point smoother), then the ghosts
   of u; r1 and r2 as u1 and u2 of resid. */
static void psinv(void *or, void *ou, int n1, int n2, int n3)
{
  double (*r)[n2][n1] = (double (*)[n2][n1])or;
  double (*u)[n2][n1] = (double (*)[n2][n1])ou;
  double r1[NM], r2[NM];
  int i1, i2, i3;
  for (i3 = 1; i3 < n3 - 1; i3++) /* idiom: map (3-D, row temporaries privatised) */
    for (i2 = 1; i2 < n2 - 1; i2++) {
      for (i1 = 0; i1 < n1; i1++) {
        r1[i1] = r[i3][i2 - 1][i1] + r[i3][i2 + 1][i1] + r[i3 - 1][i2][i1] +
                 r[i3 + 1][i2][i1];
        r2[i1] = r[i3 - 1][i2 - 1][i1] + r[i3 - 1][i2 + 1][i1] +
                 r[i3 + 1][i2 - 1][i1] + r[i3 + 1][i2 + 1][i1];
      }
      for (i1 = 1; i1 < n1 - 1; i1++)
        u[i3][i2][i1] = u[i3][i2][i1] + c[0] * r[i3][i2][i1] +
                        c[1] * (r[i3][i2][i1 - 1] + r[i3][i2][i1 + 1] + r1[i1]) +
                        c[2] * (r2[i1] + r1[i1 - 1] + r1[i1 + 1]);
    }
  comm3(u, n1, n2, n3);
}

/* Restriction: the coarse grid s (m1k x m2k x m3k) from the fine grid r
   (m1j x m2j x m3j), full weighting over the 27 fine points around each
   coarse point; x1 and y1 hold the edge and corner sums of a fine row. */
static void rprj3(void *or, int m1k, int m2k, int m3k, void *os, int m1j,
                  int m2j, int m3j)
{
  double (*r)[m2k][m1k] = (double (*)[m2k][m1k])or;
  double (*s)[m2j][m1j] = (double (*)[m2j][m1j])os;
  double x1[NM], y1[NM], x2, y2;
  int i1, i2, i3, j1, j2, j3;
  for (j3 = 1; j3 < m3j - 1; j3++) { /* maybe: restriction (strided, row temporaries) */
    i3 = 2 * j3 - 1;
    for (j2 = 1; j2 < m2j - 1; j2++) {
      i2 = 2 * j2 - 1;
      for (j1 = 1; j1 < m1j; j1++) {
        i1 = 2 * j1 - 1;
        x1[i1] = r[i3 + 1][i2][i1] + r[i3 + 1][i2 + 2][i1] + r[i3][i2 + 1][i1] +
                 r[i3 + 2][i2 + 1][i1];
        y1[i1] = r[i3][i2][i1] + r[i3 + 2][i2][i1] + r[i3][i2 + 2][i1] +
                 r[i3 + 2][i2 + 2][i1];
      }
      for (j1 = 1; j1 < m1j - 1; j1++) {
        i1 = 2 * j1 - 1;
        y2 = r[i3][i2][i1 + 1] + r[i3 + 2][i2][i1 + 1] + r[i3][i2 + 2][i1 + 1] +
             r[i3 + 2][i2 + 2][i1 + 1];
        x2 = r[i3 + 1][i2][i1 + 1] + r[i3 + 1][i2 + 2][i1 + 1] +
             r[i3][i2 + 1][i1 + 1] + r[i3 + 2][i2 + 1][i1 + 1];
        s[j3][j2][j1] = 0.5 * r[i3 + 1][i2 + 1][i1 + 1] +
                        0.25 * (r[i3 + 1][i2 + 1][i1] + r[i3 + 1][i2 + 1][i1 + 2] + x2) +
                        0.125 * (x1[i1] + x1[i1 + 2] + y2) +
                        0.0625 * (y1[i1] + y1[i1 + 2]);
      }
    }
  }
  comm3(s, m1j, m2j, m3j);
}

/* Prolongation: adds the trilinear interpolation of the coarse grid z
   (mm1 x mm2 x mm3) to the fine grid u (n1 x n2 x n3); z1, z2 and z3 hold
   the sums along i2, i3 and both of a coarse row. */
static void interp(void *oz, int mm1, int mm2, int mm3, void *ou, int n1,
                   int n2, int n3)
{
  double (*z)[mm2][mm1] = (double (*)[mm2][mm1])oz;
  double (*u)[n2][n1] = (double (*)[n2][n1])ou;
  double z1[NM], z2[NM], z3[NM];
  int i1, i2, i3;
  for (i3 = 0; i3 < mm3 - 1; i3++) /* idiom: map (3-D, row temporaries privatised, 4 consumer loops fused) */
    for (i2 = 0; i2 < mm2 - 1; i2++) {
      for (i1 = 0; i1 < mm1; i1++) {
        z1[i1] = z[i3][i2 + 1][i1] + z[i3][i2][i1];
        z2[i1] = z[i3 + 1][i2][i1] + z[i3][i2][i1];
        z3[i1] = z[i3 + 1][i2 + 1][i1] + z[i3 + 1][i2][i1] + z1[i1];
      }
      for (i1 = 0; i1 < mm1 - 1; i1++) {
        u[2 * i3][2 * i2][2 * i1] += z[i3][i2][i1];
        u[2 * i3][2 * i2][2 * i1 + 1] += 0.5 * (z[i3][i2][i1 + 1] + z[i3][i2][i1]);
      }
      for (i1 = 0; i1 < mm1 - 1; i1++) {
        u[2 * i3][2 * i2 + 1][2 * i1] += 0.5 * z1[i1];
        u[2 * i3][2 * i2 + 1][2 * i1 + 1] += 0.25 * (z1[i1] + z1[i1 + 1]);
      }
      for (i1 = 0; i1 < mm1 - 1; i1++) {
        u[2 * i3 + 1][2 * i2][2 * i1] += 0.5 * z2[i1];
        u[2 * i3 + 1][2 * i2][2 * i1 + 1] += 0.25 * (z2[i1] + z2[i1 + 1]);
      }
      for (i1 = 0; i1 < mm1 - 1; i1++) {
        u[2 * i3 + 1][2 * i2 + 1][2 * i1] += 0.25 * z3[i1];
        u[2 * i3 + 1][2 * i2 + 1][2 * i1 + 1] += 0.125 * (z3[i1] + z3[i1 + 1]);
      }
    }
}

/* The L2 norm (over all n^3 interior points) and the largest magnitude of
   r's interior. */
static void norm2u3(void *or, int n1, int n2, int n3, double *rnm2,
                    double *rnmu)
{
  double (*r)[n2][n1] = (double (*)[n2][n1])or;
  double s = 0.0, mx = 0.0;
  int i1, i2, i3;
  for (i3 = 1; i3 < n3 - 1; i3++) /* idiom: 3-D sum and max, one reduction */
    for (i2 = 1; i2 < n2 - 1; i2++)
      for (i1 = 1; i1 < n1 - 1; i1++) {
        s = s + r[i3][i2][i1] * r[i3][i2][i1];
        double t = fabs(r[i3][i2][i1]);
        if (t > mx)
          mx = t;
      }
  *rnmu = mx;
  *rnm2 = sqrt(s / ((double)(n1 - 2) * (n2 - 2) * (n3 - 2)));
}

/* The right-hand side: zero, with +1 at NCHARGE and -1 at NCHARGE interior
   points drawn from the LCG (NAS places them at the extremes of a random
   field; any distinct points serve the test). */
static void charges(void *ov, int n1, int n2, int n3)
{
  double (*z)[n2][n1] = (double (*)[n2][n1])ov;
  double seed = 314159265.0, mult = 1220703125.0;
  int q;
  zero3(ov, n1, n2, n3);
  for (q = 0; q < 2 * NCHARGE; q++) { /* not-idiom: recurrence (LCG state) */
    int i1 = 1 + (int)(randlc(&seed, mult) * (n1 - 2));
    int i2 = 1 + (int)(randlc(&seed, mult) * (n2 - 2));
    int i3 = 1 + (int)(randlc(&seed, mult) * (n3 - 2));
    z[i3][i2][i1] = q < NCHARGE ? 1.0 : -1.0;
  }
  comm3(ov, n1, n2, n3);
}

/* One V-cycle: restrict the residual down to level 1, smooth there, then
   prolongate, correct and smooth on the way up. */
static void mg3p(void)
{
  int k;
  for (k = lt; k > 1; k--) /* not-idiom: level loop (calls) */
    rprj3(r + ir[k], m1[k], m2[k], m3[k], r + ir[k - 1], m1[k - 1], m2[k - 1],
          m3[k - 1]);
  zero3(u + ir[1], m1[1], m2[1], m3[1]);
  psinv(r + ir[1], u + ir[1], m1[1], m2[1], m3[1]);
  for (k = 2; k < lt; k++) { /* not-idiom: level loop (calls) */
    zero3(u + ir[k], m1[k], m2[k], m3[k]);
    interp(u + ir[k - 1], m1[k - 1], m2[k - 1], m3[k - 1], u + ir[k], m1[k],
           m2[k], m3[k]);
    resid(u + ir[k], r + ir[k], r + ir[k], m1[k], m2[k], m3[k]);
    psinv(r + ir[k], u + ir[k], m1[k], m2[k], m3[k]);
  }
  interp(u + ir[lt - 1], m1[lt - 1], m2[lt - 1], m3[lt - 1], u + ir[lt],
         m1[lt], m2[lt], m3[lt]);
  resid(u + ir[lt], v, r + ir[lt], m1[lt], m2[lt], m3[lt]);
  psinv(r + ir[lt], u + ir[lt], m1[lt], m2[lt], m3[lt]);
}

int main(int argc, char **argv)
{
  int k, it;
  if (argc > 1)
    lt = atoi(argv[1]);
  if (argc > 2)
    nit = atoi(argv[2]);
  if (lt < 2 || lt > MAXLEVEL || nit < 0) {
    fprintf(stderr, "usage: mg [LT (2..%d) [NIT]]\n", MAXLEVEL);
    return 2;
  }
  long total = 0;
  for (k = lt; k >= 1; k--) { /* not-idiom: level sizes (scalars) */
    m1[k] = m2[k] = m3[k] = (1 << k) + 2;
    ir[k] = total;
    total += (long)m1[k] * m2[k] * m3[k];
  }
  long nv = (long)m1[lt] * m2[lt] * m3[lt];
  u = malloc(total * sizeof(double));
  r = malloc(total * sizeof(double));
  v = malloc(nv * sizeof(double));
  if (!u || !r || !v) {
    fprintf(stderr, "mg: out of memory\n");
    return 1;
  }
  charges(v, m1[lt], m2[lt], m3[lt]);
  zero3(u + ir[lt], m1[lt], m2[lt], m3[lt]);

  double rnm2, rnmu;
  int n = 1 << lt;
  printf("n %ld\n", (long)n * n * n);
  resid(u + ir[lt], v, r + ir[lt], m1[lt], m2[lt], m3[lt]);
  norm2u3(r + ir[lt], m1[lt], m2[lt], m3[lt], &rnm2, &rnmu);
  printf("start.rnm2 %.10e\n", rnm2);
  printf("start.rnmu %.10e\n", rnmu);
  for (it = 1; it <= nit; it++) { /* not-idiom: V-cycles (calls) */
    mg3p();
    resid(u + ir[lt], v, r + ir[lt], m1[lt], m2[lt], m3[lt]);
    norm2u3(r + ir[lt], m1[lt], m2[lt], m3[lt], &rnm2, &rnmu);
    printf("iter%d.rnm2 %.10e\n", it, rnm2);
    printf("iter%d.rnmu %.10e\n", it, rnmu);
  }
  norm2u3(u + ir[lt], m1[lt], m2[lt], m3[lt], &rnm2, &rnmu);
  printf("u.rnm2 %.10e\n", rnm2);
  printf("u.rnmu %.10e\n", rnmu);
  /* A few points of the solution and of the last residual; the corner is
     a ghost (a periodic copy). */
  int h = m1[lt] / 2;
  double (*uu)[m2[lt]][m1[lt]] = (double (*)[m2[lt]][m1[lt]])(u + ir[lt]);
  double (*rr)[m2[lt]][m1[lt]] = (double (*)[m2[lt]][m1[lt]])(r + ir[lt]);
  printf("u.centre %.10e\n", uu[h][h][h]);
  printf("u.point %.10e\n", uu[1][h / 2][2 * h - 3]);
  printf("u.ghost %.10e\n", uu[0][0][0]);
  printf("r.centre %.10e\n", rr[h][h][h]);
  printf("r.point %.10e\n", rr[n][1][h / 3 + 1]);
  free(u);
  free(r);
  free(v);
  return 0;
}
