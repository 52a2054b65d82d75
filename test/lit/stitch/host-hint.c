// The per-site host hint (idiomrt.h, idiom_host_hint): before the runtime
// call the stitched code reads the site's hint word with a relaxed atomic
// load; when its size tag is the one of this call's iteration count
// (floor(log2) + 1 of the product of the sizes) and calls are left, it
// takes one call off the word and runs the original loop (after the
// fallback's region sync, inside a residency region) without calling
// idiom_run. The declined path asks the
// runtime for a hint (with the same key) before timing the loop.
// RUN: %clang-idiom -fno-discard-value-names -S -emit-llvm %s -o %t.ll
// RUN: FileCheck %s < %t.ll

// CHECK: @[[WORD:idiom_image_0.hint]] = private global i64 0, section ".data.idiomrt_start", align 8
// CHECK: @[[WORD2:idiom_logs_1.hint]] = private global i64 0, section ".data.idiomrt_start", align 8
// CHECK-LABEL: define {{.*}} @image(
// The guards first, then the hint.
// CHECK: br i1 %{{.*}}, label %idiom.hint, label %idiom.fallback
// CHECK: idiom.hint:
// CHECK-NEXT: %[[KEY:idiom.hint.key[0-9]*]] = mul nuw nsw i64
// CHECK-NEXT: %[[CLZ:[0-9]+]] = tail call {{.*}}i64 @llvm.ctlz.i64(i64 %[[KEY]], i1 true)
// CHECK-NEXT: %idiom.hint.tag = sub nuw nsw i64 64, %[[CLZ]]
// CHECK-NEXT: %idiom.hint.word = load atomic i64, ptr @[[WORD]] monotonic, align 8
// CHECK-DAG: icmp ugt i64 %idiom.hint.word, 255
// CHECK-DAG: %idiom.hint.t = and i64 %idiom.hint.word, 255
// CHECK-DAG: icmp eq i64 %idiom.hint.t, %idiom.hint.tag
// A work-gate hint's tag (IDIOM_HINT_BELOW, 128, plus a class) matches every
// class up to it: t >= 128 + tag, folded to 192 - clz.
// CHECK-DAG: %[[BELOW:[0-9]+]] = sub nuw nsw i64 192, %[[CLZ]]
// CHECK-DAG: icmp uge i64 %idiom.hint.t, %[[BELOW]]
// CHECK-DAG: %idiom.hint.match = or i1
// CHECK: %idiom.hint.hit = and i1
// CHECK-NEXT: br i1 %idiom.hint.hit, label %idiom.hint.skip, label %idiom.call
// CHECK: idiom.hint.skip:
// CHECK-NEXT: %[[DEC:[0-9]+]] = add i64 %idiom.hint.word, -256
// CHECK-NEXT: store atomic i64 %[[DEC]], ptr @[[WORD]] monotonic, align 8
// (inside a residency region the skip block also fills the argument array
// for the fallback's idiom_region_sync_args: PartialSync.h)
// CHECK: br label %idiom.fallback
// CHECK: idiom.call:
// CHECK: %idiom.ok = call i32 @idiom_run(
// CHECK: idiom.declined:
// CHECK-NEXT: call void @idiom_host_hint(ptr nonnull @idiom_image_0.desc, ptr nonnull @[[WORD]], i64 %[[KEY]])
// CHECK-NEXT: %idiom.host.token = call i64 @idiom_host_begin(ptr nonnull @idiom_image_0.desc)
// The skipped call runs the original loop untimed: no measurement begins
// on its path, and the exit's idiom_host_end_site (the site named by its
// word) finds none pending.
// CHECK: idiom.fallback:
// CHECK-NOT: %idiom.host.{{(desc|token)}}
// CHECK: call void @idiom_host_end_site(ptr nonnull @[[WORD]])
void image(float *out, const float *in, int h, int w) {
  for (int i = 0; i < h; i++)
    for (int j = 0; j < w; j++)
      out[i * w + j] = 2.0f * in[i * w + j];
}

// A reduction with a run-time check (the errno check of a libm call):
// one word per site covers the check and the idiom; a declined check asks
// for the hint with the check's descriptor.
// CHECK-LABEL: define {{.*}} @logs(
// CHECK: load atomic i64, ptr @[[WORD2]] monotonic
// CHECK: idiom.declined:
// CHECK-NEXT: %idiom.host.desc = phi ptr
// CHECK-NEXT: call void @idiom_host_hint(ptr nonnull %idiom.host.desc, ptr nonnull @[[WORD2]], i64 %n)
double logs(const double *x, long n) {
  double s = 0;
  for (long i = 0; i < n; i++)
    s += __builtin_log(x[i]);
  return s;
}
