/* The bicg nest's check of run/gemv-pair-variants.c (the pair's two
   kernels): random m x n matrices of 1 x 1, 3 x 3, 1000 x 77 and
   77 x 1000, q and s of the including file's bicg (noinline, the plugin's) against a reference in
   double (optnone, which the plugin does not see) within the bound of a
   reassociated sum of L terms, 2 gamma(L + 2) sum |t| + 2u |ref|; prints
   "ok" per product and size. */
#ifndef IDIOM_TEST_BICG_CHECK_H
#define IDIOM_TEST_BICG_CHECK_H
#include <math.h>
#include <stdio.h>
#include <string.h>

#define MAXE 77000

static float fa[MAXE], fp[1000], fr[1000], fq[1000], fs[1000], fqr[1000], fsr[1000];

static unsigned long long seed = 11;
static unsigned next(void) {
  seed = seed * 6364136223846793005ULL + 1442695040888963407ULL;
  return (unsigned)(seed >> 33);
}

void bicg(int m, int n, const float *a, float *s, float *q);

// References in double: the plugin does not run on optnone functions.
__attribute__((noinline, optnone)) static void reference(int m, int n) {
  for (int i = 0; i < m; i++) {
    double t = 0;
    for (int j = 0; j < n; j++)
      t += (double)fa[i * n + j] * fp[j];
    fqr[i] = (float)t;
  }
  for (int j = 0; j < n; j++) {
    double t = fsr[j];
    for (int i = 0; i < m; i++)
      t += (double)fa[i * n + j] * fr[i];
    fsr[j] = (float)t;
  }
}

/// |got - want| within 2 gamma(L + 2) sum |t| + 2u |want| for the L terms
/// t of each output (the initial value one of them).
static int within(const float *got, const float *want, const float *init,
                  const float *v, int outs, int len, int stride, int step) {
  const double u = 0x1p-24;
  for (int o = 0; o < outs; o++) {
    double abs_sum = init ? fabs(init[o]) : 0;
    for (int k = 0; k < len; k++)
      abs_sum += fabs((double)fa[o * stride + k * step] * v[k]);
    double g = (len + 2) * u / (1 - (len + 2) * u);
    if (!(fabs((double)got[o] - want[o]) <= 2 * g * abs_sum + 2 * u * fabs(want[o]))) {
      printf("output %d: %a vs %a\n", o, got[o], want[o]);
      return 0;
    }
  }
  return 1;
}

int main(void) {
  static const int sizes[][2] = {{1, 1}, {3, 3}, {1000, 77}, {77, 1000}};
  for (int c = 0; c < 4; c++) {
    int m = sizes[c][0], n = sizes[c][1];
    for (int k = 0; k < m * n; k++)
      fa[k] = (float)((int)(next() % 2001) - 1000) / 256.0f;
    for (int k = 0; k < 1000; k++) {
      fp[k] = (float)((int)(next() % 4001) - 2000) / 64.0f;
      fr[k] = (float)((int)(next() % 4001) - 2000) / 64.0f;
      fs[k] = fsr[k] = (float)((int)(next() % 100)) / 8.0f;
    }
    float s0[1000];
    memcpy(s0, fs, sizeof s0);
    bicg(m, n, fa, fs, fq);
    reference(m, n);
    printf("%d x %d: q %s, s %s\n", m, n,
           within(fq, fqr, 0, fp, m, n, n, 1) ? "ok" : "beyond the bound",
           within(fs, fsr, s0, fr, n, m, 1, n) ? "ok" : "beyond the bound");
  }
  return 0;
}
#endif
