// Negatives of the 3-D grid reduction (scalar-reduction-3d): each nest is
// refused as a whole with the precise reason (an inner 2-D nest that is a
// grid reduction of its own may still be offloaded, one launch per plane).
// The grid specs test the nest's depth last: a 3-deep nest that misses is
// reported as closest to scalar-reduction-2d (or to another spec that got
// further).
// RUN: %clang-idiom -c %s -o /dev/null -Rpass-missed=idiom-offload -Rpass=idiom-offload 2>&1 | FileCheck %s
// CHECK-NOT: offloaded 3-D scalar reduction

// A bound that varies with an outer induction variable: not a rectangle.
// CHECK: reduction-3d-negative.c:[[@LINE+4]]:3: remark: loop is not an idiom (closest: gemm): {{.*}}RectangularNest(loop, 3): trip count of the loop at depth 2 varies in the nest (not rectangular)
// CHECK: reduction-3d-negative.c:[[@LINE+4]]:5: remark: offloaded 2-D scalar reduction (scalar-reduction-2d)
double tri3(int n, const double (*a)[n][n]) {
  double s = 0;
  for (int k = 0; k < n; k++)
    for (int j = 0; j < k; j++)
      for (int i = 0; i < n; i++)
        s += a[k][j][i];
  return s;
}

// A store to the grid inside the nest.
// CHECK: reduction-3d-negative.c:[[@LINE+4]]:3: remark: loop is not an idiom (closest: map): {{.*}}InductionPhi(phi, loop): phi is not an induction variable
// CHECK-NOT: reduction-3d-negative.c:[[@LINE+4]]:5: remark: offloaded
double store3(int n, double (*a)[n][n]) {
  double s = 0;
  for (int k = 0; k < n; k++)
    for (int j = 0; j < n; j++)
      for (int i = 0; i < n; i++) {
        s += a[k][j][i];
        a[k][j][i] = 0;
      }
  return s;
}

// The accumulator is read between planes.
// CHECK: reduction-3d-negative.c:[[@LINE+4]]:3: remark: loop is not an idiom
// CHECK: reduction-3d-negative.c:[[@LINE+4]]:5: remark: offloaded 2-D scalar reduction (scalar-reduction-2d)
double readplane(int n, const double (*a)[n][n], double *w) {
  double s = 0;
  for (int k = 0; k < n; k++) {
    for (int j = 0; j < n; j++)
      for (int i = 0; i < n; i++)
        s += a[k][j][i];
    w[k] = s;
  }
  return s;
}

// The accumulator is read between rows (a second reduction of the partial
// sums).
// CHECK: reduction-3d-negative.c:[[@LINE+4]]:3: remark: loop is not an idiom (closest: scalar-reduction-2d): {{.*}}ReductionPhi(phi, loop): the accumulator is not carried through every loop of the nest (each inner loop's phi must start from the phi of the loop around it)
// CHECK: reduction-3d-negative.c:[[@LINE+4]]:5: remark: loop is not an idiom (closest: scalar-reduction-2d): {{.*}}ReductionPhi(phi, loop): the accumulator is not carried through both loops of the nest
double readrow(int n, const double (*a)[n][n]) {
  double s = 0, t = 0;
  for (int k = 0; k < n; k++)
    for (int j = 0; j < n; j++) {
      for (int i = 0; i < n; i++)
        s += a[k][j][i];
      t += s;
    }
  return s + t;
}

// Mixed types: an int accumulator updated through double arithmetic.
// CHECK: reduction-3d-negative.c:[[@LINE+4]]:3: remark: loop is not an idiom (closest: scalar-reduction-2d): {{.*}}ReductionPhi(phi, loop): update is not a known reduction operator: {{.*}} = fptosi double
// CHECK: reduction-3d-negative.c:[[@LINE+4]]:5: remark: loop is not an idiom (closest: scalar-reduction-2d): {{.*}}update is not a known reduction operator
int mixed(int n, const double (*a)[n][n]) {
  int s = 0;
  for (int k = 0; k < n; k++)
    for (int j = 0; j < n; j++)
      for (int i = 0; i < n; i++)
        s = s + a[k][j][i];
  return s;
}

// The accumulator is reset per plane: not carried through the nest.
// CHECK: reduction-3d-negative.c:[[@LINE+4]]:3: remark: loop is not an idiom (closest: scalar-reduction-2d): {{.*}}ReductionPhi(phi, loop): the accumulator is not carried through every loop of the nest
// CHECK: reduction-3d-negative.c:[[@LINE+5]]:5: remark: offloaded 2-D scalar reduction (scalar-reduction-2d)
double reset(int n, const double (*a)[n][n], double *w) {
  double best = 0;
  for (int k = 0; k < n; k++) {
    double s = 0;
    for (int j = 0; j < n; j++)
      for (int i = 0; i < n; i++)
        s += a[k][j][i];
    best = s > best ? s : best;
  }
  return best;
}
