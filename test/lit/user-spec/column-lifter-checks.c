// A permissive user spec (Inputs/loose-column.idl: any chain of two loops,
// `lifts column`) cannot make an unsound offload: the match of a column
// reduction (constraints/ColumnReductionFacts.h) re-derives the roles and
// refuses, with its reason, whatever is not out[j] = G(fold over i, ...)
// with inputs the nest does not write. A true column reduction is lifted.
// RUN: %clang -O2 -g -fno-vectorize -fno-unroll-loops -S -emit-llvm %s -o %t.ll
// RUN: %opt -idiom-builtin-specs=false -idiom-spec=%S/Inputs/loose-column.idl -passes='loop-simplify,lcssa,print<idiom>' -disable-output %t.ll | FileCheck %s

// CHECK-LABEL: Idioms in function 'column_sum':
// CHECK-NEXT: idiom loose-column (column reduction)
// CHECK-NEXT: FunIL:
// CHECK-NOT: not offloaded
// CHECK: OpenCL:
void column_sum(int n, int m, const float *a, float *s) {
  for (int j = 0; j < m; j++) {
    float t = 0.0f;
    for (int i = 0; i < n; i++)
      t += a[i * m + j];
    s[j] = t;
  }
}

// No accumulator: a 2-D map.
// CHECK-LABEL: Idioms in function 'no_accumulator':
// CHECK-NEXT: no idiom (closest: loose-column): matched but cannot be lifted with template 'column': the inner loop carries no accumulator
void no_accumulator(int n, int m, const float *a, float *b) {
  for (int j = 0; j < m; j++)
    for (int i = 0; i < n; i++)
      b[i * m + j] = a[i * m + j] * 2.0f;
}

// The running sum is kept in memory that moves with i.
// CHECK-LABEL: Idioms in function 'row_store':
// CHECK-NEXT: no idiom (closest: loose-column): matched but cannot be lifted with template 'column': a store of the nest writes an element that does not move with the outer loop j alone
void row_store(int n, int m, const float *a, float *b, float *s) {
  for (int j = 0; j < m; j++) {
    float t = 0.0f;
    for (int i = 0; i < n; i++) {
      t += a[i * m + j];
      b[i] = t;
    }
    s[j] = t;
  }
}

// The sum is read after the nest.
// CHECK-LABEL: Idioms in function 'live_out':
// CHECK-NEXT: no idiom (closest: loose-column): matched but cannot be lifted with template 'column': {{.*}}used after
float live_out(int n, int m, const float *a, float *s) {
  float t = 0.0f;
  for (int j = 0; j < m; j++) {
    t = 0.0f;
    for (int i = 0; i < n; i++)
      t += a[i * m + j];
    s[j] = t;
  }
  return t;
}

// The input array is the output array (s[i] read, s[j] written).
// CHECK-LABEL: Idioms in function 'reads_output':
// CHECK-NEXT: no idiom (closest: loose-column): matched but cannot be lifted with template 'column': the nest reads an output array at another element
void reads_output(int n, int m, const float *a, float *s) {
  for (int j = 0; j < m; j++) {
    float t = 0.0f;
    for (int i = 0; i < n; i++)
      t += a[i * m + j] * s[i];
    s[j] = t;
  }
}
