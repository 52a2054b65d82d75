// A new idiom defined in a spec file is detected, reported and, because it
// names the reduction template, offloaded, without rebuilding the plugin.
// -fplugin loads the library early so that -mllvm knows its options.
// IDIOM_COST=off: the one call is offloaded (the cost model would run it on
// the host).
// RUN: %clang-idiom -fplugin=%plugin -mllvm -idiom-spec=%S/Inputs/sad.idl -c %s -o /dev/null -Rpass=idiom-offload 2>&1 | FileCheck %s
// RUN: %clang-idiom -c %s -o /dev/null -Rpass=idiom-offload 2>&1 | FileCheck %s --check-prefix=BUILTIN
// RUN: %clang-idiom -fplugin=%plugin -mllvm -idiom-spec=%S/Inputs/sad.idl -g %s -lidiomrt -o %t
// RUN: env IDIOM_COST=off IDIOM_STATS=1 %t 2>&1 | FileCheck %s --check-prefix=EXEC
#include <stdio.h>
#include <stdlib.h>

#define N 100000
static int a[N], b[N];

__attribute__((noinline)) int sad(const int *x, const int *y, int n) {
  int s = 0;
  // CHECK: sad.c:[[@LINE+2]]:3: remark: offloaded scalar reduction (sum-of-abs-diff)
  // BUILTIN: sad.c:[[@LINE+1]]:3: remark: offloaded scalar reduction (scalar-reduction)
  for (int i = 0; i < n; i++)
    s += abs(x[i] - y[i]);
  return s;
}

int main(void) {
  long ref = 0;
  for (int i = 0; i < N; i++) {
    a[i] = (i * 37) % 101;
    b[i] = (i * 53) % 89;
    ref += abs(a[i] - b[i]);
  }
  // EXEC: sad [[V:[0-9]+]] ref [[V]]{{$}}
  printf("sad %d ref %ld\n", sad(a, b, N), ref);
  return 0;
}
// EXEC: idiom-stats: sad.c:{{[0-9]+}} sum-of-abs-diff calls=1 offloaded=1
