// Issue 11, crash 1: main of a conjugate-gradient solver after inlining. A
// loop over the rows of a CSR matrix subtracts a column offset (a file-scope
// static int) from every column index of the row (the row's range comes
// from the row-pointer array); a fill of a global double array; a loop that
// zeroes four global double arrays, whose trip count is the difference of
// two file-scope static ints plus one (both set at run time earlier in
// main). The dependence test translated the SCEVs of these loops for Z3
// without checking their kind, type or width. It must compile, with a
// remark for each loop, under -O2 and -O3, with int or long indices.
// RUN: %clang-idiom -c %s -o /dev/null -Rpass=idiom-offload -Rpass-missed=idiom-offload 2>&1 | FileCheck %s
// RUN: %clang-idiom -O3 -c %s -o /dev/null -Rpass=idiom-offload -Rpass-missed=idiom-offload 2>&1 | FileCheck %s
// RUN: %clang-idiom -DIDX=long -c %s -o /dev/null -Rpass=idiom-offload -Rpass-missed=idiom-offload 2>&1 | FileCheck %s
// RUN: %clang-idiom -DIDX=long -O3 -c %s -o /dev/null -Rpass=idiom-offload -Rpass-missed=idiom-offload 2>&1 | FileCheck %s
// On the device (PoCL), every offloaded loop computes what the loop does:
// RUN: %clang -O2 %s -o %t.seq
// RUN: %clang-idiom %s -lidiomrt -o %t.idiom
// RUN: %t.seq 0 1399 3 1402 > %t.expected
// RUN: env IDIOM_MIN_TRIP=0 %t.idiom 0 1399 3 1402 > %t.out
// RUN: diff %t.expected %t.out

#include <stdio.h>
#include <stdlib.h>

#ifndef IDX
#define IDX int
#endif
#define NA 1400
#define NZ (NA * 16)

static IDX colidx[NZ], rowstr[NA + 1];
static double a[NZ], x[NA + 2], z[NA + 2], p[NA + 2], q[NA + 2], r[NA + 2];
static IDX firstrow, lastrow, firstcol, lastcol;

static void makea(IDX n) {
  for (IDX i = 0; i <= n; i++)
    rowstr[i] = 3 * i;
  for (IDX k = 0; k < 3 * n; k++) {
    colidx[k] = (k * 7) % n + firstcol;
    a[k] = 0.5 * k;
  }
}

static double dot(void) {
  double s = 0.0;
  for (IDX j = 0; j < lastcol - firstcol + 1; j++)
    s += x[j] * z[j] + p[j] * q[j] + r[j];
  return s;
}

int main(int argc, char **argv) {
  firstrow = argc > 1 ? atoi(argv[1]) : 0;
  lastrow = argc > 2 ? atoi(argv[2]) : NA - 1;
  firstcol = argc > 3 ? atoi(argv[3]) : 0;
  lastcol = argc > 4 ? atoi(argv[4]) : NA - 1;
  makea(lastrow - firstrow + 1);
  // CHECK-DAG: csr-column-shift.c:[[@LINE+3]]:3: remark: loop is not an idiom
  // The row's loop, through the Z3 dependence test (symbolic offsets):
  // CHECK-DAG: csr-column-shift.c:[[@LINE+2]]:5: remark: offloaded map (map)
  for (IDX j = 0; j < lastrow - firstrow + 1; j++)
    for (IDX k = rowstr[j]; k < rowstr[j + 1]; k++)
      colidx[k] = colidx[k] - firstcol;
  // CHECK-DAG: csr-column-shift.c:[[@LINE+1]]:3: remark: offloaded map (map)
  for (IDX i = 0; i < NA + 1; i++)
    x[i] = 1.0;
  // loop-idiom turns this one into four memsets before the plugin runs.
  for (IDX j = 0; j < lastcol - firstcol + 1; j++) {
    q[j] = 0.0;
    z[j] = 0.0;
    r[j] = 0.0;
    p[j] = 0.0;
  }
  // The same trip count and four arrays, with values memset cannot write.
  // CHECK-DAG: csr-column-shift.c:[[@LINE+1]]:3: remark: offloaded map (map)
  for (IDX j = 0; j < lastcol - firstcol + 1; j++) {
    q[j] = 1.0;
    z[j] = -1.0;
    r[j] = 0.5;
    p[j] = 2.0;
  }
  long c = 0;
  for (IDX k = 0; k < NZ; k++)
    c = c * 31 + colidx[k];
  printf("%.17g %ld\n", dot(), c);
  return 0;
}
