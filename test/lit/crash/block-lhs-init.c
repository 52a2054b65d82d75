// Issue 11, crash 2: the left-hand-side initialisation of a block-tridiagonal
// solver (per grid point, three 5x5 blocks: zeros, then 1.0 on the diagonal
// of the middle block, one index used twice in a subscript). Lifting the
// diagonal loop named its second store's buffer through a reference into the
// parameter list, which the first symbolic index appended to: a read of
// freed memory (segfault in Lifter::viewText). It must compile, with a
// remark for the loop, under -O2 and -O3, with the array global or static,
// and with int or long indices.
// RUN: %clang-idiom -c %s -o /dev/null -Rpass=idiom -Rpass-missed=idiom 2>&1 | FileCheck %s
// RUN: %clang-idiom -O3 -c %s -o /dev/null -Rpass=idiom -Rpass-missed=idiom 2>&1 | FileCheck %s
// RUN: %clang-idiom -DSTATIC=static -DIDX=long -c %s -o /dev/null -Rpass=idiom -Rpass-missed=idiom 2>&1 | FileCheck %s
// RUN: %clang-idiom -DSTATIC=static -DIDX=long -O3 -c %s -o /dev/null -Rpass=idiom -Rpass-missed=idiom 2>&1 | FileCheck %s

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
  for (IDX n = 0; n < 5; n++)
    for (IDX m = 0; m < 5; m++) {
      l[0][0][n][m] = 0.0;
      l[0][1][n][m] = 0.0;
      l[0][2][n][m] = 0.0;
      l[i][0][n][m] = 0.0;
      l[i][1][n][m] = 0.0;
      l[i][2][n][m] = 0.0;
    }
  // CHECK: block-lhs-init.c:[[@LINE+1]]:3: remark: {{offloaded map|loop is not an idiom|idiom .* not offloaded}}
  for (IDX m = 0; m < 5; m++) {
    l[0][1][m][m] = 1.0;
    l[i][1][m][m] = 1.0;
  }
}

// The same over every grid point, the nest the issue describes.
void lhs_all(IDX size) {
  // CHECK: block-lhs-init.c:[[@LINE+1]]:3: remark: {{offloaded|loop is not an idiom|idiom .* not offloaded}}
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
