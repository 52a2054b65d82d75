// A declined run of a distributed loop's first part (passes/
// LoopDistribution.h) runs the unchanged loop, all parts at once, not the
// distributed loops, which traverse the arrays once per part (Gram-Schmidt
// at 1000 x 1200 ran 13% slower on the host that way, x86-64); the
// host-time measurement moves with it. A decline of a later part runs that
// part's distributed loop (the parts before it ran on the device). The
// Gram-Schmidt kernel gs of run/loop-distribution.c.
// RUN: %clang-idiom -O2 -fno-discard-value-names -S -emit-llvm %S/../run/loop-distribution.c -o - | FileCheck %s

// The copy's exit ends the measurement of the first part's site (named by
// its hint word; -O2 sinks it with the second part's into one call after
// the loops).
// CHECK-LABEL: define {{.*}}void @gs(
// CHECK: phi ptr [ @[[FIRST:idiom_gs_[0-9]+]].hint, %{{[a-z0-9.]+}}.dist.orig ], [ @[[SECOND:idiom_gs_[0-9]+]].hint, %{{[a-z0-9.]+}} ]
// Called only while the runtime's idiom_pending_work is nonzero
// (passes/PendingGuards.h).
// CHECK-NEXT: %[[W0:idiom.pending[0-9]*]] = load atomic i32, ptr @idiom_pending_work monotonic
// CHECK-NEXT: %[[B0:idiom.pending.busy[0-9]*]] = icmp ne i32 %[[W0]], 0
// CHECK-NEXT: br i1 %[[B0]], label %[[C0:idiom.pending.call[0-9]*]], label
// CHECK: [[C0]]:
// CHECK-NEXT: call void @idiom_host_end_site(
// CHECK: [[COPY:[a-z0-9.]+\.dist\.orig]]:
// CHECK: call i32 @idiom_run(ptr nonnull @[[FIRST]].desc
// CHECK: idiom.declined{{[0-9]*}}:
// CHECK-NEXT: call void @idiom_host_hint(ptr nonnull @[[FIRST]].desc, ptr nonnull @[[FIRST]].hint,
// CHECK-NEXT: %[[TOKEN:idiom.host.token[0-9]*]] = call i64 @idiom_host_begin(ptr nonnull @[[FIRST]].desc)
// CHECK-NEXT: br label %[[FB:idiom.fallback[0-9]*]]
// A call the host hint skips takes the same way, untimed.
// CHECK: [[FB]]:
// CHECK-SAME: preds = %idiom.declined{{[0-9]*}}, %idiom.hint.skip{{[0-9]*}}
// The copy runs inside the k loop's residency region: synced first
// (when the runtime may hold device copies), over the copy's own ranges
// (passes/PartialSync.h, emitSyncOwnRanges: it runs every part, so the
// call's ranges do not cover it), filled in the block itself.
// CHECK-NOT: {{^[a-z]}}
// CHECK: store i32 0, ptr %idiom.own.ranges
// CHECK: store i32 2, ptr
// CHECK: %[[W1:idiom.pending[0-9]*]] = load atomic i32, ptr @idiom_pending_work monotonic
// CHECK-NEXT: %[[B1:idiom.pending.busy[0-9]*]] = icmp ne i32 %[[W1]], 0
// CHECK-NEXT: br i1 %[[B1]], label %[[C1:idiom.pending.call[0-9]*]], label %[[D1:idiom.pending.done[0-9]*]]
// CHECK: [[C1]]:
// CHECK-NEXT: call void @idiom_region_sync_args(ptr nonnull @[[FIRST]].desc, ptr %idiom.own.args, i32 {{[1-9]}})
// CHECK-NEXT: br label %[[D1]]
// CHECK: [[D1]]:
// CHECK-NEXT: br label %[[COPY]]
// CHECK: call i32 @idiom_run(ptr nonnull @[[SECOND]].desc
// CHECK: idiom.declined{{[0-9]*}}:
// CHECK-NEXT: call void @idiom_host_hint(
// CHECK-NEXT: call i64 @idiom_host_begin(ptr nonnull @[[SECOND]].desc)
// CHECK-NEXT: br label %[[FB2:idiom.fallback[0-9]*]]
// CHECK: [[FB2]]:
// CHECK-NEXT: %[[W2:idiom.pending[0-9]*]] = load atomic i32, ptr @idiom_pending_work monotonic
// CHECK-NEXT: %[[B2:idiom.pending.busy[0-9]*]] = icmp ne i32 %[[W2]], 0
// CHECK-NEXT: br i1 %[[B2]], label %[[C2:idiom.pending.call[0-9]*]], label %[[D2:idiom.pending.done[0-9]*]]
// CHECK: [[C2]]:
// CHECK-NEXT: call void @idiom_region_sync_args(ptr nonnull @[[SECOND]].desc,
// CHECK: [[D2]]:
// CHECK-NEXT: br label %for.body{{[0-9]+}}{{$}}
// CHECK-LABEL: define {{.*}}void @forward(
