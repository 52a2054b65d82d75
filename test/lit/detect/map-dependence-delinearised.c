// 2-D maps whose element index is row-major (i*n + j) or column-major
// (j*m + i) with dynamic sizes: the address is a mixed-radix number of the
// two loop counters, injective without a solver (Z3Checks.cpp,
// sameInjectiveAddress). A stride that is the wrong loop's trip count may
// overlap rows: Z3 decides, and finds the dependence. A 3-D nest is left to
// Z3 too.
//
// RUN: %clang -O2 -g -fno-vectorize -fno-unroll-loops -S -emit-llvm %s -o %t.ll
// RUN: %opt -passes='loop-simplify,lcssa,print<idiom>' -disable-output %t.ll | FileCheck %s
// RUN: %opt -idiom-builtin-specs=false -idiom-spec=%srcroot/constraints/specs/map.idl -passes='loop-simplify,lcssa,print<idiom>' -disable-output %t.ll | FileCheck %s --check-prefix=MAP
// RUN: %clang-idiom -fplugin=%plugin -mllvm -idiom-time-report -DONLY_INJECTIVE -c %s -o /dev/null 2>&1 | FileCheck %s --check-prefix=TIME

// CHECK-LABEL: Idioms in function 'colmajor'
// CHECK: idiom map (2-D map)
void colmajor(int m, int n, float *restrict c, float beta) {
  for (int i = 0; i < m; i++)
    for (int j = 0; j < n; j++)
      c[j * m + i] *= beta;
}

// CHECK-LABEL: Idioms in function 'rowmajor'
// CHECK: idiom map (2-D map)
void rowmajor(int m, int n, float *restrict c, float beta) {
  for (int i = 0; i < m; i++)
    for (int j = 0; j < n; j++)
      c[i * n + j] *= beta;
}

// TIME-NOT: z3 dependence
// TIME: dependence: injective address
// TIME-NOT: z3 dependence

#ifndef ONLY_INJECTIVE
// (i, j) and (i + n, j - 1) write one element when m > n: a map under the
// run-time check that the subscript i stays in its row (m <= n; grid
// subscripts assumed in extent, docs/ConstraintLanguage.md).
// CHECK-LABEL: Idioms in function 'wrongstride'
// CHECK: idiom map (2-D map)
// MAP-LABEL: Idioms in function 'wrongstride'
// MAP: idiom map (2-D map)
void wrongstride(int m, int n, float *restrict c, float beta) {
  for (int i = 0; i < m; i++)
    for (int j = 0; j < n; j++)
      c[j * n + i] *= beta;
}

// The store ignores j: every j overwrites the same elements.
// CHECK-LABEL: Idioms in function 'waw3'
// CHECK-NOT: idiom map
// MAP-LABEL: Idioms in function 'waw3'
// MAP-NOT: idiom map
void waw3(int m, int n, int p, float *restrict out, const float *restrict in) {
  for (int i = 0; i < m; i++)
    for (int j = 0; j < n; j++)
      for (int k = 0; k < p; k++)
        out[i * n + k] = in[(i * n + j) * p + k] * 2.0f;
}
#endif
