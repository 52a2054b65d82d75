// TRMV (issue 13; spec triangular-dot, `lifts trmv`): a triangular
// matrix-vector product is lifted as the GEMV program with a mask on its
// reduction (docs/FunIL.md, "TRMV programs"): one row (M = 1), its columns
// the elements of y (the outer loop i) zipped with iota(N), the reduction
// over the rectangle around the triangle zipped with iota(K). A lower
// triangle (`j <= i`, `j < i`: the inner loop's count is b + s i) adds its
// product only inside it, select(icmp_slt(x.2, add(b, mul(s, q.2))), STEP,
// acc); an upper one (`j >= i`, `j > i`: the inner loop's start advances
// with i, a band as TRMM's) keeps acc before it, select(icmp_slt(x.2, q.2),
// acc, STEP). Either way the sum is the loop's, in the loop's order. Rows
// that run down (`for (i = N - 1; i >= 0; i--)`) are counted from the last
// and give the same programs.
// Translation validation covers the masks: -idiom-test-corrupt-mask turns
// the first icmp_slt into icmp_sle (the lower triangle gains a column, the
// band the column before the diagonal) and -idiom-test-corrupt-lift changes
// POST's fmul of the scaled form; Z3 finds the difference.
// With -mfma -ffp-contract=fast the host's back end fuses the loop's fmul
// and fadd into one fma, which the kernel would not: refused (the sums are
// the loop's bit for bit or not offloaded).
// Refused, each with its reason: a slope that is not a constant (`j < i *
// m`), a count that shrinks with a fixed start (`j < n - i`), a bound read
// from memory (`j < lim[i]`: with the triangular spec alone, its dependence
// test names the bound; among the built-in specs spmv-csr's near miss comes
// first), integer elements (GEMV programs are float or double).
// RUN: %clang -O2 -g -fno-vectorize -fno-unroll-loops -S -emit-llvm %s -o %t.ll
// RUN: %opt -passes='loop-simplify,lcssa,print<idiom>' -disable-output %t.ll | FileCheck %s
// RUN: %clang-idiom -c %s -o /dev/null -Rpass=idiom-offload -Rpass-missed=idiom-offload 2>&1 | FileCheck %s --check-prefix=REMARK
// RUN: %clang-idiom -fplugin=%plugin -mllvm -idiom-test-corrupt-mask -c %s -o /dev/null -Rpass=idiom-offload -Rpass-missed=idiom-offload 2>&1 | FileCheck %s --check-prefix=MASK
// RUN: %clang-idiom -fplugin=%plugin -mllvm -idiom-test-corrupt-lift -mllvm -idiom-z3-timeout=600000 -mllvm -idiom-z3-rlimit=200000000 -c %s -o /dev/null -Rpass=idiom-offload -Rpass-missed=idiom-offload 2>&1 | FileCheck %s --check-prefix=BAD
// RUN: %clang-idiom -mfma -ffp-contract=fast -c %s -o /dev/null -Rpass=idiom-offload -Rpass-missed=idiom-offload 2>&1 | FileCheck %s --check-prefix=FAST
// RUN: %clang-idiom -fplugin=%plugin -mllvm -idiom-builtin-specs=false -mllvm -idiom-spec=%srcroot/constraints/specs/triangular.idl -c %s -o /dev/null -Rpass-missed=idiom-offload 2>&1 | FileCheck %s --check-prefix=ALONE
#define N 48
float Lf[N][N], xf[N], yf[N];
double Ld[N][N], xd[N], yd[N];

// CHECK-LABEL: Idioms in function 'lower':
// CHECK-NEXT: loop %{{[0-9]+}} at trmv.c:[[@LINE+8]]: idiom triangular-dot (TRMV)
// CHECK-NEXT: FunIL:
// CHECK-NEXT: idiom idiom_lower_0(A: [f64], B: [f64], C: [f64]) {
// CHECK-NEXT: store view(C, 0:i64, 0:i64, 1:i64, 1:i64, 48:i64) = map(\(r: ([f64]_48, [f64]_48)) => map(\(q: ([f64]_48, f64, i64)) => reduceSeq(\(acc: f64, x: (f64, f64, i64)) => select(icmp_slt(x.2, add(1:i64, mul(1:i64, q.2))), fmuladd(x.1, x.0, acc), acc), 0x0p+0:f64, zip(r.0, q.0, iota(48:i64))), zip(view(B, 0:i64, 48:i64, 48:i64, 1:i64, 48:i64), r.1, iota(48:i64))), zip(view(A, 0:i64, 0:i64, 1:i64, 1:i64, 48:i64), view(C, 0:i64, 0:i64, 1:i64, 1:i64, 48:i64)));
// REMARK-DAG: trmv.c:[[@LINE+4]]:3: remark: offloaded TRMV (triangular-dot) to OpenCL
// MASK-DAG: trmv.c:[[@LINE+3]]:3: remark: idiom triangular-dot not offloaded: translation validation failed: Z3 found inputs on which the lifted FunIL and the LLVM slice differ (TRMV triangle mask)
// FAST-DAG: trmv.c:[[@LINE+2]]:3: remark: idiom triangular-dot not offloaded: cannot lift to FunIL: the GEMV update adds a product that the host's back end may contract into one fma (-ffp-contract=fast on a target with FMA), which the kernel would not mirror
void lower(void) {
  for (int i = 0; i < N; i++) {
    double s = 0;
    for (int j = 0; j <= i; j++)
      s += Ld[i][j] * xd[j];
    yd[i] = s;
  }
}

// A strict lower triangle: row 0 is empty (its zero-trip guard `i != 0` is
// the count's), K = 47.
// CHECK-LABEL: Idioms in function 'strict_lower':
// CHECK-NEXT: loop %{{[0-9]+}} at trmv.c:[[@LINE+7]]: idiom triangular-dot (TRMV)
// CHECK-NEXT: FunIL:
// CHECK-NEXT: idiom idiom_strict_lower_0(A: [f32], B: [f32], C: [f32]) {
// CHECK-NEXT: store view(C, 0:i64, 0:i64, 1:i64, 1:i64, 48:i64) = map(\(r: ([f32]_47, [f32]_48)) => map(\(q: ([f32]_47, f32, i64)) => reduceSeq(\(acc: f32, x: (f32, f32, i64)) => select(icmp_slt(x.2, add(0:i64, mul(1:i64, q.2))), fmuladd(x.1, x.0, acc), acc), 0x0p+0:f32, zip(r.0, q.0, iota(47:i64))), zip(view(B, 0:i64, 48:i64, 48:i64, 1:i64, 47:i64), r.1, iota(48:i64))), zip(view(A, 0:i64, 0:i64, 1:i64, 1:i64, 47:i64), view(C, 0:i64, 0:i64, 1:i64, 1:i64, 48:i64)));
// REMARK-DAG: trmv.c:[[@LINE+3]]:3: remark: offloaded TRMV (triangular-dot) to OpenCL
// MASK-DAG: trmv.c:[[@LINE+2]]:3: remark: idiom triangular-dot not offloaded: translation validation failed: Z3 found inputs on which the lifted FunIL and the LLVM slice differ (TRMV triangle mask)
void strict_lower(void) {
  for (int i = 0; i < N; i++) {
    float s = 0;
    for (int j = 0; j < i; j++)
      s += Lf[i][j] * xf[j];
    yf[i] = s;
  }
}

// CHECK-LABEL: Idioms in function 'upper':
// CHECK-NEXT: loop %{{[0-9]+}} at trmv.c:[[@LINE+7]]: idiom triangular-dot (TRMV)
// CHECK-NEXT: FunIL:
// CHECK-NEXT: idiom idiom_upper_0(A: [f64], B: [f64], C: [f64]) {
// CHECK-NEXT: store view(C, 0:i64, 0:i64, 1:i64, 1:i64, 48:i64) = map(\(r: ([f64]_48, [f64]_48)) => map(\(q: ([f64]_48, f64, i64)) => reduceSeq(\(acc: f64, x: (f64, f64, i64)) => select(icmp_slt(x.2, q.2), acc, fmuladd(x.1, x.0, acc)), 0x0p+0:f64, zip(r.0, q.0, iota(48:i64))), zip(view(B, 0:i64, 48:i64, 48:i64, 1:i64, 48:i64), r.1, iota(48:i64))), zip(view(A, 0:i64, 0:i64, 1:i64, 1:i64, 48:i64), view(C, 0:i64, 0:i64, 1:i64, 1:i64, 48:i64)));
// REMARK-DAG: trmv.c:[[@LINE+3]]:3: remark: offloaded TRMV (triangular-dot) to OpenCL
// MASK-DAG: trmv.c:[[@LINE+2]]:3: remark: idiom triangular-dot not offloaded: translation validation failed: Z3 found inputs on which the lifted FunIL and the LLVM slice differ (TRMV band mask)
void upper(void) {
  for (int i = 0; i < N; i++) {
    double s = 0;
    for (int j = i; j < N; j++)
      s += Ld[i][j] * xd[j];
    yd[i] = s;
  }
}

// A strict upper triangle: the rectangle starts at column 1 (the views
// are relative to the buffers' first elements), K = 47.
// CHECK-LABEL: Idioms in function 'strict_upper':
// CHECK-NEXT: loop %{{[0-9]+}} at trmv.c:[[@LINE+7]]: idiom triangular-dot (TRMV)
// CHECK-NEXT: FunIL:
// CHECK-NEXT: idiom idiom_strict_upper_0(A: [f32], B: [f32], C: [f32]) {
// CHECK-NEXT: store view(C, 0:i64, 0:i64, 1:i64, 1:i64, 48:i64) = map(\(r: ([f32]_47, [f32]_48)) => map(\(q: ([f32]_47, f32, i64)) => reduceSeq(\(acc: f32, x: (f32, f32, i64)) => select(icmp_slt(x.2, q.2), acc, fmuladd(x.1, x.0, acc)), 0x0p+0:f32, zip(r.0, q.0, iota(47:i64))), zip(view(B, 0:i64, 48:i64, 48:i64, 1:i64, 47:i64), r.1, iota(48:i64))), zip(view(A, 0:i64, 0:i64, 1:i64, 1:i64, 47:i64), view(C, 0:i64, 0:i64, 1:i64, 1:i64, 48:i64)));
// REMARK-DAG: trmv.c:[[@LINE+3]]:3: remark: offloaded TRMV (triangular-dot) to OpenCL
// MASK-DAG: trmv.c:[[@LINE+2]]:3: remark: idiom triangular-dot not offloaded: translation validation failed: Z3 found inputs on which the lifted FunIL and the LLVM slice differ (TRMV band mask)
void strict_upper(void) {
  for (int i = 0; i < N; i++) {
    float s = 0;
    for (int j = i + 1; j < N; j++)
      s += Lf[i][j] * xf[j];
    yf[i] = s;
  }
}

// POST scales the sum: y[i] = a * s.
// CHECK-LABEL: Idioms in function 'scaled':
// CHECK-NEXT: loop %{{[0-9]+}} at trmv.c:[[@LINE+5]]: idiom triangular-dot (TRMV)
// CHECK: => fmul(reduceSeq(\(acc: f64, x: (f64, f64, i64)) => select(icmp_slt(x.2, add(1:i64, mul(1:i64, q.2))), fmuladd(x.1, x.0, acc), acc), 0x0p+0:f64, zip(r.0, q.0, iota(48:i64))), s0)
// REMARK-DAG: trmv.c:[[@LINE+3]]:3: remark: offloaded TRMV (triangular-dot) to OpenCL
// BAD-DAG: trmv.c:[[@LINE+2]]:3: remark: idiom triangular-dot not offloaded: translation validation failed: Z3 found inputs on which the lifted FunIL and the LLVM slice differ (GEMV STEP, INIT or POST)
void scaled(double a) {
  for (int i = 0; i < N; i++) {
    double s = 0;
    for (int j = 0; j <= i; j++)
      s += Ld[i][j] * xd[j];
    yd[i] = a * s;
  }
}

// Rows that run down (`for (i = N - 1; i >= 0; i--)`): the rows are
// independent, counted from the last (NestInfo::RowsReversed: q.2 is i
// again), and the programs are the ones of rows running up: a lower
// triangle's count {48,+,-1} over the loop's iterations is 1 + q.2 over
// the rows, an upper band's start that retreats one column per iteration
// advances one per row.
// CHECK-LABEL: Idioms in function 'lower_down':
// CHECK-NEXT: loop %{{[0-9]+}} at trmv.c:[[@LINE+7]]: idiom triangular-dot (TRMV)
// CHECK-NEXT: FunIL:
// CHECK-NEXT: idiom idiom_lower_down_0(A: [f64], B: [f64], C: [f64]) {
// CHECK-NEXT: store view(C, 0:i64, 0:i64, 1:i64, 1:i64, 48:i64) = map(\(r: ([f64]_48, [f64]_48)) => map(\(q: ([f64]_48, f64, i64)) => reduceSeq(\(acc: f64, x: (f64, f64, i64)) => select(icmp_slt(x.2, add(1:i64, mul(1:i64, q.2))), fmuladd(x.1, x.0, acc), acc), 0x0p+0:f64, zip(r.0, q.0, iota(48:i64))), zip(view(B, 0:i64, 48:i64, 48:i64, 1:i64, 48:i64), r.1, iota(48:i64))), zip(view(A, 0:i64, 0:i64, 1:i64, 1:i64, 48:i64), view(C, 0:i64, 0:i64, 1:i64, 1:i64, 48:i64)));
// REMARK-DAG: trmv.c:[[@LINE+3]]:3: remark: offloaded TRMV (triangular-dot) to OpenCL
// MASK-DAG: trmv.c:[[@LINE+2]]:3: remark: idiom triangular-dot not offloaded: translation validation failed: Z3 found inputs on which the lifted FunIL and the LLVM slice differ (TRMV triangle mask)
void lower_down(void) {
  for (int i = N - 1; i >= 0; i--) {
    double s = 0;
    for (int j = 0; j <= i; j++)
      s += Ld[i][j] * xd[j];
    yd[i] = s;
  }
}

// CHECK-LABEL: Idioms in function 'upper_down':
// CHECK-NEXT: loop %{{[0-9]+}} at trmv.c:[[@LINE+7]]: idiom triangular-dot (TRMV)
// CHECK-NEXT: FunIL:
// CHECK-NEXT: idiom idiom_upper_down_0(A: [f32], B: [f32], C: [f32]) {
// CHECK-NEXT: store view(C, 0:i64, 0:i64, 1:i64, 1:i64, 48:i64) = map(\(r: ([f32]_48, [f32]_48)) => map(\(q: ([f32]_48, f32, i64)) => reduceSeq(\(acc: f32, x: (f32, f32, i64)) => select(icmp_slt(x.2, q.2), acc, fmuladd(x.1, x.0, acc)), 0x0p+0:f32, zip(r.0, q.0, iota(48:i64))), zip(view(B, 0:i64, 48:i64, 48:i64, 1:i64, 48:i64), r.1, iota(48:i64))), zip(view(A, 0:i64, 0:i64, 1:i64, 1:i64, 48:i64), view(C, 0:i64, 0:i64, 1:i64, 1:i64, 48:i64)));
// REMARK-DAG: trmv.c:[[@LINE+3]]:3: remark: offloaded TRMV (triangular-dot) to OpenCL
// MASK-DAG: trmv.c:[[@LINE+2]]:3: remark: idiom triangular-dot not offloaded: translation validation failed: Z3 found inputs on which the lifted FunIL and the LLVM slice differ (TRMV band mask)
void upper_down(void) {
  for (int i = N - 1; i >= 0; i--) {
    float s = 0;
    for (int j = i; j < N; j++)
      s += Lf[i][j] * xf[j];
    yf[i] = s;
  }
}

// CHECK-LABEL: Idioms in function 'symbolic_slope':
// CHECK-NEXT: loop %{{[0-9]+}} at trmv.c:[[@LINE+4]]: no idiom (closest: triangular-dot): matched but cannot be lifted with template 'trmv': trip count of the loop at depth 2 varies in the nest (not rectangular; nor a triangle whose count grows from a constant by a positive constant per outer iteration, nor a band whose start advances a constant number of its steps per outer iteration while its end stays fixed): its count is {{.*}}{0,+,%{{[0-9]+}}}
// REMARK-DAG: trmv.c:[[@LINE+3]]:3: remark: loop is not an idiom (closest: triangular-dot): matched but cannot be lifted with template 'trmv': trip count of the loop at depth 2 varies in the nest
// REMARK-NOT: trmv.c:[[@LINE+2]]:3: remark: offloaded
void symbolic_slope(int m) {
  for (int i = 0; i < N; i++) {
    double s = 0;
    for (int j = 0; j < i * m; j++)
      s += Ld[i][j] * xd[j];
    yd[i] = s;
  }
}

// REMARK-DAG: trmv.c:[[@LINE+3]]:3: remark: loop is not an idiom (closest: triangular-dot): matched but cannot be lifted with template 'trmv': trip count of the loop at depth 2 varies in the nest {{.*}}: its count is
// REMARK-NOT: trmv.c:[[@LINE+2]]:3: remark: offloaded
void antidiagonal(void) {
  for (int i = 0; i < N; i++) {
    double s = 0;
    for (int j = 0; j < N - i; j++)
      s += Ld[i][j] * xd[j];
    yd[i] = s;
  }
}

// REMARK-DAG: trmv.c:[[@LINE+4]]:3: remark: loop is not an idiom (closest: spmv-csr)
// ALONE-DAG: trmv.c:[[@LINE+3]]:3: remark: loop is not an idiom (closest: triangular-dot): {{.*}}triangular.idl:{{[0-9]+}}:{{[0-9]+}}: IndependentIterations(loop): the trip count of the loop at line [[@LINE+5]] is not an affine function of the enclosing iteration numbers
// REMARK-NOT: trmv.c:[[@LINE+2]]:3: remark: offloaded
void memory_bound(const int *lim) {
  for (int i = 0; i < N; i++) {
    double s = 0;
    for (int j = 0; j < lim[i]; j++)
      s += Ld[i][j] * xd[j];
    yd[i] = s;
  }
}

int Li[N][N], xi[N], yi[N];
// REMARK-DAG: trmv.c:[[@LINE+2]]:3: remark: idiom triangular-dot not offloaded: cannot lift to FunIL: GEMV with int elements not offloaded (GEMV programs are float or double)
void integer(void) {
  for (int i = 0; i < N; i++) {
    int s = 0;
    for (int j = 0; j <= i; j++)
      s += Li[i][j] * xi[j];
    yi[i] = s;
  }
}
