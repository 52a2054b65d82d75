// rms[m] += d*d with m innermost (5 components) in a k/j/i nest, rms through
// a pointer (NAS SP/BT's rhs_norm): -O2 unrolls m and keeps each rms[m] in
// a phi carried through the three loops, storing it back every iteration
// (StoredResult). One 3-D reduction of 5 sums; the stitched code checks that
// rms lies outside the grid's range, stores the 5 sums after the call, and
// the post-loop sqrt stays on the host.
// Negatives: a component count that is not a constant, or too large to
// unroll, leaves a 4-deep nest ("deeper than three"); a second store of the
// running value elsewhere is not a stored result.
// RUN: %clang -O2 -g -S -emit-llvm %s -o %t.ll
// RUN: %opt -passes='loop-simplify,lcssa,print<idiom>' -disable-output %t.ll | FileCheck %s
// RUN: %clang-idiom -c %s -o /dev/null -Rpass=idiom-offload -Rpass-missed=idiom-offload 2>&1 | FileCheck %s --check-prefix=REMARK
// RUN: %clang-idiom -S -emit-llvm %s -o - | FileCheck %s --check-prefix=IR
#define N 24

// CHECK-LABEL: Idioms in function 'rms_norm'
// CHECK: idiom scalar-reduction-3d (3-D scalar reduction)
// CHECK: FunIL:
// CHECK-NEXT: idiom idiom_rms_norm_0(n0: i64, n1: i64, n2: i64, b0: [f64]{{.*}}) {
// CHECK-NEXT: return reduce(\(a: (f64, f64, f64, f64, f64), b: (f64, f64, f64, f64, f64)) => (fadd(a.0, b.0), fadd(a.1, b.1), fadd(a.2, b.2), fadd(a.3, b.3), fadd(a.4, b.4)), {{.*}}, join(join(view(b0, {{.*}})))));
// REMARK: rms-3d.c:[[@LINE+13]]:3: remark: offloaded 3-D scalar reduction (scalar-reduction-3d) to OpenCL as idiom_rms_norm_0 with 5 accumulator(s): fadd fadd fadd fadd fadd
// The overlap checks (max(lo - (a + 8), a - hi) >= 0 per stored element),
// then the sums stored back after the call, before the original nest.
// IR-LABEL: define {{.*}} @rms_norm(
// IR: call i64 @llvm.smax.i64(
// IR: call i32 @idiom_run(
// IR: store {{(<2 x )?}}double
// The original nest (a caller's region may hold a and rms) syncs its own
// ranges: a read, rms written (passes/PartialSync.h, emitSyncOwnRanges).
// IR: call void @idiom_region_sync_args(ptr nonnull @idiom_rms_norm_0.desc, ptr %{{[0-9a-z.]+}}, i32 2)
void rms_norm(int nx, int ny, int nz, double (*a)[N][N][5], double *rms) {
  for (int m = 0; m < 5; m++)
    rms[m] = 0.0;
  for (int k = 1; k <= nz - 2; k++)
    for (int j = 1; j <= ny - 2; j++)
      for (int i = 1; i <= nx - 2; i++)
        for (int m = 0; m < 5; m++) {
          double add = a[k][j][i][m];
          rms[m] = rms[m] + add * add;
        }
}

// REMARK: rms-3d.c:[[@LINE+2]]:3: remark: loop is not an idiom (closest: scalar-reduction-2d): {{.*}}Nest(loop): loop nest is deeper than three or not perfectly nested
void rms_var(int nx, int mm, double (*a)[N][N][5], double *rms) {
  for (int k = 1; k <= nx - 2; k++)
    for (int j = 1; j <= nx - 2; j++)
      for (int i = 1; i <= nx - 2; i++)
        for (int m = 0; m < mm; m++)
          rms[m] = rms[m] + a[k][j][i][m] * a[k][j][i][m];
}

// REMARK: rms-3d.c:[[@LINE+2]]:3: remark: loop is not an idiom (closest: scalar-reduction-2d): {{.*}}Nest(loop): loop nest is deeper than three or not perfectly nested
void rms_big(int nx, double (*a)[N][N][40], double *rms) {
  for (int k = 1; k <= nx - 2; k++)
    for (int j = 1; j <= nx - 2; j++)
      for (int i = 1; i <= nx - 2; i++)
        for (int m = 0; m < 40; m++)
          rms[m] = rms[m] + a[k][j][i][m] * a[k][j][i][m];
}

// REMARK: rms-3d.c:[[@LINE+3]]:3: remark: loop is not an idiom
// REMARK-NOT: rms-3d.c:[[@LINE+2]]:3: remark: offloaded
void rms_read(int nx, double (*a)[N][N][5], double *rms, double *w) {
  for (int k = 1; k <= nx - 2; k++)
    for (int j = 1; j <= nx - 2; j++)
      for (int i = 1; i <= nx - 2; i++)
        for (int m = 0; m < 5; m++) {
          rms[m] = rms[m] + a[k][j][i][m] * a[k][j][i][m];
          w[m] = rms[m] * 2;
        }
}
