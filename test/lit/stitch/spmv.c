// The stitched IR of a CSR SpMV: the arguments of val, col and x (empty
// ranges at their bases) and of nz0, c0 and nx are completed by the runtime:
// idiom_run_csr gets an idiom_csr struct (runtime/include/idiomrt.h) with
// &ptr[0], the bases of val, col and x, the row count, x's gather offset and
// known extent (xs is a global of 1000 doubles; 0 when unknown), the element
// sizes (ptr 4, col 4, val 8, x 8), the widening flags and the argument
// indices (ptr, val, col, x, y are arguments 0-4, then n0, nz0, c0, nx);
// the JDS fields after them are 0 and null (format IDIOM_SPARSE_CSR, cnt_div 1). A
// decline runs the original loop, which stays.
// RUN: %clang-idiom -fno-slp-vectorize -fno-discard-value-names -S -emit-llvm %s -o %t.ll
// RUN: FileCheck %s < %t.ll
#define COLS 1000
double xs[COLS];

// The argument template: val, col and x (kind 0, IN) with 0 bytes; the
// trip count and the three run-time indices (kind 4, I64).
// CHECK: @idiom_spmv_0.args = private unnamed_addr constant [9 x {{.*}}] [{{.*}} zeroinitializer, {{.*}} zeroinitializer, {{.*}} zeroinitializer, {{.*}} { i32 0, i32 0, ptr @xs, i64 0, i64 0 }, {{.*}} { i32 1, i32 0, ptr null, i64 0, i64 0 }, {{.*}} { i32 4, i32 0, ptr null, i64 0, i64 0 }, {{.*}} { i32 4, i32 0, ptr null, i64 0, i64 0 }, {{.*}} { i32 4, i32 0, ptr null, i64 0, i64 0 }, {{.*}} { i32 4, i32 0, ptr null, i64 0, i64 0 }]
// CHECK-LABEL: define {{.*}} @spmv(
// CHECK: %idiom.csr = alloca { ptr, ptr, ptr, ptr, i64, i64, i64, i32, i32, i32, i32, i32, i32, i32, i32, i32, i32, i32, i32, i32, i32, i32, ptr, ptr, ptr, i64, i32, i32, i32, i32, i32 }
// CHECK-NOT: idiom_csr_extent
// CHECK: store ptr %ptr, ptr %idiom.csr
// CHECK: store ptr %val,
// CHECK: store ptr %col,
// CHECK: store ptr @xs,
// CHECK: store i64 %{{.*}},
// CHECK: store i64 0,
// CHECK: store i64 1000,
// CHECK: store i32 4,
// CHECK: store i32 4,
// CHECK: store i32 8,
// CHECK: store i32 8,
// CHECK: store i32 0,
// CHECK: store i32 1,
// CHECK: store i32 2,
// CHECK: store i32 3,
// CHECK: store i32 6,
// CHECK: store i32 7,
// CHECK: store i32 8,
// CHECK: %idiom.ok = call i32 @idiom_run_csr(ptr {{.*}}@idiom_spmv_0.desc, ptr {{.*}}%idiom.args, i32 9, ptr {{.*}}%idiom.sizes, ptr {{.*}}%idiom.results, ptr {{.*}}%idiom.csr)
// The original loop stays: it reads x through the column index.
// CHECK: idiom.declined:
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
// IDIOM_CSR_COL_ZEXT), x behind a pointer: extent 0 (unknown), offset 0;
// ptr 8 bytes, col 4, val and x 4. (x[col[p] - 1] with unsigned col is
// x[zext(col[p] - 1)], which wraps at 0: not a constant offset, refused.)
// CHECK-LABEL: define {{.*}} @spmv_ptr(
// CHECK: store ptr %ptr, ptr %idiom.csr
// CHECK: store ptr %val,
// CHECK: store ptr %col,
// CHECK: store ptr %x,
// CHECK: store i64 %n,
// CHECK: store i64 0,
// CHECK: store i64 0,
// CHECK: store i32 8,
// CHECK: store i32 4,
// CHECK: store i32 4,
// CHECK: store i32 4,
// CHECK: store i32 2,
// CHECK: call i32 @idiom_run_csr(
void spmv_ptr(long n, const long *ptr, const unsigned *col, const float *val,
              const float *x, float *y) {
  for (long i = 0; i < n; i++) {
    float s = 0;
    for (long p = ptr[i]; p < ptr[i + 1]; p++)
      s += val[p] * x[col[p]];
    y[i] = s;
  }
}
