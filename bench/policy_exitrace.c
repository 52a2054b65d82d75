// Exit while the device starts in the background (issue 12): five calls of a
// hand-written map through idiom_run without host timing (so the cost model
// treats the caller as untimed and starts the device at once), an optional
// delay in microseconds, then exit with status 3. The exit status must be 3
// whatever the delay: the runtime waits for the start-up step in progress.
// Usage: policy_exitrace [DELAY_US]
#include "idiomrt.h"
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>
static const char src[] = "__kernel void k(const int n, __global float *y) { size_t i = get_global_id(0); if (i < (size_t)n) y[i] += 1.0f; }\n";
static const idiom_kernel_desc d = {"k", "exitrace.c:1", "map", src, IDIOM_MAP, 1, 0, 0, NULL};
int main(int argc, char **argv) {
  int n = 1 << 16; static float y[1 << 16];
  idiom_arg a[2] = {{IDIOM_ARG_I32, 0, 0, 0, {.i32 = n}}, {IDIOM_ARG_BUF_INOUT, 0, y, 4ull * n, {0}}};
  uint64_t s[1] = {n};
  int rc = 0; for (int k = 0; k < 5; ++k) rc = idiom_run(&d, a, 2, s, NULL);
  if (argc > 1) usleep(atoi(argv[1]));
  printf("rc=%d %s\n", rc, idiom_last_reason() ? idiom_last_reason() : "");
  return 3;
}
