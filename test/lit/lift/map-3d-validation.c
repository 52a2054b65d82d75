// Translation validation covers 3-D maps: the element function of the
// innermost of the three nested maps, with the iteration indices of all
// three loops (plane p, row r, element t) as symbols, against the LLVM
// slice. A lift corrupted on purpose (the first add becomes a sub) is
// refused before anything runs (floats: refuted, or not proven within the
// solver's budget; integers: refuted).
// RUN: %clang-idiom -c %s -o /dev/null -Rpass=idiom-offload 2>&1 | FileCheck %s --check-prefix=OK
// RUN: %clang-idiom -fplugin=%plugin -mllvm -idiom-test-corrupt-lift -c %s -o /dev/null -Rpass=idiom-offload -Rpass-missed=idiom-offload 2>&1 | FileCheck %s --check-prefix=BAD

void jacobi(int n, const double *a, double *b) {
  // OK: map-3d-validation.c:[[@LINE+2]]:3: remark: offloaded 3-D map (map)
  // BAD: map-3d-validation.c:[[@LINE+1]]:3: remark: idiom map not offloaded: translation validation failed: {{Z3 found inputs|equivalence .* not proven}}
  for (int k = 1; k < n - 1; k++)
    for (int j = 1; j < n - 1; j++)
      for (int i = 1; i < n - 1; i++)
        b[(k * n + j) * n + i] =
            (a[((k - 1) * n + j) * n + i] + a[((k + 1) * n + j) * n + i] +
             a[(k * n + j - 1) * n + i] + a[(k * n + j + 1) * n + i]) * 0.25;
}

// The indices: the first add is in the element function's index arithmetic.
void coords(int n, long *c) {
  // OK: map-3d-validation.c:[[@LINE+2]]:3: remark: offloaded 3-D map (map)
  // BAD: map-3d-validation.c:[[@LINE+1]]:3: remark: idiom map not offloaded: translation validation failed: Z3 found inputs
  for (int k = 0; k < n; k++)
    for (int j = 0; j < n; j++)
      for (int i = 0; i < n; i++)
        c[(k * n + j) * n + i] = (long)k * 10000 + j * 100 + i;
}
