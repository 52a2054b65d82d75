// Near misses of the SpMV specs: a data-dependent y index (a scatter), x read
// directly or through a column index that is not loaded per nonzero, the
// column index and the value read at different positions, bounds that are
// not ptr[i] .. ptr[i+1], dense matrix-vector products. SPMV runs spmv.idl
// alone and checks the failing atom and its reason; CHECK runs the built-in
// library.
// RUN: %clang -O2 -g -fno-vectorize -fno-unroll-loops -S -emit-llvm %s -o %t.ll
// RUN: %opt -passes='loop-simplify,lcssa,print<idiom>' -disable-output %t.ll | FileCheck %s
// RUN: %opt -idiom-builtin-specs=false -idiom-spec=%srcroot/constraints/specs/spmv.idl -passes='loop-simplify,lcssa,print<idiom>' -disable-output %t.ll | FileCheck %s --check-prefix=SPMV

// CSR rows written to y[rowidx[i]]: a scatter (two rows may write one y).
// CHECK-LABEL: Idioms in function 'csr_scatter':
// CHECK-NOT: idiom spmv
// SPMV-LABEL: Idioms in function 'csr_scatter':
// SPMV-NEXT: loop %{{[0-9]+}} at not-spmv.c:[[@LINE+3]]: no idiom (closest: spmv-csr): {{.*}}spmv.idl:{{[0-9]+}}:{{[0-9]+}}: SparseRowStore(st, loop): the y index is data dependent (a scatter): store float
// SPMV-NOT: idiom spmv
void csr_scatter(int n, const int *rowptr, const int *col, const float *val, const float *x, float *y, const int *rowidx) {
  for (int i = 0; i < n; i++) {
    float sum = 0;
    for (int j = rowptr[i]; j < rowptr[i + 1]; j++)
      sum += val[j] * x[col[j]];
    y[rowidx[i]] = sum;
  }
}

// The transposed product (CSC): every nonzero scatters into y.
// CHECK-LABEL: Idioms in function 'csc_scatter':
// CHECK-NOT: idiom spmv
// SPMV-LABEL: Idioms in function 'csc_scatter':
// SPMV-NEXT: loop %{{[0-9]+}} at not-spmv.c:[[@LINE+3]]: no idiom (closest: spmv-csr): {{.*}}: not HasStores(inner): 'HasStores(inner)' holds
// SPMV-NOT: idiom spmv
void csc_scatter(int n, const int *colptr, const int *row, const float *val, const float *x, float *y) {
  for (int i = 0; i < n; i++)
    for (int j = colptr[i]; j < colptr[i + 1]; j++)
      y[row[j]] += val[j] * x[i];
}

// x read at the nonzero's position, not through a column index.
// CHECK-LABEL: Idioms in function 'csr_direct':
// CHECK-NOT: idiom spmv
// SPMV-LABEL: Idioms in function 'csr_direct':
// SPMV-NEXT: loop %{{[0-9]+}} at not-spmv.c:[[@LINE+3]]: no idiom (closest: spmv-csr): {{.*}}: SparseIndirectRead(x, inner, col): x is not read through an index loaded from memory (not an indirect read): {{.*}} = load float
// SPMV-NOT: idiom spmv
void csr_direct(int n, const int *rowptr, const float *val, const float *x, float *y) {
  for (int i = 0; i < n; i++) {
    float sum = 0;
    for (int j = rowptr[i]; j < rowptr[i + 1]; j++)
      sum += val[j] * x[j];
    y[i] = sum;
  }
}

// x read through col[i], an index of the row: -O2 hoists the read of x out
// of the loop over the nonzeros.
// CHECK-LABEL: Idioms in function 'csr_row_column':
// CHECK-NOT: idiom spmv
// SPMV-LABEL: Idioms in function 'csr_row_column':
// SPMV-NEXT: loop %{{[0-9]+}} at not-spmv.c:[[@LINE+3]]: no idiom (closest: spmv-csr): {{.*}}: SparseIndirectRead(x, inner, col): x is loaded outside the inner loop, once per row, not once per nonzero
// SPMV-NOT: idiom spmv
void csr_row_column(int n, const int *rowptr, const int *col, const float *val, const float *x, float *y) {
  for (int i = 0; i < n; i++) {
    float sum = 0;
    for (int j = rowptr[i]; j < rowptr[i + 1]; j++)
      sum += val[j] * x[col[i]];
    y[i] = sum;
  }
}

// x read through a column index loaded per nonzero but at another position.
// CHECK-LABEL: Idioms in function 'csr_other_position':
// CHECK-NOT: idiom spmv
// SPMV-LABEL: Idioms in function 'csr_other_position':
// SPMV-NEXT: loop %{{[0-9]+}} at not-spmv.c:[[@LINE+3]]: no idiom (closest: spmv-csr): {{.*}}: SparsePosition(v, col): the matrix value and the column index are read at different positions
// SPMV-NOT: idiom spmv
void csr_other_position(int n, const int *rowptr, const int *col, const float *val, const float *x, float *y) {
  for (int i = 0; i < n; i++) {
    float sum = 0;
    for (int j = rowptr[i]; j < rowptr[i + 1]; j++)
      sum += val[j] * x[col[j + 1]];
    y[i] = sum;
  }
}

// Rows that overlap: ptr[i] .. ptr[i+2].
// CHECK-LABEL: Idioms in function 'csr_bad_bounds':
// CHECK-NOT: idiom spmv
// SPMV-LABEL: Idioms in function 'csr_bad_bounds':
// SPMV-NEXT: loop %{{[0-9]+}} at not-spmv.c:[[@LINE+3]]: no idiom (closest: spmv-csr): {{.*}}: CsrRange(inner, loop, v): the inner loop does not run from ptr[i] to ptr[i+1] of one row pointer array ptr, i the row
// SPMV-NOT: idiom spmv
void csr_bad_bounds(int n, const int *rowptr, const int *col, const float *val, const float *x, float *y) {
  for (int i = 0; i < n; i++) {
    float sum = 0;
    for (int j = rowptr[i]; j < rowptr[i + 2]; j++)
      sum += val[j] * x[col[j]];
    y[i] = sum;
  }
}

// A dense matrix-vector product: x is read directly (gemv's, not SpMV's).
// CHECK-LABEL: Idioms in function 'dense_gemv':
// CHECK-NOT: idiom spmv
// SPMV-LABEL: Idioms in function 'dense_gemv':
// SPMV-NEXT: loop %{{[0-9]+}} at not-spmv.c:[[@LINE+3]]: no idiom (closest: spmv-csr): {{.*}}: SparseIndirectRead(x, inner, col): x is not read through an index loaded from memory (not an indirect read)
// SPMV-NOT: idiom spmv
void dense_gemv(int n, int m, const float *a, const float *x, float *y) {
  for (int i = 0; i < n; i++) {
    float sum = 0;
    for (int j = 0; j < m; j++)
      sum += a[i * m + j] * x[j];
    y[i] = sum;
  }
}
