// A Monte-Carlo loop with sqrt and log, as legacy codes write it (clang's
// default -fmath-errno): sums of sqrt(1 - u^2) and log(u) (a quarter circle
// and the mean of an exponential variate) and a tally by bin of sqrt(u),
// offloaded with their errno checks on PoCL. A second batch with a sample
// outside (0, 1) makes log and sqrt set errno on the host: the checks send
// those calls to the original loops, and the program prints the same errno
// and results as its sequential build.
// RUN: %clang -O2 %s -lm -o %t.seq
// RUN: %clang-idiom %s -lm -lidiomrt -Rpass=idiom-offload -Rpass-analysis=idiom-offload -Rpass-missed=idiom-offload -o %t.idiom 2> %t.remarks
// RUN: FileCheck %s --check-prefix=REMARK < %t.remarks
// RUN: %t.seq > %t.expected
// RUN: env IDIOM_COST=off IDIOM_MIN_TRIP=0 IDIOM_STATS=1 %t.idiom > %t.out 2> %t.stats
// RUN: diff %t.expected %t.out
// RUN: FileCheck %s --check-prefix=STATS < %t.stats
#include <errno.h>
#include <math.h>
#include <stdio.h>

#define N (1 << 16)
static double u[N];
static int bins[64];

// REMARK-DAG: libm-montecarlo.c:[[@LINE+4]]:3: remark: offloaded scalar reduction (scalar-reduction) to OpenCL as {{.*}} with 2 accumulator(s): fadd fadd
// REMARK-DAG: libm-montecarlo.c:[[@LINE+3]]:3: remark: calls log, sqrt, which may set errno
__attribute__((noinline)) static void sums(const double *x, int n, double *area, double *mean) {
  double s = 0, l = 0;
  for (int i = 0; i < n; i++) {
    s += sqrt(1.0 - x[i] * x[i]);
    l += log(x[i]);
  }
  *area = s;
  *mean = -l;
}

// REMARK-DAG: libm-montecarlo.c:[[@LINE+3]]:3: remark: offloaded histogram (histogram) to OpenCL
// REMARK-DAG: libm-montecarlo.c:[[@LINE+2]]:3: remark: calls sqrt, which may set errno
__attribute__((noinline)) static void tally(const double *x, int n) {
  for (int i = 0; i < n; i++)
    bins[(int)(sqrt(x[i]) * 64.0) & 63]++;
}

// A linear congruential generator in (0, 1).
static void draw(unsigned seed) {
  for (int i = 0; i < N; i++) {
    seed = seed * 1103515245u + 12345u;
    u[i] = ((seed >> 8) + 0.5) / 16777216.0;
  }
}

static void batch(const char *name) {
  double area, mean;
  for (int b = 0; b < 64; b++)
    bins[b] = 0;
  errno = 0;
  sums(u, N, &area, &mean);
  int e1 = errno;
  errno = 0;
  tally(u, N);
  int e2 = errno;
  long chk = 0;
  for (int b = 0; b < 64; b++)
    chk += (long)(b + 1) * bins[b];
  printf("%s: pi ~ %.7f, mean ~ %.7f, errno %d %d, bins %d %d %d, checksum %ld\n",
         name, 4 * area / N, mean / N, e1, e2, bins[0], bins[31], bins[63], chk);
}

int main(void) {
  draw(12345u);
  batch("clean");
  draw(777u);
  u[N / 3] = -0.25; // a bad sample: log(-0.25) and sqrt(-0.25) set EDOM
  batch("bad sample");
  draw(4242u);
  u[N - 1] = 0.0; // log(0): a pole error (ERANGE), sqrt(0) is fine
  batch("zero sample");
  return 0;
}

// The clean batch runs on the device, the others fall back.
// STATS-DAG: idiom-stats: libm-montecarlo.c:{{[0-9]+}} scalar-reduction calls=3 offloaded=1 {{.*}}fallbacks=2 {{.*}}reasons="a libm argument would set errno" x2
// STATS-DAG: idiom-stats: libm-montecarlo.c:{{[0-9]+}} histogram calls=3 offloaded=2 {{.*}}fallbacks=1 {{.*}}reasons="a libm argument would set errno" x1
// STATS-DAG: idiom-stats: libm-montecarlo.c:{{[0-9]+}} scalar-reduction-errno-check calls=3 offloaded=3
// STATS-DAG: idiom-stats: libm-montecarlo.c:{{[0-9]+}} histogram-errno-check calls=3 offloaded=3
