// Two grids in one array (passes/SharedBases.h). A copy between two levels
// of one array (the distance between them read from memory) and the
// restriction with row temporaries are offloaded behind run-time
// disjointness checks. A distance made of a value of the trip counts (`x`
// and `x + s` over j < 2 * s) is left to the dependence test, which refutes
// it; a level pair inside an enclosing loop (roots computed in the loop
// around the nest) is not versioned (only outermost nests are).
// RUN: %clang-idiom -g -c %s -o /dev/null -Rpass=idiom-offload -Rpass-missed=idiom-offload 2>&1 | FileCheck %s

// CHECK: shared-grid.c:[[@LINE+4]]:3: remark: offloaded 3-D map
void copy_level(double *g, const long *ir, int n1, int n2, int n3) {
  double (*r)[n2][n1] = (double (*)[n2][n1])(g + ir[1]);
  double (*s)[n2][n1] = (double (*)[n2][n1])(g + ir[0]);
  for (int i3 = 0; i3 < n3; i3++)
    for (int i2 = 0; i2 < n2; i2++)
      for (int i1 = 0; i1 < n1; i1++)
        s[i3][i2][i1] = 2.0 * r[i3][i2][i1];
}

// CHECK: shared-grid.c:[[@LINE+6]]:3: remark: offloaded 3-D map
void restrict_level(double *g, const long *ir, int m1k, int m2k, int m1j,
                    int m2j, int m3j) {
  double (*r)[m2k][m1k] = (double (*)[m2k][m1k])(g + ir[1]);
  double (*s)[m2j][m1j] = (double (*)[m2j][m1j])(g + ir[0]);
  double x1[1024];
  for (int j3 = 1; j3 < m3j - 1; j3++)
    for (int j2 = 1; j2 < m2j - 1; j2++) {
      for (int j1 = 1; j1 < m1j; j1++)
        x1[2 * j1 - 1] = r[2 * j3][2 * j2 - 1][2 * j1 - 1] +
                         r[2 * j3][2 * j2 + 1][2 * j1 - 1];
      for (int j1 = 1; j1 < m1j - 1; j1++)
        s[j3][j2][j1] = 0.5 * r[2 * j3][2 * j2][2 * j1] +
                        0.25 * (x1[2 * j1 - 1] + x1[2 * j1 + 1]);
    }
}

// CHECK: shared-grid.c:[[@LINE+3]]:3: remark: loop is not an idiom (closest: map): {{.*}}loop-carried dependence between a store and another access of the same array
void related(double *x, int s) {
  double *y = x + s;
  for (int j = 0; j < 2 * s; j++)
    y[j] = 0.5 * x[j];
}

// CHECK: shared-grid.c:[[@LINE+4]]:5: remark: loop is not an idiom (closest: map): {{.*}}loop-carried dependence between a store and another access of the same array
void levels(double *g, const long *ir, int lt, int n) {
  for (int k = lt; k > 1; k--) {
    double *r = g + ir[k], *s = g + ir[k - 1];
    for (int i = 0; i < n; i++)
      s[i] = 0.5 * r[2 * i];
  }
}
