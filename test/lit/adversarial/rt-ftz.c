// Issue 10, item 6: a host that flushes subnormals (MXCSR FTZ/DAZ, as
// crtfastmath.o sets them under -ffast-math) computes 0 where the device
// keeps a subnormal: a float map declines ("host flushes subnormals") while
// FTZ or DAZ is set, and offloads when neither is. Integer maps still
// offload. The second build links with -ffast-math (crtfastmath.o sets FTZ
// and DAZ at start-up) and must print what its sequential build prints.
// RUN: %clang -O2 %s -o %t.seq
// RUN: %clang-idiom %s -lidiomrt -o %t.idiom
// RUN: %t.seq > %t.expected
// RUN: env IDIOM_MIN_TRIP=0 IDIOM_STATS=1 %t.idiom > %t.out 2> %t.stats
// RUN: diff %t.expected %t.out
// RUN: FileCheck %s < %t.stats
// RUN: %clang -O2 -ffast-math %s -o %t.fm.seq
// RUN: %clang-idiom -ffast-math %s -lidiomrt -o %t.fm.idiom
// RUN: %t.fm.seq > %t.fm.expected
// RUN: env IDIOM_MIN_TRIP=0 IDIOM_STATS=1 %t.fm.idiom > %t.fm.out 2> %t.fm.stats
// RUN: diff %t.fm.expected %t.fm.out
// RUN: FileCheck %s --check-prefix=FASTMATH < %t.fm.stats
// CHECK-DAG: idiom-stats: rt-ftz.c:tiny map calls=3 offloaded=1 {{.*}}reasons="host flushes subnormals (MXCSR.FTZ)" x1; "host flushes subnormals (MXCSR.DAZ)" x1
// CHECK-DAG: idiom-stats: rt-ftz.c:twice map calls=3 offloaded=3 {{.*}}fallbacks=0
// FASTMATH-DAG: idiom-stats: rt-ftz.c:tiny map calls=3 offloaded=0 {{.*}}reasons="host flushes subnormals (MXCSR.FTZ)" x3
// FASTMATH-DAG: idiom-stats: rt-ftz.c:twice map calls=3 offloaded=3 {{.*}}fallbacks=0
#include <stdio.h>
#include <xmmintrin.h>

#define N 8192
static float x[N], y[N];
static int a[N], b[N];

__attribute__((noinline)) void tiny(float *o, const float *in) {
  for (int i = 0; i < N; i++)
    o[i] = in[i] * 1e-30f;
}

__attribute__((noinline)) void twice(int *o, const int *in) {
  for (int i = 0; i < N; i++)
    o[i] = in[i] * 2 + 1;
}

static void report(const char *what) {
  int zeros = 0;
  double s = 0;
  for (int i = 0; i < N; i++) {
    zeros += y[i] == 0.0f;
    s += (double)y[i] * 1e30 + b[i];
  }
  printf("%-6s zeros=%d sum=%.6g\n", what, zeros, s);
}

int main(void) {
  for (int i = 0; i < N; i++) {
    x[i] = (float)(i % 1000 + 1) * 1e-12f; // products are subnormal
    a[i] = i;
  }
  unsigned csr = _mm_getcsr();
  static const unsigned bits[] = {0x8000u, 0x0040u, 0u}; // FTZ, DAZ, none
  static const char *names[] = {"ftz", "daz", "plain"};
  for (int k = 0; k < 3; k++) {
    // Under -ffast-math crtfastmath.o already set FTZ and DAZ: keep them.
    _mm_setcsr((csr & ~0x8040u) | bits[k] | (csr & 0x8040u));
    tiny(y, x);
    twice(b, a);
    _mm_setcsr(csr);
    report(names[k]);
  }
  return 0;
}
