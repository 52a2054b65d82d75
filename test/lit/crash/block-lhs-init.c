// Issue 11, crash 2: the left-hand-side initialisation of a block-tridiagonal
// solver (per grid point, three 5x5 blocks: zeros, then 1.0 on the diagonal
// of the middle block, one index used twice in a subscript). Lifting the
// first nest (six stores, the inner loop unrolled) named a store's buffer
// through a reference into the parameter list, which the first symbolic
// index appended to: a read of freed memory (segfault in Lifter::viewText
// at -O2). It must compile, with a remark for each loop, under -O2 and -O3,
// with the array global or static, and with int or long indices; and the
// offloaded nest must compute what the loop computes, on the device.
// RUN: %clang-idiom -c %s -o /dev/null -Rpass=idiom-offload -Rpass-missed=idiom-offload 2>&1 | FileCheck %s
// RUN: %clang-idiom -O3 -c %s -o /dev/null -Rpass=idiom-offload -Rpass-missed=idiom-offload 2>&1 | FileCheck %s --check-prefix=ANY
// RUN: %clang-idiom -DSTATIC=static -DIDX=long -c %s -o /dev/null -Rpass=idiom-offload -Rpass-missed=idiom-offload 2>&1 | FileCheck %s --check-prefix=ANY
// RUN: %clang-idiom -DSTATIC=static -DIDX=long -O3 -c %s -o /dev/null -Rpass=idiom-offload -Rpass-missed=idiom-offload 2>&1 | FileCheck %s --check-prefix=ANY
// RUN: %clang -O2 -DMAIN %s -o %t.seq
// RUN: %clang-idiom -DMAIN %s -lidiomrt -o %t.idiom -Rpass=idiom-offload 2>&1 | FileCheck %s --check-prefix=MAIN
// RUN: %t.seq 7 > %t.expected
// RUN: env IDIOM_MIN_TRIP=0 %t.idiom 7 > %t.out
// RUN: diff %t.expected %t.out

#ifndef STATIC
#define STATIC
#endif
#ifndef IDX
#define IDX int
#endif
#define N 64

STATIC double lhs[N + 1][3][5][5];
int grid_size;

static void lhsinit(double l[][3][5][5], IDX size) {
  IDX i = size;
  // CHECK-DAG: block-lhs-init.c:[[@LINE+2]]:3: remark: offloaded map (map) to OpenCL
  // MAIN: block-lhs-init.c:[[@LINE+1]]:3: remark: offloaded map (map) to OpenCL
  for (IDX n = 0; n < 5; n++)
    for (IDX m = 0; m < 5; m++) {
      l[0][0][n][m] = 0.0;
      l[0][1][n][m] = 0.0;
      l[0][2][n][m] = 0.0;
      l[i][0][n][m] = 0.0;
      l[i][1][n][m] = 0.0;
      l[i][2][n][m] = 0.0;
    }
  for (IDX m = 0; m < 5; m++) {
    l[0][1][m][m] = 1.0;
    l[i][1][m][m] = 1.0;
  }
}

// The same over every grid point, the nest the issue describes.
void lhs_all(IDX size) {
  // CHECK-DAG: block-lhs-init.c:[[@LINE+2]]:3: remark: loop is not an idiom
  // ANY: block-lhs-init.c:[[@LINE+1]]:3: remark: loop is not an idiom
  for (IDX i = 0; i <= size; i++) {
    for (IDX m = 0; m < 5; m++)
      for (IDX n = 0; n < 5; n++) {
        lhs[i][0][n][m] = 0.0;
        lhs[i][1][n][m] = 0.0;
        lhs[i][2][n][m] = 0.0;
      }
    for (IDX m = 0; m < 5; m++)
      lhs[i][1][m][m] = 1.0;
  }
}

void x_solve(void) { lhsinit(lhs, grid_size); }

#ifdef MAIN
#include <stdio.h>
#include <stdlib.h>
int main(int argc, char **argv) {
  grid_size = argc > 1 ? atoi(argv[1]) : 7;
  for (int i = 0; i <= N; i++)
    for (int b = 0; b < 3; b++)
      for (int m = 0; m < 5; m++)
        for (int n = 0; n < 5; n++)
          lhs[i][b][m][n] = 100 * i + 25 * b + 5 * m + n;
  x_solve();
  double s = 0;
  for (int i = 0; i <= N; i++)
    for (int b = 0; b < 3; b++)
      for (int m = 0; m < 5; m++)
        for (int n = 0; n < 5; n++)
          s = s * 1.0001 + lhs[i][b][m][n] * (1 + i + b + m + n);
  printf("%.17g\n", s);
  return 0;
}
#endif
