// Sparse matrix-vector products in compressed sparse row form, reported as
// spmv-csr at the row loop (which covers the inner loop over the row's
// nonzeros).
// RUN: %clang -O2 -g -fno-vectorize -fno-unroll-loops -S -emit-llvm %s -o %t.ll
// RUN: %opt -passes='loop-simplify,lcssa,print<idiom>' -disable-output %t.ll | FileCheck %s
// RUN: %opt -idiom-builtin-specs=false -idiom-spec=%srcroot/constraints/specs/spmv.idl -passes='loop-simplify,lcssa,print<idiom>' -disable-output %t.ll | FileCheck %s

// -O2 forwards rowptr[i+1] of one row to rowptr[i] of the next in a phi of
// the row loop; the loop over the nonzeros is guarded, and the sum reaches
// the store through an LCSSA phi and the phi that merges the empty row's 0.
// CHECK-LABEL: Idioms in function 'csr':
// CHECK-NEXT: loop %{{[0-9]+}} at csr.c:[[@LINE+3]]: idiom spmv-csr (CSR SpMV)
// CHECK-NOT: {{^}}loop
void csr(int n, const int *rowptr, const int *col, const float *val, const float *x, float *y) {
  for (int i = 0; i < n; i++) {
    float sum = 0;
    for (int j = rowptr[i]; j < rowptr[i + 1]; j++)
      sum += val[j] * x[col[j]];
    y[i] = sum;
  }
}

// Double values, 64-bit row pointers, 32-bit column indices, and a result
// combined with y (y = alpha * A x + y).
// CHECK-LABEL: Idioms in function 'csr_axpy':
// CHECK-NEXT: loop %{{[0-9]+}} at csr.c:[[@LINE+3]]: idiom spmv-csr (CSR SpMV)
// CHECK-NOT: {{^}}loop
void csr_axpy(long n, const long *rowptr, const int *col, const double *val, const double *x, double *y, double alpha) {
  for (long i = 0; i < n; i++) {
    double sum = 0;
    for (long j = rowptr[i]; j < rowptr[i + 1]; j++)
      sum += val[j] * x[col[j]];
    y[i] = alpha * sum + y[i];
  }
}

// Integers: the sum is an add chain of a mul.
// CHECK-LABEL: Idioms in function 'csr_int':
// CHECK-NEXT: loop %{{[0-9]+}} at csr.c:[[@LINE+3]]: idiom spmv-csr (CSR SpMV)
// CHECK-NOT: {{^}}loop
void csr_int(int n, const int *rowptr, const int *col, const int *val, const int *x, int *y) {
  for (int i = 0; i < n; i++) {
    int sum = 0;
    for (int j = rowptr[i]; j < rowptr[i + 1]; j++)
      sum += val[j] * x[col[j]];
    y[i] = sum;
  }
}

// One-based column indices: x[col[j] - 1], the difference computed before
// its extension to 64 bits.
// CHECK-LABEL: Idioms in function 'csr_one_based':
// CHECK-NEXT: loop %{{[0-9]+}} at csr.c:[[@LINE+3]]: idiom spmv-csr (CSR SpMV)
// CHECK-NOT: {{^}}loop
void csr_one_based(int n, const int *rowptr, const int *col, const float *val, const float *x, float *y) {
  for (int i = 0; i < n; i++) {
    float sum = 0;
    for (int j = rowptr[i]; j < rowptr[i + 1]; j++)
      sum += val[j] * x[col[j] - 1];
    y[i] = sum;
  }
}
