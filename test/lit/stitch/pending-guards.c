// The runtime calls around a fallback loop (idiom_region_sync, here
// idiom_region_sync_args, before it
// inside a residency region, idiom_host_end_site after it, and
// idiom_region_load of a host read of a region buffer) are made, inside a
// loop, only while the runtime's idiom_pending_work is nonzero: a relaxed
// atomic load and a branch in front of each, the call in a block of its
// own weighted as unlikely (passes/PendingGuards.h); outside loops (the
// initialisation's site, run once) they stay as they were. With
// -idiom-pending-guards=false the
// calls are made unconditionally, as before; opt's idiom-regions pass over
// guarded code adds no second guard. The program: bench/policy_tiny.c (a
// 4096-float map in a time loop, y[r % N] read on the host). Run with both
// sides of the condition: run/pending-guards.c.
// RUN: %clang-idiom -fno-discard-value-names -S -emit-llvm %srcroot/bench/policy_tiny.c -o %t.ll
// RUN: FileCheck %s < %t.ll
// RUN: %clang-idiom -fplugin=%plugin -mllvm -idiom-pending-guards=false -fno-discard-value-names -S -emit-llvm %srcroot/bench/policy_tiny.c -o - | FileCheck %s --check-prefix=OFF
// RUN: %opt -passes=idiom-regions -S %t.ll -o - | FileCheck %s --check-prefix=TWICE

// The word is defined weakly right after the module's hint words (the
// runtime's definition is weak too), so that it shares their cache line;
// dso_local in an executable (loads address it directly), not in code for
// a shared object (-fPIC: through the GOT, to the one word kept).
// RUN: %clang-idiom -fPIC -S -emit-llvm %srcroot/bench/policy_tiny.c -o - | FileCheck %s --check-prefix=PIC
// PIC: @idiom_pending_work = weak global i32 0, section ".data.idiomrt_start", align 4
// CHECK: @idiom_main_1.hint = private global i64 0, section ".data.idiomrt_start", align 8
// CHECK-NEXT: @idiom_pending_work = weak dso_local global i32 0, section ".data.idiomrt_start", align 4
// CHECK-LABEL: define {{.*}} @main(
// The initialisation's site, outside any loop: its calls unguarded.
// CHECK: call void @idiom_region_sync_args(ptr nonnull @idiom_main_0.desc, ptr nonnull @idiom_main_0.args, i32 2){{$}}
// CHECK-NOT: idiom_pending_work
// CHECK: call void @idiom_host_end_site(ptr nonnull @idiom_main_0.hint){{$}}
// CHECK-NOT: idiom_pending_work
// CHECK: call void @idiom_region_begin()
// The fallback of the map: synced first, when the runtime may hold copies.
// CHECK: idiom.fallback{{[0-9]*}}:
// CHECK-NEXT: %[[W1:idiom.pending[0-9]*]] = load atomic i32, ptr @idiom_pending_work monotonic, align 4
// CHECK-NEXT: %[[B1:idiom.pending.busy[0-9]*]] = icmp ne i32 %[[W1]], 0
// CHECK-NEXT: br i1 %[[B1]], label %[[C1:idiom.pending.call[0-9]*]], label %[[D1:idiom.pending.done[0-9]*]], !prof ![[UNLIKELY:[0-9]+]]
// CHECK: [[C1]]:
// CHECK-NEXT: call void @idiom_region_sync_args(ptr nonnull @idiom_main_1.desc, ptr nonnull @idiom_main_1.args, i32 2), !idiom.pending.guarded
// CHECK-NEXT: br label %[[D1]]
// After the loop: the measurement of a declined call ends.
// CHECK: %[[W2:idiom.pending[0-9]*]] = load atomic i32, ptr @idiom_pending_work monotonic, align 4
// CHECK-NEXT: %[[B2:idiom.pending.busy[0-9]*]] = icmp ne i32 %[[W2]], 0
// CHECK-NEXT: br i1 %[[B2]], label %[[C2:idiom.pending.call[0-9]*]], label %{{[a-z0-9.]+}}, !prof ![[UNLIKELY]]
// CHECK: [[C2]]:
// CHECK-NEXT: call void @idiom_host_end_site(ptr nonnull @idiom_main_{{[0-9]+}}.hint), !idiom.pending.guarded
// The host's read of y[r % N] in the region.
// CHECK: %[[W3:idiom.pending[0-9]*]] = load atomic i32, ptr @idiom_pending_work monotonic, align 4
// CHECK-NEXT: %[[B3:idiom.pending.busy[0-9]*]] = icmp ne i32 %[[W3]], 0
// CHECK-NEXT: br i1 %[[B3]], label %[[C3:idiom.pending.call[0-9]*]], label %{{[a-z0-9.]+}}, !prof ![[UNLIKELY]]
// CHECK: [[C3]]:
// CHECK-NEXT: call void @idiom_region_load(ptr {{.*}}, i64 4, i64 0, i64 1), !idiom.pending.guarded
// CHECK: ![[UNLIKELY]] = !{!"branch_weights", i32 1, i32 2000}

// OFF-LABEL: define {{.*}} @main(
// OFF-NOT: idiom_pending_work
// OFF: idiom.fallback{{[0-9]*}}:
// OFF-NEXT: call void @idiom_region_sync_args(
// OFF: call void @idiom_host_end_site(
// OFF: call void @idiom_region_load(
// OFF-NOT: idiom_pending_work

// Each call in the time loop keeps one guard: two for the map's site, one
// for the read.
// TWICE-LABEL: define {{.*}} @main(
// TWICE-COUNT-3: load atomic i32, ptr @idiom_pending_work
// TWICE-NOT: load atomic i32, ptr @idiom_pending_work
