/*
 * mriq.c - Parboil mri-q's CPU reference: the Q matrix of a non-Cartesian
 * MRI reconstruction. ComputePhiMag is a map over the K-space samples;
 * ComputeQ accumulates, for every image point x, the contributions of all
 * samples k, with k outer and x inner as Parboil writes it:
 *   Qr[x] += phiMag[k] * cos(2 pi (kx[k] x[x] + ky[k] y[x] + kz[k] z[x]))
 *   Qi[x] += phiMag[k] * sin(...)
 * Offloaded as one outer-loop accumulation (a map over x of a sequential
 * reduction over k: issue 13) instead of one launch of the inner map per
 * k. Inputs from the NAS LCG, deterministic; cosf and sinf stay the C
 * library's (errno-setting) calls, checked on the device before the nest
 * runs there.
 *
 * Loops carry a trailing marker comment on their `for` line (compare.py):
 *   idiom: map | accumulation  -- expected to be offloaded
 * Output: "n K" first, then "label value" lines; ".f32" labels hold
 * single-precision results.
 *
 * The plugin build needs -idiom-approx-libm (OpenCL's cos and sin are
 * within 4 ulp of the host's, not bit-exact); run.sh reads the flags from
 * this line:
 *   idiom-cflags: -mllvm -idiom-approx-libm
 * Tolerance: each term phiMag*cos differs by at most 4 ulp of |phiMag| <= 1
 * (plus the argument's own rounding, the same on both sides), so an element
 * of Q, a sum of K = 2048 such terms in the same order, moves by at most
 * K * 4 * 2^-24 = 4.9e-4 absolute; taken as 6e-4. The sums over all points
 * add NX = 4096 of them: 6e-4 * NX = 2.5 absolute.
 *   # tol qsum*.f32 0 2.5
 *   # tol q*.f32 0 6e-4
 *   # tol phisum.f32 1e-6
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

/* Sizes: NK samples and NX points by default (about 0.13 s sequentially);
 * `mriq NK NX` for benchmarks, up to Parboil's large data set (3072 samples,
 * 262144 points). */
#define NK 2048
#define NX 4096
#define MAXK 3072
#define MAXX 262144

static float kx[MAXK], ky[MAXK], kz[MAXK], phiR[MAXK], phiI[MAXK], phiMag[MAXK];
static float x[MAXX], y[MAXX], z[MAXX], Qr[MAXX], Qi[MAXX];

/* NAS Parallel Benchmarks' randlc: x = a*x mod 2^46, result in (0, 1). */
static double randlc(double *xs, double a) {
  const double r23 = 1.1920928955078125e-07, t23 = 8388608.0;
  const double r46 = r23 * r23, t46 = t23 * t23;
  double t1 = r23 * a, a1 = (int)t1, a2 = a - t23 * a1;
  t1 = r23 * *xs;
  double x1 = (int)t1, x2 = *xs - t23 * x1;
  t1 = a1 * x2 + a2 * x1;
  double t2 = (int)(r23 * t1), z1 = t1 - t23 * t2;
  double t3 = t23 * z1 + a2 * x2, t4 = (int)(r46 * t3);
  *xs = t3 - t46 * t4;
  return r46 * *xs;
}

static void ComputePhiMag(int numK, const float *pr, const float *pi,
                          float *mag) {
  for (int k = 0; k < numK; k++) { /* idiom: map */
    float real = pr[k], imag = pi[k];
    mag[k] = real * real + imag * imag;
  }
}

/* The arrays are globals, as in legacy codes: LICM hoists the loads of
 * kx[k], ky[k], kz[k] and phiMag[k] out of the inner loop, which is then a
 * map on its own (launched once per k without the accumulation idiom). */
static void ComputeQ(int numK, int numX) {
  const float PIx2 = 6.2831853071795864769252867665590058f;
  for (int k = 0; k < numK; k++) { /* idiom: accumulation */
    for (int i = 0; i < numX; i++) {
      float expArg = PIx2 * (kx[k] * x[i] + ky[k] * y[i] + kz[k] * z[i]);
      float cosArg = cosf(expArg);
      float sinArg = sinf(expArg);
      Qr[i] += phiMag[k] * cosArg;
      Qi[i] += phiMag[k] * sinArg;
    }
  }
}

int main(int argc, char **argv) {
  int nk = argc > 2 ? atoi(argv[1]) : NK, nx = argc > 2 ? atoi(argv[2]) : NX;
  if (nk < 1 || nk > MAXK || nx < 13 || nx > MAXX) {
    fprintf(stderr, "usage: mriq [NK NX] (NK <= %d, 13 <= NX <= %d)\n", MAXK,
            MAXX);
    return 2;
  }
  double seed = 314159265.0, a = 1220703125.0;
  for (int k = 0; k < nk; k++) {
    kx[k] = (float)(randlc(&seed, a) - 0.5) * 0.5f;
    ky[k] = (float)(randlc(&seed, a) - 0.5) * 0.5f;
    kz[k] = (float)(randlc(&seed, a) - 0.5) * 0.5f;
    phiR[k] = (float)randlc(&seed, a) * 0.7f;
    phiI[k] = (float)randlc(&seed, a) * 0.7f;
  }
  for (int i = 0; i < nx; i++) {
    x[i] = (float)(randlc(&seed, a) - 0.5) * 32.0f;
    y[i] = (float)(randlc(&seed, a) - 0.5) * 32.0f;
    z[i] = (float)(randlc(&seed, a) - 0.5) * 32.0f;
    Qr[i] = 0.0f;
    Qi[i] = 0.0f;
  }
  ComputePhiMag(nk, phiR, phiI, phiMag);
  ComputeQ(nk, nx);

  printf("n %d\n", nk);
  double phisum = 0, qsumr = 0, qsumi = 0, qabs = 0;
  for (int k = 0; k < nk; k++)
    phisum += phiMag[k];
  for (int i = 0; i < nx; i++) {
    qsumr += Qr[i];
    qsumi += Qi[i];
    qabs += fabs(Qr[i]) + fabs(Qi[i]);
  }
  printf("phisum.f32 %.10e\n", phisum);
  printf("qsumr.f32 %.10e\n", qsumr);
  printf("qsumi.f32 %.10e\n", qsumi);
  printf("qsumabs.f32 %.10e\n", qabs);
  for (int i = 0; i < nx; i += nx / 13)
    printf("q%d.f32 %.10e %.10e\n", i, Qr[i], Qi[i]);
  return 0;
}
