// Jacobi-style stencils, 1-D to 3-D: which idiom of the built-in library
// reports each one. map.idl sorts before stencil.idl, so map takes (and
// lifts) the stencils it can; the stencil idioms also decline a nest when
// map takes a loop inside it, so that a detected-only match never hides a
// lift. STENCIL runs stencil.idl alone (map.idl's formula is part of it).
// RUN: %clang -O2 -g -fno-vectorize -fno-unroll-loops -S -emit-llvm %s -o %t.ll
// RUN: %opt -passes='loop-simplify,lcssa,print<idiom>' -disable-output %t.ll | FileCheck %s
// RUN: %opt -idiom-builtin-specs=false -idiom-spec=%srcroot/constraints/specs/stencil.idl -passes='loop-simplify,lcssa,print<idiom>' -disable-output %t.ll | FileCheck %s --check-prefix=STENCIL

#define N 256
#define M 128
#define P 64
float A[N][M], B[N][M];
float U[P][P][P], V[P][P][P];

// -O2 carries in[i+1] of one iteration to in[i] of the next in a phi
// (LoopLoadElimination, legal with restrict): map and the stencil spec both
// read it as a forwarded read (ForwardedRead), and map, first, lifts it.
// CHECK-LABEL: Idioms in function 'jacobi1d':
// CHECK-NEXT: loop %{{[0-9]+}} at jacobi.c:[[@LINE+4]]: idiom map (map)
// STENCIL-LABEL: Idioms in function 'jacobi1d':
// STENCIL-NEXT: loop %{{[0-9]+}} at jacobi.c:[[@LINE+2]]: idiom stencil (detected only)
void jacobi1d(float *restrict out, const float *restrict in, float c0, float c1, float c2, int n) {
  for (int i = 1; i < n - 1; i++)
    out[i] = c0 * in[i - 1] + c1 * in[i] + c2 * in[i + 1];
}

// The same without restrict: no forwarding, and map lifts it (a stencil
// is a map with neighbourhood reads).
// CHECK-LABEL: Idioms in function 'jacobi1d_alias':
// CHECK-NEXT: loop %{{[0-9]+}} at jacobi.c:[[@LINE+4]]: idiom map (map)
// STENCIL-LABEL: Idioms in function 'jacobi1d_alias':
// STENCIL-NEXT: loop %{{[0-9]+}} at jacobi.c:[[@LINE+2]]: idiom stencil (detected only)
void jacobi1d_alias(float *out, const float *in, int n) {
  for (int i = 1; i < n - 1; i++)
    out[i] = 0.25f * in[i - 1] + 0.5f * in[i] + 0.25f * in[i + 1];
}

// Radius 2, coefficients from memory (read at one point each).
// CHECK-LABEL: Idioms in function 'weighted':
// CHECK-NEXT: loop %{{[0-9]+}} at jacobi.c:[[@LINE+4]]: idiom map (map)
// STENCIL-LABEL: Idioms in function 'weighted':
// STENCIL-NEXT: loop %{{[0-9]+}} at jacobi.c:[[@LINE+2]]: idiom stencil (detected only)
void weighted(float *restrict out, const float *restrict in, const float *restrict w, int n) {
  for (int i = 2; i < n - 2; i++)
    out[i] = w[0] * in[i - 2] + w[1] * in[i - 1] + w[2] * in[i] + w[3] * in[i + 1] + w[4] * in[i + 2];
}

// 2-D 5-point on globals. The nest forwards A[i][j+1] to A[i][j] and
// hoists its seed into the outer loop; map's Nest takes seeds there
// (isForwardSeed) and lifts the whole 2-D nest.
// CHECK-LABEL: Idioms in function 'five_global':
// CHECK-NEXT: loop %{{[0-9]+}} at jacobi.c:[[@LINE+4]]: idiom map (2-D map)
// STENCIL-LABEL: Idioms in function 'five_global':
// STENCIL-NEXT: loop %{{[0-9]+}} at jacobi.c:[[@LINE+2]]: idiom stencil (detected only)
void five_global(void) {
  for (int i = 1; i < N - 1; i++)
    for (int j = 1; j < M - 1; j++)
      B[i][j] = 0.2f * (A[i][j] + A[i-1][j] + A[i+1][j] + A[i][j-1] + A[i][j+1]);
}

// 2-D 9-point on globals: chains of forwarded reads in both loops (rows
// forwarded through the outer loop: its body loads more than seeds, which
// map's Nest refuses), so the stencil spec reports it.
// CHECK-LABEL: Idioms in function 'nine_global':
// CHECK-NEXT: loop %{{[0-9]+}} at jacobi.c:[[@LINE+4]]: idiom stencil (detected only)
// STENCIL-LABEL: Idioms in function 'nine_global':
// STENCIL-NEXT: loop %{{[0-9]+}} at jacobi.c:[[@LINE+2]]: idiom stencil (detected only)
void nine_global(void) {
  for (int i = 1; i < N - 1; i++)
    for (int j = 1; j < M - 1; j++)
      B[i][j] = (A[i-1][j-1] + A[i-1][j] + A[i-1][j+1] + A[i][j-1] + A[i][j] +
                 A[i][j+1] + A[i+1][j-1] + A[i+1][j] + A[i+1][j+1]) / 9.0f;
}

// 2-D 5-point on flat arrays, interior points 1..h-2: the 2-D 5-point
// stencil that map reports, row by row. -O2 leaves the outer counter's
// increment as a phi of two equal increments (one per path around the
// guarded inner loop), so SCEV sees no recurrence and map's Nest fails on
// the outer loop. The stencil atoms repair the counter and recognise the
// 2-D nest, but map takes its inner loop, so the stencil idiom declines
// the nest and map lifts the rows.
// CHECK-LABEL: Idioms in function 'five_flat':
// CHECK-NEXT: loop %{{[0-9]+}} at jacobi.c:[[@LINE+9]]: idiom map (map)
// CHECK: loop %{{[0-9]+}} at jacobi.c:[[@LINE+7]]: no idiom
// CHECK-NOT: {{^}}loop
// STENCIL-LABEL: Idioms in function 'five_flat':
// STENCIL-NEXT: loop %{{[0-9]+}} at jacobi.c:[[@LINE+4]]: no idiom (closest: stencil): {{.*}}stencil.idl:{{[0-9]+}}:{{[0-9]+}}: not MapMatchesInside(loop): 'MapMatchesInside(loop)' holds
// STENCIL-NEXT: loop %{{[0-9]+}} at jacobi.c:[[@LINE+4]]: no idiom (closest: stencil): {{.*}}: ConstantOffsetRead(r, loop): read of %1 is not at a constant offset from the written point
// STENCIL-NOT: idiom stencil
void five_flat(float *out, const float *in, int h, int w) {
  for (int i = 1; i < h - 1; i++)
    for (int j = 1; j < w - 1; j++)
      out[i*w+j] = 0.25f * (in[(i-1)*w+j] + in[(i+1)*w+j] + in[i*w+j-1] + in[i*w+j+1]);
}

// A 2-D 5-point stencil that map reports as a 2-D map: the output is the
// interior of a padded input, both loops rectangular from 0, and map proves
// the nest free of loop-carried dependences. The first match wins.
// CHECK-LABEL: Idioms in function 'five_padded':
// CHECK-NEXT: loop %{{[0-9]+}} at jacobi.c:[[@LINE+4]]: idiom map (2-D map)
// STENCIL-LABEL: Idioms in function 'five_padded':
// STENCIL-NEXT: loop %{{[0-9]+}} at jacobi.c:[[@LINE+2]]: idiom stencil (detected only)
void five_padded(float *out, const float *in, long h, long w) {
  for (long i = 0; i < h; i++)
    for (long j = 0; j < w; j++)
      out[i*w+j] = in[(i+1)*(w+2)+j+1] - 0.25f * (in[i*(w+2)+j+1] + in[(i+2)*(w+2)+j+1] +
                                                  in[(i+1)*(w+2)+j] + in[(i+1)*(w+2)+j+2]);
}

// 2-D 9-point on flat arrays with long indices: map lifts the rows too.
// CHECK-LABEL: Idioms in function 'nine_flat':
// CHECK-NEXT: loop %{{[0-9]+}} at jacobi.c:[[@LINE+6]]: idiom map (map)
// CHECK: loop %{{[0-9]+}} at jacobi.c:[[@LINE+4]]: no idiom
// STENCIL-LABEL: Idioms in function 'nine_flat':
// STENCIL-NEXT: loop %{{[0-9]+}} at jacobi.c:[[@LINE+2]]: no idiom (closest: stencil): {{.*}}: not MapMatchesInside(loop): 'MapMatchesInside(loop)' holds
void nine_flat(float *out, const float *in, long h, long w) {
  for (long i = 1; i < h - 1; i++)
    for (long j = 1; j < w - 1; j++)
      out[i*w+j] = (in[(i-1)*w+j-1] + in[(i-1)*w+j] + in[(i-1)*w+j+1] +
                    in[i*w+j-1] + in[i*w+j] + in[i*w+j+1] +
                    in[(i+1)*w+j-1] + in[(i+1)*w+j] + in[(i+1)*w+j+1]) / 9.0f;
}

// 3-D 7-point on globals, U[i][j][k+1] forwarded to U[i][j][k]: a 3-D map.
// CHECK-LABEL: Idioms in function 'seven_global':
// CHECK-NEXT: loop %{{[0-9]+}} at jacobi.c:[[@LINE+4]]: idiom map (3-D map)
// STENCIL-LABEL: Idioms in function 'seven_global':
// STENCIL-NEXT: loop %{{[0-9]+}} at jacobi.c:[[@LINE+2]]: no idiom (closest: stencil): {{.*}}: not MapMatchesInside(loop): 'MapMatchesInside(loop)' holds
void seven_global(void) {
  for (int i = 1; i < P - 1; i++)
    for (int j = 1; j < P - 1; j++)
      for (int k = 1; k < P - 1; k++)
        V[i][j][k] = U[i][j][k] * -6.0f + U[i-1][j][k] + U[i+1][j][k] +
                     U[i][j-1][k] + U[i][j+1][k] + U[i][j][k-1] + U[i][j][k+1];
}

// Parboil stencil's reference kernel: i is the unit-stride index but the
// outermost loop, and the addresses are products (j + ny*k) * nx that SCEV
// does not distribute; offsets are compared as polynomials. Map takes the
// nest as a 3-D map (the loop guards bound nx, ny, nz; the lift puts the
// unit-stride i loop innermost), so the stencil declines the nest.
#define Index3D(_nx, _ny, _i, _j, _k) ((_i) + _nx * ((_j) + _ny * (_k)))
// CHECK-LABEL: Idioms in function 'cpu_stencil':
// CHECK-NEXT: loop %{{[0-9]+}} at jacobi.c:[[@LINE+5]]: idiom map (3-D map)
// STENCIL-LABEL: Idioms in function 'cpu_stencil':
// STENCIL-NEXT: loop %{{[0-9]+}} at jacobi.c:[[@LINE+3]]: no idiom (closest: stencil): {{.*}}not MapMatchesInside(loop)
void cpu_stencil(float c0, float c1, float *A0, float *Anext, const int nx, const int ny, const int nz) {
  int i, j, k;
  for (i = 1; i < nx - 1; i++)
    for (j = 1; j < ny - 1; j++)
      for (k = 1; k < nz - 1; k++)
        Anext[Index3D(nx, ny, i, j, k)] =
            (A0[Index3D(nx, ny, i, j, k + 1)] + A0[Index3D(nx, ny, i, j, k - 1)] +
             A0[Index3D(nx, ny, i, j + 1, k)] + A0[Index3D(nx, ny, i, j - 1, k)] +
             A0[Index3D(nx, ny, i + 1, j, k)] + A0[Index3D(nx, ny, i - 1, j, k)]) * c1 -
            A0[Index3D(nx, ny, i, j, k)] * c0;
}

// 3-D 7-point, row-major flat indexing through a shared centre index: the
// offsets are products such as (i * ny + j) * nz * 8 bytes, whole elements
// because one factor is, so map takes the nest as a 3-D map.
// CHECK-LABEL: Idioms in function 'seven_flat':
// CHECK-NEXT: loop %{{[0-9]+}} at jacobi.c:[[@LINE+4]]: idiom map (3-D map)
// STENCIL-LABEL: Idioms in function 'seven_flat':
// STENCIL-NEXT: loop %{{[0-9]+}} at jacobi.c:[[@LINE+2]]: no idiom (closest: stencil): {{.*}}: not MapMatchesInside(loop): 'MapMatchesInside(loop)' holds
void seven_flat(double *out, const double *in, long nx, long ny, long nz) {
  for (long i = 1; i < nx - 1; i++)
    for (long j = 1; j < ny - 1; j++)
      for (long k = 1; k < nz - 1; k++) {
        long c = (i * ny + j) * nz + k;
        out[c] = in[c - ny * nz] + in[c + ny * nz] + in[c - nz] + in[c + nz] +
                 in[c - 1] + in[c + 1] - 6.0 * in[c];
      }
}

// 3-D 7-point with int bounds and indices: a 3-D map, as above.
// CHECK-LABEL: Idioms in function 'seven_int':
// CHECK-NEXT: loop %{{[0-9]+}} at jacobi.c:[[@LINE+4]]: idiom map (3-D map)
// STENCIL-LABEL: Idioms in function 'seven_int':
// STENCIL-NEXT: loop %{{[0-9]+}} at jacobi.c:[[@LINE+2]]: no idiom (closest: stencil): {{.*}}not MapMatchesInside(loop)
void seven_int(double *out, const double *in, int n) {
  for (int i = 1; i < n - 1; i++)
    for (int j = 1; j < n - 1; j++)
      for (int k = 1; k < n - 1; k++)
        out[(i*n + j)*n + k] = (in[((i-1)*n + j)*n + k] + in[((i+1)*n + j)*n + k] +
                                in[(i*n + j-1)*n + k] + in[(i*n + j+1)*n + k] +
                                in[(i*n + j)*n + k-1] + in[(i*n + j)*n + k+1]) / 6.0;
}
