/*
 * histo.c - histograms after Parboil "histo" and NAS "IS":
 *   - a saturating histogram of an image into unsigned char bins (Parboil
 *     histo: `if (histo[v] < UINT8_MAX) ++histo[v];`), the image values
 *     bell-shaped so that the central bins saturate and the tails do not;
 *   - the key histogram of NPB IS's rank step (`key_buff[key[i]]++`), then
 *     the prefix sum (sequential) and rank checks;
 *   - a byte histogram of the image's low bits (index range from the type)
 *     and a weighted one with 64-bit bins.
 * The bins are global arrays, so the bin counts are known at compile time.
 *
 * Loops carry a trailing marker comment on their `for` line:
 *   idiom: histogram | reduction | map  -- expected to be offloaded
 *   not-idiom: REASON                   -- must stay sequential
 * Output: "n N" first, then "label value" lines (see compare.py); every
 * value is an integer, compared exactly.
 */
#include <stdint.h>
#include <stdio.h>

#define IMG_W 1024
#define IMG_H 2048
#define NPIX (IMG_W * IMG_H)
#define HISTO_BINS 4096
#define NKEYS (1 << 22)
#define MAX_KEY (1 << 16)

unsigned int img[NPIX];
unsigned char histo[HISTO_BINS];
int key_array[NKEYS];
int key_buff[MAX_KEY];
int key_start[MAX_KEY];
unsigned char low_bytes[NPIX];
int byte_hist[256];
long weighted[64];

static uint64_t lcg_state = 271828183ULL;

static double randlc(void)
{
  lcg_state = (1220703125ULL * lcg_state) & ((1ULL << 46) - 1);
  return (double)lcg_state * (1.0 / 70368744177664.0);
}

/* Image values: mean of four uniforms scaled to the bins (bell-shaped). */
static void make_image(unsigned int *im, int n)
{
  int i;
  for (i = 0; i < n; i++) { /* not-idiom: recurrence (LCG state) */
    double x = randlc() + randlc() + randlc() + randlc();
    im[i] = (unsigned int)(x * 0.25 * HISTO_BINS);
  }
}

static void make_keys(int *k, int n)
{
  int i;
  for (i = 0; i < n; i++) { /* not-idiom: recurrence (LCG state) */
    double x = randlc() + randlc() + randlc() + randlc();
    k[i] = (int)(x * 0.25 * MAX_KEY);
  }
}

/* Parboil histo: saturating unsigned char bins. */
static void histo_saturating(const unsigned int *im, int n)
{
  int i;
  for (i = 0; i < n; i++) { /* idiom: histogram (saturating u8 bins) */
    const unsigned int value = im[i];
    if (histo[value] < UINT8_MAX)
      ++histo[value];
  }
}

/* NPB IS rank step: key histogram, then the prefix sum of the counts. */
static void rank_keys(const int *k, int n)
{
  int i;
  for (i = 0; i < MAX_KEY; i++) /* idiom: map (fill, 65536 trips) */
    key_buff[i] = 0;
  for (i = 0; i < n; i++) /* idiom: histogram (key_buff[key[i]]++) */
    key_buff[k[i]]++;
  key_start[0] = 0;
  for (i = 1; i < MAX_KEY; i++) /* not-idiom: recurrence (prefix sum) */
    key_start[i] = key_start[i - 1] + key_buff[i - 1];
}

static void low_bits(unsigned char *b, const unsigned int *im, int n)
{
  int i;
  for (i = 0; i < n; i++) /* idiom: map (low byte) */
    b[i] = (unsigned char)(im[i] * 2654435761u >> 24);
}

static void byte_histogram(const unsigned char *b, int n)
{
  int i;
  for (i = 0; i < n; i++) /* idiom: histogram (byte index: 256 bins) */
    byte_hist[b[i]]++;
}

/* 64-bit bins: weights summed per bin k & 63. */
static void weighted_histogram(const int *k, const unsigned int *im, int n)
{
  int i;
  for (i = 0; i < n; i++) /* idiom: histogram (64-bit bins, masked index) */
    weighted[k[i] & 63] += (long)im[i] * 100003L - 200000000L;
}

int main(void)
{
  long i, sum = 0, sat = 0, empty = 0, check = 0, rank_ok = 1;
  make_image(img, NPIX);
  make_keys(key_array, NKEYS);
  histo[0] = 200; /* the bins' initial contents count */
  histo[HISTO_BINS / 2] = 255;
  histo_saturating(img, NPIX);
  rank_keys(key_array, NKEYS);
  low_bits(low_bytes, img, NPIX);
  byte_histogram(low_bytes, NPIX);
  weighted_histogram(key_array, img, NKEYS < NPIX ? NKEYS : NPIX);

  printf("n %d\n", NPIX);
  for (i = 0; i < HISTO_BINS; i++) {
    sum += histo[i];
    sat += histo[i] == 255;
    empty += histo[i] == 0;
    check += (long)histo[i] * (i % 97 + 1);
  }
  printf("histo_sum %ld\n", sum);
  printf("histo_saturated %ld\n", sat);
  printf("histo_empty %ld\n", empty);
  printf("histo_check %ld\n", check);
  printf("histo_0 %d\n", histo[0]);
  printf("histo_100 %d\n", histo[100]);
  printf("histo_300 %d\n", histo[300]);
  printf("histo_4000 %d\n", histo[4000]);
  check = 0;
  for (i = 0; i < MAX_KEY; i++)
    check += (long)key_buff[i] * (i % 101 + 1);
  printf("key_check %ld\n", check);
  printf("key_buff_mid %d\n", key_buff[MAX_KEY / 2]);
  printf("key_buff_1000 %d\n", key_buff[1000]);
  printf("key_start_last %d\n", key_start[MAX_KEY - 1]);
  for (i = 0; i < NKEYS; i += 4099) {
    int k = key_array[i];
    if (key_start[k] > (long)i + NKEYS || key_start[k] + key_buff[k] > NKEYS)
      rank_ok = 0;
  }
  printf("rank_ok %ld\n", rank_ok);
  check = 0;
  for (i = 0; i < 256; i++)
    check += (long)byte_hist[i] * (i + 1);
  printf("byte_check %ld\n", check);
  printf("byte_hist_7 %d\n", byte_hist[7]);
  check = 0;
  for (i = 0; i < 64; i++)
    check ^= weighted[i] + i;
  printf("weighted_check %ld\n", check);
  printf("weighted_5 %ld\n", weighted[5]);
  return 0;
}
