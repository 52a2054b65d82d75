// Where a stitched site's dispatch path goes (passes/DispatchOutline.h,
// -idiom-dispatch-layout), after the pending guards at OptimizerLast:
// - inline (the default): in place, as stitched: the function calls
//   idiom_run itself and no function is outlined;
// - unlikely: in place, the branch into it weighted unlikely and its
//   runtime calls cold;
// - outline: each site's path (argument fill, errno check, idiom_run,
//   result combine, decline bookkeeping) in an internal noinline cold
//   function "idiom-dispatch" of its own; the caller keeps the hint check,
//   the call, the original loop and the join. A path that holds a second
//   idiom_run (the errno check's, then the map's) is one function. Running
//   opt's idiom-regions pass (the LTO step) over outlined code outlines
//   nothing again. Run: test/lit/run/dispatch-layout.c.
// RUN: %clang-idiom -fno-discard-value-names -S -emit-llvm %s -o - | FileCheck %s --check-prefix=INLINE
// RUN: %clang-idiom -fplugin=%plugin -mllvm -idiom-dispatch-layout=inline -fno-discard-value-names -S -emit-llvm %s -o - | FileCheck %s --check-prefix=INLINE
// RUN: %clang-idiom -fplugin=%plugin -mllvm -idiom-dispatch-layout=unlikely -fno-discard-value-names -S -emit-llvm %s -o - | FileCheck %s --check-prefix=UNLIKELY
// RUN: %clang-idiom -fplugin=%plugin -mllvm -idiom-dispatch-layout=outline -fno-discard-value-names -S -emit-llvm %s -o %t.ll
// RUN: FileCheck %s --check-prefix=OUTLINE < %t.ll
// RUN: %opt -passes=idiom-regions -idiom-dispatch-layout=outline -S %t.ll -o - | FileCheck %s --check-prefix=OUTLINE
// RUN: %opt -passes=verify -disable-output %t.ll
#include <math.h>

// INLINE-NOT: idiom.dispatch
// INLINE-LABEL: define {{.*}} @dot(
// INLINE: %idiom.ok = call i32 @idiom_run(ptr nonnull @idiom_dot_0.desc,
// INLINE-LABEL: define {{.*}} @roots(
// INLINE: call i32 @idiom_run(ptr nonnull @idiom_roots_1_errno.desc,
// INLINE: call i32 @idiom_run(ptr nonnull @idiom_roots_1.desc,

// UNLIKELY-LABEL: define {{.*}} @dot(
// UNLIKELY: br i1 %idiom.hint.hit, label %idiom.hint.skip, label %idiom.call, !prof ![[LIKELY:[0-9]+]]
// UNLIKELY: idiom.call:
// UNLIKELY: call void @idiom_work_hint({{.*}}) #[[COLD:[0-9]+]]
// UNLIKELY-NEXT: %idiom.ok = call i32 @idiom_run(ptr nonnull @idiom_dot_0.desc, {{.*}}) #[[COLD]]
// UNLIKELY: idiom.declined:
// UNLIKELY-NEXT: call void @idiom_host_hint({{.*}}) #[[COLD]]
// UNLIKELY-NEXT: call i64 @idiom_host_begin({{.*}}) #[[COLD]]
// UNLIKELY: idiom.fallback:
// UNLIKELY-NEXT: %idiom.sync.args = phi ptr
// UNLIKELY-NEXT: %idiom.sync.desc = phi ptr
// UNLIKELY-NEXT: call void @idiom_region_sync_args(ptr %idiom.sync.desc, ptr %idiom.sync.args, i32 3){{$}}
// UNLIKELY-LABEL: define {{.*}} @roots(
// UNLIKELY: br i1 %idiom.hint.hit, label %idiom.hint.skip, label %idiom.call, !prof ![[LIKELY]]
// UNLIKELY: call i32 @idiom_run(ptr nonnull @idiom_roots_1_errno.desc, {{.*}}) #[[COLD]]
// UNLIKELY: call i32 @idiom_run(ptr nonnull @idiom_roots_1.desc, {{.*}}) #[[COLD]]
// UNLIKELY: call void @idiom_note_fallback({{.*}}) #[[COLD]]
// UNLIKELY: attributes #[[COLD]] = { cold }
// UNLIKELY: ![[LIKELY]] = !{!"branch_weights", i32 1048575, i32 1}

// The caller: the hint check, one call of the outlined path (its arrays go
// with it, but the argument array, which the hint's skip block also fills
// for the fallback's sync of its own ranges), a branch on its exit (the
// original loop, or the join with the reduction's result reloaded), the
// loop.
// OUTLINE-LABEL: define {{.*}} @dot(
// OUTLINE-NEXT: entry:
// OUTLINE: %[[OUT:[a-z0-9.]+]] = alloca double
// OUTLINE-NEXT: %idiom.args = alloca [3 x
// OUTLINE-NOT: alloca
// OUTLINE-NOT: @idiom_run
// OUTLINE: br i1 %idiom.hint.hit, label %idiom.hint.skip, label %[[REPL:[a-zA-Z0-9.]+]]
// OUTLINE: [[REPL]]:
// OUTLINE: %[[RET:[a-zA-Z0-9.]+]] = call i1 @dot.idiom.dispatch({{.*}}ptr %[[OUT]]{{.*}})
// OUTLINE: %[[RES:[a-zA-Z0-9.]+]] = load double, ptr %[[OUT]]
// OUTLINE: br i1 %[[RET]], label %idiom.fallback, label %for.cond.cleanup
// OUTLINE-NOT: @idiom_run
// OUTLINE: phi double {{.*}}[ %[[RES]], %[[REPL]] ]
// OUTLINE-LABEL: define {{.*}} @roots(
// OUTLINE-NOT: alloca
// OUTLINE-NOT: @idiom_run
// OUTLINE: call i1 @roots.idiom.dispatch(i64 %n, ptr %x, ptr %y)
// OUTLINE-NOT: @idiom_run
// OUTLINE: ret void
// The outlined paths, after the functions they came from: true leads to the
// original loop (a decline, a redo, a raised errno flag).
// OUTLINE: define internal i1 @dot.idiom.dispatch({{.*}}, ptr %.out{{.*}}) #[[ATTR:[0-9]+]]
// OUTLINE: alloca [2 x i64]
// OUTLINE: %idiom.ok = call i32 @idiom_run(ptr nonnull @idiom_dot_0.desc,
// OUTLINE: store double %{{.*}}, ptr %.out
// OUTLINE: call void @idiom_host_hint(
// OUTLINE: call i64 @idiom_host_begin(
// OUTLINE: ret i1 true
// OUTLINE: ret i1 false
// OUTLINE: define internal i1 @roots.idiom.dispatch(i64 %n, ptr %x, ptr %y) #[[ATTR2:[0-9]+]]
// OUTLINE: call i32 @idiom_run(ptr nonnull @idiom_roots_1_errno.desc,
// OUTLINE: call void @idiom_note_fallback(
// OUTLINE: call i32 @idiom_run(ptr nonnull @idiom_roots_1.desc,
// OUTLINE-NOT: define internal {{.*}}idiom.dispatch
// OUTLINE: attributes #[[ATTR]] = { cold noinline {{.*}}"idiom-dispatch"
// OUTLINE: attributes #[[ATTR2]] = { cold noinline {{.*}}"idiom-dispatch"

double dot(const double *a, const double *b, long n) {
  double s = 0;
  for (long i = 0; i < n; i++)
    s += a[i] * b[i];
  return s;
}

void roots(double *y, const double *x, long n) {
  for (long i = 0; i < n; i++)
    y[i] = sqrt(x[i]);
}
