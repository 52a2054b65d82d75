// Complex numbers as structs, negatives (issue 13): FFT stages whose
// butterfly pairs are not disjoint, and structs whose other fields the loop
// writes. Each missed remark names the precise reason. Blocks of s with
// pairs s apart reach into the next block (neighbouring outer iterations
// meet: Z3Checks.cpp, rowsWithinOuterStride, question 3); j over [0, 2s)
// with its partner j + s overlaps itself; a read of x[j + 1] is the
// neighbour's element. A third field of another type is one array accessed
// with two element types; a third double field is a third view of stride 3
// (a positive, for contrast). Stores alone that meet are an output
// dependence. The reasons name the struct fields of the accesses.
// RUN: %clang-idiom -c %s -o /dev/null -Rpass=idiom-offload -Rpass-missed=idiom-offload 2>&1 | FileCheck %s --implicit-check-not="offloaded 2-D map (map) to OpenCL as idiom_{{overlap|third_|nextread|outstore}}" --implicit-check-not="as idiom_packed" --implicit-check-not="as idiom_recurrence"
// RUN: %clang-idiom -fplugin=%plugin -mllvm -idiom-builtin-specs=false -mllvm -idiom-spec=%srcroot/constraints/specs/map.idl -c %s -o /dev/null -Rpass-missed=idiom-offload 2>&1 | FileCheck %s --check-prefix=PACKED
typedef struct { double re, im; } dcomplex;
typedef struct { double re, im; long tag; } tagged;
typedef struct { double re, im, wt; } weighted;
// Blocks of s, pairs (j + k, j + k + s): the pair reaches into the next block.
// CHECK: complex-negative.c:[[@LINE+2]]:3: remark: loop is not an idiom (closest: map): <builtin>/map.idl:15:9: NoLoopCarriedDependence(loop): loop-carried dependence between a store and another access of the same array (a store and a load, both at byte 0 of 16-byte struct.dcomplex)
void overlap(dcomplex *x, const dcomplex *w, int n, int s) {
  for (int j = 0; j < n; j += s)
    for (int k = 0; k < s; k++) {
      double ur = x[j + k].re, ui = x[j + k].im;
      double tr = w[k].re * x[j + k + s].re - w[k].im * x[j + k + s].im;
      double ti = w[k].re * x[j + k + s].im + w[k].im * x[j + k + s].re;
      x[j + k].re = ur + tr; x[j + k].im = ui + ti;
      x[j + k + s].re = ur - tr; x[j + k + s].im = ui - ti;
    }
}
// CHECK: complex-negative.c:[[@LINE+2]]:3: remark: loop is not an idiom (closest: map): <builtin>/map.idl:15:9: NoLoopCarriedDependence(loop): one array is accessed with two element types (double and i64, at byte 0 of 24-byte struct.tagged and byte 16 of 24-byte struct.tagged)
void third(tagged *x, const dcomplex *w, int n, int s) {
  for (int j = 0; j < n; j += 2 * s)
    for (int k = 0; k < s; k++) {
      double ur = x[j + k].re, ui = x[j + k].im;
      double tr = w[k].re * x[j + k + s].re - w[k].im * x[j + k + s].im;
      double ti = w[k].re * x[j + k + s].im + w[k].im * x[j + k + s].re;
      x[j + k].re = ur + tr; x[j + k].im = ui + ti;
      x[j + k + s].re = ur - tr; x[j + k + s].im = ui - ti;
      x[j + k].tag = s;
    }
}
// CHECK: complex-negative.c:[[@LINE+2]]:3: remark: offloaded 2-D map (map)
void third3(weighted *x, const dcomplex *w, int n, int s) {
  for (int j = 0; j < n; j += 2 * s)
    for (int k = 0; k < s; k++) {
      double ur = x[j + k].re, ui = x[j + k].im;
      double tr = w[k].re * x[j + k + s].re - w[k].im * x[j + k + s].im;
      double ti = w[k].re * x[j + k + s].im + w[k].im * x[j + k + s].re;
      x[j + k].re = ur + tr; x[j + k].im = ui + ti;
      x[j + k + s].re = ur - tr; x[j + k + s].im = ui - ti;
      x[j + k].wt = tr;
    }
}
// CHECK: complex-negative.c:[[@LINE+2]]:3: remark: loop is not an idiom (closest: map): <builtin>/map.idl:15:9: NoLoopCarriedDependence(loop): loop-carried dependence between a store and another access of the same array (a store and a load, both at byte 8 of 16-byte struct.dcomplex)
void nextread(dcomplex *x, const dcomplex *w, int n, int s) {
  for (int j = 0; j < n; j += 2 * s)
    for (int k = 0; k < s; k++) {
      double ur = x[j + k].re, ui = x[j + k + 1].im;
      double tr = w[k].re * x[j + k + s].re - w[k].im * x[j + k + s].im;
      double ti = w[k].re * x[j + k + s].im + w[k].im * x[j + k + s].re;
      x[j + k].re = ur + tr; x[j + k].im = ui + ti;
      x[j + k + s].re = ur - tr; x[j + k + s].im = ui - ti;
    }
}
// CHECK: complex-negative.c:[[@LINE+2]]:3: remark: loop is not an idiom (closest: map): <builtin>/map.idl:15:9: NoLoopCarriedDependence(loop): loop-carried dependence between a store and another access of the same array (a store and a load, both at byte 8 of 16-byte struct.dcomplex)
void nextread1(dcomplex *x, const dcomplex *w, int s) {
  for (int j = 0; j < s; j++) {
      double ur = x[j].re, ui = x[j + 1].im;
      double tr = w[j].re * x[j + s].re - w[j].im * x[j + s].im;
      double ti = w[j].re * x[j + s].im + w[j].im * x[j + s].re;
      x[j].re = ur + tr; x[j].im = ui + ti;
      x[j + s].re = ur - tr; x[j + s].im = ui - ti;
  }
}
// Span s but j runs over [0, 2s): the pairs overlap.
// CHECK: complex-negative.c:[[@LINE+2]]:3: remark: loop is not an idiom (closest: map): <builtin>/map.idl:15:9: NoLoopCarriedDependence(loop): loop-carried dependence between a store and another access of the same array (a store and a load, both at byte 0 of 16-byte struct.dcomplex)
void overlap1(dcomplex *x, const dcomplex *w, int s) {
  for (int j = 0; j < 2 * s; j++) {
      double ur = x[j].re, ui = x[j].im;
      double tr = w[j].re * x[j + s].re - w[j].im * x[j + s].im;
      double ti = w[j].re * x[j + s].im + w[j].im * x[j + s].re;
      x[j].re = ur + tr; x[j].im = ui + ti;
      x[j + s].re = ur - tr; x[j + s].im = ui - ti;
  }
}
// Only stores, blocks of s: the two parts of x[j + k + s] are those of
// x[j' + k] in the next block, an output dependence.
// CHECK: complex-negative.c:[[@LINE+2]]:3: remark: loop is not an idiom (closest: map): <builtin>/map.idl:15:9: NoLoopCarriedDependence(loop): loop-carried dependence between a store and another access of the same array (output dependence: two stores, both at byte 0 of 16-byte struct.dcomplex)
void outstore(dcomplex *x, const dcomplex *w, int n, int s) {
  for (int j = 0; j < n; j += s)
    for (int k = 0; k < s; k++) {
      x[j + k].re = w[k].re;
      x[j + k + s].re = w[k].im;
    }
}

// A gather of a field of a packed struct whose size (9 bytes) is not a
// whole number of doubles: not a gather (GatherLoad, GatherFacts.cpp). The
// map spec's disjunction `AffineAccess or GatherLoad` names the first
// alternative's reason; the built-in specs' closest near miss is a stencil.
struct __attribute__((packed)) odd {
  char tag;
  double v;
};
// CHECK: complex-negative.c:[[@LINE+3]]:3: remark: loop is not an idiom (closest: stencil)
// PACKED: complex-negative.c:[[@LINE+2]]:3: remark: loop is not an idiom (closest: map): {{.*}}map.idl:13:43: AffineAccess(m, loop): address is not affine in the loop's induction variables
void packed(double *restrict y, const struct odd *restrict x, const int *idx, int n) {
  for (int i = 0; i < n; i++)
    y[i] = x[idx[i]].v;
}

// Twiddles by a recurrence across the butterflies (w *= exp(i pi / s), as
// Numerical Recipes' four1 computes them): the stage is not a map, the
// recurrence's phi is named.
// CHECK: complex-negative.c:[[@LINE+3]]:3: remark: loop is not an idiom (closest: map): <builtin>/map.idl:12:44: InductionPhi(phi, loop): phi is not an induction variable
// CHECK: complex-negative.c:[[@LINE+4]]:5: remark: loop is not an idiom (closest: map): <builtin>/map.idl:12:44: InductionPhi(phi, loop): phi is not an induction variable
void recurrence(dcomplex *x, int n, int s, double c, double d) {
  for (int j = 0; j < n; j += 2 * s) {
    double wr = 1.0, wi = 0.0;
    for (int k = 0; k < s; k++) {
      double tr = wr * x[j + k + s].re - wi * x[j + k + s].im;
      double ti = wr * x[j + k + s].im + wi * x[j + k + s].re;
      x[j + k + s].re = x[j + k].re - tr;
      x[j + k + s].im = x[j + k].im - ti;
      x[j + k].re += tr;
      x[j + k].im += ti;
      double t = wr;
      wr = wr * c - wi * d;
      wi = wi * c + t * d;
    }
  }
}
