// 3-D maps: a perfect nest of three rectangular loops whose body is a map
// (a 7-point Jacobi step, a scaled copy) is one `3-D map`, lifted as three
// nested maps over planes, rows and elements and run as one launch over a
// 3-D NDRange. The dependence test proves the store's address injective
// as a mixed-radix number: a unit stride in one loop, a row stride at least
// that loop's trip count, a plane stride at least the row stride times the
// rows of a plane (under the loop guards for `int` sizes), in any loop
// order. Negatives: a dependence carried along the plane loop, a
// triangular nest, planes that may overlap; each leaves the inner 2-D nest
// to the per-plane path.
//
// RUN: %clang -O2 -g -fno-vectorize -fno-unroll-loops -S -emit-llvm %s -o %t.ll
// RUN: %opt -passes='loop-simplify,lcssa,print<idiom>' -disable-output %t.ll | FileCheck %s
// RUN: %opt -idiom-builtin-specs=false -idiom-spec=%srcroot/constraints/specs/map.idl -passes='loop-simplify,lcssa,print<idiom>' -disable-output %t.ll | FileCheck %s --check-prefix=MAP

// int sizes and flattened indices, an interior (1 .. n-1) in each dimension.
// CHECK-LABEL: Idioms in function 'jacobi_flat'
// CHECK: idiom map (3-D map)
// CHECK: store view(b1, {{.*}}) = map(\(p: ({{.*}})) => map(\(r: ({{.*}})) => map(\(t: ({{.*}})) =>
// CHECK: mapGlobal(2, \(p: {{.*}} => mapGlobal(1, \(r: {{.*}} => mapGlobal(0, \(t:
// CHECK: get_global_id(2)
// CHECK-NOT: idiom map (2-D map)
// CHECK-NOT: not offloaded
// CHECK-LABEL: Idioms in function 'jacobi_long'
void jacobi_flat(int n, double *a, double *b) {
  for (int k = 1; k < n - 1; k++)
    for (int j = 1; j < n - 1; j++)
      for (int i = 1; i < n - 1; i++)
        b[(k * n + j) * n + i] =
            (a[((k - 1) * n + j) * n + i] + a[((k + 1) * n + j) * n + i] +
             a[(k * n + j - 1) * n + i] + a[(k * n + j + 1) * n + i] +
             a[(k * n + j) * n + i - 1] + a[(k * n + j) * n + i + 1]) / 6.0;
}

// 64-bit sizes: the plane stride's bound needs Z3 (n * (n - 2) may exceed
// 2^63 for all ScalarEvolution knows).
// CHECK: idiom map (3-D map)
// CHECK-NOT: not offloaded
// CHECK-LABEL: Idioms in function 'jacobi_swapped'
void jacobi_long(long n, double *a, double *b) {
  for (long k = 1; k < n - 1; k++)
    for (long j = 1; j < n - 1; j++)
      for (long i = 1; i < n - 1; i++)
        b[(k * n + j) * n + i] =
            (a[((k - 1) * n + j) * n + i] + a[((k + 1) * n + j) * n + i]) / 6.0;
}

// The outermost loop walks the unit stride (`for i, for j, for k:
// a[k][j][i]`): a map is order-free, and the lift puts the unit-stride loop
// innermost (NDRange dimension 0): the views' last stride is 1.
// CHECK: idiom map (3-D map)
// CHECK: store view(b1, {{[^,]+}}, {{[^,]+}}, {{[^,]+}}, {{[^,]+}}, {{[^,]+}}, 1:i64, {{[^)]+}}) =
// CHECK-NOT: not offloaded
// CHECK: get_global_id(2)
// CHECK-NOT: not offloaded
// CHECK-LABEL: Idioms in function 'scale_const'
void jacobi_swapped(int n, double *a, double *b) {
  for (int i = 1; i < n - 1; i++)
    for (int j = 1; j < n - 1; j++)
      for (int k = 1; k < n - 1; k++)
        b[(k * n + j) * n + i] =
            (a[((k - 1) * n + j) * n + i] + a[((k + 1) * n + j) * n + i] +
             a[(k * n + j - 1) * n + i] + a[(k * n + j + 1) * n + i] +
             a[(k * n + j) * n + i - 1] + a[(k * n + j) * n + i + 1]) / 6.0;
}

// Constant sizes, whole arrays, the iteration indices read.
// CHECK: idiom map (3-D map)
// CHECK: map(\(p: ({{\[\[}}f32]_64]_32, i64)) => map(\(r: ([f32]_64, i64)) => map(\(t: (f32, i64))
// CHECK-NOT: not offloaded
// CHECK: get_global_id(2)
// CHECK-NOT: not offloaded
// CHECK-LABEL: Idioms in function 'carried_k'
float G[16][32][64], H[16][32][64];
void scale_const(float s) {
  for (int k = 0; k < 16; k++)
    for (int j = 0; j < 32; j++)
      for (int i = 0; i < 64; i++)
        H[k][j][i] = s * G[k][j][i] + (float)(k - j + i);
}

// Negative: plane k reads plane k - 1 of the same array (a dependence
// carried by the plane loop): no 3-D map.
// CHECK-NOT: 3-D map
// CHECK-LABEL: Idioms in function 'triangular'
// MAP-LABEL: Idioms in function 'carried_k'
// MAP: loop {{.*}} at map-3d.c:[[@LINE+3]]: no idiom (closest: map): {{.*}}NoLoopCarriedDependence(loop): loop-carried dependence
// MAP-LABEL: Idioms in function 'triangular'
void carried_k(int n, double *a) {
  for (int k = 1; k < n; k++)
    for (int j = 0; j < n; j++)
      for (int i = 0; i < n; i++)
        a[(k * n + j) * n + i] = 0.5 * a[((k - 1) * n + j) * n + i] + 1.0;
}

// Negative: a triangular nest (rows j < k): not rectangular. Each plane is a
// 2-D map.
// CHECK: idiom map (2-D map)
// CHECK-NOT: 3-D map
// CHECK-LABEL: Idioms in function 'overlapping_planes'
// MAP: loop {{.*}} at map-3d.c:[[@LINE+3]]: no idiom (closest: map): {{.*}}Nest(loop): inner trip count varies with the outer loop (not rectangular)
// MAP-LABEL: Idioms in function 'overlapping_planes'
void triangular(int n, double *a, double *b) {
  for (int k = 0; k < n; k++)
    for (int j = 0; j < k; j++)
      for (int i = 0; i < n; i++)
        b[(k * n + j) * n + i] = 2.0 * a[(k * n + j) * n + i];
}

// Negative: planes ps elements apart, ps unrelated to the plane's size
// (ps = 0 writes every plane onto the first): the store is not injective
// over the 3-D space. Each plane, whose rows are n apart, is a 2-D map.
// CHECK: idiom map (2-D map)
// CHECK-NOT: 3-D map
// CHECK-LABEL: Idioms in function 'end'
// MAP: loop {{.*}} at map-3d.c:[[@LINE+2]]: no idiom (closest: map): {{.*}}NoLoopCarriedDependence(loop): loop-carried dependence
void overlapping_planes(int n, int ps, double *a, double *b) {
  for (int k = 0; k < n; k++)
    for (int j = 0; j < n; j++)
      for (int i = 0; i < n; i++)
        b[k * ps + j * n + i] = a[(k * n + j) * n + i] + 1.0;
}

void end(void) {}
