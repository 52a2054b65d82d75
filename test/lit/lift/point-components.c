// Arrays of points of C components, u[k][j][i][m] with m = 0..4 (NAS SP and
// BT, issue 13): a nest over the points that writes the 5 components of one
// point in 5 statements is a map with 5 outputs, each a view of stride 5
// (a component stride, as the stride-2 views of complex numbers); reads of
// neighbours at constant offsets in i, j or k and at component offsets are
// views too. -O2 carries u[k][j][i+1][m] of one iteration to u[k][j][i][m]
// of the next in phis (GVN): the map reads each such phi as the element it
// holds (ForwardedRead). A boundary row (fixed i) is a 2-D map over (k, j).
// Negatives: rhs read at a neighbour point (a dependence), a component
// offset outside the point (writing the next point's component 0), and a
// forwarded read of the array the nest writes.
// RUN: %clang -O2 -g -fno-vectorize -fno-slp-vectorize -S -emit-llvm %s -o %t.ll
// RUN: %opt -passes='loop-simplify,lcssa,print<idiom>' -disable-output %t.ll | FileCheck %s
// RUN: %clang-idiom -g -fno-vectorize -fno-slp-vectorize -c %s -o /dev/null -Rpass=idiom-offload -Rpass-missed=idiom-offload 2>&1 | FileCheck %s --check-prefix=REMARK
// RUN: %clang-idiom -g -fno-vectorize -fno-slp-vectorize -fplugin=%plugin -mllvm -idiom-test-corrupt-lift -c %s -o /dev/null -Rpass-missed=idiom-offload 2>&1 | FileCheck %s --check-prefix=BAD

#define N 24
double u[N][N][N][5], rhs[N][N][N][5], us[N][N][N];

// The xi-direction flux of NAS SP's compute_rhs (shortened): the first and
// last components read neighbours i +- 1 at component offsets 0, 1 and 4.
// CHECK-LABEL: Idioms in function 'xi_flux'
// CHECK: idiom map (3-D map)
// The five outputs: views of stride 5 at component offsets 0 .. 4 (a plane
// 2880 = 24 * 24 * 5 elements, a row 120); u[k][j][i-1][0] (a forwarded
// read) at offset 0 and u[k][j][i+1][0] at offset 10 from u[1][1][1][0].
// CHECK: store (view(b0, 0:i64, 2880:i64, 22:i64, 120:i64, 22:i64, 5:i64, 22:i64), view(b0, 1:i64, {{[^)]*}}), view(b0, 2:i64, {{[^)]*}}), view(b0, 3:i64, {{[^)]*}}), view(b0, 4:i64, 2880:i64, 22:i64, 120:i64, 22:i64, 5:i64, 22:i64)) = map(
// CHECK-SAME: view(b1, 0:i64, 2880:i64, 22:i64, 120:i64, 22:i64, 5:i64, 22:i64)
// CHECK-SAME: view(b1, 10:i64, 2880:i64, 22:i64, 120:i64, 22:i64, 5:i64, 22:i64)
// CHECK: OpenCL:
// CHECK-NOT: not offloaded
// REMARK: point-components.c:[[@LINE+4]]:3: remark: offloaded 3-D map (map)
// Translation validation covers the five components, forwarded reads included:
// BAD: point-components.c:[[@LINE+2]]:3: remark: idiom map not offloaded: translation validation failed: {{Z3 found inputs|equivalence .* not proven}}
void xi_flux(int nx, int ny, int nz, double c1, double tx2) {
  for (int k = 1; k < N - 1; k++)
    for (int j = 1; j < N - 1; j++)
      for (int i = 1; i < N - 1; i++) {
        double up1 = us[k][j][i + 1], um1 = us[k][j][i - 1];
        rhs[k][j][i][0] = rhs[k][j][i][0] +
            c1 * (u[k][j][i + 1][0] - 2.0 * u[k][j][i][0] + u[k][j][i - 1][0]) -
            tx2 * (u[k][j][i + 1][1] - u[k][j][i - 1][1]);
        rhs[k][j][i][1] = rhs[k][j][i][1] -
            tx2 * (u[k][j][i + 1][1] * up1 - u[k][j][i - 1][1] * um1);
        rhs[k][j][i][2] = rhs[k][j][i][2] + c1 * u[k][j][i][2];
        rhs[k][j][i][3] = rhs[k][j][i][3] + c1 * u[k][j][i][3];
        rhs[k][j][i][4] = rhs[k][j][i][4] +
            c1 * (u[k][j][i + 1][4] - 2.0 * u[k][j][i][4] + u[k][j][i - 1][4]);
      }
}

// A boundary row, i = 1, treated apart: a 2-D map over (k, j), the m loop
// unrolled by -O2 into 5 stores.
// CHECK-LABEL: Idioms in function 'boundary_row'
// CHECK: idiom map (2-D map)
// CHECK-NOT: not offloaded
// REMARK: point-components.c:[[@LINE+2]]:3: remark: offloaded 2-D map (map)
void boundary_row(double dssp) {
  for (int k = 1; k < N - 1; k++)
    for (int j = 1; j < N - 1; j++) {
      int i = 1;
      for (int m = 0; m < 5; m++)
        rhs[k][j][i][m] = rhs[k][j][i][m] -
            dssp * (5.0 * u[k][j][i][m] - 4.0 * u[k][j][i + 1][m] + u[k][j][i + 2][m]);
    }
}

// In place, a point at a time: rhs read and written at the same point only.
// CHECK-LABEL: Idioms in function 'scale'
// CHECK: idiom map (3-D map)
// CHECK-NOT: not offloaded
// REMARK: point-components.c:[[@LINE+2]]:3: remark: offloaded 3-D map (map)
void scale(double dt) {
  for (int k = 1; k < N - 1; k++)
    for (int j = 1; j < N - 1; j++)
      for (int i = 1; i < N - 1; i++)
        for (int m = 0; m < 5; m++)
          rhs[k][j][i][m] = rhs[k][j][i][m] * dt;
}

// Partial component writes: components 0 and 3 only; the others keep their
// values (the output is not dense: only changed bytes are written back).
// CHECK-LABEL: Idioms in function 'partial'
// CHECK: idiom map (3-D map)
// CHECK-NOT: not offloaded
// REMARK: point-components.c:[[@LINE+2]]:3: remark: offloaded 3-D map (map)
void partial(double c) {
  for (int k = 1; k < N - 1; k++)
    for (int j = 1; j < N - 1; j++)
      for (int i = 1; i < N - 1; i++) {
        rhs[k][j][i][0] = c * (u[k][j][i + 1][0] - u[k][j][i - 1][0]);
        rhs[k][j][i][3] = c * (u[k][j][i + 1][3] - u[k][j][i - 1][3]);
      }
}

// VLA parameters: offsets such as n * (40 + 40 n) bytes are whole elements
// (a factor of the product is).
// CHECK-LABEL: Idioms in function 'vla'
// CHECK: idiom map (3-D map)
// CHECK-NOT: not offloaded
// REMARK: point-components.c:[[@LINE+2]]:3: remark: offloaded 3-D map (map)
void vla(int n, double a[n][n][n][5], double r[n][n][n][5], double c) {
  for (int k = 1; k < n - 1; k++)
    for (int j = 1; j < n - 1; j++)
      for (int i = 1; i < n - 1; i++)
        for (int m = 0; m < 5; m++)
          r[k][j][i][m] = r[k][j][i][m] + c * (a[k][j][i + 1][m] - a[k][j][i - 1][m]);
}

// rhs read at a neighbour point while the nest writes it: the value stored
// in the previous iteration is carried to the next (a recurrence).
// CHECK-LABEL: Idioms in function 'neighbour_rhs'
// CHECK-NOT: idiom map
// REMARK: point-components.c:[[@LINE+3]]:3: remark: loop is not an idiom {{.*}}InductionPhi(phi, loop): phi is not an induction variable: it carries the value stored in the previous iteration (a loop-carried dependence: the nest reads an element it wrote)
// REMARK-NOT: point-components.c:[[@LINE+2]]:3: remark: offloaded
void neighbour_rhs(double c) {
  for (int k = 1; k < N - 1; k++)
    for (int j = 1; j < N - 1; j++)
      for (int i = 1; i < N - 1; i++)
        for (int m = 0; m < 5; m++)
          rhs[k][j][i][m] = rhs[k][j][i - 1][m] + c * u[k][j][i][m];
}

// A component offset outside the point: m runs to 5, so each point also
// writes the next point's component 0 (an output dependence).
// CHECK-LABEL: Idioms in function 'outside_point'
// CHECK-NOT: idiom map
// REMARK: point-components.c:[[@LINE+3]]:3: remark: loop is not an idiom {{.*}}NoLoopCarriedDependence(loop): loop-carried dependence between a store and another access of the same array (output dependence: two stores)
// REMARK-NOT: point-components.c:[[@LINE+2]]:3: remark: offloaded
void outside_point(double c) {
  for (int k = 1; k < N - 1; k++)
    for (int j = 1; j < N - 1; j++)
      for (int i = 1; i < N - 1; i++)
        for (int m = 0; m < 6; m++)
          rhs[k][j][i][m] = c * u[k][j][i][m];
}

// The next point's component 0 read while this point's is written: the
// next iteration writes what this one read (a store and a load).
// CHECK-LABEL: Idioms in function 'reads_next_point'
// CHECK-NOT: idiom map
// REMARK: point-components.c:[[@LINE+3]]:3: remark: loop is not an idiom {{.*}}NoLoopCarriedDependence(loop): loop-carried dependence between a store and another access of the same array (a store and a load)
// REMARK-NOT: point-components.c:[[@LINE+2]]:3: remark: offloaded
void reads_next_point(double c) {
  for (int k = 1; k < N - 1; k++)
    for (int j = 1; j < N - 1; j++)
      for (int i = 1; i < N - 1; i++) {
        rhs[k][j][i][0] = c * rhs[k][j][i + 1][0];
        rhs[k][j][i][1] = c * u[k][j][i][1];
      }
}
