// Issue 13 benchmark: GEMV y = A x (a row per output, A row-major) and
// GEMV^T s = A^T r (i outer, s[j] updated in the inner loop, PolyBench
// bicg's form) on an n x n float matrix, as legacy code writes them, and
// both fused in one nest (PolyBench bicg's kernel: a GEMV pair), each
// called REPS times. Usage: gemv_bench [n] [reps] (default 8192, 20) prints
// a bit-exact hash of y, s and the pair's q and s (equal to the sequential
// build's when every element is summed in the loop's order, as the in-order
// variants do), then "check GEMV ok GEMV^T ok pair ok" when 64 sampled
// outputs of each product are
// within the bound of a reassociated sum of n terms, 2 gamma(n + 2) sum |t|
// (Higham, section 4.2), of a double reference (the row-lanes variants
// reassociate; s is checked against A^T of the y the run computed). `gemv_bench copy [MiB]` instead times memcpy of a
// MiB-sized block (default 512) and prints "host_copy_gbps X" (bytes read
// plus written per second, best of 5): the bandwidth reference for a CPU
// OpenCL device such as PoCL (bench/gemv_gpu.py).
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

__attribute__((noinline)) static void gemv(long n, const float *a,
                                           const float *x, float *y) {
  for (long i = 0; i < n; i++) {
    float sum = 0;
    for (long j = 0; j < n; j++)
      sum += a[i * n + j] * x[j];
    y[i] = sum;
  }
}

__attribute__((noinline)) static void gemv_t(long n, const float *a,
                                             const float *r, float *s) {
  for (long i = 0; i < n; i++)
    for (long j = 0; j < n; j++)
      s[j] += a[i * n + j] * r[i];
}

/// PolyBench bicg's fused nest: q = A p and s = A^T r in one i/j nest, a
/// GEMV pair (two kernels of one idiom_run_pair call, both or neither).
__attribute__((noinline)) static void bicg(long n, const float *a,
                                           const float *p, const float *r,
                                           float *q, float *s) {
  for (long i = 0; i < n; i++) {
    q[i] = 0;
    for (long j = 0; j < n; j++) {
      s[j] = s[j] + r[i] * a[i * n + j];
      q[i] = q[i] + a[i * n + j] * p[j];
    }
  }
}

/// 1 when \p got is within the bound of a reassociated float sum of the n
/// terms a[o*ro + k*rk] * v[k] (an optnone function: the plugin leaves it).
__attribute__((noinline, optnone)) static int within(long n, const float *a, long ro,
                                                     long rk, const float *v, long o,
                                                     float got) {
  double t = 0, abs_sum = 0, u = 0x1p-24, g = (n + 2) * u / (1 - (n + 2) * u);
  for (long k = 0; k < n; k++) {
    double p = (double)a[o * ro + k * rk] * v[k];
    t += p;
    abs_sum += p < 0 ? -p : p;
  }
  double d = got - t;
  return (d < 0 ? -d : d) <= 2 * g * abs_sum + 2 * u * (t < 0 ? -t : t);
}

static double now(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return t.tv_sec + 1e-9 * t.tv_nsec;
}

static int copy_bandwidth(long mib) {
  size_t bytes = (size_t)mib << 20;
  char *src = malloc(bytes), *dst = malloc(bytes);
  if (!src || !dst)
    return 1;
  memset(src, 1, bytes);
  memset(dst, 2, bytes);
  double best = 1e30;
  for (int k = 0; k < 5; k++) {
    double t = now();
    memcpy(dst, src, bytes);
    __asm__ volatile("" : : "r"(dst), "r"(src) : "memory");
    t = now() - t;
    if (t < best)
      best = t;
  }
  printf("host_copy_gbps %.1f (check %d)\n", 2.0 * bytes / best / 1e9,
         dst[bytes / 2]);
  return 0;
}

static unsigned hash(const float *v, long n) {
  unsigned h = 2166136261u;
  for (long i = 0; i < n; i++) {
    unsigned b;
    memcpy(&b, &v[i], sizeof b);
    h = (h ^ b) * 16777619u;
  }
  return h;
}

int main(int argc, char **argv) {
  if (argc > 1 && !strcmp(argv[1], "copy"))
    return copy_bandwidth(argc > 2 ? atol(argv[2]) : 512);
  long n = argc > 1 ? atol(argv[1]) : 8192;
  int reps = argc > 2 ? atoi(argv[2]) : 20;
  float *a = malloc(sizeof(float) * n * n), *x = malloc(sizeof(float) * n);
  float *y = malloc(sizeof(float) * n), *s = malloc(sizeof(float) * n);
  float *q = malloc(sizeof(float) * n), *s2 = malloc(sizeof(float) * n);
  if (!a || !x || !y || !s || !q || !s2)
    return 1;
  unsigned st = 12345u;
  for (long k = 0; k < n * n; k++) {
    st = st * 1103515245u + 12345u;
    a[k] = (float)((st >> 8) & 0xffff) / 65536.0f - 0.5f;
  }
  for (long k = 0; k < n; k++)
    x[k] = (float)(k % 97) * 0.01f - 0.3f;
  for (int r = 0; r < reps; r++) {
    memset(s, 0, sizeof(float) * n);
    gemv(n, a, x, y);
    gemv_t(n, a, y, s);
    memset(s2, 0, sizeof(float) * n);
    bicg(n, a, x, y, q, s2);
  }
  printf("n %ld reps %d y %08x s %08x q %08x s2 %08x\n", n, reps, hash(y, n),
         hash(s, n), hash(q, n), hash(s2, n));
  int oky = 1, oks = 1, okp = 1;
  for (long k = 0; k < 64; k++) {
    long o = k * n / 64;
    oky &= within(n, a, n, 1, x, o, y[o]);
    oks &= within(n, a, 1, n, y, o, s[o]);
    okp &= within(n, a, n, 1, x, o, q[o]) && within(n, a, 1, n, y, o, s2[o]);
  }
  printf("check GEMV %s GEMV^T %s pair %s\n", oky ? "ok" : "BEYOND-BOUND",
         oks ? "ok" : "BEYOND-BOUND", okp ? "ok" : "BEYOND-BOUND");
  return 0;
}
