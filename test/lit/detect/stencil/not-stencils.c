// Near misses of the stencil spec: in-place (Gauss-Seidel) updates,
// offsets that are not constant or too far, a nest that reads one point per
// array (a map), an output that does not move with a loop. STENCIL runs
// stencil.idl alone and checks the failing atom and its reason; CHECK runs
// the built-in library (where map may take what is a map).
// RUN: %clang -O2 -g -fno-vectorize -fno-unroll-loops -S -emit-llvm %s -o %t.ll
// RUN: %opt -passes='loop-simplify,lcssa,print<idiom>' -disable-output %t.ll | FileCheck %s
// RUN: %opt -idiom-builtin-specs=false -idiom-spec=%srcroot/constraints/specs/stencil.idl -passes='loop-simplify,lcssa,print<idiom>' -disable-output %t.ll | FileCheck %s --check-prefix=STENCIL

#define N 256
#define M 128
float A[N][M];

// In place: -O2 forwards the value stored at a[i] to the read of a[i-1] in
// the next iteration.
// CHECK-LABEL: Idioms in function 'gauss_seidel_1d':
// CHECK-NEXT: loop %{{[0-9]+}} at not-stencils.c:[[@LINE+5]]: no idiom
// STENCIL-LABEL: Idioms in function 'gauss_seidel_1d':
// STENCIL-NEXT: loop %{{[0-9]+}} at not-stencils.c:[[@LINE+3]]: no idiom (closest: stencil): {{.*}}stencil.idl:{{[0-9]+}}:{{[0-9]+}}: ForwardedRead(phi, loop): phi carries the value stored in the previous iteration: the nest reads an element it wrote (a loop-carried dependence, as in a Gauss-Seidel update)
// STENCIL-NOT: idiom stencil
void gauss_seidel_1d(float *a, int n) {
  for (int i = 1; i < n - 1; i++)
    a[i] = (a[i - 1] + a[i] + a[i + 1]) / 3.0f;
}

// CHECK-LABEL: Idioms in function 'gauss_seidel_2d':
// CHECK-NEXT: loop %{{[0-9]+}} at not-stencils.c:[[@LINE+5]]: no idiom
// STENCIL-LABEL: Idioms in function 'gauss_seidel_2d':
// STENCIL-NEXT: loop %{{[0-9]+}} at not-stencils.c:[[@LINE+3]]: no idiom (closest: stencil): {{.*}}: ForwardedRead(phi, loop): phi carries the value stored in the previous iteration
// STENCIL-NOT: idiom stencil
void gauss_seidel_2d(void) {
  for (int i = 1; i < N - 1; i++)
    for (int j = 1; j < M - 1; j++)
      A[i][j] = 0.25f * (A[i-1][j] + A[i+1][j] + A[i][j-1] + A[i][j+1]);
}

// In place with neighbours in other rows only: nothing to forward, the
// write itself conflicts with the reads.
// CHECK-LABEL: Idioms in function 'in_place_rows':
// CHECK-NEXT: loop %{{[0-9]+}} at not-stencils.c:[[@LINE+5]]: no idiom
// STENCIL-LABEL: Idioms in function 'in_place_rows':
// STENCIL-NEXT: loop %{{[0-9]+}} at not-stencils.c:[[@LINE+3]]: no idiom (closest: stencil): {{.*}}: JacobiWrite(st, loop): loop-carried dependence: @A is written at the nest's point and read at offset (-1, 0) from it (an in-place, Gauss-Seidel update)
// STENCIL-NOT: idiom stencil
void in_place_rows(void) {
  for (int i = 1; i < N - 1; i++)
    for (int j = 1; j < M - 1; j++)
      A[i][j] = 0.5f * (A[i-1][j] + A[i+1][j]);
}

// 3-D in place, flat.
// CHECK-LABEL: Idioms in function 'gauss_seidel_3d':
// CHECK-NEXT: loop %{{[0-9]+}} at not-stencils.c:[[@LINE+5]]: no idiom
// STENCIL-LABEL: Idioms in function 'gauss_seidel_3d':
// STENCIL-NEXT: loop %{{[0-9]+}} at not-stencils.c:[[@LINE+3]]: no idiom (closest: stencil): {{.*}}: ForwardedRead(phi, loop): phi carries the value stored in the previous iteration
// STENCIL-NOT: idiom stencil
void gauss_seidel_3d(double *a, long n) {
  for (long i = 1; i < n - 1; i++)
    for (long j = 1; j < n - 1; j++)
      for (long k = 1; k < n - 1; k++)
        a[(i*n + j)*n + k] = (a[((i-1)*n + j)*n + k] + a[((i+1)*n + j)*n + k] +
                              a[(i*n + j-1)*n + k] + a[(i*n + j+1)*n + k] +
                              a[(i*n + j)*n + k-1] + a[(i*n + j)*n + k+1]) / 6.0;
}

// A data-dependent offset: a map with a gather (in[i + k[i]]), not a
// stencil.
// CHECK-LABEL: Idioms in function 'data_offset':
// CHECK-NEXT: loop %{{[0-9]+}} at not-stencils.c:[[@LINE+4]]: idiom map (map)
// STENCIL-LABEL: Idioms in function 'data_offset':
// STENCIL-NEXT: loop %{{[0-9]+}} at not-stencils.c:[[@LINE+2]]: no idiom (closest: stencil): {{.*}}: ConstantOffsetRead(r, loop): address is not affine in the nest's induction variables: {{.*}} = load float
void data_offset(float *restrict out, const float *restrict in, const int *restrict k, int n) {
  for (int i = 1; i < n - 1; i++)
    out[i] = in[i - 1] + in[i + k[i]];
}

// An offset that is loop-invariant but not a constant: a map (map takes
// it), not a stencil.
// CHECK-LABEL: Idioms in function 'symbolic_offset':
// CHECK-NEXT: loop %{{[0-9]+}} at not-stencils.c:[[@LINE+4]]: idiom map (map)
// STENCIL-LABEL: Idioms in function 'symbolic_offset':
// STENCIL-NEXT: loop %{{[0-9]+}} at not-stencils.c:[[@LINE+2]]: no idiom (closest: stencil): {{.*}}: ConstantOffsetRead(r, loop): read of %1 is not at a constant offset from the written point: the addresses differ by (4 * (sext i32 %3 to i64))<nsw> bytes, which is not a whole number of points within 4 per dimension
void symbolic_offset(float *restrict out, const float *restrict in, int n, int m) {
  for (int i = 1; i < n - 1; i++)
    out[i] = in[i - 1] + in[i + m];
}

// The same in 3-D: no stencil; map takes the nest (a 3-D map whose second
// read is at a symbolic distance).
// CHECK-LABEL: Idioms in function 'symbolic_offset_3d':
// CHECK-NEXT: loop %{{[0-9]+}} at not-stencils.c:[[@LINE+5]]: idiom map (3-D map)
// STENCIL-LABEL: Idioms in function 'symbolic_offset_3d':
// STENCIL-NEXT: loop %{{[0-9]+}} at not-stencils.c:[[@LINE+3]]: no idiom (closest: stencil): {{.*}}: ConstantOffsetRead(r, loop): read of %1 is not at a constant offset from the written point: the addresses differ by (8 * %3) bytes
// STENCIL-NOT: idiom stencil
void symbolic_offset_3d(double *out, const double *in, long n, long m) {
  for (long i = 1; i < n - 1; i++)
    for (long j = 1; j < n - 1; j++)
      for (long k = 1; k < n - 1; k++)
        out[(i*n + j)*n + k] = in[(i*n + j)*n + k - 1] + in[(i*n + j)*n + k + m];
}

// A neighbour farther than the radius (4 points): no stencil; a 3-D map.
// CHECK-LABEL: Idioms in function 'far_offset_3d':
// CHECK-NEXT: loop %{{[0-9]+}} at not-stencils.c:[[@LINE+5]]: idiom map (3-D map)
// STENCIL-LABEL: Idioms in function 'far_offset_3d':
// STENCIL-NEXT: loop %{{[0-9]+}} at not-stencils.c:[[@LINE+3]]: no idiom (closest: stencil): {{.*}}: ConstantOffsetRead(r, loop): read of %1 is not at a constant offset from the written point: the addresses differ by 40 bytes, which is not a whole number of points within 4 per dimension
// STENCIL-NOT: idiom stencil
void far_offset_3d(double *out, const double *in, long n) {
  for (long i = 1; i < n - 1; i++)
    for (long j = 1; j < n - 1; j++)
      for (long k = 1; k < n - 1; k++)
        out[(i*n + j)*n + k] = in[(i*n + j)*n + k - 1] + in[(i*n + j)*n + k + 5];
}

// One point per array: a 3-D map (one launch for the nest).
// CHECK-LABEL: Idioms in function 'scale_3d':
// CHECK-NEXT: loop %{{[0-9]+}} at not-stencils.c:[[@LINE+5]]: idiom map (3-D map)
// STENCIL-LABEL: Idioms in function 'scale_3d':
// STENCIL-NEXT: loop %{{[0-9]+}} at not-stencils.c:[[@LINE+3]]: no idiom (closest: stencil): {{.*}}: NeighbourRead(nbr, loop): %1 is read at one point only (a map's read, not a stencil's neighbourhood)
// STENCIL-NOT: idiom stencil
void scale_3d(double *out, const double *in, long n) {
  for (long i = 0; i < n; i++)
    for (long j = 0; j < n; j++)
      for (long k = 0; k < n; k++)
        out[(i*n + j)*n + k] = 2.0 * in[(i*n + j)*n + k];
}

// A repeated sweep without a buffer swap: every t writes the same points.
// The t loop is no stencil; the spatial loop inside it is (map takes it).
// CHECK-LABEL: Idioms in function 'no_swap':
// CHECK-NEXT: loop %{{[0-9]+}} at not-stencils.c:[[@LINE+7]]: idiom map (map)
// CHECK: loop %{{[0-9]+}} at not-stencils.c:[[@LINE+5]]: no idiom
// STENCIL-LABEL: Idioms in function 'no_swap':
// STENCIL-NEXT: loop %{{[0-9]+}} at not-stencils.c:[[@LINE+4]]: idiom stencil (detected only)
// STENCIL-NEXT: loop %{{[0-9]+}} at not-stencils.c:[[@LINE+2]]: no idiom (closest: stencil): {{.*}}: JacobiWrite(st, loop): the written point of %0 does not move with loop %{{[0-9]+}}: its iterations overwrite the same elements
void no_swap(float *b, const float *a, int n, int steps) {
  for (int t = 0; t < steps; t++)
    for (int i = 1; i < n - 1; i++)
      b[i] = 0.5f * (a[i - 1] + a[i + 1]);
}
