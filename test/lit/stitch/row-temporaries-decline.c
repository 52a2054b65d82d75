// A declined run of a privatised row-temporaries nest (passes/
// RowTemporaries.h) runs the unchanged copy, which fills its row
// temporaries once per row, not the privatised nest, which recomputes each
// sum at every read (NAS MG's resid ran 25% slower that way on the host).
// The host-time measurement (idiom_host_begin, idiom_host_end_site) moves
// with it: the copy ends it, from a decline (begun by idiom_host_begin) or
// from the versioning check or a hint (nothing pending: nothing measured);
// the privatised nest, left unreachable, is gone after -O2.
// RUN: %clang-idiom -O2 -fno-discard-value-names -S -emit-llvm %s -o - | FileCheck %s

// CHECK-LABEL: define {{.*}}void @psinv(
// CHECK: [[COPY:[a-z0-9.]+\.rowtemp\.orig]]:
// CHECK-SAME: %idiom.declined
// CHECK-NOT: call void @idiom_host_end
// CHECK: idiom.host.end.copy:
// CHECK-NEXT: call void @idiom_host_end_site(ptr nonnull @idiom_psinv_0.hint)
// CHECK-NOT: call void @idiom_host_end
// CHECK: call i32 @idiom_run(ptr nonnull @idiom_psinv_0.desc
// CHECK: idiom.declined:
// CHECK-NEXT: call void @idiom_host_hint(
// CHECK-NEXT: %idiom.host.token = call i64 @idiom_host_begin(ptr nonnull @idiom_psinv_0.desc)
// CHECK-NEXT: br label %[[COPY]]
// CHECK-NOT: call void @idiom_host_end
// CHECK-LABEL: define {{.*}} @main(
static const double c[4] = {-3.0 / 8.0, 1.0 / 32.0, -1.0 / 64.0, 0.0};

__attribute__((noinline)) void psinv(void *or, void *ou, int n1, int n2, int n3) {
  double (*r)[n2][n1] = (double (*)[n2][n1])or;
  double (*u)[n2][n1] = (double (*)[n2][n1])ou;
  double r1[1024], r2[1024];
  for (int i3 = 1; i3 < n3 - 1; i3++)
    for (int i2 = 1; i2 < n2 - 1; i2++) {
      for (int i1 = 0; i1 < n1; i1++) {
        r1[i1] = r[i3][i2 - 1][i1] + r[i3][i2 + 1][i1] + r[i3 - 1][i2][i1] +
                 r[i3 + 1][i2][i1];
        r2[i1] = r[i3 - 1][i2 - 1][i1] + r[i3 - 1][i2 + 1][i1] +
                 r[i3 + 1][i2 - 1][i1] + r[i3 + 1][i2 + 1][i1];
      }
      for (int i1 = 1; i1 < n1 - 1; i1++)
        u[i3][i2][i1] = u[i3][i2][i1] + c[0] * r[i3][i2][i1] +
                        c[1] * (r[i3][i2][i1 - 1] + r[i3][i2][i1 + 1] + r1[i1]) +
                        c[2] * (r2[i1] + r1[i1 - 1] + r1[i1 + 1]);
    }
}

int main(void) { return 0; }
