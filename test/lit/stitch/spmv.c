// The stitched IR of a CSR SpMV: before the runtime call the preheader calls
// idiom_csr_extent (row pointers and column indices of 4 bytes, both
// sign-extended: flags 0; n rows) into a zeroed array, and runs the
// original loop unless the row pointers are monotone and every column lies
// in x's 1000 elements (xs is a global of known size). val and col are
// passed from ptr[0] to ptr[n], x from the smallest to the largest column.
// Without a known extent (x a pointer argument) there is no column test.
// RUN: %clang-idiom -fno-discard-value-names -S -emit-llvm %s -o %t.ll
// RUN: FileCheck %s < %t.ll
#define COLS 1000
double xs[COLS];

// CHECK-LABEL: define {{.*}} @spmv(
// CHECK: %idiom.csr = alloca [4 x i64]
// CHECK: store i64 0, ptr %idiom.csr
// CHECK: [[OK:%.*]] = call i32 @idiom_csr_extent(ptr {{.*}}%ptr, i32 4, ptr %col, i32 4, i32 0, i64 %{{.*}}, ptr {{.*}}%idiom.csr)
// CHECK: %idiom.csr.ok = icmp ne i32 [[OK]], 0
// CHECK: %idiom.col.lo = load i64
// CHECK: %idiom.col.hi = load i64
// CHECK-DAG: icmp slt i64 %idiom.col.hi, 1001
// CHECK-DAG: icmp sgt i64 %idiom.col.lo, -1
// CHECK: %idiom.x.in = or i1
// CHECK: br i1 %{{.*}}, label %idiom.call, label %idiom.fallback
// CHECK: idiom.call:
// CHECK-DAG: %idiom.nz.lo = load i64, ptr %idiom.csr
// CHECK-DAG: getelementptr double, ptr @xs, i64 %idiom.col.lo
// CHECK-DAG: getelementptr i32, ptr %col, i64 %idiom.nz.lo
// CHECK-DAG: getelementptr double, ptr %val, i64 %idiom.nz.lo
// CHECK: call i32 @idiom_run(ptr {{.*}}@idiom_spmv_0.desc
// The original loop stays: it reads x through the column index.
// CHECK: idiom.fallback:
// CHECK: getelementptr inbounds [1000 x double], ptr @xs, i64 0
void spmv(int n, const int *ptr, const int *col, const double *val, double *y) {
  for (int i = 0; i < n; i++) {
    double s = 0;
    for (int p = ptr[i]; p < ptr[i + 1]; p++)
      s += val[p] * xs[col[p]];
    y[i] = s;
  }
}

// 64-bit row pointers (no widening), unsigned column indices (flags 2,
// IDIOM_CSR_COL_ZEXT) and x behind a pointer: x's extent is the columns'
// range, with no column test.
// CHECK-LABEL: define {{.*}} @spmv_ptr(
// CHECK: call i32 @idiom_csr_extent(ptr {{.*}}%ptr, i32 8, ptr %col, i32 4, i32 2, i64 %n, ptr
// CHECK-NOT: idiom.x.in
// CHECK: call i32 @idiom_run(
void spmv_ptr(long n, const long *ptr, const unsigned *col, const float *val,
              const float *x, float *y) {
  for (long i = 0; i < n; i++) {
    float s = 0;
    for (long p = ptr[i]; p < ptr[i + 1]; p++)
      s += val[p] * x[col[p]];
    y[i] = s;
  }
}
