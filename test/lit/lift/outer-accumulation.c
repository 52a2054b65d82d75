// The lifted FunIL of outer-loop accumulations (`lifts accum`,
// constraints/specs/outer-accumulation.idl): `for k: for x: Q[x] += f(k, x)`
// becomes a map over x of a reduceSeq over k in k's order. Inputs indexed by
// x are components of t, those indexed by k the elements e of the reduced
// zip; a matrix indexed by both is a row of t zipped into e. Several
// accumulators are one tuple accumulator stored to a tuple of views. Then
// the negatives, each with the missed remark that names the rule, and the
// inner loop still offloaded as a map where it is one.
// RUN: %clang -O2 -g -fno-vectorize -fno-unroll-loops -S -emit-llvm %s -o %t.ll
// RUN: %opt -passes='loop-simplify,lcssa,print<idiom>' -disable-output %t.ll | FileCheck %s
// RUN: %clang-idiom -g -c %s -o /dev/null -Rpass=idiom-offload -Rpass-missed=idiom-offload 2>&1 | FileCheck %s --check-prefix=REMARK
// Translation validation: -idiom-test-corrupt-lift turns the first add or
// mul of each program into another operation (-ffp-contract=off: no
// fmuladd, which it leaves alone); every accumulation is refused.
// RUN: %clang-idiom -g -ffp-contract=off -fplugin=%plugin -mllvm -idiom-test-corrupt-lift -mllvm -idiom-z3-timeout=600000 -mllvm -idiom-z3-rlimit=200000000 -c %s -o /dev/null -Rpass=idiom-offload -Rpass-missed=idiom-offload 2>&1 | FileCheck %s --check-prefix=BAD
// BAD-NOT: offloaded outer-loop accumulation
float cosf(float);
float sinf(float);

// CHECK-LABEL: Idioms in function 'plain':
// CHECK-NEXT: loop %{{[0-9]+}} at outer-accumulation.c:[[@LINE+7]]: idiom outer-accumulation (outer-loop accumulation)
// CHECK-NEXT: FunIL:
// CHECK-NEXT: idiom idiom_plain_0(b0: [f32], b1: [f32], b2: [f32], N: i64, K: i64) {
// CHECK-NEXT: store view(b0, 0:i64, 1:i64, N) = map(\(t: (f32, f32)) => reduceSeq(\(acc: f32, e: f32) => fmuladd(e, t.1, acc), t.0, view(b1, 0:i64, 1:i64, K)), zip(view(b0, 0:i64, 1:i64, N), view(b2, 0:i64, 1:i64, N)));
// REMARK: outer-accumulation.c:[[@LINE+3]]:3: remark: offloaded outer-loop accumulation (outer-accumulation)
// BAD: outer-accumulation.c:[[@LINE+2]]:3: remark: idiom outer-accumulation not offloaded: translation validation failed: {{Z3 found inputs on which the lifted FunIL and the LLVM slice differ \(accumulation STEP or INIT\)|equivalence of the lifted accumulation and the LLVM slice not proven}}
void plain(int nk, int nx, const float *a, const float *b, float *q) {
  for (int k = 0; k < nk; k++)
    for (int x = 0; x < nx; x++)
      q[x] += a[k] * b[x];
}

// Int accumulators, a constant size and a loop-invariant scalar.
// CHECK-LABEL: Idioms in function 'ints':
// CHECK-NEXT: loop %{{[0-9]+}} at outer-accumulation.c:[[@LINE+7]]: idiom outer-accumulation (outer-loop accumulation)
// CHECK-NEXT: FunIL:
// CHECK-NEXT: idiom idiom_ints_0(b0: [i32], b1: [i32], b2: [i32], N: i64, s0: i32) {
// CHECK-NEXT: store view(b0, 0:i64, 1:i64, N) = map(\(t: (i32, i32)) => reduceSeq(\(acc: i32, e: i32) => add(mul(add(t.1, s0), e), acc), t.0, view(b1, 0:i64, 1:i64, 100:i64)), zip(view(b0, 0:i64, 1:i64, N), view(b2, 0:i64, 1:i64, N)));
// REMARK: outer-accumulation.c:[[@LINE+3]]:3: remark: offloaded outer-loop accumulation (outer-accumulation)
// BAD: outer-accumulation.c:[[@LINE+2]]:3: remark: idiom outer-accumulation not offloaded: translation validation failed
void ints(int nx, int c, const int *a, const int *b, int *q) {
  for (int k = 0; k < 100; k++)
    for (int x = 0; x < nx; x++)
      q[x] += a[k] * (b[x] + c);
}

// A matrix input (row x of A^T: a[k*n + x]) next to a k-indexed one, and
// a strided accumulator (every other element).
// CHECK-LABEL: Idioms in function 'matrix':
// CHECK-NEXT: loop %{{[0-9]+}} at outer-accumulation.c:[[@LINE+6]]: idiom outer-accumulation (outer-loop accumulation)
// CHECK-NEXT: FunIL:
// CHECK-NEXT: idiom idiom_matrix_0(
// CHECK-NEXT: store view(b0, 0:i64, 2:i64, N) = map(\(t: (f64, [f64]_K)) => reduceSeq(\(acc: f64, e: (f64, f64)) => {{.*}}, t.0, zip(view({{.*}}, K), t.1)), zip(view(b0, 0:i64, 2:i64, N), view({{.*}}, N, {{.*}}, K)));
// REMARK: outer-accumulation.c:[[@LINE+2]]:3: remark: offloaded outer-loop accumulation (outer-accumulation)
void matrix(int nk, int n, const double *a, const double *r, double *q) {
  for (int k = 0; k < nk; k++)
    for (int x = 0; x < n; x++)
      q[2 * x] += r[k] * a[k * n + x] - 1.0;
}

// Parboil mri-q: two accumulators, cosf and sinf of the same argument. The
// calls are approximate in OpenCL: refused without -idiom-approx-libm, the
// inner loop stays a per-k map candidate (refused for the same reason).
// CHECK-LABEL: Idioms in function 'mriq':
// CHECK-NOT: idiom outer-accumulation
// REMARK: outer-accumulation.c:[[@LINE+4]]:3: remark: loop is not an idiom (closest: outer-accumulation): matched but cannot be lifted with template 'accum': outer-loop accumulation (summed in order, exact) calls cosf, whose OpenCL version is not bit-exact (allow results within the OpenCL ulp bound with -idiom-approx-libm)
void mriq(int numK, int numX, const float *kx, const float *ky,
          const float *kz, const float *x, const float *y, const float *z,
          const float *phiMag, float *Qr, float *Qi) {
  for (int k = 0; k < numK; k++)
    for (int i = 0; i < numX; i++) {
      float expArg = 6.2831853071795864769252867665590058f *
                     (kx[k] * x[i] + ky[k] * y[i] + kz[k] * z[i]);
      Qr[i] += phiMag[k] * cosf(expArg);
      Qi[i] += phiMag[k] * sinf(expArg);
    }
}

// Negatives. The update reads Q at another element: iterations of k then
// depend on each other's results across x.
// REMARK: outer-accumulation.c:[[@LINE+3]]:3: remark: loop is not an idiom (closest: outer-accumulation): matched but cannot be lifted with template 'accum': the update reads the accumulator array at another element than the one it updates (Q[x] += f(Q[y]))
// REMARK-NOT: offloaded outer-loop accumulation
void other_index(int nk, int nx, const float *a, float *q) {
  for (int k = 0; k < nk; k++)
    for (int x = 0; x < nx - 1; x++)
      q[x] += a[k] * q[nx - 1 - x];
}

// Triangular: the inner bound depends on k (not rectangular), and every k
// updates the q[x] that earlier ones updated (triangular.idl names that).
// REMARK: outer-accumulation.c:[[@LINE+2]]:3: remark: loop is not an idiom (closest: triangular-dot): <builtin>/triangular.idl:{{[0-9]+}}:{{[0-9]+}}: IndependentIterations(loop): loop-carried flow dependence: the load at {{.*}}outer-accumulation.c:[[@LINE+4]]:12 in iteration {{[0-9]+}} (inner iteration {{[0-9]+}}) reads an element that the store at {{.*}}outer-accumulation.c:[[@LINE+4]]:12 wrote in iteration
void triangular(int nk, const float *a, const float *b, float *q) {
  for (int k = 0; k < nk; k++)
    for (int x = 0; x < k; x++)
      q[x] += a[k] * b[x];
}

// A second array written inside the nest without accumulating: the last k
// wins, which the reduction would not reproduce as written. The inner loop
// is left to the other specs.
// REMARK: outer-accumulation.c:[[@LINE+3]]:3: remark: loop is not an idiom (closest: outer-accumulation): matched but cannot be lifted with template 'accum': a store of the nest does not accumulate: it overwrites its element without reading it (Q[x] = f, not Q[x] = F(Q[x], ...))
void other_store(int nk, int nx, const float *a, const float *b, float *q,
                 float *t) {
  for (int k = 0; k < nk; k++)
    for (int x = 0; x < nx; x++) {
      q[x] += a[k] * b[x];
      t[x] = a[k] + b[x];
    }
}

// A k-dependent accumulator index Q[x+k].
// REMARK: outer-accumulation.c:[[@LINE+2]]:3: remark: loop is not an idiom (closest: outer-accumulation): matched but cannot be lifted with template 'accum': the accumulator index depends on the outer loop k (Q[x+k] or Q[k]): iterations of k update different elements
void shifted(int nk, int nx, const float *a, const float *b, float *q) {
  for (int k = 0; k < nk; k++)
    for (int x = 0; x < nx; x++)
      q[x + k] += a[k] * b[x];
}

// The update reads the outer induction variable: k's iteration index from
// iota(K), the variable start + step * index in its width.
// CHECK-LABEL: Idioms in function 'reads_k':
// CHECK: store view(b0, 0:i64, 1:i64, N) = map(\(t: (f32, f32)) => reduceSeq(\(acc: f32, e: i64) => fmuladd(uitofp.f32(trunc.i32(add(0:i64, mul(e, 1:i64)))), t.1, acc), t.0, iota(K)), zip(view(b0, 0:i64, 1:i64, N), view(b1, 0:i64, 1:i64, N)));
// REMARK: outer-accumulation.c:[[@LINE+3]]:3: remark: offloaded outer-loop accumulation (outer-accumulation)
// BAD: outer-accumulation.c:[[@LINE+2]]:3: remark: idiom outer-accumulation not offloaded: translation validation failed
void reads_k(int nk, int nx, const float *b, float *q) {
  for (int k = 0; k < nk; k++)
    for (int x = 0; x < nx; x++)
      q[x] += (float)k * b[x];
}
