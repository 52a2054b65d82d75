// The stitched IR of a histogram: an IDIOM_MAP descriptor (kind 0, one
// dimension), the bins passed as an INOUT buffer (kind 2) of exactly 256
// ints (1024 bytes) so that the host's bins are the initial bins, the input
// as an IN buffer, the trip count as the size; the original loop stays as
// the fallback.
// RUN: %clang-idiom -g -fno-discard-value-names -S -emit-llvm %s -o %t.ll
// RUN: FileCheck %s < %t.ll
// RUN: FileCheck %s --check-prefix=DESC < %t.ll

int hist[256];

// Fields known at compile time come from a private constant: argument 0
// the trip count (I64 = 4, value at run time), 1 img (IN = 0, pointer and
// extent at run time), 2 the bins (INOUT = 2, @hist, 1024 bytes).
// CHECK: @idiom_count_0.args = private unnamed_addr constant [3 x {{.*}}] [{{.*}} { i32 4, i32 0, ptr null, i64 0, i64 0 }, {{.*}} zeroinitializer, {{.*}} { i32 2, i32 0, ptr @hist, i64 1024, i64 0 }]
// Everything known at compile time: the constants themselves are passed.
// CHECK: @idiom_fixed_1.args = private unnamed_addr constant [2 x {{.*}}] [{{.*}} { i32 0, i32 0, ptr @pixels, i64 4096, i64 0 }, {{.*}} { i32 2, i32 0, ptr @hist2, i64 64, i64 0 }]
// CHECK: @idiom_fixed_1.sizes = private unnamed_addr constant [1 x i64] [i64 4096]
// CHECK-LABEL: define {{.*}} @count(
// A stack copy of the constant gets the run-time fields.
// CHECK: call void @llvm.memcpy.p0.p0.i64(ptr {{.*}}%idiom.args, ptr {{.*}}@idiom_count_0.args, i64 96,
// CHECK: store i64 %wide.trip.count, ptr
// CHECK: store ptr %img, ptr
// CHECK: store i64 %wide.trip.count, ptr
// CHECK: store i64 %wide.trip.count, ptr %idiom.sizes
// CHECK: %idiom.ok = call i32 @idiom_run(ptr {{.*}}@idiom_count_0.desc
// CHECK-NEXT: icmp eq i32 %idiom.ok, 0
// CHECK-NEXT: br i1 %{{.*}}, label %[[FALLBACK:[a-z0-9.]+]], label %for.cond.cleanup
// CHECK: [[FALLBACK]]:
// CHECK: br i1 %{{.*}}, label %{{.*}}, label %{{.*}}, !llvm.loop
void count(const unsigned char *img, int n) {
  for (int i = 0; i < n; i++)
    hist[img[i]]++;
}

unsigned char pixels[4096];
int hist2[16];
// CHECK-LABEL: define {{.*}} @fixed(
// CHECK-NOT: alloca [2 x
// CHECK-NOT: store {{.*}} ptr %idiom.args
// CHECK: %idiom.ok = call i32 @idiom_run(ptr nonnull @idiom_fixed_1.desc, ptr nonnull @idiom_fixed_1.args, i32 2, ptr nonnull @idiom_fixed_1.sizes,
void fixed(void) {
  for (int i = 0; i < 4096; i++)
    hist2[pixels[i] & 15]++;
}

// DESC-DAG: @idiom_count_0.desc = {{.*}} { ptr @{{.*}}, ptr @{{.*}}, ptr @{{.*}}, ptr @{{.*}}, i32 0, i32 1, i32 0, i32 5, ptr null }
// DESC-DAG: c"histogram\00"
// DESC-DAG: c"{{.*}}__kernel void idiom_count_0(const long n0, __global const char *b0, __global int *b1){{.*}}atomic_add((volatile __global int *)&(b1[bin_0]){{.*}}__local int lbins[256];
