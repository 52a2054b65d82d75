// TRMM (issue 13; spec trmm, `lifts trmm`): PolyBench trmm is lifted as the
// band program (docs/FunIL.md, "TRMM programs: a band on the reduction"):
// the reduction runs over the rectangle around the band k > i, zipped with
// iota(K), STEP keeps acc outside the band (select(icmp_slt(x.2, r.2), ...),
// r.2 the row's index from iota(M)), B is read from the original array (an
// IN buffer flagged IDIOM_ARG_SNAPSHOT over C's array) and C is the output
// over the same array. A start that advances two rows per row (k = 2 i + 1)
// has the mask x.2 < 2 r.2. Refused: a band that starts at the row it
// writes (k = i: the operand B[k][j] meets the output element B[i][j]
// within one (i, j)), the same with an initialisation before the band
// (three stores). The lower form whose rows run down (k < i, i from m - 1
// down to 1) is the triangle program on rows counted from the last; down
// to 0 it is refused (jump threading gives its j loop two exits), and the
// forms that are not parallel (rows running up with k < i, rows running
// down with k > i) are refused with the flow dependence. Translation
// validation covers the band and the triangle: -idiom-test-corrupt-lift
// changes POST (its fmul) and -idiom-test-corrupt-mask the mask (x.2 <=
// r.2 adds the diagonal), and Z3 finds the difference.
// RUN: %clang -O2 -g -fno-vectorize -fno-unroll-loops -S -emit-llvm %s -o %t.ll
// RUN: %opt -passes='loop-simplify,lcssa,print<idiom>' -disable-output %t.ll | FileCheck %s
// RUN: %clang-idiom -c %s -o /dev/null -Rpass=idiom-offload -Rpass-missed=idiom-offload 2>&1 | FileCheck %s --check-prefix=REMARK
// RUN: %clang-idiom -fplugin=%plugin -mllvm -idiom-test-corrupt-lift -mllvm -idiom-z3-timeout=600000 -mllvm -idiom-z3-rlimit=200000000 -c %s -o /dev/null -Rpass=idiom-offload -Rpass-missed=idiom-offload 2>&1 | FileCheck %s --check-prefix=BAD
// RUN: %clang-idiom -fplugin=%plugin -mllvm -idiom-test-corrupt-mask -mllvm -idiom-z3-timeout=600000 -mllvm -idiom-z3-rlimit=200000000 -c %s -o /dev/null -Rpass=idiom-offload -Rpass-missed=idiom-offload 2>&1 | FileCheck %s --check-prefix=MASK
#define M 40
#define N 48
float A[M][M], B[M][N];
double Ad[M][M], Bd[M][N];

// CHECK-LABEL: Idioms in function 'trmm':
// CHECK-NEXT: loop %{{[0-9]+}} at trmm.c:[[@LINE+8]]: idiom trmm (TRMM)
// CHECK-NEXT: FunIL:
// CHECK-NEXT: idiom idiom_trmm_0(A: [f32], B: [f32], C: [f32], s0: f32) {
// CHECK-NEXT: store view(C, 0:i64, 48:i64, 40:i64, 1:i64, 48:i64) = map(\(r: ([f32]_39, [f32]_48, i64)) => map(\(q: ([f32]_39, f32)) => fmul(reduceSeq(\(acc: f32, x: (f32, f32, i64)) => select(icmp_slt(x.2, r.2), acc, fmuladd(x.0, x.1, acc)), q.1, zip(r.0, q.0, iota(39:i64))), s0), zip(view(B, 0:i64, 1:i64, 48:i64, 48:i64, 39:i64), r.1)), zip(view(A, 0:i64, 1:i64, 40:i64, 40:i64, 39:i64), view(C, 0:i64, 48:i64, 40:i64, 1:i64, 48:i64), iota(40:i64)));
// REMARK-DAG: trmm.c:[[@LINE+4]]:3: remark: offloaded TRMM (trmm) to OpenCL
// BAD-DAG: trmm.c:[[@LINE+3]]:3: remark: idiom trmm not offloaded: translation validation failed: Z3 found inputs on which the lifted FunIL and the LLVM slice differ (GEMM STEP, INIT or POST)
// MASK-DAG: trmm.c:[[@LINE+2]]:3: remark: idiom trmm not offloaded: translation validation failed: Z3 found inputs on which the lifted FunIL and the LLVM slice differ (TRMM band mask)
void trmm(float alpha) {
  for (int i = 0; i < M; i++)
    for (int j = 0; j < N; j++) {
      for (int k = i + 1; k < M; k++)
        B[i][j] += A[k][i] * B[k][j];
      B[i][j] = alpha * B[i][j];
    }
}

// CHECK-LABEL: Idioms in function 'trmm_lead2':
// CHECK-NEXT: loop %{{[0-9]+}} at trmm.c:[[@LINE+5]]: idiom trmm (TRMM)
// CHECK: select(icmp_slt(x.2, mul(2:i64, r.2)), acc, fmuladd(x.0, x.1, acc))
// REMARK-DAG: trmm.c:[[@LINE+3]]:3: remark: offloaded TRMM (trmm) to OpenCL
// MASK-DAG: trmm.c:[[@LINE+2]]:3: remark: idiom trmm not offloaded: translation validation failed: Z3 found inputs on which the lifted FunIL and the LLVM slice differ (TRMM band mask)
void trmm_lead2(float alpha) {
  for (int i = 0; i < M / 2; i++)
    for (int j = 0; j < N; j++) {
      for (int k = 2 * i + 1; k < M; k++)
        B[i][j] += A[k][i] * B[k][j];
      B[i][j] = alpha * B[i][j];
    }
}

// CHECK-LABEL: Idioms in function 'trmm_diag':
// CHECK-NEXT: loop %{{[0-9]+}} at trmm.c:[[@LINE+4]]: idiom trmm (TRMM)
// CHECK-NEXT: not offloaded: cannot lift to FunIL: the TRMM operand over the output array may meet the output element within one (i, j)
// REMARK-DAG: trmm.c:[[@LINE+2]]:3: remark: idiom trmm not offloaded: cannot lift to FunIL: the TRMM operand over the output array may meet the output element within one (i, j)
void trmm_diag(float alpha) {
  for (int i = 0; i < M; i++)
    for (int j = 0; j < N; j++) {
      for (int k = i; k < M; k++)
        B[i][j] += A[k][i] * B[k][j];
      B[i][j] = alpha * B[i][j];
    }
}

// CHECK-LABEL: Idioms in function 'trmm_init':
// CHECK-NEXT: loop %{{[0-9]+}} at trmm.c:[[@LINE+3]]: idiom trmm (TRMM)
// CHECK-NEXT: not offloaded: cannot lift to FunIL: the GEMM nest has two stores that are not an initialisation
void trmm_init(float alpha) {
  for (int i = 0; i < M; i++)
    for (int j = 0; j < N; j++) {
      B[i][j] = 2.0f;
      for (int k = i; k < M; k++)
        B[i][j] += A[k][i] * B[k][j];
      B[i][j] = alpha * B[i][j];
    }
}

// The lower form with rows running down (BLAS's left lower form, B = A B
// with A lower triangular): row i reads the rows k < i, which later
// iterations overwrite, so its loops have anti dependences only. Its rows
// are counted from the last (NestInfo::RowsReversed: row r is i = r + 1),
// and its reduction is a triangle k < 1 + r, the mask a TRMV's lower one
// on the rows: select(icmp_slt(x.2, add(1, mul(1, r.2))), STEP, acc).
// CHECK-LABEL: Idioms in function 'trmm_lower':
// CHECK-NEXT: loop %{{[0-9]+}} at trmm.c:[[@LINE+8]]: idiom trmm (TRMM)
// CHECK-NEXT: FunIL:
// CHECK-NEXT: idiom idiom_trmm_lower_0(A: [f32], B: [f32], C: [f32], s0: f32) {
// CHECK-NEXT: store view(C, 0:i64, 48:i64, 39:i64, 1:i64, 48:i64) = map(\(r: ([f32]_39, [f32]_48, i64)) => map(\(q: ([f32]_39, f32)) => fmul(reduceSeq(\(acc: f32, x: (f32, f32, i64)) => select(icmp_slt(x.2, add(1:i64, mul(1:i64, r.2))), fmuladd(x.0, x.1, acc), acc), q.1, zip(r.0, q.0, iota(39:i64))), s0), zip(view(B, 0:i64, 1:i64, 48:i64, 48:i64, 39:i64), r.1)), zip(view(A, 0:i64, 40:i64, 39:i64, 1:i64, 39:i64), view(C, 0:i64, 48:i64, 39:i64, 1:i64, 48:i64), iota(39:i64)));
// REMARK-DAG: trmm.c:[[@LINE+4]]:3: remark: offloaded TRMM (trmm) to OpenCL
// BAD-DAG: trmm.c:[[@LINE+3]]:3: remark: idiom trmm not offloaded: translation validation failed: Z3 found inputs on which the lifted FunIL and the LLVM slice differ (GEMM STEP, INIT or POST)
// MASK-DAG: trmm.c:[[@LINE+2]]:3: remark: idiom trmm not offloaded: translation validation failed: Z3 found inputs on which the lifted FunIL and the LLVM slice differ (TRMM triangle mask)
void trmm_lower(float alpha) {
  for (int i = M - 1; i > 0; i--)
    for (int j = 0; j < N; j++) {
      for (int k = 0; k < i; k++)
        B[i][j] += A[i][k] * B[k][j];
      B[i][j] = alpha * B[i][j];
    }
}

// Transposed (A[k][i]) and through a sum into `B[i][j] += alpha * s`.
// CHECK-LABEL: Idioms in function 'trmm_lower_sum':
// CHECK-NEXT: loop %{{[0-9]+}} at trmm.c:[[@LINE+6]]: idiom trmm (TRMM)
// CHECK-NEXT: FunIL:
// CHECK-NEXT: idiom idiom_trmm_lower_sum_0(A: [f64], B: [f64], C: [f64], s0: f64) {
// CHECK-NEXT: store view(C, 0:i64, 48:i64, 39:i64, 1:i64, 48:i64) = map(\(r: ([f64]_39, [f64]_48, i64)) => map(\(q: ([f64]_39, f64)) => fmuladd(s0, reduceSeq(\(acc: f64, x: (f64, f64, i64)) => select(icmp_slt(x.2, add(1:i64, mul(1:i64, r.2))), fmuladd(x.0, x.1, acc), acc), 0x0p+0:f64, zip(r.0, q.0, iota(39:i64))), q.1), zip(view(B, 0:i64, 1:i64, 48:i64, 48:i64, 39:i64), r.1)), zip(view(A, 0:i64, 1:i64, 39:i64, 40:i64, 39:i64), view(C, 0:i64, 48:i64, 39:i64, 1:i64, 48:i64), iota(39:i64)));
// REMARK-DAG: trmm.c:[[@LINE+2]]:3: remark: offloaded TRMM (trmm) to OpenCL
void trmm_lower_sum(double alpha) {
  for (int i = M - 1; i >= 1; i--)
    for (int j = 0; j < N; j++) {
      double s = 0;
      for (int k = 0; k < i; k++)
        s += Ad[k][i] * Bd[k][j];
      Bd[i][j] += alpha * s;
    }
}

// Not lifted yet: `int` indices with a run-time m. The k loop's count
// zext(m - 1) at the first row and the trip count zext(m) - 1 do not cancel
// in SCEV, so counted from the last row its start is no constant (long
// indices are lifted: test/lit/run/trmm.c `trmm_lower`).
// CHECK-LABEL: Idioms in function 'trmm_lower_int_vla':
// CHECK: loop %{{[0-9]+}} at trmm.c:[[@LINE+4]]: no idiom (closest: trmm): matched but cannot be lifted with template 'trmm': trip count of the loop at depth 3 varies in the nest
// REMARK-DAG: trmm.c:[[@LINE+3]]:3: remark: loop is not an idiom (closest: trmm): matched but cannot be lifted with template 'trmm': trip count of the loop at depth 3 varies in the nest
// REMARK-NOT: trmm.c:[[@LINE+2]]:3: remark: offloaded
void trmm_lower_int_vla(int m, int n, float alpha, float X[m][m], float Y[m][n]) {
  for (int i = m - 1; i > 0; i--)
    for (int j = 0; j < n; j++) {
      for (int k = 0; k < i; k++)
        Y[i][j] += X[i][k] * Y[k][j];
      Y[i][j] = alpha * Y[i][j];
    }
}

// The same rows run down to 0 (`i >= 0`, row 0 scaled only): parallel too,
// but at -O2 jump threading sends the last row's j loop straight to the
// function's exit (the k loop's zero-trip test `i == 0` is also the i
// loop's exit test), so the j loop has two exits and the spec's dependence
// test cannot translate its induction variable: refused, and the remark
// says so.
// CHECK-LABEL: Idioms in function 'trmm_lower_to_zero':
// CHECK: loop %{{[0-9]+}} at trmm.c:[[@LINE+4]]: no idiom (closest: trmm): {{.*}}OnlyAntiDependences(loop): the address of {{.*}} is not affine in the induction variables of the loop and the loops inside it (the loop at {{.*}}trmm.c:[[@LINE+5]] has several exits: at -O2, jump threading may route an outer loop's last iteration out of it
// REMARK-DAG: trmm.c:[[@LINE+3]]:3: remark: loop is not an idiom (closest: trmm): {{.*}}OnlyAntiDependences(loop): {{.*}} has several exits
// REMARK-NOT: trmm.c:[[@LINE+2]]:3: remark: offloaded
void trmm_lower_to_zero(float alpha) {
  for (int i = M - 1; i >= 0; i--)
    for (int j = 0; j < N; j++) {
      for (int k = 0; k < i; k++)
        B[i][j] += A[i][k] * B[k][j];
      B[i][j] = alpha * B[i][j];
    }
}

// Not parallel, refused with the flow dependence: the upper form with rows
// running down (row i reads rows k > i that earlier iterations updated),
// and PolyBench 3's lower form with rows running up (`for (i = 1; i < m;
// i++) ... for (k = 0; k < i; k++)`: rows k < i already updated), in place
// or with a scaling (spec gemm-triangle matches the latter, and the GEMM
// lifter's refusal names the dependence).
// CHECK-LABEL: Idioms in function 'trmm_upper_down':
// CHECK: loop %{{[0-9]+}} at trmm.c:[[@LINE+4]]: no idiom (closest: trmm): {{.*}}OnlyAntiDependences(loop): loop-carried flow dependence: the load at {{.*}}trmm.c:[[@LINE+7]]:{{[0-9]+}} in iteration {{[0-9]+}} {{.*}} reads an element that the store at {{.*}}trmm.c:[[@LINE+7]]:{{[0-9]+}} wrote in iteration
// REMARK-DAG: trmm.c:[[@LINE+3]]:3: remark: loop is not an idiom (closest: trmm): {{.*}}OnlyAntiDependences(loop): loop-carried flow dependence
// REMARK-NOT: trmm.c:[[@LINE+2]]:3: remark: offloaded
void trmm_upper_down(float alpha) {
  for (int i = M - 1; i >= 0; i--)
    for (int j = 0; j < N; j++) {
      for (int k = i + 1; k < M; k++)
        B[i][j] += A[i][k] * B[k][j];
      B[i][j] = alpha * B[i][j];
    }
}

// CHECK-LABEL: Idioms in function 'trmm_poly3':
// CHECK: loop %{{[0-9]+}} at trmm.c:[[@LINE+5]]: idiom gemm-triangle (GEMM)
// CHECK-NEXT: not offloaded: cannot lift to FunIL: GEMM whose output C is also read at another index not offloaded (A or B is the array C); the nest updates its output in place and is not parallel: loop-carried flow dependence: the load at {{.*}}trmm.c:[[@LINE+7]]:{{[0-9]+}} in iteration {{[0-9]+}} {{.*}} reads an element that the store at {{.*}}trmm.c:[[@LINE+7]]:{{[0-9]+}} wrote in iteration
// REMARK-DAG: trmm.c:[[@LINE+3]]:3: remark: idiom gemm-triangle not offloaded: cannot lift to FunIL: {{.*}}; the nest updates its output in place and is not parallel: loop-carried flow dependence
// REMARK-NOT: trmm.c:[[@LINE+2]]:3: remark: offloaded
void trmm_poly3(void) {
  for (int i = 1; i < M; i++)
    for (int j = 0; j < N; j++)
      for (int k = 0; k < i; k++)
        B[i][j] += A[i][k] * B[k][j];
}

// CHECK-LABEL: Idioms in function 'trmm_poly3_scaled':
// CHECK: loop %{{[0-9]+}} at trmm.c:[[@LINE+4]]: idiom gemm-triangle (GEMM)
// CHECK-NEXT: not offloaded: cannot lift to FunIL: the GEMM nest has a second store {{.*}}; the nest updates its output in place and is not parallel: loop-carried flow dependence
// REMARK-NOT: trmm.c:[[@LINE+2]]:3: remark: offloaded
void trmm_poly3_scaled(float alpha) {
  for (int i = 1; i < M; i++)
    for (int j = 0; j < N; j++) {
      for (int k = 0; k < i; k++)
        B[i][j] += A[i][k] * B[k][j];
      B[i][j] = alpha * B[i][j];
    }
}
