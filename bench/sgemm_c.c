/*===- sgemm_c.c - the naive C SGEMM loop, offloaded by the plugin ---------===*
 *
 * C = A * B for row-major M x K and K x N float matrices, written as the
 * naive triple loop (one dot product per element of C). Built with the
 * Idiom plugin (bench/build_sgemm_c_carry.sh), the loop is detected as a
 * GEMM, lifted to FunIL and run through the runtime; this program calls it
 * REPS times and prints, per call, the kernel time the runtime measured
 * (idiom_last_kernel_ms), the variant it ran (idiom_last_variant) and the
 * wall time; then TFLOP/s of the last call (2*M*N*K flops over its kernel
 * time), the time of all REPS calls end to end (from before the first call
 * to after the loop, so including the copy of C back to the host at the end
 * of the residency region that the plugin places around the loop: the
 * matrices stay on the device across the calls, docs/ARCHITECTURE.md,
 * "Residency") and a sampled error check: 256 elements of C against a
 * double-precision dot product on the host, |c - ref| <= 1e-4 * K *
 * max|a| * max|b| (the GEMM tolerance of the offload contract). The first
 * call may time the kernel variants (IDIOM_TUNE), so look at the last.
 *
 * Usage: sgemm_c [N | M N K] [REPS]   (default 4096^3, 3 repetitions)
 * Exit status 1 when the error check fails, 2 on bad arguments or no memory.
 *
 *===----------------------------------------------------------------------===*/
#include "idiomrt.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

/* The loop under test (offloaded as a GEMM). */
__attribute__((noinline)) void sgemm_naive(int M, int N, int K, const float *A,
                                           const float *B, float *C) {
  for (int i = 0; i < M; i++)
    for (int j = 0; j < N; j++) {
      float s = 0;
      for (int k = 0; k < K; k++)
        s += A[i * K + k] * B[k * N + j];
      C[i * N + j] = s;
    }
}

/* Reference element in double precision. optnone keeps the plugin (and the
 * optimiser) away from it, so it runs on the host as written. */
__attribute__((noinline, optnone)) static double
ref_element(int N, int K, const float *A, const float *B, int i, int j) {
  double s = 0;
  for (int k = 0; k < K; k++)
    s += (double)A[(long)i * K + k] * (double)B[(long)k * N + j];
  return s;
}

static unsigned state = 2463534242u;
__attribute__((optnone)) static void fill(float *x, long n) {
  for (long i = 0; i < n; i++) {
    state ^= state << 13;
    state ^= state >> 17;
    state ^= state << 5;
    x[i] = (float)(state & 0xffffff) / 8388608.0f - 1.0f; /* [-1, 1) */
  }
}

static double now_ms(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return t.tv_sec * 1e3 + t.tv_nsec * 1e-6;
}

int main(int argc, char **argv) {
  int M = 4096, N = 4096, K = 4096, reps = 3;
  if (argc == 2 || argc == 3) {
    M = N = K = atoi(argv[1]);
    if (argc == 3)
      reps = atoi(argv[2]);
  } else if (argc == 4 || argc == 5) {
    M = atoi(argv[1]);
    N = atoi(argv[2]);
    K = atoi(argv[3]);
    if (argc == 5)
      reps = atoi(argv[4]);
  } else if (argc != 1) {
    fprintf(stderr, "usage: %s [N | M N K] [REPS]\n", argv[0]);
    return 2;
  }
  if (M < 1 || N < 1 || K < 1 || reps < 1 || (long)M * K > 0x7fffffffL ||
      (long)K * N > 0x7fffffffL || (long)M * N > 0x7fffffffL) {
    fprintf(stderr, "sizes must be >= 1 with int indices, REPS >= 1\n");
    return 2;
  }
  float *A = malloc(sizeof(float) * (size_t)M * K);
  float *B = malloc(sizeof(float) * (size_t)K * N);
  float *C = malloc(sizeof(float) * (size_t)M * N);
  if (!A || !B || !C) {
    fprintf(stderr, "out of memory\n");
    return 2;
  }
  fill(A, (long)M * K);
  fill(B, (long)K * N);
  const char *dev = idiom_device_name();
  printf("sgemm_c: M=%d N=%d K=%d reps=%d device=\"%s\"\n", M, N, K, reps,
         dev ? dev : "(none: the loop runs on the host)");

  double kernel_ms = -1, wall_ms = 0, start_ms = now_ms();
  for (int r = 0; r < reps; r++) {
    double t0 = now_ms();
    sgemm_naive(M, N, K, A, B, C);
    wall_ms = now_ms() - t0;
    kernel_ms = idiom_last_kernel_ms();
    const char *why = idiom_last_reason();
    printf("call %d: wall_ms=%.3f kernel_ms=%.3f variant=%d%s%s\n", r, wall_ms,
           kernel_ms, idiom_last_variant(), why ? " declined: " : "",
           why ? why : "");
  }
  double total_ms = now_ms() - start_ms;
  double flops = 2.0 * M * N * (double)K;
  printf("all calls: total_ms=%.3f TFLOP/s=%.4f (end to end, %d calls)\n",
         total_ms, reps * flops / (total_ms * 1e-3) / 1e12, reps);
  double ms = kernel_ms > 0 ? kernel_ms : wall_ms;
  printf("last call: %s_ms=%.3f TFLOP/s=%.4f variant=%d\n",
         kernel_ms > 0 ? "kernel" : "wall(host)", ms, flops / (ms * 1e-3) / 1e12,
         idiom_last_variant());

  /* Sampled error check; |a|, |b| < 1. */
  double tol = 1e-4 * K, worst = 0;
  for (int s = 0; s < 256; s++) {
    int i = (int)(((long)s * 7919 + 13) % M), j = (int)(((long)s * 104729 + 7) % N);
    if (s == 0) i = 0, j = 0;
    if (s == 1) i = M - 1, j = N - 1;
    double d = fabs((double)C[(long)i * N + j] - ref_element(N, K, A, B, i, j));
    if (d > worst)
      worst = d;
  }
  int ok = worst <= tol;
  printf("check: max |c - ref| over 256 samples = %.3e (tolerance %.3e): %s\n",
         worst, tol, ok ? "PASS" : "FAIL");
  free(A);
  free(B);
  free(C);
  return ok ? 0 : 1;
}
