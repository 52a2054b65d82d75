// Sparse matrix-vector products in jagged diagonal storage (Parboil spmv's
// CPU reference): row i has nzcnt[i] nonzeros, the k-th at jds_ptr[k] + i,
// and the result goes to y[perm[i]]. Reported as spmv-jds at the row loop,
// and lifted (passes/lift/SpmvLifting.h; the FunIL in test/lit/lift/spmv-jds.c).
// RUN: %clang -O2 -g -fno-vectorize -fno-unroll-loops -S -emit-llvm %s -o %t.ll
// RUN: %opt -passes='loop-simplify,lcssa,print<idiom>' -disable-output %t.ll | FileCheck %s
// RUN: %opt -idiom-builtin-specs=false -idiom-spec=%srcroot/constraints/specs/spmv.idl -passes='loop-simplify,lcssa,print<idiom>' -disable-output %t.ll | FileCheck %s --check-prefix=SPMV

// Parboil repeats the product 50 times: the repetition loop is no idiom,
// the row loop inside it is.
// CHECK-LABEL: Idioms in function 'parboil_jds':
// CHECK-NEXT: loop %{{[0-9]+}} at jds.c:[[@LINE+8]]: idiom spmv-jds (JDS SpMV)
// CHECK: loop %{{[0-9]+}} at jds.c:[[@LINE+6]]: no idiom
// CHECK-NOT: {{^}}loop
// SPMV-LABEL: Idioms in function 'parboil_jds':
// SPMV-NEXT: loop %{{[0-9]+}} at jds.c:[[@LINE+4]]: idiom spmv-jds (JDS SpMV)
// SPMV: loop %{{[0-9]+}} at jds.c:[[@LINE+2]]: no idiom (closest: spmv-csr): {{.*}}: SparseRowLoop(loop, inner): inner loop is not an innermost loop
void parboil_jds(int dim, float *h_data, int *h_nzcnt, int *h_ptr, int *h_indices, int *h_perm, float *h_Ax_vector, float *h_x_vector) {
  for (int p = 0; p < 50; p++) {
    for (int i = 0; i < dim; i++) {
      float sum = 0.0f;
      int bound = h_nzcnt[i];
      for (int k = 0; k < bound; k++) {
        int j = h_ptr[k] + i;
        int in = h_indices[j];
        float d = h_data[j];
        float t = h_x_vector[in];
        sum += d * t;
      }
      h_Ax_vector[h_perm[i]] = sum;
    }
  }
}

// The same product written in one expression, with the row as the second
// operand of the position and double values.
// CHECK-LABEL: Idioms in function 'jds_double':
// CHECK-NEXT: loop %{{[0-9]+}} at jds.c:[[@LINE+3]]: idiom spmv-jds (JDS SpMV)
// CHECK-NOT: {{^}}loop
void jds_double(long dim, const double *data, const int *nzcnt, const long *ptr, const int *indices, const int *perm, double *y, const double *x) {
  for (long i = 0; i < dim; i++) {
    double sum = 0.0;
    for (int k = 0; k < nzcnt[i]; k++)
      sum += data[i + ptr[k]] * x[indices[i + ptr[k]]];
    y[perm[i]] = sum;
  }
}

// A JDS loop whose result is written at y[i] instead of y[perm[i]] is not
// the format's (rows are stored permuted).
// CHECK-LABEL: Idioms in function 'jds_unpermuted':
// CHECK-NEXT: loop %{{[0-9]+}} at jds.c:[[@LINE+4]]: no idiom
// SPMV-LABEL: Idioms in function 'jds_unpermuted':
// SPMV-NEXT: loop %{{[0-9]+}} at jds.c:[[@LINE+2]]: no idiom (closest: spmv-jds): {{.*}}: JdsPermutedStore(st, loop): y is not written at perm[i], an index read once per row: store float
void jds_unpermuted(int dim, const float *data, const int *nzcnt, const int *ptr, const int *indices, float *y, const float *x) {
  for (int i = 0; i < dim; i++) {
    float sum = 0.0f;
    for (int k = 0; k < nzcnt[i]; k++)
      sum += data[ptr[k] + i] * x[indices[ptr[k] + i]];
    y[i] = sum;
  }
}
