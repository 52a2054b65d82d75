// A declined run of a batched row-products nest (passes/RowProducts.h)
// frees the temporary and runs the unchanged copy: the batched nest on the
// host wrote a fresh block of every row and copied it back (doitgen on
// PoCL's machine: 20 ms of page faults a run, 0.835x). The host-time
// measurement moves with it (the copy ends it; from the versioning check,
// the failed malloc or a hint nothing is pending); the batched nest's host
// run, left unreachable, is gone after -O2, and the temporary is freed
// once on each path.
// RUN: %clang-idiom -O2 -fno-discard-value-names -S -emit-llvm %s -o - | FileCheck %s

// CHECK-LABEL: define {{.*}}void @doitgen(
// CHECK: idiom.host.end.copy:
// CHECK-NEXT: call void @idiom_host_end_site(ptr nonnull @idiom_doitgen_0.hint)
// CHECK-NOT: call void @idiom_host_end
// CHECK: %idiom.rowprod.t = {{.*}}call ptr @malloc(
// CHECK-NOT: call void @idiom_host_end
// CHECK: idiom.rowprod.tail:
// CHECK: call void @free(ptr nonnull %idiom.rowprod.t)
// CHECK-NOT: call void @idiom_host_end
// CHECK: call i32 @idiom_run(ptr nonnull @idiom_doitgen_0.desc
// CHECK: idiom.declined:
// CHECK-NEXT: call void @idiom_host_hint(
// CHECK-NEXT: %idiom.host.token = call i64 @idiom_host_begin(ptr nonnull @idiom_doitgen_0.desc)
// CHECK-NEXT: br label %[[FREE:[a-z0-9.]+]]
// CHECK: [[FREE]]:
// CHECK-NEXT: call void @free(ptr nonnull %idiom.rowprod.t)
// CHECK-NEXT: br label %{{[a-z0-9.]+}}rowprod.orig
// CHECK-NOT: call void @idiom_host_end
// CHECK-LABEL: define {{.*}} @main(
#define NR 40
#define NQ 48
#define NP 128

__attribute__((noinline)) void doitgen(double a[NR][NQ][NP],
                                       double c4[NP][NP], double sm[NP]) {
  for (int r = 0; r < NR; r++)
    for (int q = 0; q < NQ; q++) {
      for (int p = 0; p < NP; p++) {
        sm[p] = 0.0;
        for (int s = 0; s < NP; s++)
          sm[p] += a[r][q][s] * c4[s][p];
      }
      for (int p = 0; p < NP; p++)
        a[r][q][p] = sm[p];
    }
}

int main(void) { return 0; }
