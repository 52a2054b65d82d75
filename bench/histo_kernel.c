// Issue 14 benchmark: a histogram as legacy code writes it, count[key[i]]++
// (or the weighted h[key[i]] += w[i]), called REPS times on one key array
// into bins that are static arrays of 256 or 4096 unsigned ints (keys and
// weights from bench/histo_data.h). Built with the Idiom plugin, each call
// is a histogram offload; bench/histo_gpu.sh compares its kernel time with
// the hand-written privatised kernel of bench/histo_hand.c on the same data.
// Usage: histo_kernel [log2 n] [256|4096] [uniform|skewed] [count|weighted]
// [reps] (default 2^24 keys, 256 bins, uniform, count, 10 calls). The bins
// accumulate over the calls; prints a checksum of the bins and a few bins.
#include "histo_data.h"


static unsigned bins256[256];
static unsigned bins4096[4096];

__attribute__((noinline)) static void count256(const unsigned char *key, long n) {
  for (long i = 0; i < n; i++)
    bins256[key[i]]++;
}

__attribute__((noinline)) static void count4096(const unsigned short *key, long n) {
  for (long i = 0; i < n; i++)
    bins4096[key[i] >> 4]++;
}

__attribute__((noinline)) static void weighted256(const unsigned char *key,
                                                  const unsigned *w, long n) {
  for (long i = 0; i < n; i++)
    bins256[key[i]] += w[i];
}

__attribute__((noinline)) static void weighted4096(const unsigned short *key,
                                                   const unsigned *w, long n) {
  for (long i = 0; i < n; i++)
    bins4096[key[i] >> 4] += w[i];
}

int main(int argc, char **argv) {
  struct histo_opts o;
  if (!histo_parse(argc, argv, 10, &o))
    return 2;
  int bins = o.bins, weighted = o.weighted, skewed = o.skewed, reps = o.reps;
  long n = 1L << o.lg;
  void *key = malloc((size_t)n * (bins == 256 ? 1 : 2));
  unsigned *w = weighted ? malloc(sizeof(unsigned) * (size_t)n) : NULL;
  if (!key || (weighted && !w))
    return 1;
  histo_fill(key, w, bins, skewed, n);
  for (int r = 0; r < reps; r++) {
    if (bins == 256 && !weighted)
      count256(key, n);
    else if (bins == 256)
      weighted256(key, w, n);
    else if (!weighted)
      count4096(key, n);
    else
      weighted4096(key, w, n);
  }
  const unsigned *h = bins == 256 ? bins256 : bins4096;
  unsigned long long c = 0;
  for (int b = 0; b < bins; b++)
    c += (unsigned long long)h[b] * (unsigned long long)(b + 1);
  printf("n %ld bins %d %s %s reps %d checksum %llu [0]=%u [1]=%u [%d]=%u\n", n, bins,
         skewed ? "skewed" : "uniform", weighted ? "weighted" : "count", reps, c, h[0],
         h[1], bins - 1, h[bins - 1]);
  return 0;
}
