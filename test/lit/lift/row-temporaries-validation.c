// Translation validation covers privatised row temporaries
// (passes/RowTemporaries.h): the map lifted from the privatised nest is
// proven against the LLVM slice of that nest, in which each read of a row
// temporary has become the fill expression at the element read (sums of
// neighbours recomputed per point). A lift corrupted on purpose (the first
// add becomes a sub) is refused before anything runs (integers: refuted;
// floats: refuted, or not proven within the solver's budget).
// RUN: %clang-idiom -c %s -o /dev/null -Rpass=idiom-offload 2>&1 | FileCheck %s --check-prefix=OK
// RUN: %clang-idiom -fplugin=%plugin -mllvm -idiom-test-corrupt-lift -c %s -o /dev/null -Rpass=idiom-offload -Rpass-missed=idiom-offload 2>&1 | FileCheck %s --check-prefix=BAD

void smooth_int(int n1, int n2, int n3, long (*r)[n2][n1], long (*u)[n2][n1]) {
  long t1[512], t2[512];
  // OK: row-temporaries-validation.c:[[@LINE+2]]:3: remark: offloaded 3-D map (map)
  // BAD: row-temporaries-validation.c:[[@LINE+1]]:3: remark: idiom map not offloaded: translation validation failed: Z3 found inputs
  for (int k = 1; k < n3 - 1; k++)
    for (int j = 1; j < n2 - 1; j++) {
      for (int i = 0; i < n1; i++) {
        t1[i] = r[k][j - 1][i] + r[k][j + 1][i];
        t2[i] = r[k - 1][j][i] * 3 + r[k + 1][j][i];
      }
      for (int i = 1; i < n1 - 1; i++)
        u[k][j][i] = t1[i - 1] + 2 * t1[i] - t1[i + 1] + t2[i] * t2[i + 1];
    }
}

void smooth_double(int n1, int n2, int n3, double (*r)[n2][n1],
                   double (*u)[n2][n1]) {
  double r1[512];
  // OK: row-temporaries-validation.c:[[@LINE+2]]:3: remark: offloaded 3-D map (map)
  // BAD: row-temporaries-validation.c:[[@LINE+1]]:3: remark: idiom map not offloaded: translation validation failed: {{Z3 found inputs|equivalence .* not proven}}
  for (int k = 1; k < n3 - 1; k++)
    for (int j = 1; j < n2 - 1; j++) {
      for (int i = 0; i < n1; i++)
        r1[i] = r[k][j - 1][i] + r[k][j + 1][i] + r[k - 1][j][i] + r[k + 1][j][i];
      for (int i = 1; i < n1 - 1; i++)
        u[k][j][i] = 0.5 * r[k][j][i] + 0.125 * (r1[i - 1] + r1[i] + r1[i + 1]);
    }
}
