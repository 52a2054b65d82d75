// JDS SpMV lifted to FunIL (passes/lift/SpmvLifting.h): a map over the rows
// (iota) of a sequential reduction over the row's jagged diagonals, val and
// x gathered at the positions ptr[k] + i, the result scattered to y through
// perm (scatter, docs/FunIL.md). Run-time values nz0 and nnz (the
// positions' range), c0 and nx (the columns') and y0 (the first element of
// y written) come from idiom_run_csr (runtime/lib/jds.c). Then the
// translation validator rejects a corrupted lift, and near misses that the
// lifter refuses, with their reasons.
// RUN: %clang -O2 -g -fno-vectorize -fno-unroll-loops -S -emit-llvm %s -o %t.ll
// RUN: %opt -passes='loop-simplify,lcssa,print<idiom>' -disable-output %t.ll | FileCheck %s
// RUN: %opt -idiom-test-corrupt-lift -passes='loop-simplify,lcssa,print<idiom>' -disable-output %t.ll | FileCheck %s --check-prefix=CORRUPT

// CHECK-LABEL: Idioms in function 'jds':
// CHECK-NEXT: loop %{{[0-9]+}} at spmv-jds.c:[[@LINE+14]]: idiom spmv-jds (JDS SpMV)
// CHECK-NEXT: FunIL:
// CHECK-NEXT: idiom idiom_jds_0(b0: [i32], b1: [i32], b2: [f32], b3: [i32], b4: [f32], b5: [i32], b6: [f32], n0: i64, nz0: i64, nnz: i64, c0: i64, nx: i64, y0: i64) {
// CHECK-NEXT:   store view(b6, 0:i64, 1:i64, n0) = scatter(\(i: i64) => sub(sext.i64(at(view(b5, 0:i64, 1:i64, n0), i)), y0), map(\(i: i64) => reduceSeq(\(acc: f32, x: (f32, f32)) => fmuladd(x.0, x.1, acc), 0x0p+0:f32, zip(map(\(d: i32) => at(view(b2, 0:i64, 1:i64, nnz), sub(add(sext.i64(d), i), nz0)), view(b1, 0:i64, 1:i64, sext.i64(at(view(b0, 0:i64, 1:i64, n0), i)))), map(\(d: i32) => at(view(b4, 0:i64, 1:i64, nx), sub(sext.i64(at(view(b3, 0:i64, 1:i64, nnz), sub(add(sext.i64(d), i), nz0))), c0)), view(b1, 0:i64, 1:i64, sext.i64(at(view(b0, 0:i64, 1:i64, n0), i)))))), iota(n0)));
// The kernel: one row per work-item, y written at perm[i] - y0.
// CHECK: __kernel void idiom_jds_0(
// CHECK: for (long j = 0; j < ((long)(((int)(b0[i0])))); ++j) {
// CHECK: b6[((long)(((ulong)(((long)(((int)(b5[i0])))))) - ((ulong)(y0))))] = acc;
// CORRUPT-LABEL: Idioms in function 'jds':
// The corruption turns the position's add into sub: the validator's check
// of the data movement rejects it.
// CORRUPT: not offloaded: translation validation failed: translation validation: JDS SpMV program reads or writes other elements than val[ptr[k] + i], x[col[ptr[k] + i]] for k < cnt[i] and y[perm[i]]
void jds(int n, const float *data, const int *cnt, const int *ptr,
         const int *idx, const int *perm, float *y, const float *x) {
  for (int i = 0; i < n; i++) {
    float sum = 0.0f;
    int bound = cnt[i];
    for (int k = 0; k < bound; k++) {
      int j = ptr[k] + i;
      sum += data[j] * x[idx[j]];
    }
    y[perm[i]] = sum;
  }
}

// Unsigned counts (the guard cnt != 0: zext, IDIOM_CSR_CNT_ZEXT), 64-bit
// diagonal starts with the row first, a one-based column index (x at col
// - 1), y at perm[i] + 1 and a scale after the sum.
// CHECK-LABEL: Idioms in function 'jds_variants':
// CHECK-NEXT: loop %{{[0-9]+}} at spmv-jds.c:[[@LINE+7]]: idiom spmv-jds (JDS SpMV)
// CHECK-NEXT: FunIL:
// CHECK-NEXT: idiom idiom_jds_variants_0(b0: [i32], b1: [i64], b2: [f64], b3: [i32], b4: [f64], b5: [i32], b6: [f64], n0: i64, nz0: i64, nnz: i64, c0: i64, nx: i64, y0: i64, s0: f64) {
// CHECK-NEXT:   store view(b6, 0:i64, 1:i64, n0) = scatter(\(i: i64) => sub(add(sext.i64(at(view(b5, 0:i64, 1:i64, n0), i)), 1:i64), y0), map(\(i: i64) => fmul(reduceSeq(\(acc: f64, x: (f64, f64)) => fmuladd(x.0, x.1, acc), 0x0p+0:f64, zip(map(\(d: i64) => at(view(b2, 0:i64, 1:i64, nnz), sub(add(d, i), nz0)), view(b1, 0:i64, 1:i64, zext.i64(at(view(b0, 0:i64, 1:i64, n0), i)))), map(\(d: i64) => at(view(b4, 0:i64, 1:i64, nx), sub(sext.i64(at(view(b3, 0:i64, 1:i64, nnz), sub(add(d, i), nz0))), c0)), view(b1, 0:i64, 1:i64, zext.i64(at(view(b0, 0:i64, 1:i64, n0), i)))))), s0), iota(n0)));
void jds_variants(long n, const double *data, const unsigned *cnt,
                  const long *ptr, const int *idx, const int *perm, double *y,
                  const double *x, double s) {
  for (long i = 0; i < n; i++) {
    double sum = 0.0;
    for (unsigned k = 0; k < cnt[i]; k++)
      sum += data[i + ptr[k]] * x[idx[i + ptr[k]] - 1];
    y[perm[i] + 1] = sum * s;
  }
}

// Near misses the lifter refuses, with the reason.
// y[perm[i]] += sum reads y through the permutation.
// CHECK-LABEL: Idioms in function 'jds_accumulate':
// CHECK-NEXT: loop %{{[0-9]+}} at spmv-jds.c:[[@LINE+5]]: idiom spmv-jds (JDS SpMV)
// CHECK-NEXT: not offloaded: cannot lift to FunIL: the JDS row loop reads y[perm[i]] (only y[perm[i]] = F(sum) is lifted)
void jds_accumulate(int n, const float *data, const int *cnt, const int *ptr,
                    const int *idx, const int *perm, float *y,
                    const float *x) {
  for (int i = 0; i < n; i++) {
    float sum = 0.0f;
    for (int k = 0; k < cnt[i]; k++)
      sum += data[ptr[k] + i] * x[idx[ptr[k] + i]];
    y[perm[i]] += sum;
  }
}

// The position in unsigned arithmetic wraps (no nsw): the kernel's 64-bit
// position would differ where the loop's wraps.
// CHECK-LABEL: Idioms in function 'jds_unsigned_position':
// CHECK-NEXT: loop %{{[0-9]+}} at spmv-jds.c:[[@LINE+5]]: idiom spmv-jds (JDS SpMV)
// CHECK-NEXT: not offloaded: cannot lift to FunIL: the position ptr[k] + i is not a long index, or an int sum without wrapping (nsw) sign-extended to the index
void jds_unsigned_position(int n, const float *data, const int *cnt,
                           const unsigned *ptr, const int *idx,
                           const int *perm, float *y, const float *x) {
  for (int i = 0; i < n; i++) {
    float sum = 0.0f;
    for (int k = 0; k < cnt[i]; k++)
      sum += data[ptr[k] + (unsigned)i] * x[idx[ptr[k] + (unsigned)i]];
    y[perm[i]] = sum;
  }
}

// A long sum truncated to an int position (int j = ptr[k] + i with long
// ptr): the conversion wraps where a long position would not; not matched.
// CHECK-LABEL: Idioms in function 'jds_truncated_position':
// CHECK-NEXT: loop %{{[0-9]+}} at spmv-jds.c:[[@LINE+4]]: no idiom
void jds_truncated_position(long n, const float *data, const int *cnt,
                            const long *ptr, const int *idx, const int *perm,
                            float *y, const float *x) {
  for (long i = 0; i < n; i++) {
    float sum = 0.0f;
    for (int k = 0; k < cnt[i]; k++) {
      int j = ptr[k] + i;
      sum += data[j] * x[idx[j]];
    }
    y[perm[i]] = sum;
  }
}

// A loop that also writes perm (or data) has two stores: no spmv-jds.
// CHECK-LABEL: Idioms in function 'jds_writes_perm':
// CHECK-NEXT: loop %{{[0-9]+}} at spmv-jds.c:[[@LINE+3]]: no idiom (closest: spmv-jds): {{.*}}spmv.idl:{{.*}}: s = st: 's' is store i32 {{.*}}, 'st' is store float
void jds_writes_perm(int n, const float *data, const int *cnt, const int *ptr,
                     const int *idx, int *perm, float *y, const float *x) {
  for (int i = 0; i < n; i++) {
    float sum = 0.0f;
    for (int k = 0; k < cnt[i]; k++)
      sum += data[ptr[k] + i] * x[idx[ptr[k] + i]];
    y[perm[i]] = sum;
    perm[i] = i;
  }
}

// CHECK-LABEL: Idioms in function 'jds_writes_data':
// CHECK-NEXT: loop %{{[0-9]+}} at spmv-jds.c:[[@LINE+3]]: no idiom
void jds_writes_data(int n, float *data, const int *cnt, const int *ptr,
                     const int *idx, const int *perm, float *y, const float *x) {
  for (int i = 0; i < n; i++) {
    float sum = 0.0f;
    for (int k = 0; k < cnt[i]; k++) {
      sum += data[ptr[k] + i] * x[idx[ptr[k] + i]];
      data[ptr[k] + i] = 0.0f;
    }
    y[perm[i]] = sum;
  }
}

// Parboil's GPU form reads the count of a block of 32 rows, sh_zcnt[i /
// 32]: cnt is passed from its base, ceil(n / 32) elements, read at i / 32.
// CHECK-LABEL: Idioms in function 'jds_block_counts':
// CHECK-NEXT: loop %{{[0-9]+}} at spmv-jds.c:[[@LINE+7]]: idiom spmv-jds (JDS SpMV)
// CHECK-NEXT: FunIL:
// CHECK-NEXT: idiom idiom_jds_block_counts_0(
// CHECK-NEXT: store view(b6, 0:i64, 1:i64, n0) = scatter({{.*}}view(b1, 0:i64, 1:i64, sext.i64(at(view(b0, 0:i64, 1:i64, udiv(add(n0, 31:i64), 32:i64)), udiv(i, 32:i64))))), map({{.*}}
void jds_block_counts(int n, const float *data, const int *sh_zcnt,
                      const int *ptr, const int *idx, const int *perm,
                      float *y, const float *x) {
  for (int i = 0; i < n; i++) {
    float sum = 0.0f;
    int bound = sh_zcnt[i / 32];
    for (int k = 0; k < bound; k++)
      sum += data[ptr[k] + i] * x[idx[ptr[k] + i]];
    y[perm[i]] = sum;
  }
}
