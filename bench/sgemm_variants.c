/*===- sgemm_variants.c - every generated SGEMM variant, timed ------------===*
 *
 * C = alpha * A B + beta * C (row-major, M x K times K x N) through the
 * Idiom runtime with the multi-variant OpenCL sources that
 * `idiom-funil --emit=opencl --variants [--candidates=B:E]` makes of
 * bench/sgemm.funil (the canonical GEMM program; embedded at build time as
 * sgemm_source.h: SGEMM_NSOURCES sources of at most 16 variants each, the
 * runtime's limit per source; one source for the default variants, several
 * for the whole candidate set).
 *
 * Without IDIOM_VARIANT set, the program runs itself once per variant with
 * IDIOM_BENCH_SOURCE=S and IDIOM_VARIANT=K (the runtime reads its
 * environment once per process), prints one line per variant, then a table
 * of the variants ranked by TFLOP/s. With IDIOM_VARIANT=K it runs variant K
 * of source S REPS times: C is reset on the host before each run, the kernel time of each
 * run is idiom_last_kernel_ms() (transfers excluded), the median is
 * reported with TFLOP/s = 2 M N K / time, and max |error| over a sample of
 * elements (corners, edges and random ones) against a double-precision
 * reference on the host, relative to K * max|a| * max|b|.
 *
 * Build: bench/build_sgemm_carry.sh. Run:
 *   IDIOM_DEVICE=gpu ./sgemm_variants [M [N [K [REPS]]]]   (default 4096^3, 7)
 *
 *===----------------------------------------------------------------------===*/
#include "idiomrt.h"
#include "sgemm_source.h"

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

static int cmp_double(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return x < y ? -1 : x > y;
}

/* The description on variant k's marker line. */
static void variant_desc(const char *src, int k, char *out, size_t n) {
  char tag[64];
  snprintf(tag, sizeof tag, "//@idiom-variant %d ", k);
  const char *p = strstr(src, tag);
  snprintf(out, n, "%s", "?");
  if (!p)
    return;
  p += strlen(tag);
  snprintf(out, n, "%.*s", (int)strcspn(p, "\n"), p);
}

static uint64_t rng = 88172645463325252ull;
static float frand(void) {
  rng ^= rng << 13;
  rng ^= rng >> 7;
  rng ^= rng << 17;
  return (float)((rng >> 40) * (1.0 / 16777216.0)) * 2.0f - 1.0f;
}

static int run_one(int source, int variant, long M, long N, long K, int reps) {
  if (source < 0 || source >= SGEMM_NSOURCES) {
    fprintf(stderr, "no source %d\n", source);
    return 1;
  }
  const char *src = sgemm_sources[source];
  float *A = malloc(sizeof(float) * (size_t)(M * K));
  float *B = malloc(sizeof(float) * (size_t)(K * N));
  float *C = malloc(sizeof(float) * (size_t)(M * N));
  float *C0 = malloc(sizeof(float) * (size_t)(M * N));
  if (!A || !B || !C || !C0) {
    fprintf(stderr, "out of memory\n");
    return 1;
  }
  for (long i = 0; i < M * K; ++i)
    A[i] = frand();
  for (long i = 0; i < K * N; ++i)
    B[i] = frand();
  for (long i = 0; i < M * N; ++i)
    C0[i] = frand();
  const float alpha = 1.25f, beta = 0.5f;
  idiom_kernel_desc desc = {"sgemm", "bench/sgemm_variants.c", "gemm", src,
                            IDIOM_MAP, 2, 0, (uint32_t)sgemm_nvariants[source], NULL};
  idiom_arg args[8];
  memset(args, 0, sizeof args);
  args[0].kind = IDIOM_ARG_BUF_IN, args[0].ptr = A, args[0].bytes = 4ull * (uint64_t)(M * K);
  args[1].kind = IDIOM_ARG_BUF_IN, args[1].ptr = B, args[1].bytes = 4ull * (uint64_t)(K * N);
  args[2].kind = IDIOM_ARG_BUF_INOUT, args[2].ptr = C, args[2].bytes = 4ull * (uint64_t)(M * N);
  args[3].kind = IDIOM_ARG_I64, args[3].value.i64 = M;
  args[4].kind = IDIOM_ARG_I64, args[4].value.i64 = N;
  args[5].kind = IDIOM_ARG_I64, args[5].value.i64 = K;
  args[6].kind = IDIOM_ARG_F32, args[6].value.f32 = alpha;
  args[7].kind = IDIOM_ARG_F32, args[7].value.f32 = beta;
  uint64_t sizes[2] = {(uint64_t)M, (uint64_t)N};
  double *ms = calloc((size_t)reps, sizeof(double));
  char desc_text[256];
  variant_desc(src, variant, desc_text, sizeof desc_text);
  for (int r = 0; r < reps; ++r) {
    memcpy(C, C0, sizeof(float) * (size_t)(M * N));
    if (!idiom_run(&desc, args, 8, sizes, NULL)) {
      printf("variant %d.%d: declined: %s [%s]\n", source, variant, idiom_last_reason(),
             desc_text);
      return 1;
    }
    ms[r] = idiom_last_kernel_ms();
    if (idiom_last_variant() != variant) {
      printf("variant %d.%d: the runtime ran variant %d\n", source, variant,
             idiom_last_variant());
      return 1;
    }
  }
  /* Sampled check against double precision. */
  double maxerr = 0, maxa = 0, maxb = 0;
  for (long i = 0; i < M * K; ++i)
    maxa = fmax(maxa, fabs(A[i]));
  for (long i = 0; i < K * N; ++i)
    maxb = fmax(maxb, fabs(B[i]));
  for (int s = 0; s < 512; ++s) {
    long i, j;
    if (s < 4) {
      i = (s & 1) ? M - 1 : 0;
      j = (s & 2) ? N - 1 : 0;
    } else {
      rng ^= rng << 13, rng ^= rng >> 7, rng ^= rng << 17;
      i = (long)(rng % (uint64_t)M);
      j = (long)((rng >> 20) % (uint64_t)N);
    }
    double acc = 0;
    for (long k = 0; k < K; ++k)
      acc += (double)A[i * K + k] * (double)B[k * N + j];
    double want = alpha * acc + beta * (double)C0[i * N + j];
    maxerr = fmax(maxerr, fabs(want - (double)C[i * N + j]));
  }
  double bound = 1e-4 * (double)K * maxa * maxb * fabs(alpha) + 1e-6;
  qsort(ms, (size_t)reps, sizeof(double), cmp_double);
  double med = ms[reps / 2];
  double tflops = 2.0 * (double)M * (double)N * (double)K / (med * 1e-3) / 1e12;
  printf("variant %d.%d: %9.3f ms (min %.3f) %7.2f TFLOP/s  max|err| %.3g %s  [%s]\n", source,
         variant, med, ms[0], tflops, maxerr, maxerr <= bound ? "ok" : "WRONG", desc_text);
  free(A);
  free(B);
  free(C);
  free(C0);
  free(ms);
  return maxerr <= bound ? 0 : 2;
}

int main(int argc, char **argv) {
  long M = argc > 1 ? atol(argv[1]) : 4096;
  long N = argc > 2 ? atol(argv[2]) : M;
  long K = argc > 3 ? atol(argv[3]) : N;
  int reps = argc > 4 ? atoi(argv[4]) : 7;
  if (M <= 0 || N <= 0 || K <= 0 || reps <= 0) {
    fprintf(stderr, "usage: %s [M [N [K [REPS]]]]\n", argv[0]);
    return 1;
  }
  const char *forced = getenv("IDIOM_VARIANT");
  const char *forced_src = getenv("IDIOM_BENCH_SOURCE");
  if (forced && *forced)
    return run_one(forced_src ? atoi(forced_src) : 0, atoi(forced), M, N, K, reps);
  const char *dev = idiom_device_name();
  int total = 0;
  for (int s = 0; s < SGEMM_NSOURCES; ++s)
    total += sgemm_nvariants[s];
  printf("device: %s; SGEMM %ldx%ldx%ld, %d runs per variant, %d variants in %d source(s)\n",
         dev ? dev : "(none)", M, N, K, reps, total, SGEMM_NSOURCES);
  fflush(stdout);
  struct result {
    double ms; /* median kernel time, -1 when the variant failed */
    char line[512];
  } *res = calloc((size_t)total, sizeof *res);
  int nres = 0, worst = 0;
  for (int s = 0; s < SGEMM_NSOURCES; ++s)
    for (int k = 0; k < sgemm_nvariants[s]; ++k) {
      int fd[2];
      if (pipe(fd) != 0) {
        perror("pipe");
        return 1;
      }
      pid_t pid = fork();
      if (pid == 0) {
        char v[16], sv[16];
        snprintf(v, sizeof v, "%d", k);
        snprintf(sv, sizeof sv, "%d", s);
        setenv("IDIOM_VARIANT", v, 1);
        setenv("IDIOM_BENCH_SOURCE", sv, 1);
        setenv("IDIOM_TUNE", "off", 1);
        dup2(fd[1], 1);
        close(fd[0]);
        close(fd[1]);
        execv("/proc/self/exe", argv);
        perror("execv");
        _exit(127);
      }
      close(fd[1]);
      char buf[4096];
      size_t len = 0;
      ssize_t got;
      while ((got = read(fd[0], buf + len, sizeof buf - 1 - len)) > 0)
        len += (size_t)got;
      buf[len] = 0;
      close(fd[0]);
      int st = 0;
      waitpid(pid, &st, 0);
      int rc = WIFEXITED(st) ? WEXITSTATUS(st) : 3;
      fputs(buf, stdout);
      if (len == 0)
        printf("variant %d.%d: no output (exit status %d)\n", s, k, rc);
      fflush(stdout);
      if (rc > worst)
        worst = rc;
      struct result *r = &res[nres++];
      snprintf(r->line, sizeof r->line, "%.*s", (int)strcspn(buf, "\n"), buf);
      /* The median time: the number after "variant S.K:". */
      const char *t = strchr(buf, ':');
      r->ms = -1;
      if (rc == 0 && t && strstr(buf, " ms "))
        r->ms = atof(t + 1);
    }
  /* Ranked: fastest correct variant first; failures last. */
  for (int i = 1; i < nres; ++i)
    for (int j = i; j > 0 && res[j].ms >= 0 && (res[j - 1].ms < 0 || res[j].ms < res[j - 1].ms);
         --j) {
      struct result t = res[j];
      res[j] = res[j - 1];
      res[j - 1] = t;
    }
  printf("== ranked (source.variant, fastest first)\n");
  for (int i = 0; i < nres; ++i)
    printf("%2d. %s\n", i + 1, res[i].line[0] ? res[i].line : "(no output)");
  free(res);
  return worst;
}
