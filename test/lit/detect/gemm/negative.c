// Near misses of the gemm spec: each must be rejected at the outermost loop
// of its triple nest with the failing condition. Loops inside a rejected nest
// are tried on their own; where that finds a real idiom (a row of C computed
// as a vector-matrix product is a gemv) the test says so. The near misses are
// checked with only gemm.idl and gemv.idl loaded (CHECK), so that another
// spec getting further on a loop cannot hide them; with all the built-in
// specs (ALL), no loop may be detected as gemm or gemv but those named.
// RUN: %clang -O2 -g -fno-vectorize -fno-unroll-loops -S -emit-llvm %s -o %t.ll
// RUN: %opt -idiom-builtin-specs=false -idiom-spec=%srcroot/constraints/specs/gemm.idl -idiom-spec=%srcroot/constraints/specs/gemv.idl -passes='loop-simplify,lcssa,print<idiom>' -disable-output %t.ll | FileCheck %s
// RUN: %opt -passes='loop-simplify,lcssa,print<idiom>' -disable-output %t.ll | FileCheck %s --check-prefix=ALL

#define N 64
float A[N][N], B[N][N], C[N][N], D[N][N];

// B is indexed by i and j: the product does not contract over k.
// CHECK-LABEL: Idioms in function 'wrong_index':
// ALL-LABEL: Idioms in function 'wrong_index':
// ALL-NOT: idiom gem
// CHECK-NOT: idiom gem
// CHECK: at negative.c:[[@LINE+3]]: no idiom (closest: gemm): {{.*}}gemm.idl:{{.*}}: MatrixIndex(b, loop, k, j): address varies with the loops at depth 1 ({{.*}}) and depth 2 ({{.*}}), not with the loop at depth 3
// CHECK-NOT: idiom gem
void wrong_index(void) {
  for (int i = 0; i < N; i++)
    for (int j = 0; j < N; j++) {
      float sum = 0;
      for (int k = 0; k < N; k++)
        sum += A[i][k] * B[i][j];
      C[i][j] = sum;
    }
}

// The same mistake in the in-place (i-k-j) shape: b[j][i] does not vary with k.
// CHECK-LABEL: Idioms in function 'wrong_index_in_place':
// ALL-LABEL: Idioms in function 'wrong_index_in_place':
// ALL-NOT: idiom gem
// CHECK-NOT: idiom gem
// CHECK: at negative.c:[[@LINE+3]]: no idiom (closest: gemm): {{.*}}MatrixIndex(b, loop, k, j): address varies with the loops at depth 1 ({{.*}}) and depth 3 ({{.*}}), not with the loop at depth 2
// CHECK-NOT: idiom gem
void wrong_index_in_place(float (*a)[N], float (*b)[N], float (*c)[N]) {
  for (int i = 0; i < N; i++)
    for (int k = 0; k < N; k++)
      for (int j = 0; j < N; j++)
        c[i][j] += a[i][k] * b[j][i];
}

// An extra statement in the middle of the nest: a second output.
// CHECK-LABEL: Idioms in function 'extra_store':
// ALL-LABEL: Idioms in function 'extra_store':
// ALL-NOT: idiom gem
// CHECK-NOT: idiom gem
// CHECK: at negative.c:[[@LINE+3]]: no idiom (closest: gemm): {{.*}}SameElement(m, st): memory operation does not access the output element: store float
// CHECK-NOT: idiom gem
void extra_store(void) {
  for (int i = 0; i < N; i++)
    for (int j = 0; j < N; j++) {
      float sum = 0;
      for (int k = 0; k < N; k++)
        sum += A[i][k] * B[k][j];
      C[i][j] = sum;
      D[i][j] = sum;
    }
}

// An extra statement between the outer and the middle loop. Rows of C are
// still vector-matrix products, so the middle loop is a gemv.
// CHECK-LABEL: Idioms in function 'extra_in_outer':
// ALL-LABEL: Idioms in function 'extra_in_outer':
// ALL-NOT: idiom gem
// ALL: at negative.c:[[@LINE+9]]: idiom gemv (GEMV)
// ALL-NOT: idiom gem
// CHECK: at negative.c:[[@LINE+7]]: idiom gemv (GEMV)
// CHECK-NOT: idiom gem
// CHECK: at negative.c:[[@LINE+3]]: no idiom (closest: gemm): {{.*}}SameElement(m, st): memory operation does not access the output element: store float 0.000000e+00
// CHECK-NOT: idiom gem
void extra_in_outer(float *t) {
  for (int i = 0; i < N; i++) {
    t[i] = 0;
    for (int j = 0; j < N; j++) {
      float sum = 0;
      for (int k = 0; k < N; k++)
        sum += A[i][k] * B[k][j];
      C[i][j] = sum;
    }
  }
}

// A scalar carried through the nest besides the sum.
// CHECK-LABEL: Idioms in function 'extra_accumulator':
// ALL-LABEL: Idioms in function 'extra_accumulator':
// ALL-NOT: idiom gem
// CHECK-NOT: idiom gem
// CHECK: at negative.c:[[@LINE+4]]: no idiom (closest: gemm): {{.*}}ChainIV(phi, loop): phi is not an induction variable of the nest
// CHECK-NOT: idiom gem
float extra_accumulator(void) {
  float total = 0;
  for (int i = 0; i < N; i++)
    for (int j = 0; j < N; j++) {
      float sum = 0;
      for (int k = 0; k < N; k++)
        sum += A[i][k] * B[k][j];
      C[i][j] = sum;
      total += sum;
    }
  return total;
}

// Triangular (k < i): not rectangular. For a fixed i the j-k nest is
// rectangular and a gemv.
// CHECK-LABEL: Idioms in function 'triangular':
// ALL-LABEL: Idioms in function 'triangular':
// ALL-NOT: idiom gem
// ALL: at negative.c:[[@LINE+8]]: idiom gemv (GEMV)
// ALL-NOT: idiom gem
// CHECK: at negative.c:[[@LINE+6]]: idiom gemv (GEMV)
// CHECK-NOT: idiom gem
// CHECK: at negative.c:[[@LINE+3]]: no idiom (closest: gemm): {{.*}}RectangularNest(loop, 3): trip count of the loop at depth 3 varies in the nest (not rectangular)
// CHECK-NOT: idiom gem
void triangular(void) {
  for (int i = 0; i < N; i++)
    for (int j = 0; j < N; j++) {
      float sum = 0;
      for (int k = 0; k < i; k++)
        sum += A[i][k] * B[k][j];
      C[i][j] = sum;
    }
}

// Convolution-like a[i+k]: rows of "A" overlap. For a fixed i the j-k nest
// reads a[i+k] as a vector: a gemv.
// CHECK-LABEL: Idioms in function 'convolution':
// ALL-LABEL: Idioms in function 'convolution':
// ALL-NOT: idiom gem
// ALL: at negative.c:[[@LINE+8]]: idiom gemv (GEMV)
// ALL-NOT: idiom gem
// CHECK: at negative.c:[[@LINE+6]]: idiom gemv (GEMV)
// CHECK-NOT: idiom gem
// CHECK: at negative.c:[[@LINE+3]]: no idiom (closest: gemm): {{.*}}: MatrixIndex({{.*}}): both indices have a stride of one element: rows overlap (a convolution-like a[i+k], not a matrix)
// CHECK-NOT: idiom gem
void convolution(const float *a, const float *b, float *c, int n) {
  for (int i = 0; i < n; i++)
    for (int j = 0; j < n; j++) {
      float sum = 0;
      for (int k = 0; k < n; k++)
        sum += a[i + k] * b[k * n + j];
      c[i * n + j] = sum;
    }
}

// The sum starts at 1: C = 1 + A*B is not alpha*A*B + beta*C.
// CHECK-LABEL: Idioms in function 'nonzero_start':
// ALL-LABEL: Idioms in function 'nonzero_start':
// ALL-NOT: idiom gem
// CHECK-NOT: idiom gem
// CHECK: at negative.c:[[@LINE+3]]: no idiom (closest: gemm): {{.*}}ZeroConstant(init): value is not zero
// CHECK-NOT: idiom gem
void nonzero_start(void) {
  for (int i = 0; i < N; i++)
    for (int j = 0; j < N; j++) {
      float sum = 1;
      for (int k = 0; k < N; k++)
        sum += A[i][k] * B[k][j];
      C[i][j] = sum;
    }
}

// A sum of elements, not of products. The closest spec is syr2k: its
// update `sum + s` is an Add, whose s (A + B) is no multiply-add.
// CHECK-LABEL: Idioms in function 'sum_not_product':
// ALL-LABEL: Idioms in function 'sum_not_product':
// ALL-NOT: idiom gem
// ALL-NOT: idiom syr2k
// CHECK-NOT: idiom gem
// CHECK-NOT: idiom syr2k
// CHECK: at negative.c:[[@LINE+4]]: no idiom (closest: syr2k): {{.*}}MulAdd(s, x1, y1, t): value is not a multiply-add acc + x*y
// CHECK-NOT: idiom gem
// CHECK-NOT: idiom syr2k
void sum_not_product(void) {
  for (int i = 0; i < N; i++)
    for (int j = 0; j < N; j++) {
      float sum = 0;
      for (int k = 0; k < N; k++)
        sum += A[i][k] + B[k][j];
      C[i][j] = sum;
    }
}

// The output is divided, not scaled.
// CHECK-LABEL: Idioms in function 'divided_output':
// ALL-LABEL: Idioms in function 'divided_output':
// ALL-NOT: idiom gem
// CHECK-NOT: idiom gem
// CHECK: at negative.c:[[@LINE+3]]: no idiom (closest: gemm): {{.*}}ScaledSum(v, sum, st, loop): the output is not alpha*sum + beta*C: a term is neither the sum after its loop nor the stored element
// CHECK-NOT: idiom gem
void divided_output(float d) {
  for (int i = 0; i < N; i++)
    for (int j = 0; j < N; j++) {
      float sum = 0;
      for (int k = 0; k < N; k++)
        sum += A[i][k] * B[k][j];
      C[i][j] = sum / d;
    }
}

// Only some products are accumulated.
// CHECK-LABEL: Idioms in function 'conditional_update':
// ALL-LABEL: Idioms in function 'conditional_update':
// ALL-NOT: idiom gem
// CHECK-NOT: idiom gem
// CHECK: at negative.c:[[@LINE+3]]: no idiom (closest: gemm): {{.*}}: RunsEveryIteration(st): instruction runs only on some iterations (it is conditional)
// CHECK-NOT: idiom gem
void conditional_update(float (*a)[N], float (*b)[N], float (*c)[N]) {
  for (int i = 0; i < N; i++)
    for (int k = 0; k < N; k++)
      for (int j = 0; j < N; j++)
        if (b[k][j] > 0)
          c[i][j] += a[i][k] * b[k][j];
}

// Four deep: the inner three loops are the gemm (a batch of products).
// CHECK-LABEL: Idioms in function 'batched':
// ALL-LABEL: Idioms in function 'batched':
// ALL-NOT: idiom gem
// ALL: at negative.c:[[@LINE+8]]: idiom gemm (GEMM)
// ALL-NOT: idiom gem
// CHECK: at negative.c:[[@LINE+6]]: idiom gemm (GEMM)
// CHECK-NOT: idiom gem
// CHECK: at negative.c:[[@LINE+3]]: no idiom (closest: gemm): {{.*}}LoopChain(loop, 3): loop nest is 4 deep, not 3
// CHECK-NOT: idiom gem
void batched(int nb, const float *a, const float *b, float *c) {
  for (int t = 0; t < nb; t++)
    for (int i = 0; i < N; i++)
      for (int j = 0; j < N; j++) {
        float sum = 0;
        for (int k = 0; k < N; k++)
          sum += a[t * N * N + i * N + k] * b[t * N * N + k * N + j];
        c[t * N * N + i * N + j] = sum;
      }
}

