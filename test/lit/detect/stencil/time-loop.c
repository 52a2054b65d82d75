// Time loops: a sequential loop whose body is one stencil step (a nest, or
// a call of a stencil function) followed by a swap of the two buffers. The
// time loop is reported as stencil-time-loop and covers its nest, unless
// map takes a loop of the nest (then map lifts it every time step); a step
// that is no stencil, or a body that does more, is a near miss.
// RUN: %clang -O2 -g -fno-vectorize -fno-unroll-loops -S -emit-llvm %s -o %t.ll
// RUN: %opt -passes='loop-simplify,lcssa,print<idiom>' -disable-output %t.ll | FileCheck %s
// RUN: %opt -idiom-builtin-specs=false -idiom-spec=%srcroot/constraints/specs/stencil.idl -passes='loop-simplify,lcssa,print<idiom>' -disable-output %t.ll | FileCheck %s --check-prefix=STENCIL

#include <stdio.h>

// The 1-D step is a map: map lifts it, and the time loop declines.
// CHECK-LABEL: Idioms in function 'time1d':
// CHECK-NEXT: loop %{{[0-9]+}} at time-loop.c:[[@LINE+8]]: idiom map (map)
// CHECK: loop %{{[0-9]+}} at time-loop.c:[[@LINE+6]]: no idiom
// CHECK-NOT: {{^}}loop
// STENCIL-LABEL: Idioms in function 'time1d':
// STENCIL-NEXT: loop %{{[0-9]+}} at time-loop.c:[[@LINE+4]]: idiom stencil (detected only)
// STENCIL-NEXT: loop %{{[0-9]+}} at time-loop.c:[[@LINE+2]]: no idiom (closest: stencil-time-loop): {{.*}}: not MapMatchesInside(loop): 'MapMatchesInside(loop)' holds
void time1d(float *a, float *b, int n, int steps) {
  for (int t = 0; t < steps; t++) {
    for (int i = 1; i < n - 1; i++)
      b[i] = 0.5f * (a[i - 1] + a[i + 1]);
    float *tmp = a;
    a = b;
    b = tmp;
  }
}

// The 2-D step's rows are maps: map lifts them.
// CHECK-LABEL: Idioms in function 'time2d':
// CHECK-NEXT: loop %{{[0-9]+}} at time-loop.c:[[@LINE+7]]: idiom map (map)
// STENCIL-LABEL: Idioms in function 'time2d':
// STENCIL-NEXT: loop %{{[0-9]+}} at time-loop.c:[[@LINE+3]]: no idiom (closest: stencil-time-loop): {{.*}}: not MapMatchesInside(loop): 'MapMatchesInside(loop)' holds
// STENCIL-NOT: idiom stencil
void time2d(float *in, float *out, int h, int w, int steps) {
  for (int t = 0; t < steps; t++) {
    for (int i = 1; i < h - 1; i++)
      for (int j = 1; j < w - 1; j++)
        out[i*w+j] = 0.25f * (in[(i-1)*w+j] + in[(i+1)*w+j] + in[i*w+j-1] + in[i*w+j+1]);
    float *tmp = in;
    in = out;
    out = tmp;
  }
}

// Parboil stencil: the reference kernel (3-D) is inlined into main's time
// loop.
#define Index3D(_nx, _ny, _i, _j, _k) ((_i) + _nx * ((_j) + _ny * (_k)))
static void cpu_stencil(float c0, float c1, float *A0, float *Anext, const int nx, const int ny, const int nz) {
  for (int i = 1; i < nx - 1; i++)
    for (int j = 1; j < ny - 1; j++)
      for (int k = 1; k < nz - 1; k++)
        Anext[Index3D(nx, ny, i, j, k)] =
            (A0[Index3D(nx, ny, i, j, k + 1)] + A0[Index3D(nx, ny, i, j, k - 1)] +
             A0[Index3D(nx, ny, i, j + 1, k)] + A0[Index3D(nx, ny, i, j - 1, k)] +
             A0[Index3D(nx, ny, i + 1, j, k)] + A0[Index3D(nx, ny, i - 1, j, k)]) * c1 -
            A0[Index3D(nx, ny, i, j, k)] * c0;
}
// Map takes the inlined 3-D nest (a 3-D map, its unit-stride i loop
// innermost), so the detected-only stencil idioms decline the time loop.
// CHECK-LABEL: Idioms in function 'parboil_stencil':
// CHECK-NEXT: loop %{{[0-9]+}} at time-loop.c:{{[0-9]+}}: idiom map (3-D map)
// CHECK: loop %{{[0-9]+}} at time-loop.c:[[@LINE+4]]: no idiom (closest: stencil-time-loop): {{.*}}not MapMatchesInside(loop)
// STENCIL-LABEL: Idioms in function 'parboil_stencil':
// STENCIL-NEXT: loop %{{[0-9]+}} at time-loop.c:[[@LINE+2]]: no idiom (closest: stencil-time-loop): {{.*}}not MapMatchesInside(loop)
void parboil_stencil(float c0, float c1, float *h_A0, float *h_Anext, int nx, int ny, int nz, int iteration) {
  for (int t = 0; t < iteration; t++) {
    cpu_stencil(c0, c1, h_A0, h_Anext, nx, ny, nz);
    float *temp = h_A0;
    h_A0 = h_Anext;
    h_Anext = temp;
  }
}

// A 3-D row-major step, in double: a 3-D map.
// CHECK-LABEL: Idioms in function 'seven_time':
// CHECK-NEXT: loop %{{[0-9]+}} at time-loop.c:[[@LINE+4]]: idiom map (3-D map)
// CHECK: loop %{{[0-9]+}} at time-loop.c:[[@LINE+2]]: no idiom (closest: stencil-time-loop): {{.*}}not MapMatchesInside(loop)
void seven_time(double *a, double *b, long n, int steps) {
  for (int t = 0; t < steps; t++) {
    for (long i = 1; i < n - 1; i++)
      for (long j = 1; j < n - 1; j++)
        for (long k = 1; k < n - 1; k++) {
          long c = (i * n + j) * n + k;
          b[c] = (a[c - n * n] + a[c + n * n] + a[c - n] + a[c + n] + a[c - 1] + a[c + 1]) / 6.0;
        }
    double *tmp = a;
    a = b;
    b = tmp;
  }
}

// The step is a call with the buffers swapped per iteration; the callee is
// analysed on its own (and is a stencil map lifts, 1-D). The time loop
// covers no loop of its own, so it is reported.
// CHECK-LABEL: Idioms in function 'step3':
// CHECK-NEXT: loop %{{[0-9]+}} at time-loop.c:[[@LINE+4]]: idiom map (map)
// STENCIL-LABEL: Idioms in function 'step3':
// STENCIL-NEXT: loop %{{[0-9]+}} at time-loop.c:[[@LINE+2]]: idiom stencil (detected only)
__attribute__((noinline)) void step3(float *out, const float *in, int n) {
  for (int i = 1; i < n - 1; i++)
    out[i] = (in[i - 1] + in[i] + in[i + 1]) / 3.0f;
}
// CHECK-LABEL: Idioms in function 'time_call':
// CHECK-NEXT: loop %{{[0-9]+}} at time-loop.c:[[@LINE+2]]: idiom stencil-time-loop (detected only)
void time_call(float *a, float *b, int n, int steps) {
  for (int t = 0; t < steps; t++) {
    step3(b, a, n);
    float *tmp = a;
    a = b;
    b = tmp;
  }
}

// The called step is a map: no neighbourhood.
__attribute__((noinline)) void scale(float *out, const float *in, int n) {
  for (int i = 0; i < n; i++)
    out[i] = 0.5f * in[i];
}
// CHECK-LABEL: Idioms in function 'time_call_map':
// CHECK-NEXT: loop %{{[0-9]+}} at time-loop.c:[[@LINE+4]]: no idiom
// STENCIL-LABEL: Idioms in function 'time_call_map':
// STENCIL-NEXT: loop %{{[0-9]+}} at time-loop.c:[[@LINE+2]]: no idiom (closest: stencil-time-loop): {{.*}}: StencilCallStep(loop, c, cur, next): the loop of @scale is not a stencil: no array is read at more than one point (a map, not a stencil)
void time_call_map(float *a, float *b, int n, int steps) {
  for (int t = 0; t < steps; t++) {
    scale(b, a, n);
    float *tmp = a;
    a = b;
    b = tmp;
  }
}

// The time loop also prints: its nest alone is reported.
// CHECK-LABEL: Idioms in function 'time_printf':
// CHECK-NEXT: loop %{{[0-9]+}} at time-loop.c:[[@LINE+7]]: idiom map (map)
// CHECK: loop %{{[0-9]+}} at time-loop.c:[[@LINE+5]]: no idiom
// STENCIL-LABEL: Idioms in function 'time_printf':
// STENCIL-NEXT: loop %{{[0-9]+}} at time-loop.c:[[@LINE+4]]: idiom stencil (detected only)
// STENCIL-NEXT: loop %{{[0-9]+}} at time-loop.c:[[@LINE+2]]: no idiom (closest: stencil-time-loop): {{.*}}: TimeStepNest(loop, nest): time loop body does more than its nest and the buffer swap: {{.*}} = load float
void time_printf(float *a, float *b, int n, int steps) {
  for (int t = 0; t < steps; t++) {
    for (int i = 1; i < n - 1; i++)
      b[i] = 0.5f * (a[i - 1] + a[i + 1]);
    printf("%f\n", b[1]);
    float *tmp = a;
    a = b;
    b = tmp;
  }
}

// In place, no swap: a Gauss-Seidel sweep repeated; no idiom at any level.
// CHECK-LABEL: Idioms in function 'time_in_place':
// CHECK-NEXT: loop %{{[0-9]+}} at time-loop.c:[[@LINE+6]]: no idiom
// CHECK-NEXT: loop %{{[0-9]+}} at time-loop.c:[[@LINE+6]]: no idiom
// STENCIL-LABEL: Idioms in function 'time_in_place':
// STENCIL-NEXT: loop %{{[0-9]+}} at time-loop.c:[[@LINE+3]]: no idiom (closest: stencil): {{.*}}: ForwardedRead(phi, loop): phi carries the value stored in the previous iteration
// STENCIL-NEXT: loop %{{[0-9]+}} at time-loop.c:[[@LINE+3]]: no idiom (closest: stencil): {{.*}}: ForwardedRead(phi, loop): phi carries the value stored in the previous iteration
void time_in_place(float *a, int n, int steps) {
  for (int t = 0; t < steps; t++)
    for (int i = 1; i < n - 1; i++)
      a[i] = 0.5f * (a[i - 1] + a[i + 1]);
}
