// Upper-triangle all-pairs histograms (Parboil tpacf's DD and RR; issue
// #14): the triangular nest (LoopFacts.h, NestInfo::Skew) lifted as one
// reduceIndexed over the flattened rectangle around the triangle, whose
// points below the triangle (k1 < Skew k0) add the identity; the rows stop
// at the first empty one. The near misses: a lower triangle (the end moves),
// a start that moves backwards, j = i - 1 with no entry test, a value carried
// from one j to the next (the bins depend on j's order), a guard that reads
// the bins, and rows read bottom up (the rectangle could read elements the
// loop does not). Near misses decided by the nest's structure are checked
// with histogram.idl loaded alone.
// RUN: %clang -O2 -g -fno-vectorize -fno-unroll-loops -S -emit-llvm %s -o %t.ll
// RUN: %opt -passes='loop-simplify,lcssa,print<idiom>' -disable-output %t.ll | FileCheck %s
// RUN: %clang-idiom -c %s -o /dev/null -Rpass=idiom-offload -Rpass-missed=idiom-offload 2>&1 | FileCheck %s --check-prefix=REMARK
// RUN: %clang-idiom -fplugin=%plugin -mllvm -idiom-builtin-specs=false -mllvm -idiom-spec=%srcroot/constraints/specs/histogram.idl -c %s -o /dev/null -Rpass-missed=idiom-offload 2>&1 | FileCheck %s --check-prefix=ALONE
// A corrupted lift (the first add made a sub) is refused by translation
// validation.
// RUN: %clang-idiom -fplugin=%plugin -mllvm -idiom-test-corrupt-lift -c %s -o /dev/null -Rpass=idiom-offload -Rpass-missed=idiom-offload 2>&1 | FileCheck %s --check-prefix=BAD

#define NB 20
float binb[NB + 1];
long dd[NB + 1];
long hist[32];

// tpacf's DD: the bin by a bisection search in the inner body, x[i] loaded
// in the outer body (LICM), the inner loop entered under i + 1 < n.
// CHECK-LABEL: Idioms in function 'tpacf_dd'
// CHECK: idiom histogram-triangle (histogram)
// CHECK-NEXT: FunIL:
// CHECK-NEXT: idiom idiom_tpacf_dd_0(n0: i64, n1: i64, b0: [f32], b1: [f32], b2: [f32], b3: [f32], b4: [i64]) {
// CHECK: iterate(
// CHECK-SAME: select(icmp_sge(t.7, mul(t.6, 1:i64)), 1:i64, 0:i64)), zip(join(view(b0, 1:i64, 0:i64, n0, 1:i64, n1)), join(view(b0, 0:i64, 1:i64, n0, 0:i64, n1)),
// CHECK-SAME: join(map(\(r: i64) => map(\(c: i64) => r, iota(n1)), iota(n0))), join(map(\(r: i64) => iota(n1), iota(n0)))));
// CHECK: OpenCL:
// CHECK: if (i0 < n0 * n1) {
// REMARK: histogram-triangle.c:[[@LINE+3]]:3: remark: offloaded histogram (histogram-triangle) to OpenCL as idiom_tpacf_dd_{{[0-9]+}} with operator add
// BAD: histogram-triangle.c:[[@LINE+2]]:3: remark: idiom histogram-triangle not offloaded: translation validation failed: Z3 found inputs on which the lifted FunIL and the LLVM slice differ
void tpacf_dd(const float *x, const float *y, const float *z, int n) {
  for (int i = 0; i < n; i++)
    for (int j = i + 1; j < n; j++) {
      float dot = x[i] * x[j] + y[i] * y[j] + z[i] * z[j];
      int min = 0, max = NB;
      while (max > min + 1) {
        int k = (min + max) / 2;
        if (dot >= binb[k])
          max = k;
        else
          min = k;
      }
      dd[max]++;
    }
}

// Integer keys: the mask is the value's select; both inputs read b0.
// CHECK-LABEL: Idioms in function 'keys'
// CHECK: idiom histogram-triangle (histogram)
// CHECK-NEXT: FunIL:
// CHECK-NEXT: idiom idiom_keys_0(n0: i64, n1: i64, b0: [i32], b1: [i64]) {
// CHECK-NEXT: store view(b1, 0:i64, 1:i64, 32:i64) = reduceIndexed(\(a: i64, b: i64) => add(a, b), view(b1, 0:i64, 1:i64, 32:i64), \(t: (i32, i32, i64, i64)) => (zext.i64(and(add(t.1, t.0), 31:i32)), select(icmp_sge(t.3, mul(t.2, 1:i64)), 1:i64, 0:i64)), zip(join(view(b0, 0:i64, 1:i64, n0, 0:i64, n1)), join(view(b0, 1:i64, 0:i64, n0, 1:i64, n1)), join(map(\(r: i64) => map(\(c: i64) => r, iota(n1)), iota(n0))), join(map(\(r: i64) => iota(n1), iota(n0)))));
// REMARK: histogram-triangle.c:[[@LINE+3]]:3: remark: offloaded histogram (histogram-triangle) to OpenCL as idiom_keys_{{[0-9]+}} with operator add
// BAD: histogram-triangle.c:[[@LINE+2]]:3: remark: idiom histogram-triangle not offloaded: translation validation failed: Z3 found inputs on which the lifted FunIL and the LLVM slice differ
void keys(const int *key, int n) {
  for (int i = 0; i < n; i++)
    for (int j = i + 1; j < n; j++)
      hist[(key[i] + key[j]) & 31]++;
}

// Two rows further each row, the diagonal's neighbour kept: Skew 2.
// CHECK-LABEL: Idioms in function 'skew_two'
// CHECK: idiom histogram-triangle (histogram)
// CHECK: select(icmp_sge(t.3, mul(t.2, 2:i64)), 1:i64, 0:i64)
void skew_two(const int *key, int n) {
  for (int i = 0; i < n; i++)
    for (int j = 2 * i; j < n; j++)
      hist[(key[i] ^ key[j]) & 31]++;
}

// The lower triangle: the end moves, the start does not (not a triangle
// here; each row alone is a 1-D histogram).
// ALONE: histogram-triangle.c:[[@LINE+2]]:3: remark: loop is not an idiom (closest: histogram): {{.*}}Nest(loop): inner trip count varies with the outer loop (not rectangular)
void lower(const int *key, int n) {
  for (int i = 0; i < n; i++)
    for (int j = 0; j < i; j++)
      hist[(key[i] + key[j]) & 31]++;
}

// The start moves backwards.
// ALONE: histogram-triangle.c:[[@LINE+2]]:3: remark: loop is not an idiom (closest: histogram): {{.*}}Nest(loop): inner trip count varies with the outer loop (not rectangular)
void backwards(const int *key, int n) {
  for (int i = 0; i < n; i++)
    for (int j = n - 1 - i; j < n; j++)
      hist[(key[i] + key[j]) & 31]++;
}

// j = i - 1: no entry test, and SCEV does not prove the last row runs.
// ALONE: histogram-triangle.c:[[@LINE+2]]:3: remark: loop is not an idiom (closest: histogram): {{.*}}Nest(loop): inner trip count varies with the outer loop (not rectangular; a triangle j = i + c, but not entered under a test of its count, and SCEV does not prove that its last row runs)
void minus_one(const int *key, int n) {
  for (int i = 1; i < n; i++)
    for (int j = i - 1; j < n; j++)
      hist[(key[i] + key[j]) & 31]++;
}

// The bin depends on the order of j: a value carried from one j to the next.
// ALONE: histogram-triangle.c:[[@LINE+4]]:5: remark: loop is not an idiom (closest: histogram): {{.*}}DataDependentIndex(st, loop): bin index depends on a phi that is not an induction variable
void ordered(const int *key, int n) {
  for (int i = 0; i < n; i++) {
    int prev = 0;
    for (int j = i + 1; j < n; j++) {
      hist[(key[j] + prev) & 31]++;
      prev = key[j];
    }
  }
}

// A guard that reads the bins.
// REMARK-NOT: remark: offloaded histogram{{.*}}idiom_reads_bins
void reads_bins(const int *key, int n) {
  for (int i = 0; i < n; i++)
    for (int j = i + 1; j < n; j++)
      if (hist[0] < 100)
        hist[(key[i] + key[j]) & 31]++;
}

// Rows read bottom up: the outer stride (-n - 1 in the rectangle) and the
// inner one (1) have opposite signs, so the rectangle's ends need not be
// elements the loop reads.
// REMARK: histogram-triangle.c:[[@LINE+2]]:3: remark: loop is not an idiom (closest: histogram-triangle): matched but cannot be lifted with template 'histogram': a triangle's inner load has strides of unknown or opposite signs over the rows and the columns
void bottom_up(const int *a, int n) {
  for (int i = 0; i < n; i++)
    for (int j = i + 1; j < n; j++)
      hist[a[(n - i) * n + j] & 31]++;
}
