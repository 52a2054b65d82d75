// The stitched IR of a histogram with run-time bins: the extent check (a
// reduction with two i64 results, lo and hi of the bin index) runs first;
// the histogram runs only when 0 <= lo <= hi and hi - lo < 2^24, with the
// bins buffer &bins[lo] of (hi - lo + 1) * 4 bytes and lo and the count as
// its last two arguments; otherwise the original loop runs, after
// idiom_note_fallback when the check ran and the range was refused.
// RUN: %clang-idiom -g -fno-discard-value-names -S -emit-llvm %s -o %t.ll
// RUN: FileCheck %s < %t.ll
// RUN: FileCheck %s --check-prefix=DESC < %t.ll

// CHECK-LABEL: define {{.*}}void @count(
// CHECK: %idiom.extent.ok = call i32 @idiom_run(ptr nonnull @idiom_count_0_extent.desc, ptr nonnull %idiom.check.args, i32 2,
// CHECK: %idiom.extent.lo = load i64
// CHECK: %idiom.extent.hi = load i64
// CHECK-DAG: sub i64 %idiom.extent.hi, %idiom.extent.lo
// CHECK-DAG: icmp ult i64 {{.*}}, 16777216
// CHECK-DAG: icmp sle i64 %idiom.extent.lo, %idiom.extent.hi
// CHECK-DAG: icmp sgt i64 %idiom.extent.lo, -1
// CHECK: br i1 %idiom.extent.pass, label %idiom.run, label %idiom.extent.fail
// CHECK: idiom.run:
// CHECK: %idiom.extent.ptr = getelementptr i32, ptr %bins, i64 %idiom.extent.lo
// CHECK: %idiom.extent.count = add i64 {{.*}}, 1
// CHECK: %idiom.ok = call i32 @idiom_run(ptr nonnull @idiom_count_0.desc, ptr nonnull %idiom.args, i32 5,
// CHECK: idiom.extent.fail:
// CHECK: br i1 {{.*}}, label %idiom.declined, label %idiom.extent.outside
// CHECK: idiom.extent.outside:
// CHECK: call void @idiom_note_fallback(ptr nonnull @idiom_count_0.desc, ptr nonnull @idiom_count_0_extent.why)
// CHECK-NEXT: br label %idiom.fallback
// CHECK: idiom.fallback:
// The extent check's descriptor: a reduction (kind 1) of one dimension
// with two 8-byte results.
// DESC: @idiom_count_0_extent.result_bytes = private constant [2 x i32] [i32 8, i32 8]
// DESC: @idiom_count_0_extent.idiom = {{.*}}c"histogram-runtime-bins-extent-check\00"
// DESC: @idiom_count_0_extent.desc = private constant {{.*}} i32 1, i32 1, i32 2, i32 {{[0-9]+}}, ptr @idiom_count_0_extent.result_bytes }
// DESC: @idiom_count_0_extent.why = {{.*}}c"index range empty, negative or beyond the run-time extent limit\00"
void count(const int *key, int n, int *bins) {
  for (int i = 0; i < n; i++)
    bins[key[i]]++;
}
