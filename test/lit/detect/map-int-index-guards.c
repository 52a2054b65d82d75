// 2-D maps written the legacy way: `int` counters and sizes, an interior
// range (1 .. n-1), flattened `i*n + j` or VLA-typed `v[i][j]`. At -O2 the
// bounds become `zext(n - 1)` and the row stride `zext(n)`: without the loop
// guard `n > 2` a solver may pick n = 0, where zext(n - 1) is 2^32 - 1 and
// rows of stride 0 overlap. The dependence test now bounds the nest's
// unknowns by the ranges its loop guards imply (ScalarEvolution::
// applyLoopGuards). Negatives: rows that really overlap.
//
// RUN: %clang -O2 -g -fno-vectorize -fno-unroll-loops -S -emit-llvm %s -o %t.ll
// RUN: %opt -passes='loop-simplify,lcssa,print<idiom>' -disable-output %t.ll | FileCheck %s
// RUN: %opt -idiom-builtin-specs=false -idiom-spec=%srcroot/constraints/specs/map.idl -passes='loop-simplify,lcssa,print<idiom>' -disable-output %t.ll | FileCheck %s --check-prefix=MAP

// CHECK-LABEL: Idioms in function 'interior_flat'
// CHECK: idiom map (2-D map)
void interior_flat(int n, double *u, double *v) {
  for (int i = 1; i < n - 1; i++)
    for (int j = 1; j < n - 1; j++)
      v[i * n + j] = 0.25 * (u[(i - 1) * n + j] + u[(i + 1) * n + j] +
                             u[i * n + j - 1] + u[i * n + j + 1]);
}

// CHECK-LABEL: Idioms in function 'interior_vla'
// CHECK: idiom map (2-D map)
void interior_vla(int n, double (*u)[n], double (*v)[n]) {
  for (int i = 1; i < n - 1; i++)
    for (int j = 1; j < n - 1; j++)
      v[i][j] = 0.25 * (u[i - 1][j] + u[i + 1][j] + u[i][j - 1] + u[i][j + 1]);
}

// Rows of n + 2 elements at a stride of n: (i, j) and (i + 1, j - n) write
// one element. The guard n > 2 does not help (each row alone is a map).
// CHECK-LABEL: Idioms in function 'overlapping_rows'
// CHECK-NOT: idiom map (2-D map)
// MAP-LABEL: Idioms in function 'overlapping_rows'
// MAP: loop-carried dependence between a store and another access of the same array
void overlapping_rows(int n, double *v) {
  for (int i = 1; i < n - 1; i++)
    for (int j = 0; j < n + 2; j++)
      v[i * n + j] = v[i * n + j] * 0.5 + 1.0;
}

// The guard says nothing about m: rows of m elements at a stride of n may
// overlap (m > n). A map under the run-time check m <= n (grid subscripts
// assumed in extent, docs/ConstraintLanguage.md); overlapping_rows above,
// whose check could never hold, stays refused.
// CHECK-LABEL: Idioms in function 'unrelated_bound'
// CHECK: idiom map (2-D map)
// MAP-LABEL: Idioms in function 'unrelated_bound'
// MAP: idiom map (2-D map)
void unrelated_bound(int n, int m, double *v) {
  for (int i = 1; i < n - 1; i++)
    for (int j = 0; j < m; j++)
      v[i * n + j] = v[i * n + j] + 1.0;
}
