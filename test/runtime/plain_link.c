/* A program as the plugin leaves it: call the runtime, run the original loop
   when it declines. Built by the runtime.plain_link test with only
   `cc plain_link.c -lidiomrt -lm`. */
#include "idiomrt.h"

#include <math.h>
#include <stdio.h>

static const char src[] =
    "__kernel void scale(const long n, __global const double *x,\n"
    "                    __global float *y) {\n"
    "  size_t i = get_global_id(0);\n"
    "  if (i < n) y[i] = (float)(x[i] * 0.5);\n"
    "}\n";
static const idiom_kernel_desc desc = {"scale", "plain_link.c:14", "map", src,
                                       IDIOM_MAP, 1, 0, 0, 0};

enum { N = 50000 };
static double x[N];
static float y[N];

int main(void) {
  for (int i = 0; i < N; ++i)
    x[i] = sqrt((double)i);
  idiom_arg args[3] = {{IDIOM_ARG_I64, 0, 0, 0, {0}},
                       {IDIOM_ARG_BUF_IN, 0, x, sizeof x, {0}},
                       {IDIOM_ARG_BUF_OUT, 0, y, sizeof y, {0}}};
  args[0].value.i64 = N;
  uint64_t sizes[1] = {N};
  int ran = idiom_run(&desc, args, 3, sizes, 0);
  if (!ran)
    for (int i = 0; i < N; ++i)
      y[i] = (float)(x[i] * 0.5);
  for (int i = 0; i < N; ++i)
    if (y[i] != (float)(x[i] * 0.5)) {
      fprintf(stderr, "y[%d] = %g\n", i, y[i]);
      return 1;
    }
  printf("plain_link: %s\n", ran ? "offloaded" : idiom_last_reason());
  return 0;
}
