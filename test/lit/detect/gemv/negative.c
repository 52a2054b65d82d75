// Near misses of the gemv spec, each rejected at its outer loop with the
// failing condition. The reasons are checked with only gemm.idl and gemv.idl
// loaded (CHECK), so that another spec getting further on a loop cannot hide
// them; with all the built-in specs (ALL), no loop may be detected as gemv.
// RUN: %clang -O2 -g -fno-vectorize -fno-unroll-loops -S -emit-llvm %s -o %t.ll
// RUN: %opt -idiom-builtin-specs=false -idiom-spec=%srcroot/constraints/specs/gemm.idl -idiom-spec=%srcroot/constraints/specs/gemv.idl -passes='loop-simplify,lcssa,print<idiom>' -disable-output %t.ll | FileCheck %s
// RUN: %opt -passes='loop-simplify,lcssa,print<idiom>' -disable-output %t.ll | FileCheck %s --check-prefix=ALL

#define N 64
float A[N][N], B[N][N], X[N], Y[N];

// A 1-D convolution y[i] = sum_j w[j]*x[i+j]: x[i+j] is not a matrix.
// CHECK-LABEL: Idioms in function 'convolution':
// CHECK: at negative.c:[[@LINE+5]]: no idiom (closest: gemv): {{.*}}gemv.idl:{{.*}}: MatrixIndex({{.*}}): both indices have a stride of one element: rows overlap (a convolution-like a[i+k], not a matrix)
// CHECK-NOT: idiom gem
// ALL-LABEL: Idioms in function 'convolution':
// ALL-NOT: idiom gem
void convolution(int n, int w, const float *k, const float *x, float *y) {
  for (int i = 0; i < n; i++) {
    float sum = 0;
    for (int j = 0; j < w; j++)
      sum += k[j] * x[i + j];
    y[i] = sum;
  }
}

// Both factors are the vector x: no matrix.
// CHECK-LABEL: Idioms in function 'vector_squared':
// CHECK: at negative.c:[[@LINE+5]]: no idiom (closest: gemv): {{.*}}MatrixIndex(a, loop, i, k): address varies with only 1 loop of the nest, not 2 (a vector, not a matrix)
// CHECK-NOT: idiom gem
// ALL-LABEL: Idioms in function 'vector_squared':
// ALL-NOT: idiom gem
void vector_squared(void) {
  for (int i = 0; i < N; i++) {
    float sum = 0;
    for (int j = 0; j < N; j++)
      sum += X[j] * X[j];
    Y[i] = sum;
  }
}

// Two matrices multiplied element-wise along a row: B[i][j] is not a vector.
// CHECK-LABEL: Idioms in function 'row_dot':
// CHECK: at negative.c:[[@LINE+5]]: no idiom (closest: gemv): {{.*}}VectorIndex(b, loop, k): address varies with 2 loops of the nest, not 1 (not a vector)
// CHECK-NOT: idiom gem
// ALL-LABEL: Idioms in function 'row_dot':
// ALL-NOT: idiom gem
void row_dot(void) {
  for (int i = 0; i < N; i++) {
    float sum = 0;
    for (int j = 0; j < N; j++)
      sum += A[i][j] * B[i][j];
    Y[i] = sum;
  }
}

// Row sums: no product.
// CHECK-LABEL: Idioms in function 'row_sums':
// CHECK: at negative.c:[[@LINE+5]]: no idiom (closest: gemv): {{.*}}MulAdd(upd, x, y, sum): value is not a multiply-add acc + x*y
// CHECK-NOT: idiom gem
// ALL-LABEL: Idioms in function 'row_sums':
// ALL-NOT: idiom gem
void row_sums(void) {
  for (int i = 0; i < N; i++) {
    float sum = 0;
    for (int j = 0; j < N; j++)
      sum += A[i][j];
    Y[i] = sum;
  }
}

// The output is a matrix: an element-wise 2-D update, not a gemv.
// CHECK-LABEL: Idioms in function 'matrix_output':
// CHECK: at negative.c:[[@LINE+5]]: no idiom (closest: gemv): {{.*}}VectorIndex(st, loop, i): address varies with 2 loops of the nest, not 1 (not a vector)
// CHECK-NOT: idiom gem
// ALL-LABEL: Idioms in function 'matrix_output':
// ALL-NOT: idiom gem
void matrix_output(float (*c)[N], float (*a)[N], const float *x) {
  for (int i = 0; i < N; i++)
    for (int j = 0; j < N; j++)
      c[i][j] += a[i][j] * x[j];
}

// Triangular (j <= i): not rectangular.
// CHECK-LABEL: Idioms in function 'triangular':
// CHECK: at negative.c:[[@LINE+5]]: no idiom (closest: gemv): {{.*}}RectangularNest(loop, 2): trip count of the loop at depth 2 varies in the nest (not rectangular)
// CHECK-NOT: idiom gem
// ALL-LABEL: Idioms in function 'triangular':
// ALL-NOT: idiom gem
void triangular(void) {
  for (int i = 0; i < N; i++) {
    float sum = 0;
    for (int j = 0; j <= i; j++)
      sum += A[i][j] * X[j];
    Y[i] = sum;
  }
}

// The sum is squared before it is stored.
// CHECK-LABEL: Idioms in function 'squared_output':
// CHECK: at negative.c:[[@LINE+5]]: no idiom (closest: gemv): {{.*}}ScaledSum(v, sum, st, loop): the output is not alpha*sum + beta*C: a product of two values that vary in the nest
// CHECK-NOT: idiom gem
// ALL-LABEL: Idioms in function 'squared_output':
// ALL-NOT: idiom gem
void squared_output(void) {
  for (int i = 0; i < N; i++) {
    float sum = 0;
    for (int j = 0; j < N; j++)
      sum += A[i][j] * X[j];
    Y[i] = sum * sum;
  }
}

// A second output in the outer loop.
// CHECK-LABEL: Idioms in function 'extra_store':
// CHECK: at negative.c:[[@LINE+5]]: no idiom (closest: gemv): {{.*}}SameElement(m, st): memory operation does not access the output element: store float
// CHECK-NOT: idiom gem
// ALL-LABEL: Idioms in function 'extra_store':
// ALL-NOT: idiom gem
void extra_store(float *z) {
  for (int i = 0; i < N; i++) {
    float sum = 0;
    for (int j = 0; j < N; j++)
      sum += A[i][j] * X[j];
    Y[i] = sum;
    z[i] = sum;
  }
}
