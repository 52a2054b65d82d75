// A permissive user spec (Inputs/loose-spmv.idl: any loop with a loop
// inside, `lifts spmv`) cannot make an unsound offload: the SpMV lifter
// re-derives the row pointers, the product and the gather and refuses, with
// its reason, whatever is not a CSR row loop it can express. A true CSR SpMV
// is lifted.
// RUN: %clang -O2 -g -fno-vectorize -fno-unroll-loops -S -emit-llvm %s -o %t.ll
// RUN: %opt -idiom-builtin-specs=false -idiom-spec=%S/Inputs/loose-spmv.idl -passes='loop-simplify,lcssa,print<idiom>' -disable-output %t.ll | FileCheck %s

// CHECK-LABEL: Idioms in function 'csr':
// CHECK-NEXT: idiom loose-spmv (CSR SpMV)
// CHECK-NEXT: FunIL:
// CHECK-NOT: not offloaded
// CHECK: OpenCL:
void csr(int n, const int *rowptr, const int *col, const float *val, const float *x, float *y) {
  for (int i = 0; i < n; i++) {
    float sum = 0;
    for (int j = rowptr[i]; j < rowptr[i + 1]; j++)
      sum += val[j] * x[col[j]];
    y[i] = sum;
  }
}

// A dense matrix-vector product: the inner loop's bounds are not row
// pointers.
// CHECK-LABEL: Idioms in function 'dense':
// CHECK-NEXT: idiom loose-spmv (CSR SpMV)
// CHECK-NEXT: not offloaded: cannot lift to FunIL: the inner loop's bounds are not row pointers read per row
void dense(int n, int m, const float *a, const float *x, float *y) {
  for (int i = 0; i < n; i++) {
    float sum = 0;
    for (int j = 0; j < m; j++)
      sum += a[i * m + j] * x[j];
    y[i] = sum;
  }
}

// CSR bounds, but x read directly (no gather).
// CHECK-LABEL: Idioms in function 'no_gather':
// CHECK-NEXT: idiom loose-spmv (CSR SpMV)
// CHECK-NEXT: not offloaded: cannot lift to FunIL: neither factor of the product is read through a column index
void no_gather(int n, const int *rowptr, const float *val, const float *x, float *y) {
  for (int i = 0; i < n; i++) {
    float sum = 0;
    for (int j = rowptr[i]; j < rowptr[i + 1]; j++)
      sum += val[j] * x[j];
    y[i] = sum;
  }
}

// A store in the inner loop (the built-in spec's `not HasStores(inner)`):
// the partial sum escapes, so the accumulator is not a reduction.
// CHECK-LABEL: Idioms in function 'store_inside':
// CHECK-NEXT: idiom loose-spmv (CSR SpMV)
// CHECK-NEXT: not offloaded: cannot lift to FunIL: the accumulator is stored to memory inside the row loop
void store_inside(int n, const int *rowptr, const int *col, const float *val, const float *x, float *y) {
  for (int i = 0; i < n; i++) {
    float sum = 0;
    for (int j = rowptr[i]; j < rowptr[i + 1]; j++) {
      sum += val[j] * x[col[j]];
      y[i] = sum;
    }
  }
}

// y written through the column index (a scatter).
// CHECK-LABEL: Idioms in function 'scatter':
// CHECK-NEXT: idiom loose-spmv (CSR SpMV)
// CHECK-NEXT: not offloaded: cannot lift to FunIL: the inner loop has no accumulator
void scatter(int n, const int *rowptr, const int *col, const float *val, const float *x, float *y) {
  for (int i = 0; i < n; i++)
    for (int j = rowptr[i]; j < rowptr[i + 1]; j++)
      y[col[j]] += val[j] * x[i];
}

// The row's result stored at a data-dependent index (y[perm[i]]).
// CHECK-LABEL: Idioms in function 'permuted':
// CHECK-NEXT: idiom loose-spmv (CSR SpMV)
// CHECK-NEXT: not offloaded: cannot lift to FunIL: the row loop reads memory other than the row pointers outside its inner loop
void permuted(int n, const int *rowptr, const int *col, const int *perm, const float *val, const float *x, float *y) {
  for (int i = 0; i < n; i++) {
    float sum = 0;
    for (int j = rowptr[i]; j < rowptr[i + 1]; j++)
      sum += val[j] * x[col[j]];
    y[perm[i]] = sum;
  }
}

// A call with side effects in the row loop.
void note(float);
// CHECK-LABEL: Idioms in function 'with_call':
// CHECK-NEXT: idiom loose-spmv (CSR SpMV)
// CHECK-NEXT: not offloaded: cannot lift to FunIL: the row loop has an instruction with side effects or memory access that is not a load or the store
void with_call(int n, const int *rowptr, const int *col, const float *val, const float *x, float *y) {
  for (int i = 0; i < n; i++) {
    float sum = 0;
    for (int j = rowptr[i]; j < rowptr[i + 1]; j++)
      sum += val[j] * x[col[j]];
    note(sum);
    y[i] = sum;
  }
}
