// TRMM (issue 13) is detected (built-in spec trmm, OnlyAntiDependences:
// test/lit/detect/trmm.c) but not lifted; this test pins down the two facts
// its lift will rest on. (1) IndependentIterations (Z3 over the triangle; user spec
// Inputs/trmm-dependence.idl) tells PolyBench trmm, whose row i reads only
// rows k > i that later iterations write (an anti dependence: a product
// with the original B, out of place, then the copy, is its result), from a
// variant whose k runs below i and reads rows that earlier iterations wrote
// (a flow dependence, read after write: no reordering is sound), and from a
// product into another array (iterations independent: detected). (2) A
// permissive user spec that names the GEMM template cannot offload either
// form: the GEMM chain analysis refuses a reduction loop whose start moves
// with i (Inputs/loose-trmm.idl).
// RUN: %clang -O2 -g -fno-vectorize -fno-unroll-loops -S -emit-llvm %s -o %t.ll
// RUN: %opt -idiom-builtin-specs=false -idiom-spec=%S/Inputs/trmm-dependence.idl -passes='loop-simplify,lcssa,print<idiom>' -disable-output %t.ll | FileCheck %s
// RUN: %opt -idiom-builtin-specs=false -idiom-spec=%S/Inputs/loose-trmm.idl -passes='loop-simplify,lcssa,print<idiom>' -disable-output %t.ll | FileCheck %s --check-prefix=LOOSE
#define N 200
float A[N][N], B[N][N], C[N][N];

// CHECK-LABEL: Idioms in function 'trmm':
// CHECK-NEXT: loop %{{[0-9]+}} at trmm-dependence.c:[[@LINE+5]]: no idiom (closest: trmm-dependence): {{.*}}IndependentIterations(loop): loop-carried anti dependence: the store at {{.*}}trmm-dependence.c:[[@LINE+8]]:17 in iteration 1 {{.*}}writes an element that the load at {{.*}}trmm-dependence.c:[[@LINE+8]]:30 read in iteration 0
// LOOSE-LABEL: Idioms in function 'trmm':
// LOOSE-NEXT: loop %{{[0-9]+}} at trmm-dependence.c:[[@LINE+3]]: no idiom (closest: loose-trmm): matched but cannot be lifted with template 'gemm': trip count of the loop at depth 3 varies in the nest
// LOOSE-NOT: idiom loose-trmm (GEMM)
void trmm(float alpha) {
  for (int i = 0; i < N; i++)
    for (int j = 0; j < N; j++) {
      for (int k = i + 1; k < N; k++)
        B[i][j] += A[k][i] * B[k][j];
      B[i][j] = alpha * B[i][j];
    }
}

// CHECK-LABEL: Idioms in function 'trmm_below':
// CHECK-NEXT: loop %{{[0-9]+}} at trmm-dependence.c:[[@LINE+5]]: no idiom (closest: trmm-dependence): {{.*}}IndependentIterations(loop): loop-carried flow dependence: the load at {{.*}}trmm-dependence.c:[[@LINE+8]]:30 in iteration 2 {{.*}}reads an element that the store at {{.*}}trmm-dependence.c:[[@LINE+8]]:17 wrote in iteration 1
// LOOSE-LABEL: Idioms in function 'trmm_below':
// LOOSE-NEXT: loop %{{[0-9]+}} at trmm-dependence.c:[[@LINE+3]]: no idiom (closest: loose-trmm): matched but cannot be lifted with template 'gemm': trip count of the loop at depth 3 varies in the nest
// LOOSE-NOT: idiom loose-trmm (GEMM)
void trmm_below(float alpha) {
  for (int i = 0; i < N; i++)
    for (int j = 0; j < N; j++) {
      for (int k = 0; k < i; k++)
        B[i][j] += A[k][i] * B[k][j];
      B[i][j] = alpha * B[i][j];
    }
}

// CHECK-LABEL: Idioms in function 'trmm_into_c':
// CHECK-NEXT: loop %{{[0-9]+}} at trmm-dependence.c:[[@LINE+3]]: idiom trmm-dependence (detected only)
// CHECK-NOT: no idiom (closest: trmm-dependence): {{.*}}IndependentIterations
void trmm_into_c(float alpha) {
  for (int i = 0; i < N; i++)
    for (int j = 0; j < N; j++) {
      float s = B[i][j];
      for (int k = i + 1; k < N; k++)
        s += A[k][i] * B[k][j];
      C[i][j] = alpha * s;
    }
}
