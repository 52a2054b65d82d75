// CSR SpMV lifted to FunIL (passes/lift/SpmvLifting.h): a map over the rows
// of a sequential reduction over the row's slice of val zipped with x
// gathered through col; run-time offsets nz0 (ptr[0]), c0 (the smallest
// column) and nx (the columns' span) come from idiom_csr_extent. Then the
// translation validator rejects corrupted lifts, and near misses that the
// lifter refuses, with their reasons.
// RUN: %clang -O2 -g -fno-vectorize -fno-unroll-loops -S -emit-llvm %s -o %t.ll
// RUN: %opt -passes='loop-simplify,lcssa,print<idiom>' -disable-output %t.ll | FileCheck %s
// RUN: %clang -O2 -g -ffp-contract=off -fno-vectorize -fno-unroll-loops -S -emit-llvm %s -o %t.off.ll
// RUN: %opt -passes='loop-simplify,lcssa,print<idiom>' -disable-output %t.off.ll | FileCheck %s --check-prefix=OFF
// RUN: %opt -idiom-test-corrupt-lift -passes='loop-simplify,lcssa,print<idiom>' -disable-output %t.off.ll | FileCheck %s --check-prefix=CORRUPT

// CHECK-LABEL: Idioms in function 'csr':
// CHECK-NEXT: loop %{{[0-9]+}} at spmv.c:[[@LINE+10]]: idiom spmv-csr (CSR SpMV)
// CHECK-NEXT: FunIL:
// CHECK-NEXT: idiom idiom_csr_0(b0: [i32], b1: [f32], b2: [i32], b3: [f32], b4: [f32], n0: i64, nz0: i64, c0: i64, nx: i64) {
// CHECK-NEXT:   store view(b4, 0:i64, 1:i64, n0) = map(\(r: (i32, i32)) => reduceSeq(\(acc: f32, x: (f32, f32)) => fmuladd(x.0, x.1, acc), 0x0p+0:f32, zip(view(b1, sub(sext.i64(r.0), nz0), 1:i64, sub(sext.i64(r.1), sext.i64(r.0))), map(\(c: i32) => at(view(b3, 0:i64, 1:i64, nx), sub(sext.i64(c), c0)), view(b2, sub(sext.i64(r.0), nz0), 1:i64, sub(sext.i64(r.1), sext.i64(r.0)))))), zip(view(b0, 0:i64, 1:i64, n0), view(b0, 1:i64, 1:i64, n0)));
// CHECK: __kernel void idiom_csr_0(
// OFF-LABEL: Idioms in function 'csr':
// OFF: reduceSeq(\(acc: f32, x: (f32, f32)) => fadd(acc, fmul(x.0, x.1)), 0x0p+0:f32
// CORRUPT-LABEL: Idioms in function 'csr':
// CORRUPT: not offloaded: translation validation failed: Z3 found inputs on which the lifted FunIL and the LLVM slice differ (SpMV STEP, INIT or POST)
void csr(int n, const int *rowptr, const int *col, const float *val, const float *x, float *y) {
  for (int i = 0; i < n; i++) {
    float sum = 0;
    for (int j = rowptr[i]; j < rowptr[i + 1]; j++)
      sum += val[j] * x[col[j]];
    y[i] = sum;
  }
}

// y = alpha * A x + y with 64-bit row pointers: the old y[i] is the third
// component of the row tuple (y is read and written), alpha a scalar.
// CHECK-LABEL: Idioms in function 'csr_axpy':
// CHECK-NEXT: loop %{{[0-9]+}} at spmv.c:[[@LINE+6]]: idiom spmv-csr (CSR SpMV)
// CHECK-NEXT: FunIL:
// CHECK-NEXT: idiom idiom_csr_axpy_0(b0: [i64], b1: [f64], b2: [i32], b3: [f64], b4: [f64], n0: i64, nz0: i64, c0: i64, nx: i64, s0: f64) {
// CHECK-NEXT:   store view(b4, 0:i64, 1:i64, n0) = map(\(r: (i64, i64, f64)) => fmuladd(s0, reduceSeq(\(acc: f64, x: (f64, f64)) => fmuladd(x.0, x.1, acc), 0x0p+0:f64, zip(view(b1, sub(r.0, nz0), 1:i64, sub(r.1, r.0)), map(\(c: i32) => at(view(b3, 0:i64, 1:i64, nx), sub(sext.i64(c), c0)), view(b2, sub(r.0, nz0), 1:i64, sub(r.1, r.0))))), r.2), zip(view(b0, 0:i64, 1:i64, n0), view(b0, 1:i64, 1:i64, n0), view(b4, 0:i64, 1:i64, n0)));
// CHECK: __kernel void idiom_csr_axpy_0(
void csr_axpy(long n, const long *rowptr, const int *col, const double *val, const double *x, double *y, double alpha) {
  for (long i = 0; i < n; i++) {
    double sum = 0;
    for (long j = rowptr[i]; j < rowptr[i + 1]; j++)
      sum += val[j] * x[col[j]];
    y[i] = alpha * sum + y[i];
  }
}

// Integers, unsigned column indices (zero-extended), a strided y and a sum
// that starts at a loop-invariant value.
// CHECK-LABEL: Idioms in function 'csr_uint':
// CHECK-NEXT: loop %{{[0-9]+}} at spmv.c:[[@LINE+4]]: idiom spmv-csr (CSR SpMV)
// CHECK: store view(b4, 0:i64, 2:i64, n0) = map(\(r: (i32, i32)) => reduceSeq(\(acc: i32, x: (i32, i32)) => add(mul(x.1, x.0), acc), s0, {{.*}}map(\(c: i32) => at(view(b3, 0:i64, 1:i64, nx), sub(zext.i64(c), c0))
// CHECK: __kernel void idiom_csr_uint_0(
void csr_uint(int n, const int *rowptr, const unsigned *col, const int *val, const int *x, int *y, int bias) {
  for (int i = 0; i < n; i++) {
    int sum = bias;
    for (int j = rowptr[i]; j < rowptr[i + 1]; j++)
      sum += val[j] * x[col[j]];
    y[2 * i] = sum;
  }
}

// Near misses the lifter refuses (each a remark, the loop stays as it is).
// CHECK-LABEL: Idioms in function 'odd_rows':
// CHECK-NEXT: loop %{{[0-9]+}} at spmv.c:[[@LINE+3]]: idiom spmv-csr (CSR SpMV)
// CHECK-NEXT: not offloaded: cannot lift to FunIL: the row loop has a condition other than the inner loop's guard ptr[i] < ptr[i+1]
void odd_rows(int n, const int *rowptr, const int *col, const float *val, const float *x, float *y) {
  for (int i = 0; i < n; i++) {
    float sum = 0;
    if (i & 1)
      for (int j = rowptr[i]; j < rowptr[i + 1]; j++)
        sum += val[j] * x[col[j]];
    y[i] = sum;
  }
}

// CHECK-LABEL: Idioms in function 'next_y':
// CHECK-NEXT: loop %{{[0-9]+}} at spmv.c:[[@LINE+3]]: idiom spmv-csr (CSR SpMV)
// CHECK-NEXT: not offloaded: cannot lift to FunIL: the row loop reads memory other than the row pointers outside its inner loop
void next_y(int n, const int *rowptr, const int *col, const float *val, const float *x, float *y) {
  for (int i = 0; i < n; i++) {
    float sum = 0;
    for (int j = rowptr[i]; j < rowptr[i + 1]; j++)
      sum += val[j] * x[col[j]];
    y[i] = sum + y[i + 1];
  }
}

// CHECK-LABEL: Idioms in function 'squared':
// CHECK-NEXT: loop %{{[0-9]+}} at spmv.c:[[@LINE+3]]: idiom spmv-csr (CSR SpMV)
// CHECK-NEXT: not offloaded: cannot lift to FunIL: the stored value uses the row's sum 2 times, not once
void squared(int n, const int *rowptr, const int *col, const float *val, const float *x, float *y) {
  for (int i = 0; i < n; i++) {
    float sum = 0;
    for (int j = rowptr[i]; j < rowptr[i + 1]; j++)
      sum += val[j] * x[col[j]];
    y[i] = sum * sum;
  }
}

// A do-while over the nonzeros runs once on an empty row (reading the next
// row's first nonzero); the map's empty slice would not.
// CHECK-LABEL: Idioms in function 'do_while':
// CHECK-NEXT: loop %{{[0-9]+}} at spmv.c:[[@LINE+3]]: idiom spmv-csr (CSR SpMV)
// CHECK-NEXT: not offloaded: cannot lift to FunIL: the inner loop has no zero-trip guard ptr[i] < ptr[i+1]
void do_while(int n, const int *rowptr, const int *col, const float *val, const float *x, float *y) {
  for (int i = 0; i < n; i++) {
    float sum = 0;
    long j = rowptr[i];
    do {
      sum += val[j] * x[col[j]];
      j++;
    } while (j < rowptr[i + 1]);
    y[i] = sum;
  }
}

// An unsigned column index with an offset: x[col[j] - 1] reads
// x[zext(col[j] - 1)], which wraps at column 0 (not col[j] plus a constant).
// CHECK-LABEL: Idioms in function 'unsigned_offset':
// CHECK-NEXT: loop %{{[0-9]+}} at spmv.c:[[@LINE+3]]: idiom spmv-csr (CSR SpMV)
// CHECK-NEXT: not offloaded: cannot lift to FunIL: x is not read at col[p] plus a constant
void unsigned_offset(int n, const int *rowptr, const unsigned *col, const float *val, const float *x, float *y) {
  for (int i = 0; i < n; i++) {
    float sum = 0;
    for (int j = rowptr[i]; j < rowptr[i + 1]; j++)
      sum += val[j] * x[col[j] - 1];
    y[i] = sum;
  }
}

// The stored value reads the row index: the spec already refuses it.
// Its inner loop alone is a scalar reduction that gathers x[col[j]]
// (run-time extent of col's range).
// CHECK-LABEL: Idioms in function 'row_index':
// CHECK-NEXT: loop %{{[0-9]+}} at spmv.c:[[@LINE+5]]: idiom scalar-reduction (scalar reduction)
// CHECK: loop %{{[0-9]+}} at spmv.c:[[@LINE+2]]: no idiom (closest: spmv-csr): {{.*}}SparseRowResult(loop, inner, acc, st): the stored value depends on a phi that is not the accumulator's final value
void row_index(int n, const int *rowptr, const int *col, const float *val, const float *x, float *y) {
  for (int i = 0; i < n; i++) {
    float sum = 0;
    for (int j = rowptr[i]; j < rowptr[i + 1]; j++)
      sum += val[j] * x[col[j]];
    y[i] = sum + (float)i;
  }
}

// Not SpMV: a store in the inner loop (no spec claims either loop), and y
// written through the column index (a scatter: a histogram whose bins are
// indexed through memory, which the histogram lifter refuses).
// CHECK-LABEL: Idioms in function 'store_inside':
// CHECK-NOT: idiom spmv-csr
// CHECK: no idiom (closest: {{.*}}
// CHECK-NOT: idiom spmv-csr
void store_inside(int n, const int *rowptr, const int *col, const float *val, const float *x, float *y) {
  for (int i = 0; i < n; i++) {
    float sum = 0;
    for (int j = rowptr[i]; j < rowptr[i + 1]; j++) {
      sum += val[j] * x[col[j]];
      y[i] = sum;
    }
  }
}

// CHECK-LABEL: Idioms in function 'scatter':
// CHECK-NOT: idiom spmv-csr
// CHECK: idiom histogram-runtime-bins (histogram)
// CHECK-NEXT: not offloaded: cannot lift to FunIL: the bin index or value reads an array at a computed position
// CHECK-NOT: idiom spmv-csr
void scatter(int n, const int *rowptr, const int *col, const float *val, const float *x, float *y) {
  for (int i = 0; i < n; i++)
    for (int j = rowptr[i]; j < rowptr[i + 1]; j++)
      y[col[j]] += val[j] * x[i];
}
