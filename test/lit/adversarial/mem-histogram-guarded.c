// Guarded histograms on PoCL with every offload forced. A guarded bin update
// is a histogram by design, and a guarded read of arrays whose known size
// covers the loop cannot fault: both run on the device and print what the
// sequential build prints. The same guarded read through pointers of unknown
// extent is not offloaded.
// RUN: %clang -O2 %s -o %t.seq
// RUN: %clang-idiom -c %s -o /dev/null -Rpass=idiom-offload -Rpass-missed=idiom-offload 2> %t.remarks
// RUN: FileCheck %s --check-prefix=REMARK < %t.remarks
// RUN: %clang-idiom -g %s -lidiomrt -o %t.idiom
// RUN: %t.seq > %t.expected
// RUN: env IDIOM_MIN_TRIP=0 IDIOM_STATS=1 %t.idiom > %t.out 2> %t.stats
// RUN: diff %t.expected %t.out
// RUN: FileCheck %s --check-prefix=STATS < %t.stats
// RUN: grep -c "idiom-stats: mem-histogram-guarded.c" %t.stats | FileCheck %s --check-prefix=NSTATS
#include <stdio.h>

#define NK 100000
#define NOINLINE __attribute__((noinline))

unsigned char keys[NK];
int mask[NK];
int hist[256], bins[256], hist_ptr[256];

NOINLINE void masked_known(void) {
  // REMARK-DAG: mem-histogram-guarded.c:[[@LINE+2]]:3: remark: offloaded histogram
  // STATS-DAG: idiom-stats: mem-histogram-guarded.c:[[@LINE+1]] histogram calls=1 offloaded=1 {{.*}}fallbacks=0
  for (int i = 0; i < NK; i++)
    if (mask[i])
      hist[keys[i]]++;
}

NOINLINE void guarded_bins(void) {
  // REMARK-DAG: mem-histogram-guarded.c:[[@LINE+2]]:3: remark: offloaded histogram
  // STATS-DAG: idiom-stats: mem-histogram-guarded.c:[[@LINE+1]] histogram calls=1 offloaded=1 {{.*}}fallbacks=0
  for (int i = 0; i < NK; i++)
    if (keys[i] < 100)
      bins[keys[i]] += 3;
}

NOINLINE void masked_pointer(const unsigned char *k, const int *m, int n) {
  // REMARK-DAG: mem-histogram-guarded.c:[[@LINE+1]]:3: remark: {{.*}}load executes only under a condition
  for (int i = 0; i < n; i++)
    if (m[i])
      hist_ptr[k[i]]++;
}
// NSTATS: {{^}}2{{$}}

static unsigned hash(const void *p, unsigned long bytes) {
  const unsigned char *b = p;
  unsigned h = 2166136261u;
  for (unsigned long i = 0; i < bytes; i++)
    h = (h ^ b[i]) * 16777619u;
  return h;
}

int main(void) {
  unsigned s = 3;
  for (int i = 0; i < NK; i++) {
    s = s * 1103515245u + 12345u;
    keys[i] = (unsigned char)(s >> 16);
    mask[i] = (s >> 7) % 5 == 0;
  }
  masked_known();
  guarded_bins();
  masked_pointer(keys, mask, NK);
  printf("hist %08x bins %08x hist_ptr %08x\n", hash(hist, sizeof hist),
         hash(bins, sizeof bins), hash(hist_ptr, sizeof hist_ptr));
  printf("hist[7] %d bins[7] %d\n", hist[7], bins[7]);
  return 0;
}
