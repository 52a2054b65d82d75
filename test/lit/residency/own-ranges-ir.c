// The sync before the unchanged copy of a privatised row-temporaries nest
// (RowTemporaries.h) inside a residency region: the copy writes its row
// temporaries (non-captured allocas: no range) and reads its grids over
// the rows its fill loops cover, which the call's ranges need not cover.
// It syncs its own ranges (passes/PartialSync.h, emitSyncOwnRanges): an
// array of idiom_arg filled at run time, one IN hull per pointer base read
// and one INOUT hull per base written, each a pointer that is null where
// the hull would wrap, and the array itself null where a trip count is
// negative; never the whole-table idiom_region_sync. NAS MG's psinv and
// resid shapes (nas-parboil/mg.c).
// RUN: %clang-idiom -fno-discard-value-names -S -emit-llvm %s -o %t.ll
// RUN: FileCheck %s < %t.ll
// RUN: %clang-idiom -fplugin=%plugin -fno-discard-value-names -S -emit-llvm -mllvm -idiom-residency=false %s -o - | FileCheck %s --check-prefix=OFF
// OFF-NOT: idiom_region_sync
// OFF-NOT: idiom.own.ranges

static const double c[4] = {-3.0 / 8.0, 1.0 / 32.0, -1.0 / 64.0, 0.0};
static const double a[4] = {-8.0 / 3.0, 0.0, 1.0 / 6.0, 1.0 / 12.0};

// r read (IN), u read (IN) and written (INOUT); r1 and r2 need no range.
// CHECK-LABEL: define {{.*}} @psinv_steps(
// CHECK-NOT: call void @idiom_region_sync()
// CHECK: call void @idiom_region_begin()
// CHECK-DAG: %idiom.own.args = select i1 %{{[0-9a-z.]+}}, ptr %idiom.own.ranges, ptr null
// CHECK-DAG: [[P0:%[0-9]+]] = select i1 %idiom.own.fits, ptr %{{[0-9]+}}, ptr null
// CHECK-DAG: [[P1:%[0-9]+]] = select i1 %idiom.own.fits{{[0-9]+}}, ptr %{{[0-9]+}}, ptr null
// CHECK-DAG: [[P2:%[0-9]+]] = select i1 %idiom.own.fits{{[0-9]+}}, ptr %{{[0-9]+}}, ptr null
// CHECK: {{^[a-z0-9.]+}}.rowtemp.orig:{{.*}}%idiom.declined
// CHECK-NEXT: store i32 0, ptr %idiom.own.ranges, align 8
// CHECK-NEXT: store i32 0, ptr
// CHECK-NEXT: store ptr [[P0]], ptr
// CHECK-NEXT: store i64
// CHECK-NEXT: store i32 0, ptr
// CHECK-NEXT: store i32 0, ptr
// CHECK-NEXT: store ptr [[P1]], ptr
// CHECK-NEXT: store i64
// CHECK-NEXT: store i32 2, ptr
// CHECK-NEXT: store i32 0, ptr
// CHECK-NEXT: store ptr [[P2]], ptr
// CHECK-NEXT: store i64
// CHECK-NOT: store
// CHECK: call void @idiom_region_sync_args(ptr nonnull @idiom_psinv_steps_0.desc, ptr %idiom.own.args, i32 3)
// CHECK-NOT: call void @idiom_region_sync()
// CHECK: {{^}}}
void psinv_steps(int steps, void *or, void *ou, int n1, int n2, int n3) {
  double (*r)[n2][n1] = (double (*)[n2][n1])or;
  double (*u)[n2][n1] = (double (*)[n2][n1])ou;
  double r1[1024], r2[1024];
  for (int t = 0; t < steps; t++)
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

// u and v read (IN), r written (INOUT, stores only); u1 and u2 need no
// range.
// CHECK-LABEL: define {{.*}} @resid_steps(
// CHECK-NOT: call void @idiom_region_sync()
// CHECK: call void @idiom_region_begin()
// CHECK: {{^[a-z0-9.]+}}.rowtemp.orig:{{.*}}%idiom.declined
// CHECK-NEXT: store i32 0, ptr %idiom.own.ranges, align 8
// CHECK-NEXT: store i32 0, ptr
// CHECK-NEXT: store ptr
// CHECK-NEXT: store i64
// CHECK-NEXT: store i32 0, ptr
// CHECK-NEXT: store i32 0, ptr
// CHECK-NEXT: store ptr
// CHECK-NEXT: store i64
// CHECK-NEXT: store i32 2, ptr
// CHECK-NEXT: store i32 0, ptr
// CHECK-NEXT: store ptr
// CHECK-NEXT: store i64
// CHECK-NOT: store
// CHECK: call void @idiom_region_sync_args(ptr nonnull @idiom_resid_steps_1.desc, ptr %idiom.own.args, i32 3)
// CHECK-NOT: call void @idiom_region_sync()
// CHECK: {{^}}}
void resid_steps(int steps, void *ou, void *ov, void *or, int n1, int n2,
                 int n3) {
  double (*u)[n2][n1] = (double (*)[n2][n1])ou;
  double (*v)[n2][n1] = (double (*)[n2][n1])ov;
  double (*r)[n2][n1] = (double (*)[n2][n1])or;
  double u1[1024], u2[1024];
  for (int t = 0; t < steps; t++)
    for (int i3 = 1; i3 < n3 - 1; i3++)
      for (int i2 = 1; i2 < n2 - 1; i2++) {
        for (int i1 = 0; i1 < n1; i1++) {
          u1[i1] = u[i3][i2 - 1][i1] + u[i3][i2 + 1][i1] + u[i3 - 1][i2][i1] +
                   u[i3 + 1][i2][i1];
          u2[i1] = u[i3 - 1][i2 - 1][i1] + u[i3 - 1][i2 + 1][i1] +
                   u[i3 + 1][i2 - 1][i1] + u[i3 + 1][i2 + 1][i1];
        }
        for (int i1 = 1; i1 < n1 - 1; i1++)
          r[i3][i2][i1] = v[i3][i2][i1] - a[0] * u[i3][i2][i1] -
                          a[2] * (u2[i1] + u1[i1 - 1] + u1[i1 + 1]) -
                          a[3] * (u2[i1 - 1] + u2[i1 + 1]);
      }
}
