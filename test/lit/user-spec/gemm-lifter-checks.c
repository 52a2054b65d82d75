// A permissive user spec (Inputs/loose-gemm.idl: any rectangular chain of
// three loops, `lifts gemm`) cannot make an unsound offload: the GEMM lifter
// re-derives the roles and refuses, with its reason, whatever is not
// C = POST(reduceSeq(STEP, INIT, A-row, B-column), C). A true GEMM is lifted.
// RUN: %clang -O2 -g -fno-vectorize -fno-unroll-loops -S -emit-llvm %s -o %t.ll
// RUN: %opt -idiom-builtin-specs=false -idiom-spec=%S/Inputs/loose-gemm.idl -passes='loop-simplify,lcssa,print<idiom>' -disable-output %t.ll | FileCheck %s

// CHECK-LABEL: Idioms in function 'gemm':
// CHECK-NEXT: idiom loose-gemm (GEMM)
// CHECK-NEXT: FunIL:
// CHECK-NOT: not offloaded
// CHECK: OpenCL:
void gemm(int n, const float *a, const float *b, float *c) {
  for (int i = 0; i < n; i++)
    for (int j = 0; j < n; j++) {
      float s = 0;
      for (int k = 0; k < n; k++)
        s += a[i * n + k] * b[k * n + j];
      c[i * n + j] = s;
    }
}

// CHECK-LABEL: Idioms in function 'mixed':
// CHECK: not offloaded: cannot lift to FunIL: GEMM with mixed element types not offloaded
void mixed(int n, const float *a, const float *b, double *c) {
  for (int i = 0; i < n; i++)
    for (int j = 0; j < n; j++) {
      double s = 0;
      for (int k = 0; k < n; k++)
        s += a[i * n + k] * b[k * n + j];
      c[i * n + j] = s;
    }
}

// CHECK-LABEL: Idioms in function 'reads_k':
// CHECK: not offloaded: cannot lift to FunIL: the GEMM update reads a value carried by a loop of the nest (an induction variable or a second accumulator)
void reads_k(int n, const float *a, const float *b, float *c) {
  for (int i = 0; i < n; i++)
    for (int j = 0; j < n; j++) {
      float s = 0;
      for (int k = 0; k < n; k++)
        s += a[i * n + k] * b[k * n + j] * (float)k;
      c[i * n + j] = s;
    }
}

// CHECK-LABEL: Idioms in function 'square_of_sum':
// CHECK: not offloaded: cannot lift to FunIL: the GEMM output uses the sum 2 times, not once
void square_of_sum(int n, const float *a, const float *b, float *c) {
  for (int i = 0; i < n; i++)
    for (int j = 0; j < n; j++) {
      float s = 0;
      for (int k = 0; k < n; k++)
        s += a[i * n + k] * b[k * n + j];
      c[i * n + j] = s * s;
    }
}

// CHECK-LABEL: Idioms in function 'two_stores':
// CHECK: not offloaded: cannot lift to FunIL: the GEMM nest has two stores that are not an initialisation of the output element and its update in the innermost loop
void two_stores(int n, const float *a, const float *b, float *c, float *d) {
  for (int i = 0; i < n; i++)
    for (int j = 0; j < n; j++) {
      float s = 0;
      for (int k = 0; k < n; k++)
        s += a[i * n + k] * b[k * n + j];
      c[i * n + j] = s;
      d[i * n + j] = s;
    }
}

// CHECK-LABEL: Idioms in function 'conditional_store':
// CHECK: no idiom (closest: loose-gemm): matched but cannot be lifted with template 'gemm': store executes only under a condition
void conditional_store(int n, const float *a, const float *b, float *c) {
  for (int i = 0; i < n; i++)
    for (int j = 0; j < n; j++) {
      float s = 0;
      for (int k = 0; k < n; k++)
        s += a[i * n + k] * b[k * n + j];
      if (s > 0)
        c[i * n + j] = s;
    }
}

// CHECK-LABEL: Idioms in function 'rows_overlap':
// CHECK: not offloaded: cannot lift to FunIL: the output C: leading dimension 32 is shorter than a row: rows overlap (not a matrix)
void rows_overlap(const float *a, const float *b, float *c) {
  for (int i = 0; i < 64; i++)
    for (int j = 0; j < 64; j++) {
      float s = 0;
      for (int k = 0; k < 64; k++)
        s += a[i * 64 + k] * b[k * 64 + j];
      c[i * 32 + j] = s;
    }
}

// A vector, not a matrix, as an operand: C[i][j] = sum_k A[i][k] * x[k].
// CHECK-LABEL: Idioms in function 'vector_operand':
// CHECK: not offloaded: cannot lift to FunIL: a load of the GEMM nest reads neither A (indexed by i and k) nor B (indexed by k and j) nor the output element
void vector_operand(int n, const float *a, const float *x, float *c) {
  for (int i = 0; i < n; i++)
    for (int j = 0; j < n; j++) {
      float s = 0;
      for (int k = 0; k < n; k++)
        s += a[i * n + k] * x[k];
      c[i * n + j] = s;
    }
}

// A GEMM that skips the zeros of A: its update (a store here) and its reads
// of B run only where A is not zero, which a kernel evaluating every (i, j, k)
// would not respect.
// CHECK-LABEL: Idioms in function 'skip_zeros':
// CHECK: no idiom (closest: loose-gemm): matched but cannot be lifted with template 'gemm': store executes only under a condition
void skip_zeros(int n, const float *a, const float *b, float *c) {
  for (int i = 0; i < n; i++)
    for (int j = 0; j < n; j++)
      for (int k = 0; k < n; k++)
        if (a[i * n + k] != 0.0f)
          c[i * n + j] += a[i * n + k] * b[k * n + j];
}

// The same with the sum in a register: the reads of B are conditional.
// CHECK-LABEL: Idioms in function 'skip_zeros_sum':
// CHECK: no idiom (closest: loose-gemm): matched but cannot be lifted with template 'gemm': load executes only under a condition
void skip_zeros_sum(int n, const float *a, const float *b, float *c) {
  for (int i = 0; i < n; i++)
    for (int j = 0; j < n; j++) {
      float s = 0;
      for (int k = 0; k < n; k++) {
        float x = a[i * n + k];
        if (x != 0.0f)
          s += x * b[k * n + j];
      }
      c[i * n + j] = s;
    }
}

// C initialised before the k loop, then updated in place in it: the store of
// 0 is INIT (as the built-in gemm spec's InitialisedSum or ZeroConstant
// admits it), and C is not read.
// CHECK-LABEL: Idioms in function 'init_then_update':
// CHECK-NEXT: idiom loose-gemm (GEMM)
// CHECK-NEXT: FunIL:
// CHECK-NEXT: idiom idiom_init_then_update_0(A: [f32], B: [f32], C: [f32], M: i64, N: i64, K: i64) {
// CHECK-NEXT: store view(C, 0:i64, N, M, 1:i64, N) = map(\(r: ([f32]_K, [f32]_N)) => map(\(q: ([f32]_K, f32)) => reduceSeq(\(acc: f32, x: (f32, f32)) => fma(x.0, x.1, acc), 0x0p+0:f32, zip(r.0, q.0)), zip(view(B, 0:i64, 1:i64, N, N, K), r.1)), zip(view(A, 0:i64, K, M, 1:i64, K), view(C, 0:i64, N, M, 1:i64, N)));
// CHECK-NOT: not offloaded
// CHECK: OpenCL:
void init_then_update(int m, int n, int k, const float *a, const float *b,
                      float *c) {
  for (int i = 0; i < m; i++)
    for (int j = 0; j < n; j++) {
      c[i * n + j] = 0;
      for (int p = 0; p < k; p++)
        c[i * n + j] += a[i * k + p] * b[p * n + j];
    }
}

// PolyBench gemm's prologue (`for (j) C[i][j] *= beta;` inside i, before the
// i-k-j update) reaches the lifter with this spec whatever it does: the
// lifter accepts only a store, on every iteration, of the element the update
// writes on the same iteration of j, read only before that store, and an
// in-place update after it.

// CHECK-LABEL: Idioms in function 'next_row':
// CHECK: not offloaded: cannot lift to FunIL: the loop before the inner loops of the GEMM is not an initialisation of the output elements: the loop before the inner loops does not access the element the store writes
void next_row(int n, float beta, const float *a, const float *b, float *c,
              float *d) {
  for (int i = 0; i < n; i++) {
    for (int j = 0; j < n; j++)
      c[(i + 1) * n + j] *= beta;
    for (int k = 0; k < n; k++)
      for (int j = 0; j < n; j++)
        c[i * n + j] += a[i * n + k] * b[k * n + j];
  }
}

// CHECK-LABEL: Idioms in function 'off_by_one':
// CHECK: not offloaded: cannot lift to FunIL: the loop before the inner loops of the GEMM is not an initialisation of the output elements: the loop before the inner loops runs another number of times than the innermost loop
void off_by_one(int n, float beta, const float *a, const float *b, float *c,
                float *d) {
  for (int i = 0; i < n; i++) {
    for (int j = 0; j < n + 1; j++)
      c[i * n + j] *= beta;
    for (int k = 0; k < n; k++)
      for (int j = 0; j < n; j++)
        c[i * n + j] += a[i * n + k] * b[k * n + j];
  }
}

// CHECK-LABEL: Idioms in function 'other_array':
// CHECK: not offloaded: cannot lift to FunIL: the loop before the inner loops of the GEMM is not an initialisation of the output elements
void other_array(int n, float beta, const float *a, const float *b, float *c,
                 float *d) {
  for (int i = 0; i < n; i++) {
    for (int j = 0; j < n; j++)
      d[i * n + j] = beta * c[i * n + j];
    for (int k = 0; k < n; k++)
      for (int j = 0; j < n; j++)
        c[i * n + j] += a[i * n + k] * b[k * n + j];
  }
}

// CHECK-LABEL: Idioms in function 'conditional':
// CHECK: no idiom (closest: loose-gemm): matched but cannot be lifted with template 'gemm': store executes only under a condition
void conditional(int n, float beta, const float *a, const float *b, float *c,
                 float *d) {
  for (int i = 0; i < n; i++) {
    for (int j = 0; j < n; j++)
      if (c[i * n + j] > 0.0f)
        c[i * n + j] *= beta;
    for (int k = 0; k < n; k++)
      for (int j = 0; j < n; j++)
        c[i * n + j] += a[i * n + k] * b[k * n + j];
  }
}

// CHECK-LABEL: Idioms in function 'reads_other':
// CHECK: not offloaded: cannot lift to FunIL: the loop before the inner loops of the GEMM reads memory other than the output element before its initialisation
void reads_other(int n, float beta, const float *a, const float *b, float *c,
                 float *d) {
  for (int i = 0; i < n; i++) {
    for (int j = 0; j < n; j++)
      c[i * n + j] = beta * c[i * n + j] + d[i * n + j];
    for (int k = 0; k < n; k++)
      for (int j = 0; j < n; j++)
        c[i * n + j] += a[i * n + k] * b[k * n + j];
  }
}

// An i-j-k sum after the prologue: the prologue's loop stands in for k, the
// innermost loop, where the output does not vary.
// CHECK-LABEL: Idioms in function 'prologue_ijk':
// CHECK: not offloaded: cannot lift to FunIL: the loop before the inner loops of the GEMM is not an initialisation of the output elements: the loop before the inner loops does not access the element the store writes
void prologue_ijk(int n, float beta, const float *a, const float *b, float *c) {
  for (int i = 0; i < n; i++) {
    for (int j = 0; j < n; j++)
      c[i * n + j] *= beta;
    for (int j = 0; j < n; j++) {
      float s = c[i * n + j];
      for (int k = 0; k < n; k++)
        s += a[i * n + k] * b[k * n + j];
      c[i * n + j] = s;
    }
  }
}
