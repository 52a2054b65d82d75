/*
 * image.c - 2-D image maps (after the Parboil-style image kernels):
 * brightness / contrast, clamping, thresholding, a 4-neighbour stencil and
 * a gamma map, over `float img[H][W]` globals and over flat `out[i*w + j]`
 * buffers with a width known only at run time; checksums over the results.
 *
 * Pixels are multiples of 1/256 and every constant is a short dyadic
 * fraction, so each map result is exact in single precision whatever the
 * evaluation order or contraction: thresholds and integer counts are exact,
 * and so is every double checksum (at most 2^41 units of 2^-20 each, well
 * within a double's 53 bits, in any summation order). Hence, for compare.py:
 *   # tol * 0 0
 *
 * Loops carry a trailing marker comment on their `for` line:
 *   idiom: reduction | map   -- expected to be offloaded
 *   not-idiom: REASON        -- must stay sequential (or be declined)
 * Output: "n N" first, then "label value" lines (see compare.py).
 */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#define H 1024
#define W 2048

float img[H][W];
float adj[H][W];
float blur[H][W];
unsigned char mask[H][W];

long saturated_events; /* updated by note_saturated(): a side effect */

static uint32_t lcg_state = 2463534242u;

/* Noise image: 8-bit LCG samples scaled to [0, 1). */
static void gen_image(float (*im)[W], int h)
{
  int i, j;
  for (i = 0; i < h; i++) /* not-idiom: recurrence (LCG state) */
    for (j = 0; j < W; j++) {
      lcg_state = lcg_state * 1103515245u + 12345u;
      im[i][j] = (float)((lcg_state >> 16) & 255u) * (1.0f / 256.0f);
    }
}

/* Brightness/contrast then clamp with fminf/fmaxf, on the global arrays. */
static void brightness_contrast(float a, float b)
{
  int i, j;
  for (i = 0; i < H; i++) /* idiom: map (2-D, global arrays) */
    for (j = 0; j < W; j++)
      adj[i][j] = fminf(fmaxf(a * img[i][j] + b, 0.0f), 1.0f);
}

/* Same on flat buffers with a run-time width, clamped with ternaries. */
static void adjust_flat(float *out, const float *in, int h, int w, float a,
                        float b)
{
  int i, j;
  for (i = 0; i < h; i++) /* idiom: map (2-D, flat, runtime width) */
    for (j = 0; j < w; j++) {
      float v = a * in[i * w + j] + b;
      v = v < 0.0f ? 0.0f : v;
      out[i * w + j] = v > 1.0f ? 1.0f : v;
    }
}

/* Threshold into an unsigned char image. */
static void threshold(float t)
{
  int i, j;
  for (i = 0; i < H; i++) /* idiom: map (2-D, float -> uchar) */
    for (j = 0; j < W; j++)
      mask[i][j] = img[i][j] > t ? 255 : 0;
}

/* Threshold into a flat int image. */
static void threshold_int(int *out, const float *in, int h, int w, float t)
{
  int i, j;
  for (i = 0; i < h; i++) /* idiom: map (2-D, flat, float -> int) */
    for (j = 0; j < w; j++)
      out[i * w + j] = in[i * w + j] >= t ? 1 : 0;
}

/* 4-neighbour average on the interior; borders copied. */
static void smooth4(void)
{
  int i, j;
  for (i = 0; i < H; i++) /* idiom: map (2-D, copy) */
    for (j = 0; j < W; j++)
      blur[i][j] = img[i][j];
  for (i = 1; i < H - 1; i++) /* idiom: map (2-D stencil) */
    for (j = 1; j < W - 1; j++)
      blur[i][j] = 0.25f * ((img[i - 1][j] + img[i + 1][j]) +
                            (img[i][j - 1] + img[i][j + 1]));
}

/* Gamma 2 on a flat buffer: 1-D map over h*w pixels. */
static void gamma2(float *out, const float *in, long npix)
{
  long k;
  for (k = 0; k < npix; k++) /* idiom: map (1-D, flat) */
    out[k] = in[k] * in[k];
}

static double checksum(const float *a, long npix)
{
  double s = 0.0;
  long k;
  for (k = 0; k < npix; k++) /* idiom: reduction (sum) */
    s += a[k];
  return s;
}

static long count_mask(const unsigned char *m, long npix)
{
  long c = 0, k;
  for (k = 0; k < npix; k++) /* idiom: reduction (count of nonzero uchar) */
    c += m[k] != 0;
  return c;
}

static long sum_int(const int *a, int h, int w)
{
  long s = 0;
  int i, j;
  for (i = 0; i < h; i++) /* idiom: reduction (2-D int sum) */
    for (j = 0; j < w; j++)
      s += a[i * w + j];
  return s;
}

static float max_pixel(const float *a, long npix)
{
  float m = -1.0f;
  long k;
  for (k = 0; k < npix; k++) /* idiom: reduction (max via fmaxf) */
    m = fmaxf(m, a[k]);
  return m;
}

/* First pixel brighter than t; returns from inside the loop nest. */
static long first_bright(const float *a, int h, int w, float t)
{
  int i, j;
  for (i = 0; i < h; i++) /* not-idiom: early exit (return) */
    for (j = 0; j < w; j++)
      if (a[i * w + j] > t)
        return (long)i * w + j;
  return -1;
}

__attribute__((noinline)) static void note_saturated(long k, float v)
{
  saturated_events++;
  if ((k & ((1L << 19) - 1)) == 0)
    printf("trace %ld %.10e\n", k, (double)v);
}

/* Counts saturated pixels through a call with side effects (printf and a
 * global counter). */
static void scan_saturated(const float *a, long npix)
{
  long k;
  for (k = 0; k < npix; k++) /* not-idiom: side effect (call, printf) */
    if (a[k] >= 1.0f || (k & ((1L << 19) - 1)) == 0)
      note_saturated(k, a[k]);
}

/* One-dimensional error diffusion along the whole image: the error carried
 * from pixel to pixel is a recurrence. */
static long dither(unsigned char *out, const float *in, long npix)
{
  float err = 0.0f;
  long k, ones = 0;
  for (k = 0; k < npix; k++) { /* not-idiom: recurrence (carried error) */
    float e = in[k] + err;
    unsigned char o = e >= 0.5f;
    out[k] = o;
    ones += o;
    err = e - (float)o;
  }
  return ones;
}

int main(void)
{
  int h = H, w = W;
  long npix = (long)H * W;
  float *flat_out = malloc(sizeof(float) * (size_t)npix);
  int *tmask = malloc(sizeof(int) * (size_t)npix);
  unsigned char *dith = malloc((size_t)npix);
  const char *env_w = getenv("IMAGE_WIDTH_DIVISOR"); /* keeps w opaque */

  if (!flat_out || !tmask || !dith)
    return 1;
  if (env_w && atoi(env_w) > 1) {
    w = W / atoi(env_w);
    h = (int)(npix / w);
  }

  gen_image(img, H);
  printf("n %ld\n", npix);
  printf("img_sum %.10e\n", checksum(&img[0][0], npix));

  brightness_contrast(1.5f, -0.25f);
  printf("adj_sum %.10e\n", checksum(&adj[0][0], npix));
  printf("adj_max %.10e\n", (double)max_pixel(&adj[0][0], npix));

  adjust_flat(flat_out, &img[0][0], h, w, 1.25f, 0.125f);
  printf("flat_sum %.10e\n", checksum(flat_out, npix));
  printf("flat_px %.10e\n", (double)flat_out[npix / 3]);

  threshold(0.5f);
  printf("mask_count %ld\n", count_mask(&mask[0][0], npix));
  threshold_int(tmask, flat_out, h, w, 0.75f);
  printf("tmask_count %ld\n", sum_int(tmask, h, w));

  smooth4();
  printf("blur_sum %.10e\n", checksum(&blur[0][0], npix));
  printf("blur_px %.10e\n", (double)blur[H / 2][W / 2]);

  gamma2(flat_out, &blur[0][0], npix);
  printf("gamma_sum %.10e\n", checksum(flat_out, npix));

  /* Negatives. */
  printf("first_bright %ld\n", first_bright(&img[0][0], h, w, 0.99f));
  scan_saturated(&adj[0][0], npix);
  printf("saturated_events %ld\n", saturated_events);
  printf("dither_ones %ld\n", dither(dith, &img[0][0], npix));
  printf("dither_mid %d\n", (int)dith[npix / 2]);

  free(flat_out);
  free(tmask);
  free(dith);
  return 0;
}
