// The stitched IR of a histogram: an IDIOM_MAP descriptor (kind 0, one
// dimension), the bins passed as an INOUT buffer (kind 2) of exactly 256
// ints (1024 bytes) so that the host's bins are the initial bins, the input
// as an IN buffer, the trip count as the size; the original loop stays as
// the fallback.
// RUN: %clang-idiom -g -fno-discard-value-names -S -emit-llvm %s -o %t.ll
// RUN: FileCheck %s < %t.ll
// RUN: FileCheck %s --check-prefix=DESC < %t.ll

int hist[256];

// CHECK-LABEL: define {{.*}} @count(
// Argument 0: the trip count n0 (I64), 1: img (IN, n bytes), 2: the bins.
// CHECK: store i32 4, ptr %idiom.args
// CHECK: store i32 0, ptr
// CHECK: store ptr %img, ptr
// CHECK: store i64 %wide.trip.count, ptr
// CHECK: store i32 2, ptr
// CHECK: store ptr @hist, ptr
// CHECK-NEXT: getelementptr
// CHECK-NEXT: store i64 1024, ptr
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

// DESC-DAG: @idiom_count_0.desc = {{.*}} { ptr @{{.*}}, ptr @{{.*}}, ptr @{{.*}}, ptr @{{.*}}, i32 0, i32 1, i32 0, i32 5, ptr null }
// DESC-DAG: c"histogram\00"
// DESC-DAG: c"{{.*}}__kernel void idiom_count_0(const long n0, __global const char *b0, __global int *b1){{.*}}atomic_add((volatile __global int *)&(b1[bin_0]){{.*}}__local int lbins[256];
