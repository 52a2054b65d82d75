/*===- acc_sum.c - plain vs compensated sum kernels through the runtime ---===*
 *
 * Runs one generated reduction source (bench/run_acc_bench.sh writes them
 * with idiom-funil: a plain and a Neumaier-compensated sum of floats or
 * doubles) through idiom_run on 2^LOG2 random values, REPS + 1 times, and
 * prints the median kernel time of the last REPS calls
 * (idiom_last_kernel_ms), the bandwidth (bytes read over kernel time), the
 * result and its error against a compensated long double sum on the host.
 *
 * Usage: acc_sum SOURCE.cl f32|f64 NSLOTS [LOG2 [REPS]]
 *   NSLOTS: result slots of the kernels (1 plain, 2 compensated).
 *
 *===----------------------------------------------------------------------===*/
#include "idiomrt.h"

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int cmp_double(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return x < y ? -1 : x > y;
}

static char *read_file(const char *path) {
  FILE *f = fopen(path, "rb");
  if (!f)
    return NULL;
  fseek(f, 0, SEEK_END);
  long n = ftell(f);
  fseek(f, 0, SEEK_SET);
  char *s = malloc((size_t)n + 1);
  if (s && fread(s, 1, (size_t)n, f) != (size_t)n) {
    free(s);
    s = NULL;
  }
  if (s)
    s[n] = '\0';
  fclose(f);
  return s;
}

int main(int argc, char **argv) {
  if (argc < 4) {
    fprintf(stderr, "usage: %s SOURCE.cl f32|f64 NSLOTS [LOG2 [REPS]]\n", argv[0]);
    return 2;
  }
  char *src = read_file(argv[1]);
  int f64 = strcmp(argv[2], "f64") == 0;
  uint32_t nslots = (uint32_t)atoi(argv[3]);
  int log2n = argc > 4 ? atoi(argv[4]) : 26;
  int reps = argc > 5 ? atoi(argv[5]) : 5;
  if (!src || nslots < 1 || nslots > 8 || reps < 1 || reps > 64) {
    fprintf(stderr, "bad arguments or unreadable %s\n", argv[1]);
    return 2;
  }
  size_t n = (size_t)1 << log2n, esz = f64 ? 8 : 4;
  void *x = malloc(n * esz);
  if (!x)
    return 2;
  /* Values over several binades, both signs: a sum with rounding errors. */
  uint64_t r = 88172645463325252ULL;
  long double ref = 0, comp = 0;
  for (size_t i = 0; i < n; i++) {
    r ^= r << 13, r ^= r >> 7, r ^= r << 17;
    double v = ldexp((double)(r >> 11) / 9007199254740992.0 + 1.0, (int)(r % 24) - 12);
    if (r & (1ULL << 40))
      v = -v;
    long double xv = f64 ? (long double)v : (long double)(float)v;
    if (f64)
      ((double *)x)[i] = v;
    else
      ((float *)x)[i] = (float)v;
    long double t = ref + xv;
    comp += fabsl(ref) >= fabsl(xv) ? (ref - t) + xv : (xv - t) + ref;
    ref = t;
  }
  ref += comp;

  uint32_t bytes[8];
  for (uint32_t k = 0; k < nslots; ++k)
    bytes[k] = (uint32_t)esz;
  idiom_kernel_desc d = {"s", "acc_sum.c:1", "scalar-reduction", src, IDIOM_REDUCE, 1,
                         nslots, 1, bytes};
  idiom_arg args[2];
  memset(args, 0, sizeof args);
  args[0].kind = IDIOM_ARG_BUF_IN;
  args[0].ptr = x;
  args[0].bytes = n * esz;
  args[1].kind = IDIOM_ARG_I64;
  args[1].value.i64 = (int64_t)n;
  uint64_t sizes[1] = {n};
  double ms[64], got = 0;
  for (int i = 0; i <= reps; ++i) {
    uint64_t res[8] = {0};
    if (!idiom_run(&d, args, 2, sizes, res)) {
      fprintf(stderr, "idiom_run declined: %s\n", idiom_last_reason());
      return 1;
    }
    double g;
    if (f64) {
      memcpy(&g, &res[0], 8);
    } else {
      float fv;
      memcpy(&fv, &res[0], 4);
      g = fv;
    }
    if (i > 0 && memcmp(&g, &got, sizeof g) != 0) {
      fprintf(stderr, "results differ between runs\n");
      return 1;
    }
    got = g;
    if (i > 0)
      ms[i - 1] = idiom_last_kernel_ms();
  }
  qsort(ms, (size_t)reps, sizeof *ms, cmp_double);
  double med = ms[reps / 2];
  printf("[%s] %s n=2^%d slots=%u median_ms=%.3f GB/s=%.2f result=%.17g rel_err=%.3Lg\n",
         idiom_device_name(), argv[2], log2n, nslots, med, (double)(n * esz) / (med * 1e6), got,
         ref != 0 ? fabsl(((long double)got - ref) / ref) : fabsl((long double)got));
  free(x);
  free(src);
  return 0;
}
