/*
 * adi.c - the right-hand side of an ADI solver on 5-component arrays, as
 * NAS SP and BT compute_rhs write it (issue #13): the state u[k][j][i][m]
 * (m = 0..4: density, three momenta, energy) and the right-hand side
 * rhs[k][j][i][m]; a first nest computes the auxiliary 3-D arrays rho_i,
 * us, vs, ws, square and qs from u; the xi-, eta- and zeta-direction flux
 * nests update the 5 components of rhs at each interior point in five
 * written-out statements that read u at the neighbours i +- 1 (j +- 1,
 * k +- 1); the fourth-order dissipation treats the boundary rows i = 1, 2,
 * nx-3, nx-2 (and j, k alike) in loops of their own, fixed i, and the
 * interior with a 5-point stencil; a last nest scales rhs by dt. The time
 * loop adds rhs to u (the implicit solves of SP are left out: each one is a
 * recurrence along a line) and the program prints the rms norms of rhs and
 * u per component, NAS's rhs_norm, and a few points. A 64^3 grid, 50 steps.
 * compute_rhs and add are inlined into the time loop, whose body is then
 * 15 offloaded maps and the memcpy of the forcing term: a residency region
 * (u, rhs and the auxiliary arrays stay on the device across steps).
 *
 * Loops carry a trailing marker comment on their `for` line:
 *   idiom: map | reduction  -- expected to be offloaded
 *   not-idiom: REASON       -- must stay sequential
 *   maybe: REASON           -- either is fine
 * Output: "n N" first, then "label value" lines (see compare.py).
 *
 * Every element of u and rhs is computed as in the loops (maps keep
 * per-element semantics), so they are the sequential ones bit for bit; the
 * norms are reassociated sums (compare.py's default tolerance).
 */
#include <math.h>
#include <stdio.h>

/* -DN=... -DSTEPS=... for other sizes (bench/adi_gpu.sh). */
#ifndef N
#define N 64
#endif
#ifndef STEPS
#define STEPS 50
#endif

static double u[N][N][N][5], rhs[N][N][N][5], forcing[N][N][N][5];
static double rho_i[N][N][N], us[N][N][N], vs[N][N][N], ws[N][N][N],
    square[N][N][N], qs[N][N][N];

/* Coefficients, as NAS's set_constants computes them from the grid. */
static double c1, c2, con43, dt, dssp;
static double dx1tx1, dx2tx1, dx3tx1, dx4tx1, dx5tx1, tx2;
static double dy1ty1, dy2ty1, dy3ty1, dy4ty1, dy5ty1, ty2;
static double dz1tz1, dz2tz1, dz3tz1, dz4tz1, dz5tz1, tz2;
static double xxcon2, xxcon3, xxcon4, xxcon5;
static double yycon2, yycon3, yycon4, yycon5;
static double zzcon2, zzcon3, zzcon4, zzcon5;

static void set_constants(int nx, int ny, int nz)
{
  double c3 = 0.1, c4 = 1.0, c5 = 1.4, c3c4, c1c5, conz1, con16;
  double dnxm1 = 1.0 / (nx - 1), dnym1 = 1.0 / (ny - 1),
         dnzm1 = 1.0 / (nz - 1);
  double tx1 = 1.0 / (dnxm1 * dnxm1), tx3 = 1.0 / dnxm1;
  double ty1 = 1.0 / (dnym1 * dnym1), ty3 = 1.0 / dnym1;
  double tz1 = 1.0 / (dnzm1 * dnzm1), tz3 = 1.0 / dnzm1;
  c1 = 1.4;
  c2 = 0.4;
  con43 = 4.0 / 3.0;
  c3c4 = c3 * c4;
  c1c5 = c1 * c5;
  conz1 = 1.0 - c1c5;
  con16 = 1.0 / 6.0;
  tx2 = 0.5 / dnxm1;
  ty2 = 0.5 / dnym1;
  tz2 = 0.5 / dnzm1;
  dx1tx1 = 0.75 * tx1; dx2tx1 = 0.70 * tx1; dx3tx1 = 0.72 * tx1;
  dx4tx1 = 0.74 * tx1; dx5tx1 = 0.76 * tx1;
  dy1ty1 = 0.75 * ty1; dy2ty1 = 0.71 * ty1; dy3ty1 = 0.73 * ty1;
  dy4ty1 = 0.70 * ty1; dy5ty1 = 0.77 * ty1;
  dz1tz1 = 0.75 * tz1; dz2tz1 = 0.72 * tz1; dz3tz1 = 0.70 * tz1;
  dz4tz1 = 0.73 * tz1; dz5tz1 = 0.78 * tz1;
  xxcon2 = c3c4 * tx3; xxcon3 = c3c4 * conz1 * tx3;
  xxcon4 = c3c4 * con16 * tx3; xxcon5 = c3c4 * c1c5 * tx3;
  yycon2 = c3c4 * ty3; yycon3 = c3c4 * conz1 * ty3;
  yycon4 = c3c4 * con16 * ty3; yycon5 = c3c4 * c1c5 * ty3;
  zzcon2 = c3c4 * tz3; zzcon3 = c3c4 * conz1 * tz3;
  zzcon4 = c3c4 * con16 * tz3; zzcon5 = c3c4 * c1c5 * tz3;
  dssp = 0.25 * 0.75;
  dt = 2.0e-5;
}

/* A smooth initial state and forcing term (polynomials of the grid
   coordinates, as NAS's exact_solution). */
static void initialize(int nx, int ny, int nz)
{
  int i, j, k;
  for (k = 0; k < nz; k++) /* maybe: map (3-D, polynomial init) */
    for (j = 0; j < ny; j++)
      for (i = 0; i < nx; i++) {
        double x = (double)i / (nx - 1), y = (double)j / (ny - 1),
               z = (double)k / (nz - 1);
        u[k][j][i][0] = 1.0 + 0.2 * x * (1.0 - x) + 0.1 * y * z;
        u[k][j][i][1] = 0.3 * x * y + 0.05 * z * z;
        u[k][j][i][2] = 0.2 * y * (1.0 - z) - 0.1 * x;
        u[k][j][i][3] = 0.1 * z * (1.0 - x * y);
        u[k][j][i][4] = 2.5 + 0.3 * x * x + 0.2 * y - 0.1 * z * x;
        forcing[k][j][i][0] = 0.01 * (x - y);
        forcing[k][j][i][1] = 0.02 * y * z;
        forcing[k][j][i][2] = -0.01 * x * z;
        forcing[k][j][i][3] = 0.015 * (1.0 - y);
        forcing[k][j][i][4] = 0.005 * x * y * z;
      }
}

static void compute_rhs(int nx, int ny, int nz)
{
  int i, j, k, m;
  int nx2 = nx - 2, ny2 = ny - 2, nz2 = nz - 2;
  double rho_inv, uijk, up1, um1, vijk, vp1, vm1, wijk, wp1, wm1;

  /* Reciprocal of density, velocities, kinetic energy, everywhere. */
  for (k = 0; k <= nz - 1; k++) /* idiom: map (3-D, six outputs) */
    for (j = 0; j <= ny - 1; j++)
      for (i = 0; i <= nx - 1; i++) {
        rho_inv = 1.0 / u[k][j][i][0];
        rho_i[k][j][i] = rho_inv;
        us[k][j][i] = u[k][j][i][1] * rho_inv;
        vs[k][j][i] = u[k][j][i][2] * rho_inv;
        ws[k][j][i] = u[k][j][i][3] * rho_inv;
        square[k][j][i] = 0.5 * (u[k][j][i][1] * u[k][j][i][1] +
                                 u[k][j][i][2] * u[k][j][i][2] +
                                 u[k][j][i][3] * u[k][j][i][3]) * rho_inv;
        qs[k][j][i] = square[k][j][i] * rho_inv;
      }

  /* The forcing term is where rhs starts. */
  for (k = 0; k <= nz - 1; k++) /* maybe: map (a copy, memcpy at -O2) */
    for (j = 0; j <= ny - 1; j++)
      for (i = 0; i <= nx - 1; i++)
        for (m = 0; m < 5; m++)
          rhs[k][j][i][m] = forcing[k][j][i][m];

  /* xi-direction fluxes. */
  for (k = 1; k <= nz2; k++) /* idiom: map (3-D, a point of 5) */
    for (j = 1; j <= ny2; j++)
      for (i = 1; i <= nx2; i++) {
        uijk = us[k][j][i];
        up1 = us[k][j][i + 1];
        um1 = us[k][j][i - 1];
        rhs[k][j][i][0] = rhs[k][j][i][0] +
            dx1tx1 * (u[k][j][i + 1][0] - 2.0 * u[k][j][i][0] +
                      u[k][j][i - 1][0]) -
            tx2 * (u[k][j][i + 1][1] - u[k][j][i - 1][1]);
        rhs[k][j][i][1] = rhs[k][j][i][1] +
            dx2tx1 * (u[k][j][i + 1][1] - 2.0 * u[k][j][i][1] +
                      u[k][j][i - 1][1]) +
            xxcon2 * con43 * (up1 - 2.0 * uijk + um1) -
            tx2 * (u[k][j][i + 1][1] * up1 - u[k][j][i - 1][1] * um1 +
                   (u[k][j][i + 1][4] - square[k][j][i + 1] -
                    u[k][j][i - 1][4] + square[k][j][i - 1]) * c2);
        rhs[k][j][i][2] = rhs[k][j][i][2] +
            dx3tx1 * (u[k][j][i + 1][2] - 2.0 * u[k][j][i][2] +
                      u[k][j][i - 1][2]) +
            xxcon2 * (vs[k][j][i + 1] - 2.0 * vs[k][j][i] + vs[k][j][i - 1]) -
            tx2 * (u[k][j][i + 1][2] * up1 - u[k][j][i - 1][2] * um1);
        rhs[k][j][i][3] = rhs[k][j][i][3] +
            dx4tx1 * (u[k][j][i + 1][3] - 2.0 * u[k][j][i][3] +
                      u[k][j][i - 1][3]) +
            xxcon2 * (ws[k][j][i + 1] - 2.0 * ws[k][j][i] + ws[k][j][i - 1]) -
            tx2 * (u[k][j][i + 1][3] * up1 - u[k][j][i - 1][3] * um1);
        rhs[k][j][i][4] = rhs[k][j][i][4] +
            dx5tx1 * (u[k][j][i + 1][4] - 2.0 * u[k][j][i][4] +
                      u[k][j][i - 1][4]) +
            xxcon3 * (qs[k][j][i + 1] - 2.0 * qs[k][j][i] + qs[k][j][i - 1]) +
            xxcon4 * (up1 * up1 - 2.0 * uijk * uijk + um1 * um1) +
            xxcon5 * (u[k][j][i + 1][4] * rho_i[k][j][i + 1] -
                      2.0 * u[k][j][i][4] * rho_i[k][j][i] +
                      u[k][j][i - 1][4] * rho_i[k][j][i - 1]) -
            tx2 * ((c1 * u[k][j][i + 1][4] - c2 * square[k][j][i + 1]) * up1 -
                   (c1 * u[k][j][i - 1][4] - c2 * square[k][j][i - 1]) * um1);
      }

  /* Fourth-order xi-direction dissipation: the rows i = 1, 2 and
     nx-3, nx-2 apart, the interior a 5-point stencil. */
  for (k = 1; k <= nz2; k++) /* idiom: map (2-D over k, j; i = 1, 2) */
    for (j = 1; j <= ny2; j++) {
      i = 1;
      for (m = 0; m < 5; m++)
        rhs[k][j][i][m] = rhs[k][j][i][m] -
            dssp * (5.0 * u[k][j][i][m] - 4.0 * u[k][j][i + 1][m] +
                    u[k][j][i + 2][m]);
      i = 2;
      for (m = 0; m < 5; m++)
        rhs[k][j][i][m] = rhs[k][j][i][m] -
            dssp * (-4.0 * u[k][j][i - 1][m] + 6.0 * u[k][j][i][m] -
                    4.0 * u[k][j][i + 1][m] + u[k][j][i + 2][m]);
    }
  for (k = 1; k <= nz2; k++) /* idiom: map (3-D, a point of 5) */
    for (j = 1; j <= ny2; j++)
      for (i = 3; i <= nx2 - 2; i++)
        for (m = 0; m < 5; m++)
          rhs[k][j][i][m] = rhs[k][j][i][m] -
              dssp * (u[k][j][i - 2][m] - 4.0 * u[k][j][i - 1][m] +
                      6.0 * u[k][j][i][m] - 4.0 * u[k][j][i + 1][m] +
                      u[k][j][i + 2][m]);
  for (k = 1; k <= nz2; k++) /* idiom: map (2-D over k, j; i = nx-3, nx-2) */
    for (j = 1; j <= ny2; j++) {
      i = nx2 - 1;
      for (m = 0; m < 5; m++)
        rhs[k][j][i][m] = rhs[k][j][i][m] -
            dssp * (u[k][j][i - 2][m] - 4.0 * u[k][j][i - 1][m] +
                    6.0 * u[k][j][i][m] - 4.0 * u[k][j][i + 1][m]);
      i = nx2;
      for (m = 0; m < 5; m++)
        rhs[k][j][i][m] = rhs[k][j][i][m] -
            dssp * (u[k][j][i - 2][m] - 4.0 * u[k][j][i - 1][m] +
                    5.0 * u[k][j][i][m]);
    }

  /* eta-direction fluxes. */
  for (k = 1; k <= nz2; k++) /* idiom: map (3-D, a point of 5) */
    for (j = 1; j <= ny2; j++)
      for (i = 1; i <= nx2; i++) {
        vijk = vs[k][j][i];
        vp1 = vs[k][j + 1][i];
        vm1 = vs[k][j - 1][i];
        rhs[k][j][i][0] = rhs[k][j][i][0] +
            dy1ty1 * (u[k][j + 1][i][0] - 2.0 * u[k][j][i][0] +
                      u[k][j - 1][i][0]) -
            ty2 * (u[k][j + 1][i][2] - u[k][j - 1][i][2]);
        rhs[k][j][i][1] = rhs[k][j][i][1] +
            dy2ty1 * (u[k][j + 1][i][1] - 2.0 * u[k][j][i][1] +
                      u[k][j - 1][i][1]) +
            yycon2 * (us[k][j + 1][i] - 2.0 * us[k][j][i] + us[k][j - 1][i]) -
            ty2 * (u[k][j + 1][i][1] * vp1 - u[k][j - 1][i][1] * vm1);
        rhs[k][j][i][2] = rhs[k][j][i][2] +
            dy3ty1 * (u[k][j + 1][i][2] - 2.0 * u[k][j][i][2] +
                      u[k][j - 1][i][2]) +
            yycon2 * con43 * (vp1 - 2.0 * vijk + vm1) -
            ty2 * (u[k][j + 1][i][2] * vp1 - u[k][j - 1][i][2] * vm1 +
                   (u[k][j + 1][i][4] - square[k][j + 1][i] -
                    u[k][j - 1][i][4] + square[k][j - 1][i]) * c2);
        rhs[k][j][i][3] = rhs[k][j][i][3] +
            dy4ty1 * (u[k][j + 1][i][3] - 2.0 * u[k][j][i][3] +
                      u[k][j - 1][i][3]) +
            yycon2 * (ws[k][j + 1][i] - 2.0 * ws[k][j][i] + ws[k][j - 1][i]) -
            ty2 * (u[k][j + 1][i][3] * vp1 - u[k][j - 1][i][3] * vm1);
        rhs[k][j][i][4] = rhs[k][j][i][4] +
            dy5ty1 * (u[k][j + 1][i][4] - 2.0 * u[k][j][i][4] +
                      u[k][j - 1][i][4]) +
            yycon3 * (qs[k][j + 1][i] - 2.0 * qs[k][j][i] + qs[k][j - 1][i]) +
            yycon4 * (vp1 * vp1 - 2.0 * vijk * vijk + vm1 * vm1) +
            yycon5 * (u[k][j + 1][i][4] * rho_i[k][j + 1][i] -
                      2.0 * u[k][j][i][4] * rho_i[k][j][i] +
                      u[k][j - 1][i][4] * rho_i[k][j - 1][i]) -
            ty2 * ((c1 * u[k][j + 1][i][4] - c2 * square[k][j + 1][i]) * vp1 -
                   (c1 * u[k][j - 1][i][4] - c2 * square[k][j - 1][i]) * vm1);
      }

  /* Fourth-order eta-direction dissipation (rows j = 1, 2, ny-3, ny-2
     apart, 2-D over k, i). */
  for (k = 1; k <= nz2; k++) /* idiom: map (2-D over k, i; j = 1, 2) */
    for (i = 1; i <= nx2; i++) {
      j = 1;
      for (m = 0; m < 5; m++)
        rhs[k][j][i][m] = rhs[k][j][i][m] -
            dssp * (5.0 * u[k][j][i][m] - 4.0 * u[k][j + 1][i][m] +
                    u[k][j + 2][i][m]);
      j = 2;
      for (m = 0; m < 5; m++)
        rhs[k][j][i][m] = rhs[k][j][i][m] -
            dssp * (-4.0 * u[k][j - 1][i][m] + 6.0 * u[k][j][i][m] -
                    4.0 * u[k][j + 1][i][m] + u[k][j + 2][i][m]);
    }
  for (k = 1; k <= nz2; k++) /* idiom: map (3-D, a point of 5) */
    for (j = 3; j <= ny2 - 2; j++)
      for (i = 1; i <= nx2; i++)
        for (m = 0; m < 5; m++)
          rhs[k][j][i][m] = rhs[k][j][i][m] -
              dssp * (u[k][j - 2][i][m] - 4.0 * u[k][j - 1][i][m] +
                      6.0 * u[k][j][i][m] - 4.0 * u[k][j + 1][i][m] +
                      u[k][j + 2][i][m]);
  for (k = 1; k <= nz2; k++) /* idiom: map (2-D over k, i; j = ny-3, ny-2) */
    for (i = 1; i <= nx2; i++) {
      j = ny2 - 1;
      for (m = 0; m < 5; m++)
        rhs[k][j][i][m] = rhs[k][j][i][m] -
            dssp * (u[k][j - 2][i][m] - 4.0 * u[k][j - 1][i][m] +
                    6.0 * u[k][j][i][m] - 4.0 * u[k][j + 1][i][m]);
      j = ny2;
      for (m = 0; m < 5; m++)
        rhs[k][j][i][m] = rhs[k][j][i][m] -
            dssp * (u[k][j - 2][i][m] - 4.0 * u[k][j - 1][i][m] +
                    5.0 * u[k][j][i][m]);
    }

  /* zeta-direction fluxes. */
  for (k = 1; k <= nz2; k++) /* idiom: map (3-D, a point of 5) */
    for (j = 1; j <= ny2; j++)
      for (i = 1; i <= nx2; i++) {
        wijk = ws[k][j][i];
        wp1 = ws[k + 1][j][i];
        wm1 = ws[k - 1][j][i];
        rhs[k][j][i][0] = rhs[k][j][i][0] +
            dz1tz1 * (u[k + 1][j][i][0] - 2.0 * u[k][j][i][0] +
                      u[k - 1][j][i][0]) -
            tz2 * (u[k + 1][j][i][3] - u[k - 1][j][i][3]);
        rhs[k][j][i][1] = rhs[k][j][i][1] +
            dz2tz1 * (u[k + 1][j][i][1] - 2.0 * u[k][j][i][1] +
                      u[k - 1][j][i][1]) +
            zzcon2 * (us[k + 1][j][i] - 2.0 * us[k][j][i] + us[k - 1][j][i]) -
            tz2 * (u[k + 1][j][i][1] * wp1 - u[k - 1][j][i][1] * wm1);
        rhs[k][j][i][2] = rhs[k][j][i][2] +
            dz3tz1 * (u[k + 1][j][i][2] - 2.0 * u[k][j][i][2] +
                      u[k - 1][j][i][2]) +
            zzcon2 * (vs[k + 1][j][i] - 2.0 * vs[k][j][i] + vs[k - 1][j][i]) -
            tz2 * (u[k + 1][j][i][2] * wp1 - u[k - 1][j][i][2] * wm1);
        rhs[k][j][i][3] = rhs[k][j][i][3] +
            dz4tz1 * (u[k + 1][j][i][3] - 2.0 * u[k][j][i][3] +
                      u[k - 1][j][i][3]) +
            zzcon2 * con43 * (wp1 - 2.0 * wijk + wm1) -
            tz2 * (u[k + 1][j][i][3] * wp1 - u[k - 1][j][i][3] * wm1 +
                   (u[k + 1][j][i][4] - square[k + 1][j][i] -
                    u[k - 1][j][i][4] + square[k - 1][j][i]) * c2);
        rhs[k][j][i][4] = rhs[k][j][i][4] +
            dz5tz1 * (u[k + 1][j][i][4] - 2.0 * u[k][j][i][4] +
                      u[k - 1][j][i][4]) +
            zzcon3 * (qs[k + 1][j][i] - 2.0 * qs[k][j][i] + qs[k - 1][j][i]) +
            zzcon4 * (wp1 * wp1 - 2.0 * wijk * wijk + wm1 * wm1) +
            zzcon5 * (u[k + 1][j][i][4] * rho_i[k + 1][j][i] -
                      2.0 * u[k][j][i][4] * rho_i[k][j][i] +
                      u[k - 1][j][i][4] * rho_i[k - 1][j][i]) -
            tz2 * ((c1 * u[k + 1][j][i][4] - c2 * square[k + 1][j][i]) * wp1 -
                   (c1 * u[k - 1][j][i][4] - c2 * square[k - 1][j][i]) * wm1);
      }

  /* Fourth-order zeta-direction dissipation (planes k = 1, 2, nz-3, nz-2
     apart, 2-D over j, i). */
  for (j = 1; j <= ny2; j++) /* idiom: map (2-D over j, i; k = 1, 2) */
    for (i = 1; i <= nx2; i++) {
      k = 1;
      for (m = 0; m < 5; m++)
        rhs[k][j][i][m] = rhs[k][j][i][m] -
            dssp * (5.0 * u[k][j][i][m] - 4.0 * u[k + 1][j][i][m] +
                    u[k + 2][j][i][m]);
      k = 2;
      for (m = 0; m < 5; m++)
        rhs[k][j][i][m] = rhs[k][j][i][m] -
            dssp * (-4.0 * u[k - 1][j][i][m] + 6.0 * u[k][j][i][m] -
                    4.0 * u[k + 1][j][i][m] + u[k + 2][j][i][m]);
    }
  for (k = 3; k <= nz2 - 2; k++) /* idiom: map (3-D, a point of 5) */
    for (j = 1; j <= ny2; j++)
      for (i = 1; i <= nx2; i++)
        for (m = 0; m < 5; m++)
          rhs[k][j][i][m] = rhs[k][j][i][m] -
              dssp * (u[k - 2][j][i][m] - 4.0 * u[k - 1][j][i][m] +
                      6.0 * u[k][j][i][m] - 4.0 * u[k + 1][j][i][m] +
                      u[k + 2][j][i][m]);
  for (j = 1; j <= ny2; j++) /* idiom: map (2-D over j, i; k = nz-3, nz-2) */
    for (i = 1; i <= nx2; i++) {
      k = nz2 - 1;
      for (m = 0; m < 5; m++)
        rhs[k][j][i][m] = rhs[k][j][i][m] -
            dssp * (u[k - 2][j][i][m] - 4.0 * u[k - 1][j][i][m] +
                    6.0 * u[k][j][i][m] - 4.0 * u[k + 1][j][i][m]);
      k = nz2;
      for (m = 0; m < 5; m++)
        rhs[k][j][i][m] = rhs[k][j][i][m] -
            dssp * (u[k - 2][j][i][m] - 4.0 * u[k - 1][j][i][m] +
                    5.0 * u[k][j][i][m]);
    }

  /* Scale by the time step. */
  for (k = 1; k <= nz2; k++) /* idiom: map (3-D, in place, a point of 5) */
    for (j = 1; j <= ny2; j++)
      for (i = 1; i <= nx2; i++)
        for (m = 0; m < 5; m++)
          rhs[k][j][i][m] = rhs[k][j][i][m] * dt;
}

/* The explicit update u += rhs on the interior (SP's add). */
static void add(int nx, int ny, int nz)
{
  int i, j, k, m;
  for (k = 1; k <= nz - 2; k++) /* idiom: map (3-D, in place, a point of 5) */
    for (j = 1; j <= ny - 2; j++)
      for (i = 1; i <= nx - 2; i++)
        for (m = 0; m < 5; m++)
          u[k][j][i][m] = u[k][j][i][m] + rhs[k][j][i][m];
}

/* NAS's rhs_norm and error_norm: the rms of each component over the
   interior. */
__attribute__((noinline)) static void rms_norm(int nx, int ny, int nz,
                                               double (*a)[N][N][5],
                                               double rms[5])
{
  int i, j, k, m;
  for (m = 0; m < 5; m++)
    rms[m] = 0.0;
  for (k = 1; k <= nz - 2; k++) /* idiom: 3-D reduction of 5 sums (rms[m] stored back) */
    for (j = 1; j <= ny - 2; j++)
      for (i = 1; i <= nx - 2; i++)
        for (m = 0; m < 5; m++) {
          double add = a[k][j][i][m];
          rms[m] = rms[m] + add * add;
        }
  for (m = 0; m < 5; m++)
    rms[m] = sqrt(rms[m] / ((double)(nx - 2) * (ny - 2) * (nz - 2)));
}

int main(void)
{
  int step, m;
  double rms[5];
  set_constants(N, N, N);
  initialize(N, N, N);
  for (step = 0; step < STEPS; step++) { /* not-idiom: time loop */
    compute_rhs(N, N, N);
    add(N, N, N);
  }
  printf("n %d\n", (N - 2) * (N - 2) * (N - 2));
  rms_norm(N, N, N, rhs, rms);
  for (m = 0; m < 5; m++)
    printf("rhs_rms%d %.10e\n", m, rms[m]);
  rms_norm(N, N, N, u, rms);
  for (m = 0; m < 5; m++)
    printf("u_rms%d %.10e\n", m, rms[m]);
  for (m = 0; m < 5; m++)
    printf("rhs_mid%d %.10e\n", m, rhs[N / 2][N / 3][N / 4][m]);
  for (m = 0; m < 5; m++)
    printf("rhs_edge%d %.10e\n", m, rhs[1][2][N - 3][m]);
  for (m = 0; m < 5; m++)
    printf("u_corner%d %.10e\n", m, u[N - 2][1][2][m]);
  printf("rho_i_mid %.10e\n", rho_i[N / 3][N / 2][N / 5]);
  return 0;
}
