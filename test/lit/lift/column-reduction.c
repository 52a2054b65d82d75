// The lifted FunIL of column reductions (`lifts column`,
// constraints/specs/map-of-reductions.idl): `for j: { out[j] = INIT; for i:
// acc = F(acc, ...); out[j] = G(acc); }` becomes a map over j of
// apply(\r => G, reduceSeq(F, INIT, ...)) in i's order. Inputs indexed by j
// are components of t, those indexed by i the elements e of the reduced
// zip; a matrix indexed by both is a row of t (its column j) zipped into e.
// Then the negatives, each with the missed remark that names the rule.
// RUN: %clang -O2 -g -fno-vectorize -fno-unroll-loops -S -emit-llvm %s -o %t.ll
// RUN: %opt -passes='loop-simplify,lcssa,print<idiom>' -disable-output %t.ll | FileCheck %s
// RUN: %clang-idiom -g -c %s -o /dev/null -Rpass=idiom-offload -Rpass-missed=idiom-offload 2>&1 | FileCheck %s --check-prefix=REMARK
// Translation validation: -idiom-test-corrupt-lift turns the first add or
// mul of each program into another operation (-ffp-contract=off: no
// fmuladd, which it leaves alone); every column reduction is refused.
// RUN: %clang-idiom -g -ffp-contract=off -fplugin=%plugin -mllvm -idiom-test-corrupt-lift -mllvm -idiom-z3-timeout=600000 -mllvm -idiom-z3-rlimit=200000000 -c %s -o /dev/null -Rpass=idiom-offload -Rpass-missed=idiom-offload 2>&1 | FileCheck %s --check-prefix=BAD
// BAD-NOT: offloaded column reduction
double sqrt(double);

// CHECK-LABEL: Idioms in function 'mean':
// CHECK-NEXT: loop %{{[0-9]+}} at column-reduction.c:[[@LINE+7]]: idiom column-reduction (column reduction)
// CHECK-NEXT: FunIL:
// CHECK-NEXT: idiom idiom_mean_0(b0: [f64], b1: [f64], N: i64, K: i64, s0: f64) {
// CHECK-NEXT: store view(b0, 0:i64, 1:i64, N) = map(\(t: (f64, [f64]_K)) => apply(\(r: f64) => fdiv(r, s0), reduceSeq(\(acc: f64, e: f64) => fadd(e, acc), 0x0p+0:f64, t.1)), zip(view(b0, 0:i64, 1:i64, N), view(b1, 0:i64, 1:i64, N, 1000:i64, K)));
// REMARK-DAG: column-reduction.c:[[@LINE+3]]:3: remark: offloaded column reduction (column-reduction)
// BAD-DAG: column-reduction.c:[[@LINE+2]]:3: remark: idiom column-reduction not offloaded: translation validation failed: {{Z3 found inputs on which the lifted FunIL and the LLVM slice differ \(column reduction STEP, INIT or POST\)|equivalence of the lifted column reduction and the LLVM slice not proven}}
void mean(int n, int m, double (*data)[1000], double *mu, double fn) {
  for (int j = 0; j < m; j++) {
    mu[j] = 0.0;
    for (int i = 0; i < n; i++)
      mu[j] += data[i][j];
    mu[j] /= fn;
  }
}

// The stddev: a term that is not a product reads mu[j] (an input indexed
// by j), the epilogue a sqrt and a select.
// CHECK-LABEL: Idioms in function 'stddev':
// CHECK-NEXT: loop %{{[0-9]+}} at column-reduction.c:[[@LINE+6]]: idiom column-reduction (column reduction)
// CHECK-NEXT: FunIL:
// CHECK-NEXT: idiom idiom_stddev_0(b0: [f64], b1: [f64], b2: [f64], N: i64, K: i64, s0: f64) {
// CHECK-NEXT: store view(b0, 0:i64, 1:i64, N) = map(\(t: (f64, f64, [f64]_K)) => apply(\(r: f64) => select(fcmp_ugt(sqrt(fdiv(r, s0)), 0x1.999999999999ap-4:f64), sqrt(fdiv(r, s0)), 0x1p+0:f64), reduceSeq(\(acc: f64, e: f64) => fmuladd(fsub(e, t.1), fsub(e, t.1), acc), 0x0p+0:f64, t.2)), zip(view(b0, 0:i64, 1:i64, N), view(b1, 0:i64, 1:i64, N), view(b2, 0:i64, 1:i64, N, 1000:i64, K)));
// REMARK-DAG: column-reduction.c:[[@LINE+2]]:3: remark: offloaded column reduction (column-reduction)
void stddev(int n, int m, double (*data)[1000], const double *mu, double *sd, double fn) {
  for (int j = 0; j < m; j++) {
    sd[j] = 0.0;
    for (int i = 0; i < n; i++)
      sd[j] += (data[i][j] - mu[j]) * (data[i][j] - mu[j]);
    sd[j] /= fn;
    sd[j] = sqrt(sd[j]);
    sd[j] = sd[j] <= 0.1 ? 1.0 : sd[j];
  }
}

// A scalar accumulator stored after the loop, a term that reads i and j,
// the sum started from an input indexed by j.
// CHECK-LABEL: Idioms in function 'scalar_acc':
// CHECK-NEXT: loop %{{[0-9]+}} at column-reduction.c:[[@LINE+5]]: idiom column-reduction (column reduction)
// CHECK-NEXT: FunIL:
// CHECK-NEXT: idiom idiom_scalar_acc_0(b0: [i32], b1: [i32], b2: [i32], N: i64, K: i64) {
// CHECK-NEXT: store view(b0, 0:i64, 1:i64, N) = map(\(t: (i32, i32, [i32]_K, i64)) => apply(\(r: i32) => r, reduceSeq(\(acc: i32, e: (i32, i64)) => add(add(acc, trunc.i32(add(0:i64, mul(e.1, 1:i64)))), mul(e.0, trunc.i32(add(0:i64, mul(t.3, 1:i64))))), t.1, zip(t.2, iota(K)))), zip(view(b0, 0:i64, 1:i64, N), view(b1, 0:i64, 1:i64, N), view(b2, 0:i64, 1:i64, N, 64:i64, K), iota(N)));
void scalar_acc(int n, int m, int (*a)[64], const int *start, int *out) {
  for (int j = 0; j < m; j++) {
    int s = start[j];
    for (int i = 0; i < n; i++)
      s += a[i][j] * j + i;
    out[j] = s;
  }
}

// Negatives.
// The term reads the output array at another element (out[0]): columns
// depend on each other.
// REMARK-DAG: column-reduction.c:[[@LINE+2]]:3: remark: loop is not an idiom (closest: column-reduction): matched but cannot be lifted with template 'column': the nest reads an output array at another element than the one it writes (out[j] = f(out[j'])): columns depend on each other
void other_element(int n, int m, double (*a)[1000], double *out) {
  for (int j = 1; j < m; j++) {
    out[j] = 0.0;
    for (int i = 0; i < n; i++)
      out[j] += a[i][j] * out[0];
  }
}

// The epilogue writes another column (out[j + 1]).
// REMARK-DAG: column-reduction.c:[[@LINE+2]]:3: remark: loop is not an idiom (closest: column-reduction): matched but cannot be lifted with template 'column': two stores write different elements of the array of one base pointer in one column (out[j] and another element)
void other_column(int n, int m, double (*a)[1000], double *out) {
  for (int j = 0; j < m; j++) {
    double s = 0.0;
    for (int i = 0; i < n; i++)
      s += a[i][j];
    out[j] = s;
    out[j + 1] = s * 0.5;
  }
}

// A value carried from column to column.
// REMARK-DAG: column-reduction.c:[[@LINE+3]]:3: remark: loop is not an idiom (closest: column-reduction): matched but cannot be lifted with template 'column': the loop over the outputs carries a value other than counters (a recurrence across columns)
void carried(int n, int m, double (*a)[1000], double *out) {
  double c = 1.0;
  for (int j = 0; j < m; j++) {
    double s = c;
    for (int i = 0; i < n; i++)
      s += a[i][j];
    out[j] = s;
    c = s * 0.5;
  }
}

// The inner loop stores an element that moves with i.
// REMARK-DAG: column-reduction.c:[[@LINE+2]]:3: remark: loop is not an idiom (closest: column-reduction): matched but cannot be lifted with template 'column': a store of the nest writes an element that does not move with the outer loop j alone (out[j]): the columns are not independent
void moves_with_i(int n, int m, double (*a)[1000], double *out, double *t) {
  for (int j = 0; j < m; j++) {
    double s = 0.0;
    for (int i = 0; i < n; i++) {
      s += a[i][j];
      t[i] = s;
    }
    out[j] = s;
  }
}
