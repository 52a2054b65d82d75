// Guarded loads must not read what the loop does not read. Each input ends
// at a PROT_NONE page and the loops run past its end, reading it only where
// a guard holds. The plain build runs; the plugin build, with every offload
// forced, must not fault: these loops are not offloaded (remarks), and the
// one whose reads stay inside the object is.
// RUN: %clang -O2 %s -o %t.seq
// RUN: %clang-idiom -c %s -o /dev/null -Rpass=idiom-offload -Rpass-missed=idiom-offload -Rpass-analysis=idiom-offload 2> %t.remarks
// RUN: FileCheck %s --check-prefix=REMARK < %t.remarks
// RUN: %clang-idiom -g %s -lidiomrt -o %t.idiom
// RUN: %t.seq > %t.expected
// RUN: env IDIOM_MIN_TRIP=0 IDIOM_STATS=1 %t.idiom > %t.out 2> %t.stats
// RUN: diff %t.expected %t.out
// RUN: FileCheck %s --check-prefix=STATS < %t.stats
// RUN: grep -c "idiom-stats: mem-guard-page.c" %t.stats | FileCheck %s --check-prefix=NSTATS
#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <unistd.h>

#define NOINLINE __attribute__((noinline))

// [p, p + bytes) ends exactly where a PROT_NONE page starts.
static void *guarded(size_t bytes) {
  size_t pg = (size_t)sysconf(_SC_PAGESIZE);
  size_t span = (bytes + pg - 1) / pg * pg;
  char *base = mmap(NULL, span + pg, PROT_READ | PROT_WRITE,
                    MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (base == MAP_FAILED || mprotect(base + span, pg, PROT_NONE)) {
    perror("mmap");
    exit(1);
  }
  return base + span - bytes;
}

NOINLINE void masked_copy(float *o, const float *x, const int *m, int n) {
  // REMARK-DAG: mem-guard-page.c:[[@LINE+1]]:3: remark: {{.*}}executes only under a condition
  for (int i = 0; i < n; i++)
    if (m[i])
      o[i] = x[i];
}

NOINLINE double masked_sum(const double *x, const int *m, int n) {
  double s = 0;
  // REMARK-DAG: mem-guard-page.c:[[@LINE+1]]:3: remark: loop is not an idiom
  for (int i = 0; i < n; i++)
    if (m[i])
      s += x[i];
  return s;
}

static int hist[256];
NOINLINE void masked_histogram(const unsigned char *k, const int *m, int n) {
  // REMARK-DAG: mem-guard-page.c:[[@LINE+1]]:3: remark: {{.*}}load executes only under a condition: the device would read elements the loop does not read
  for (int i = 0; i < n; i++)
    if (m[i])
      hist[k[i]]++;
}

// Skips its first and last point: in[n] is never read.
NOINLINE void smooth_inner(float *out, const float *in, int n) {
  // REMARK-DAG: mem-guard-page.c:[[@LINE+1]]:3: remark: {{.*}}{{executes only under a condition|detected idiom stencil}}
  for (int i = 0; i < n; i++) {
    if (i == 0 || i == n - 1)
      continue;
    out[i] = (in[i - 1] + in[i] + in[i + 1]) / 3.0f;
  }
}

// Reads stay inside x: offloaded, and the runtime copies only [x, x + n).
NOINLINE double clamp_sum(const float *x, int n) {
  double s = 0;
  // REMARK-DAG: mem-guard-page.c:[[@LINE+2]]:3: remark: offloaded scalar reduction
  // STATS-DAG: idiom-stats: mem-guard-page.c:[[@LINE+1]] scalar-reduction calls=1 offloaded=1
  for (int i = 0; i < n; i++)
    s += x[i] > 0.5f ? x[i] : 0.5;
  return s;
}
// NSTATS: {{^}}1{{$}}

// FNV-1a over the bytes: a recurrence, never offloaded.
static unsigned hash(const void *p, size_t bytes) {
  const unsigned char *b = p;
  unsigned h = 2166136261u;
  for (size_t i = 0; i < bytes; i++)
    h = (h ^ b[i]) * 16777619u;
  return h;
}

int main(void) {
  enum { NX = 5000, N = 15000 };
  float *x = guarded(NX * sizeof(float));
  double *xd = guarded(NX * sizeof(double));
  unsigned char *k = guarded(NX);
  float *in = guarded(NX * sizeof(float));
  float *o = malloc(N * sizeof(float)), *out = malloc(NX * sizeof(float));
  int *m = malloc(N * sizeof(int));
  unsigned s = 7;
  for (int i = 0; i < N; i++) {
    s = s * 1103515245u + 12345u;
    m[i] = i < NX && (s >> 5) % 3 != 0;
    o[i] = -1.0f;
    if (i < NX) {
      x[i] = (float)((s >> 9) % 1000) / 8.0f;
      xd[i] = x[i];
      k[i] = (unsigned char)(s >> 13);
      in[i] = x[i] * 3.0f;
      out[i] = 0.0f;
    }
  }
  masked_copy(o, x, m, N);
  printf("masked_copy %08x\n", hash(o, N * sizeof(float)));
  printf("masked_sum %.9g\n", masked_sum(xd, m, N));
  masked_histogram(k, m, N);
  printf("masked_histogram %08x\n", hash(hist, sizeof hist));
  smooth_inner(out, in, NX);
  printf("smooth_inner %08x\n", hash(out, NX * sizeof(float)));
  printf("clamp_sum %.9g\n", clamp_sum(x, NX));
  return 0;
}
