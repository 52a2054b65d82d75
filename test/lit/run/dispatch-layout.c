// The dispatch path of each site outlined (-idiom-dispatch-layout=outline,
// passes/DispatchOutline.h) or weighted unlikely in place, run on PoCL: a
// double dot product (exact sums; its result comes back through the outlined function;
// a sum that overflows makes the stitched code run the loop again: the
// redo path), a map of sqrt behind its errno check (the check's idiom_run
// and the map's in one outlined function; a negative argument raises the
// flag and the loop runs), and a host hint path (the cost model on: every
// call of the small map stays on the host). Every build prints what the
// sequential build prints, forced on the device, under the cost model and
// with IDIOM_DEVICE=seq; the stats show the device runs and fallbacks.
// RUN: %clang -O2 %s -lm -o %t.seq
// RUN: %t.seq > %t.expected
// RUN: %clang-idiom -fplugin=%plugin -mllvm -idiom-dispatch-layout=outline -g %s -lm -lidiomrt -o %t.outline
// RUN: %clang-idiom -fplugin=%plugin -mllvm -idiom-dispatch-layout=unlikely -g %s -lm -lidiomrt -o %t.unlikely
// RUN: env IDIOM_COST=off IDIOM_MIN_TRIP=0 IDIOM_STATS=1 %t.outline > %t.out1 2> %t.stats1
// RUN: diff %t.expected %t.out1
// RUN: FileCheck %s < %t.stats1
// RUN: env IDIOM_COST=off IDIOM_MIN_TRIP=0 IDIOM_STATS=1 %t.unlikely > %t.out2 2> %t.stats2
// RUN: diff %t.expected %t.out2
// RUN: FileCheck %s < %t.stats2
// RUN: env IDIOM_STATS=1 %t.outline > %t.out3 2> %t.stats3
// RUN: diff %t.expected %t.out3
// RUN: FileCheck %s --check-prefix=AUTO < %t.stats3
// RUN: env IDIOM_DEVICE=seq %t.outline > %t.out4
// RUN: diff %t.expected %t.out4
// RUN: env IDIOM_DEVICE=seq %t.unlikely > %t.out5
// RUN: diff %t.expected %t.out5
#include <errno.h>
#include <float.h>
#include <math.h>
#include <stdio.h>

#define N 8192
static double a[N], b[N], x[N], y[N];
static float s[4096], t[4096];

__attribute__((noinline)) static double dot(const double *u, const double *v, long n) {
  double acc = 0;
  // CHECK-DAG: idiom-stats: dispatch-layout.c:[[@LINE+1]] scalar-reduction calls=2 offloaded=2 {{.*}}fallbacks=0
  for (long i = 0; i < n; i++)
    acc += u[i] * v[i];
  return acc;
}

__attribute__((noinline)) static void roots(double *out, const double *in, long n) {
  // CHECK-DAG: idiom-stats: dispatch-layout.c:[[@LINE+2]] map calls=2 offloaded=1 {{.*}}fallbacks=1 {{.*}}reasons="a libm argument would set errno" x1
  // CHECK-DAG: idiom-stats: dispatch-layout.c:[[@LINE+1]] map-errno-check calls=2 offloaded=2 {{.*}}fallbacks=0
  for (long i = 0; i < n; i++)
    out[i] = sqrt(in[i]);
}

__attribute__((noinline)) static void scale(float *out, const float *in, int n) {
  // AUTO: idiom-stats: dispatch-layout.c:[[@LINE+1]] map calls=500 offloaded=0 {{.*}}host-hint x{{[0-9]+}}
  for (int i = 0; i < n; i++)
    out[i] = 2.0f * in[i] + 1.0f;
}

int main(void) {
  for (long i = 0; i < N; i++) {
    a[i] = (double)(i % 17) * 0.125;
    b[i] = 0.5; // exact partial sums: any order gives the loop's result
    x[i] = (double)i * 0.5;
  }
  printf("%.17g\n", dot(a, b, N));
  a[7] = DBL_MAX;
  b[7] = 4.0;
  printf("%.17g\n", dot(a, b, N)); // overflows: the loop's own inf
  roots(y, x, N);
  printf("%.17g %.17g\n", y[5], y[N - 1]);
  x[100] = -1.0;
  errno = 0;
  roots(y, x, N);
  printf("%d %.17g %.17g\n", errno != 0, y[99], y[101]);
  for (int i = 0; i < 4096; i++)
    s[i] = (float)i;
  for (int r = 0; r < 500; r++)
    scale(t, s, 4096);
  printf("%.9g\n", t[4095]);
  return 0;
}
