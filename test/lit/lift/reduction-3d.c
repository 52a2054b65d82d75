// A scalar reduction over a rectangular 3-D nest (issue 13: NAS MG's
// norm2u3, a residual norm over the interior of a VLA-typed 3-D grid) lifts
// to ONE reduce over the twice-joined 3-D views of its inputs (the flattened
// planes x rows x cols space, in the order the loops visit it). A sum and a
// max together are one reduction of a pair. Translation validation covers
// it (a corrupted combine operator is refused); -idiom-fp-reassoc=false
// keeps floating-point sums on the host and still offloads an exact max.
// RUN: %clang -O2 -g -fno-vectorize -fno-unroll-loops -S -emit-llvm %s -o %t.ll
// RUN: %opt -passes='loop-simplify,lcssa,print<idiom>' -disable-output %t.ll | FileCheck %s
// RUN: %clang-idiom -ffp-contract=off -c %s -o /dev/null -Rpass=idiom-offload -Rpass-missed=idiom-offload 2>&1 | FileCheck %s --check-prefix=OK
// RUN: %clang-idiom -ffp-contract=off -fplugin=%plugin -mllvm -idiom-test-corrupt-lift -mllvm -idiom-z3-timeout=600000 -c %s -o /dev/null -Rpass=idiom-offload -Rpass-missed=idiom-offload 2>&1 | FileCheck %s --check-prefix=BAD
// RUN: %clang-idiom -ffp-contract=off -fplugin=%plugin -mllvm -idiom-fp-reassoc=false -c %s -o /dev/null -Rpass=idiom-offload -Rpass-missed=idiom-offload 2>&1 | FileCheck %s --check-prefix=NOREASSOC
#include <math.h>

// CHECK-LABEL: Idioms in function 'norm2u3'
// CHECK: FunIL:
// CHECK-NEXT: idiom idiom_norm2u3_0(n0: i64, n1: i64, n2: i64, b0: [f64], [[O:x[0-9]+]]: i64, [[P:x[0-9]+]]: i64, [[R:x[0-9]+]]: i64) {
// CHECK-NEXT: return reduce(\(a: (f64, f64), b: (f64, f64)) => (fadd(a.0, b.0), select(fcmp_ogt(b.1, a.1), b.1, a.1)), (-0x0p+0:f64, -inf:f64), map(\(t: f64) => (fmul(t, t), fabs(t)), join(join(view(b0, [[O]], [[P]], n0, [[R]], n1, 1:i64, n2)))));
void norm2u3(void *or, int n1, int n2, int n3, double *rnm2, double *rnmu) {
  double (*r)[n2][n1] = (double (*)[n2][n1])or;
  double s = 0.0, mx = 0.0;
  // OK: reduction-3d.c:[[@LINE+3]]:3: remark: offloaded 3-D scalar reduction (scalar-reduction-3d)
  // BAD: reduction-3d.c:[[@LINE+2]]:3: remark: idiom scalar-reduction-3d not offloaded: translation validation failed: Z3 found inputs on which the lifted FunIL and the LLVM slice differ
  // NOREASSOC: reduction-3d.c:[[@LINE+1]]:3: remark: {{.*}}scalar-reduction-3d{{.*}}floating-point reduction needs reassociation
  for (int i3 = 1; i3 < n3 - 1; i3++)
    for (int i2 = 1; i2 < n2 - 1; i2++)
      for (int i1 = 1; i1 < n1 - 1; i1++) {
        s = s + r[i3][i2][i1] * r[i3][i2][i1];
        double t = fabs(r[i3][i2][i1]);
        if (t > mx)
          mx = t;
      }
  *rnmu = mx;
  *rnm2 = sqrt(s / ((double)(n1 - 2) * (n2 - 2) * (n3 - 2)));
}

// An exact reduction (integer max) stays offloaded without the licence.
// CHECK-LABEL: Idioms in function 'imax3'
// CHECK: FunIL:
// CHECK-NEXT: idiom idiom_imax3_0(n0: i64, n1: i64, n2: i64, b0: [i32], {{.*}}) {
// CHECK-NEXT: return reduce(\(a: i32, b: i32) => smax(b, a), -2147483648:i32, map(\(t: i32) => t, join(join(view(b0, {{x[0-9]+}}, {{x[0-9]+}}, n0, n2, n1, 1:i64, n2)))));
int imax3(int n, int m, int l, const int (*a)[m][l]) {
  int r = -2147483647 - 1;
  // OK: reduction-3d.c:[[@LINE+2]]:3: remark: offloaded 3-D scalar reduction (scalar-reduction-3d)
  // NOREASSOC: reduction-3d.c:[[@LINE+1]]:3: remark: offloaded 3-D scalar reduction (scalar-reduction-3d)
  for (int i = 0; i < n; i++)
    for (int j = 0; j < m; j++)
      for (int k = 0; k < l; k++)
        r = a[i][j][k] > r ? a[i][j][k] : r;
  return r;
}

// The element reads all three loop indices: each is a joined iota over the
// same flattened space.
// CHECK-LABEL: Idioms in function 'wsum3'
// CHECK: FunIL:
// CHECK: return reduce(\(a: i64, b: i64) => add(b, a), 0:i64, map(\(t: (i32, i64, i64, i64)) => mul(add(mul(t.3, 3:i64), sext.i64(sub(trunc.i32(t.1), shl(trunc.i32(t.2), 1:i32)))), sext.i64(t.0)), zip(join(join(view(b0, {{.*}}))), join(join(map(\(p: i64) => map(\(r: i64) => map(\(c: i64) => p, iota({{n.}})), iota({{n.}})), iota({{n.}})))), join(join(map(\(p: i64) => map(\(r: i64) => map(\(c: i64) => r, iota({{n.}})), iota({{n.}})), iota({{n.}})))), join(join(map(\(p: i64) => map(\(r: i64) => iota({{n.}}), iota({{n.}})), iota({{n.}})))))));
long wsum3(int n, const int (*a)[n][n]) {
  long s = 0;
  // OK: reduction-3d.c:[[@LINE+1]]:3: remark: offloaded 3-D scalar reduction (scalar-reduction-3d)
  for (int i = 0; i < n; i++)
    for (int j = 0; j < n; j++)
      for (int k = 0; k < n; k++)
        s += (long)a[i][j][k] * (i - 2 * j + 3 * k);
  return s;
}
