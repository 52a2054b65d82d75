// Histograms whose bin is found by a bisection search (issue #14;
// BisectionFacts.h, SearchLifting.h): the FunIL of the search (iterate over
// the interval, the boundary read through a buffer of the interval's
// interior), the OpenCL loop that stops where the interval closes, and the
// loops that are not offloaded, with the reason. The near misses that a
// loop's structure decides are checked with histogram.idl loaded alone (with
// every spec, another spec's nest analysis gets further on them).
// RUN: %clang -O2 -g -fno-vectorize -fno-unroll-loops -S -emit-llvm %s -o %t.ll
// RUN: %opt -passes='loop-simplify,lcssa,print<idiom>' -disable-output %t.ll | FileCheck %s
// RUN: %clang-idiom -c %s -o /dev/null -Rpass=idiom-offload -Rpass-missed=idiom-offload 2>&1 | FileCheck %s --check-prefix=REMARK
// RUN: %clang-idiom -fplugin=%plugin -mllvm -idiom-builtin-specs=false -mllvm -idiom-spec=%srcroot/constraints/specs/histogram.idl -c %s -o /dev/null -Rpass-missed=idiom-offload 2>&1 | FileCheck %s --check-prefix=ALONE
// A corrupted lift (the first add made a sub: the bins' operator, or, for
// an `or` histogram, the search's count) is refused by translation
// validation.
// RUN: %clang-idiom -fplugin=%plugin -mllvm -idiom-test-corrupt-lift -c %s -o /dev/null -Rpass=idiom-offload -Rpass-missed=idiom-offload 2>&1 | FileCheck %s --check-prefix=BAD

// tpacf's form: descending boundaries, dot >= binb[k] moves the upper
// bound, a constant interval (no guard: the search always runs once).
// CHECK-LABEL: Idioms in function 'tpacf_bins'
// CHECK: idiom histogram-search (histogram)
// CHECK-NEXT: FunIL:
// CHECK-NEXT: idiom idiom_tpacf_bins_0(n0: i64, b0: [f32], b1: [f32], b2: [f32], b3: [i64]) {
// CHECK-NEXT:   store view(b3, 0:i64, 1:i64, 21:i64) = reduceIndexed(\(a: i64, b: i64) => add(a, b), view(b3, 0:i64, 1:i64, 21:i64), \(t: (f32, f32)) => (sext.i64(iterate(add(ilog2(smax(sub(sext.i64(20:i32), sext.i64(0:i32)), 1:i64)), 1:i64), \(q0: (i32, i32)) => select(icmp_sgt(q0.1, add(q0.0, 1:i32)), (select(fcmp_ult(fmul(t.1, t.0), at(view(b2, 0:i64, 1:i64, 19:i64), sub(sext.i64(sdiv(add(q0.1, q0.0), 2:i32)), 1:i64))), sdiv(add(q0.1, q0.0), 2:i32), q0.0), select(fcmp_ult(fmul(t.1, t.0), at(view(b2, 0:i64, 1:i64, 19:i64), sub(sext.i64(sdiv(add(q0.1, q0.0), 2:i32)), 1:i64))), q0.1, sdiv(add(q0.1, q0.0), 2:i32))), q0), (0:i32, 20:i32)).0), 1:i64), zip(view(b0, 0:i64, 1:i64, n0), view(b1, 0:i64, 1:i64, n0)));
// CHECK: OpenCL:
// CHECK: for (long [[IT:it[_0-9]*]] = 0; [[IT]] < {{.*}}; ++[[IT]]) {
// CHECK-NEXT: if (!({{.*}})) break;
float binb[21];
long hist[21];
// REMARK: histogram-search.c:[[@LINE+3]]:3: remark: offloaded histogram (histogram-search) to OpenCL as idiom_tpacf_bins_{{[0-9]+}} with operator add
// BAD: histogram-search.c:[[@LINE+2]]:3: remark: idiom histogram-search not offloaded: translation validation failed: Z3 found inputs on which the lifted FunIL and the LLVM slice differ
void tpacf_bins(const float *x, const float *y, int n) {
  for (int i = 0; i < n; i++) {
    float dot = x[i] * y[i];
    int min = 0, max = 20;
    while (max > min + 1) {
      int k = (min + max) / 2;
      if (dot >= binb[k])
        max = k;
      else
        min = k;
    }
    hist[min] += 1;
  }
}

// Run-time bins and interval: the guard (nbins > 1) is tested before the
// call, the bounds' precondition (in [0, 2^30]) too, and the extent check
// runs the search to find the bins' range.
// CHECK-LABEL: Idioms in function 'runtime_bins'
// CHECK: idiom histogram-search (histogram)
// CHECK: iterate(add(ilog2(smax(sub(sext.i64(s0), sext.i64(0:i32)), 1:i64)), 1:i64), \(q0: (i32, i32)) =>
// CHECK: Extent check FunIL:
// CHECK: iterate(
// REMARK: histogram-search.c:[[@LINE+2]]:3: remark: offloaded histogram (histogram-search) to OpenCL as {{.*}} with operator add
void runtime_bins(int *h, const float *x, int n, const float *bb, int nbins) {
  for (int i = 0; i < n; i++) {
    int lo = 0, hi = nbins;
    while (hi > lo + 1) {
      int k = (lo + hi) / 2;
      if (x[i] < bb[k])
        hi = k;
      else
        lo = k;
    }
    h[lo]++;
  }
}

// Which bins are hit at all: an `or` update, 64-bit bounds.
int seen[64];
// REMARK: histogram-search.c:[[@LINE+3]]:3: remark: offloaded histogram (histogram-search) to OpenCL as {{.*}} with operator or
// BAD: histogram-search.c:[[@LINE+2]]:3: remark: idiom histogram-search not offloaded: translation validation failed: {{.*}}search count is not floor(log2(max(hi - lo, 1))) + 1
void hit_bins(const double *x, long n, const double *bb, long nbins) {
  for (long i = 0; i < n; i++) {
    long lo = 0, hi = nbins;
    while (hi > lo + 1) {
      long k = (lo + hi) / 2;
      if (x[i] < bb[k])
        hi = k;
      else
        lo = k;
    }
    seen[lo] |= 1;
  }
}

// Written with hi - lo, the search carries the length in a third phi after
// -O2's strength reduction: not lifted.
// ALONE: histogram-search.c:[[@LINE+2]]:3: remark: loop is not an idiom (closest: histogram): {{.*}}Nest(loop): trip count is not computable (nor is it a bisection search: search loop carries more than an interval (two header phis))
void by_length(unsigned char *seen, const double *x, long n, const double *bb, long nbins) {
  for (long i = 0; i < n; i++) {
    long lo = 0, hi = nbins;
    while (hi - lo > 1) {
      long k = lo + (hi - lo) / 2;
      if (x[i] < bb[k])
        hi = k;
      else
        lo = k;
    }
    seen[lo] |= 1;
  }
}

// The boundaries are written in the loop: not a bin update.
// REMARK: histogram-search.c:[[@LINE+2]]:3: remark: loop is not an idiom (closest: histogram): {{.*}}BinUpdate(st, loop): stored value is not computed from a load of the same element
void written(int *h, const float *x, int n, float *bb, int nbins) {
  for (int i = 0; i < n; i++) {
    int lo = 0, hi = nbins;
    while (hi > lo + 1) {
      int k = (lo + hi) / 2;
      if (x[i] < bb[k])
        hi = k;
      else
        lo = k;
    }
    h[lo] += 1;
    bb[i & 7] = x[i];
  }
}

// Not a bisection: the lower bound jumps past the midpoint.
// REMARK: histogram-search.c:[[@LINE+2]]:3: remark: loop is not an idiom (closest: histogram-search): {{.*}}BisectionSearch(s, loop): the loop is not a bisection: a step does not move exactly one bound to the midpoint
void skips(int *h, const float *x, int n, const float *bb, int nbins) {
  for (int i = 0; i < n; i++) {
    int lo = 0, hi = nbins;
    while (hi > lo + 1) {
      int k = (lo + hi) / 2;
      if (x[i] < bb[k])
        hi = k;
      else
        lo = k + 2;
    }
    h[lo] += 1;
  }
}

// The upper midpoint (lo + hi + 1) / 2: a search, but not the floor midpoint
// the lemma is proved for.
// REMARK: histogram-search.c:[[@LINE+2]]:3: remark: loop is not an idiom (closest: histogram-search): {{.*}}BisectionSearch(s, loop): the loop is not a bisection: its midpoint is not (lo + hi) / 2 or lo + (hi - lo) / 2
void upper_mid(int *h, const float *x, int n, const float *bb, int nbins) {
  for (int i = 0; i < n; i++) {
    int lo = 0, hi = nbins;
    while (hi > lo + 1) {
      int k = (lo + hi + 1) / 2;
      if (x[i] < bb[k])
        hi = k;
      else
        lo = k;
    }
    h[lo] += 1;
  }
}

// A linear search is not lifted (its loop has two exits).
// ALONE: histogram-search.c:[[@LINE+2]]:3: remark: loop is not an idiom (closest: histogram): {{.*}}Nest(loop): loop has an early exit (nor is it a bisection search: loop has an early exit)
void linear(int *h, const float *x, int n, const float *bb, int nbins) {
  for (int i = 0; i < n; i++) {
    int k = 0;
    while (k < nbins && x[i] >= bb[k])
      k++;
    h[k] += 1;
  }
}

// The interval changes with the loop (a per-point bin count).
// ALONE: histogram-search.c:[[@LINE+2]]:3: remark: loop is not an idiom (closest: histogram): {{.*}}Nest(loop): trip count is not computable (nor is it a bisection search: the search interval's initial bounds change with the loop)
void per_point(int *h, const float *x, int n, const float *bb, const int *nb) {
  for (int i = 0; i < n; i++) {
    int lo = 0, hi = nb[i];
    while (hi > lo + 1) {
      int k = (lo + hi) / 2;
      if (x[i] < bb[k])
        hi = k;
      else
        lo = k;
    }
    h[lo] += 1;
  }
}

// A do-while: the search runs once even on a closed interval, which the
// lifted iterate would not (the entry fact of the lemma fails).
// REMARK: histogram-search.c:[[@LINE+2]]:3: remark: loop is not an idiom (closest: histogram-search): {{.*}}BisectionSearch(s, loop): the search loop is entered when its condition fails on the initial interval (a do-while), or skipped when it holds
void do_while(int *h, const float *x, int n, const float *bb, int nbins) {
  for (int i = 0; i < n; i++) {
    int lo = 0, hi = nbins;
    do {
      int k = (lo + hi) / 2;
      if (x[i] < bb[k])
        hi = k;
      else
        lo = k;
    } while (hi > lo + 1);
    h[lo] += 1;
  }
}

// A search in a map: lifted in histograms only (the map spec stops at the
// interval's phis).
// REMARK: histogram-search.c:[[@LINE+2]]:3: remark: loop is not an idiom (closest: map): {{.*}}InductionPhi(phi, loop): phi is not an induction variable
void bins_of(int *out, const float *x, int n, const float *bb, int nbins) {
  for (int i = 0; i < n; i++) {
    int lo = 0, hi = nbins;
    while (hi > lo + 1) {
      int k = (lo + hi) / 2;
      if (x[i] < bb[k])
        hi = k;
      else
        lo = k;
    }
    out[i] = lo;
  }
}

