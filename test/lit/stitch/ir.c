// The stitched IR: the runtime call in front of the loop, the fallback edge
// into the original loop (still there), and the reduction's result combined
// with the accumulator's initial value on the offloaded path.
// RUN: %clang-idiom -g -fno-discard-value-names -S -emit-llvm %s -o %t.ll
// RUN: FileCheck %s < %t.ll
// RUN: FileCheck %s --check-prefix=DESC < %t.ll

// CHECK-LABEL: define {{.*}} @sum(
// CHECK: %idiom.ok = call i32 @idiom_run(ptr {{.*}}@idiom_sum_0.desc
// CHECK-NEXT: icmp {{.*}} %idiom.ok, 0
// CHECK-NEXT: br i1 {{.*}}, label %idiom.{{(done|declined)}}, label %idiom.{{(done|declined)}}
// CHECK: idiom.done:
// CHECK-NEXT: %idiom.result = load i64
// CHECK-NEXT: add i64 %idiom.result, %start
// A decline runs the original loop, timed for the runtime's cost model,
// after asking for a host hint (test/lit/stitch/host-hint.c).
// CHECK: idiom.declined:
// CHECK-NEXT: call void @idiom_host_hint(ptr nonnull @idiom_sum_0.desc, ptr nonnull @idiom_sum_0.hint, i64 %n)
// CHECK-NEXT: %idiom.host.token = call i64 @idiom_host_begin(ptr nonnull @idiom_sum_0.desc)
// The original loop is still in the function.
// CHECK: br i1 %{{.*}}, label %{{.*}}, label %{{.*}}, !llvm.loop
// Its exit ends the measurement: the site's hint word names it, a constant
// (no token or descriptor live across the loop).
// CHECK-NOT: %idiom.host.{{(desc|token)}}
// CHECK: call void @idiom_host_end_site(ptr nonnull @idiom_sum_0.hint)
long sum(const long *x, long n, long start) {
  long s = start;
  for (long i = 0; i < n; i++)
    s += x[i];
  return s;
}

// CHECK-LABEL: define {{.*}} @scale(
// CHECK: call i32 @idiom_run(ptr {{.*}}@idiom_scale_1.desc
// CHECK: idiom.declined:
void scale(double *y, const double *x, double a, int n) {
  for (int i = 0; i < n; i++)
    y[i] = a * x[i];
}

// A 2-D nest whose inner loop is guarded by w > 0: the guard is tested
// before the call, and the runtime is told both trip counts.
// CHECK-LABEL: define {{.*}} @image(
// CHECK: br i1 %{{.*}}, label %idiom.hint, label %idiom.fallback
// CHECK: call i32 @idiom_run(ptr {{.*}}@idiom_image_2.desc
// Only the declined path begins a measurement; the path from the failed
// guard runs the loop untimed (idiom_host_end_site finds nothing pending).
// CHECK: idiom.declined:
// CHECK-NEXT: call void @idiom_host_hint(
// CHECK-NEXT: %idiom.host.token = call i64 @idiom_host_begin(ptr nonnull @idiom_image_2.desc)
// CHECK-NEXT: br label %idiom.fallback
// The exit names the site by its hint word, not its descriptor: a guard
// that folds to "never offload" leaves no reference to the descriptor and
// its kernel source.
// CHECK: idiom.fallback:
// CHECK-NOT: %idiom.host.{{(desc|token)}}
// CHECK: call void @idiom_host_end_site(ptr nonnull @idiom_image_2.hint)
void image(float *out, const float *in, int h, int w) {
  for (int i = 0; i < h; i++)
    for (int j = 0; j < w; j++)
      out[i * w + j] = 2.0f * in[i * w + j];
}

// The descriptors carry the source location and idiom name.
// DESC-DAG: c"ir.c:{{[0-9]+}}\00"
// DESC-DAG: c"scalar-reduction\00"
// DESC-DAG: c"map\00"
// DESC-DAG: c"{{.*}}__kernel void idiom_sum_0_partial(
// DESC-DAG: @idiom_sum_0.desc = private constant {{.*}} i32 1, i32 1, i32 1, i32 {{[0-9]+}}, ptr @idiom_sum_0.result_bytes
// DESC-DAG: @idiom_image_2.desc = private constant {{.*}} i32 0, i32 2, i32 0, i32 {{[0-9]+}}, ptr null
