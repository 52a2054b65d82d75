// The stitched IR of a JDS SpMV: the arguments are cnt, ptr, val, col, x,
// perm, y (0-6), then n0, nz0, nnz, c0, nx, y0 (7-12); ptr, val, col, x and
// y are empty ranges at their bases and the five run-time values 0, all
// completed by the runtime (runtime/lib/jds.c): idiom_run_csr gets an
// idiom_csr struct (runtime/include/idiomrt.h) with the CSR fields (ptr is
// the diagonals' starts; x's known extent 1000, the element sizes, flags 0,
// the indices of val, col, x, nz0, c0 and nx) and the JDS fields: format 1
// (IDIOM_SPARSE_JDS), the sizes of cnt, perm and y, &cnt[0], &perm[0], y's
// base, y's offset 2 (y[perm[i] + 2]), the indices of ptr, y, nnz and y0
// and cnt_div 1 (one count per row).
// A decline runs the original loop, which stays.
// RUN: %clang-idiom -fno-slp-vectorize -fno-discard-value-names -S -emit-llvm %s -o %t.ll
// RUN: FileCheck %s < %t.ll
float xs[1000];

// CHECK: @idiom_jds_0.args = private unnamed_addr constant [13 x {{.*}}] [{{.*}} zeroinitializer, {{.*}} zeroinitializer, {{.*}} zeroinitializer, {{.*}} zeroinitializer, {{.*}} { i32 0, i32 0, ptr @xs, i64 0, i64 0 }, {{.*}} zeroinitializer, {{.*}} { i32 1, i32 0, ptr null, i64 0, i64 0 }, {{.*}} { i32 4, i32 0, ptr null, i64 0, i64 0 }, {{.*}} { i32 4, i32 0, ptr null, i64 0, i64 0 }, {{.*}} { i32 4, i32 0, ptr null, i64 0, i64 0 }, {{.*}} { i32 4, i32 0, ptr null, i64 0, i64 0 }, {{.*}} { i32 4, i32 0, ptr null, i64 0, i64 0 }, {{.*}} { i32 4, i32 0, ptr null, i64 0, i64 0 }]
// CHECK-LABEL: define {{.*}} @jds(
// CHECK: %idiom.csr = alloca { ptr, ptr, ptr, ptr, i64, i64, i64, i32, i32, i32, i32, i32, i32, i32, i32, i32, i32, i32, i32, i32, i32, i32, ptr, ptr, ptr, i64, i32, i32, i32, i32, i32 }
// cnt and perm: the rows' n elements from row 0.
// CHECK: store ptr %cnt,
// CHECK-NEXT: getelementptr
// CHECK-NEXT: store i64 %idiom.bytes,
// CHECK: store ptr %perm,
// CHECK: store ptr %ptr, ptr %idiom.csr
// CHECK: store ptr %data,
// CHECK: store ptr %idx,
// CHECK: store ptr @xs,
// CHECK: store i64 %{{.*}},
// CHECK: store i64 0,
// CHECK: store i64 1000,
// CHECK: store i32 4,
// CHECK: store i32 4,
// CHECK: store i32 4,
// CHECK: store i32 4,
// CHECK: store i32 0,
// CHECK: store i32 2,
// CHECK: store i32 3,
// CHECK: store i32 4,
// CHECK: store i32 8,
// CHECK: store i32 10,
// CHECK: store i32 11,
// CHECK: store i32 1,
// CHECK: store i32 4,
// CHECK: store i32 4,
// CHECK: store i32 4,
// CHECK: store ptr %cnt,
// CHECK: store ptr %perm,
// CHECK: store ptr %y,
// CHECK: store i64 2,
// CHECK: store i32 1,
// CHECK: store i32 6,
// CHECK: store i32 9,
// CHECK: store i32 12,
// CHECK-NEXT: getelementptr
// CHECK-NEXT: store i32 1,
// CHECK: %idiom.ok = call i32 @idiom_run_csr(ptr {{.*}}@idiom_jds_0.desc, ptr {{.*}}%idiom.args, i32 13, ptr {{.*}}%idiom.sizes, ptr {{.*}}%idiom.results, ptr {{.*}}%idiom.csr)
// The original loop stays: it writes y through perm.
// CHECK: idiom.declined:
// CHECK: getelementptr inbounds i32, ptr %perm
void jds(int n, const float *data, const int *cnt, const int *ptr,
         const int *idx, const int *perm, float *y) {
  for (int i = 0; i < n; i++) {
    float sum = 0.0f;
    for (int k = 0; k < cnt[i]; k++)
      sum += data[ptr[k] + i] * xs[idx[ptr[k] + i]];
    y[perm[i] + 2] = sum;
  }
}
