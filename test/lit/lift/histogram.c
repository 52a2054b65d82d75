// Histograms lifted to FunIL (reduceIndexed over the map ABI: the bins an
// in-place buffer of a bin count known at compile time), the OpenCL kernels
// of the variants, and the loops that are not offloaded, with the reason.
// RUN: %clang -O2 -g -fno-vectorize -fno-unroll-loops -S -emit-llvm %s -o %t.ll
// RUN: %opt -passes='loop-simplify,lcssa,print<idiom>' -disable-output %t.ll | FileCheck %s
// RUN: %clang-idiom -c %s -o /dev/null -Rpass=idiom-offload -Rpass-missed=idiom-offload -Rpass-analysis=idiom-offload 2>&1 | FileCheck %s --check-prefix=REMARK
// Without the floating-point licence, float bins are not offloaded.
// RUN: %clang-idiom -fplugin=%plugin -mllvm -idiom-fp-reassoc=false -c %s -o /dev/null -Rpass=idiom-offload -Rpass-missed=idiom-offload 2>&1 | FileCheck %s --check-prefix=EXACT
// A corrupted lift (first add -> sub) is refused by translation validation.
// RUN: %clang-idiom -fplugin=%plugin -mllvm -idiom-test-corrupt-lift -c %s -o /dev/null -Rpass=idiom-offload -Rpass-missed=idiom-offload 2>&1 | FileCheck %s --check-prefix=BAD

// The index's range gives 256 bins (zext from unsigned char).
// CHECK-LABEL: Idioms in function 'bytes'
// CHECK: idiom histogram (histogram)
// CHECK-NEXT: FunIL:
// CHECK-NEXT: idiom idiom_bytes_0(n0: i64, b0: [i8], b1: [i32]) {
// CHECK-NEXT:   store view(b1, 0:i64, 1:i64, 256:i64) = reduceIndexed(\(a: i32, b: i32) => add(a, b), view(b1, 0:i64, 1:i64, 256:i64), \(t: i8) => (zext.i64(t), 1:i32), view(b0, 0:i64, 1:i64, n0));
// CHECK: Lowered FunIL:
// CHECK-NEXT: idiom idiom_bytes_0(
// CHECK-NEXT:   store view(b1, 0:i64, 1:i64, 256:i64) = reduceIndexedAtomic({{.*}}mapGlobal(0,
// CHECK: __kernel void idiom_bytes_0(const long n0, __global const char *b0, __global int *b1)
// CHECK: atomic_add((volatile __global int *)&(b1[
// CHECK: //@idiom-variant 1 wg=256 ept=16: work-group 256, per-work-group bins in local memory
// CHECK: __local int lbins[256];
int bins[256];
// REMARK: histogram.c:[[@LINE+2]]:3: remark: offloaded histogram (histogram) to OpenCL as idiom_bytes_{{[0-9]+}} with operator add
void bytes(const unsigned char *x, int n) {
  for (int i = 0; i < n; i++)
    bins[x[i]]++;
}

// A mask gives 64 bins of the 1000-element array; the guard gives the
// identity when it fails.
int h64[1000];
// CHECK-LABEL: Idioms in function 'masked_guarded'
// CHECK: reduceIndexed(\(a: i32, b: i32) => add(a, b), view(b1, 0:i64, 1:i64, 64:i64), \(t: i32) => (zext.i64(and(t, 63:i32)), select(icmp_sgt(t, s0), t, 0:i32)), view(b0, 0:i64, 1:i64, n0));
// REMARK: histogram.c:[[@LINE+2]]:3: remark: offloaded histogram (histogram) to OpenCL as {{.*}} with operator add
void masked_guarded(const int *x, int n, int t) {
  for (int i = 0; i < n; i++)
    if (x[i] > t)
      h64[x[i] & 63] += x[i];
}

// urem by a constant and a clamp bound the index.
// CHECK-LABEL: Idioms in function 'urem_bins'
// CHECK: view(b1, 0:i64, 1:i64, 100:i64)
unsigned best[100];
// REMARK: histogram.c:[[@LINE+2]]:3: remark: offloaded histogram (histogram) to OpenCL as {{.*}} with operator umax
void urem_bins(const unsigned *k, int n) {
  for (int i = 0; i < n; i++)
    if (k[i] > best[k[i] % 100])
      best[k[i] % 100] = k[i];
}
// CHECK-LABEL: Idioms in function 'clamped'
// CHECK: view(b1, 0:i64, 1:i64, 32:i64)
long cbins[40];
// REMARK: histogram.c:[[@LINE+2]]:3: remark: offloaded histogram (histogram) to OpenCL as {{.*}} with operator add
void clamped(const int *x, int n) {
  for (int i = 0; i < n; i++) {
    int k = x[i] < 0 ? 0 : x[i] > 31 ? 31 : x[i];
    cbins[k] += x[i];
  }
}

// Float bins: reassociated, with a note; not under -idiom-fp-reassoc=false.
float fb[16];
// REMARK: histogram.c:[[@LINE+4]]:3: remark: offloaded histogram (histogram) to OpenCL as {{.*}} with operator fadd
// REMARK: histogram.c:[[@LINE+3]]:3: remark: floating-point histogram is reassociated by parallel evaluation
// EXACT: histogram.c:[[@LINE+2]]:3: remark: loop is not an idiom (closest: histogram): matched but cannot be lifted with template 'histogram': floating-point histogram needs reassociation (disabled by -idiom-fp-reassoc=false)
void floats(const unsigned char *x, const float *w, int n) {
  for (int i = 0; i < n; i++)
    fb[x[i] & 15] += w[i];
}

// A constant-size allocation bounds the bins too (llvm::getObjectSize).
// CHECK-LABEL: Idioms in function 'malloced'
// CHECK: view(b1, 0:i64, 1:i64, 256:i64)
// REMARK: histogram.c:[[@LINE+4]]:3: remark: offloaded histogram (histogram) to OpenCL as {{.*}} with operator add
void *malloc(unsigned long);
int *malloced(const unsigned char *x, int n) {
  int *h = malloc(256 * sizeof(int));
  for (int i = 0; i < n; i++)
    h[x[i]]++;
  return h;
}

// Bins behind a pointer into an object of unknown size: the index's type
// would give 256 bins, but the object may be smaller (the source never
// touches the bins its data do not reach), so the bins are those the loop
// touches, [lo, hi], computed at run time by the extent check (a min/max
// reduction of the index) before the call; the program indexes from lo.
// CHECK-LABEL: Idioms in function 'bytes_ptr'
// CHECK: view(b1, 0:i64, 1:i64, e1) = reduceIndexed(\(a: i32, b: i32) => add(a, b), view(b1, 0:i64, 1:i64, e1), \(t: i8) => (sub(zext.i64(t), e0), 1:i32), view(b0, 0:i64, 1:i64, n0));
// CHECK: Extent check FunIL:
// CHECK-NEXT: idiom idiom_bytes_ptr_{{[0-9]+}}_extent(n0: i64, b0: [i8]) {
// CHECK-NEXT:   return reduce(\(a: (i64, i64), b: (i64, i64)) => (smin(a.0, b.0), smax(a.1, b.1)), (9223372036854775807:i64, -9223372036854775808:i64), map(\(t: i8) => (zext.i64(t), zext.i64(t)), view(b0, 0:i64, 1:i64, n0)));
// CHECK: __kernel void idiom_bytes_ptr_{{[0-9]+}}(const long n0, __global const char *b0, __global int *b1, const long e0, const long e1)
// CHECK: if ((ulong)(bin_0) < (ulong)(e1))
// REMARK: histogram.c:[[@LINE+2]]:3: remark: offloaded histogram (histogram) to OpenCL as {{.*}} with operator add
void bytes_ptr(const unsigned char *x, int n, int *bins) {
  for (int i = 0; i < n; i++)
    bins[x[i]]++;
}
// A guarded update: only the iterations that pass the guard count for the
// range (the others may index far outside the bins).
// CHECK-LABEL: Idioms in function 'unbounded'
// CHECK: idiom histogram-runtime-bins (histogram)
// CHECK: (sub(sext.i64(t), e0), select(icmp_slt(t, s0), 1:i32, 0:i32))
// CHECK: Extent check FunIL:
// CHECK: map(\(t: i32) => (select(icmp_slt(t, s0), sext.i64(t), 9223372036854775807:i64), select(icmp_slt(t, s0), sext.i64(t), -9223372036854775808:i64))
// REMARK: histogram.c:[[@LINE+2]]:3: remark: offloaded histogram (histogram-runtime-bins) to OpenCL as {{.*}} with operator add
void unbounded(const int *x, int n, int lim, int *bins) {
  for (int i = 0; i < n; i++)
    if (x[i] < lim)
      bins[x[i]]++;
}
// Narrow bins at run time: the range is widened to whole 32-bit words (the
// kernel updates a bin through its word), so the count is words * 4.
// CHECK-LABEL: Idioms in function 'saturating_ptr'
// CHECK: store view(b1, 0:i64, 1:i64, mul(e1, 4:i64)) = reduceIndexed(\(a: i8, b: i8) => select(icmp_ult(add(a, b), a), -1:i8, add(a, b))
// REMARK: histogram.c:[[@LINE+2]]:3: remark: offloaded histogram (histogram-runtime-bins) to OpenCL as {{.*}} with operator uadd.sat
void saturating_ptr(const int *x, int n, unsigned char *bins) {
  for (int i = 0; i < n; i++)
    if (bins[x[i]] < 255)
      bins[x[i]]++;
}

// Negatives, with their reasons.
// REMARK: histogram.c:[[@LINE+2]]:3: remark: idiom histogram not offloaded: cannot lift to FunIL: the loop makes 2 bin updates per iteration; one reduceIndexed lifts one (several histograms in one loop are not offloaded)
void two(const unsigned char *x, int n, int *a, int *b) {
  for (int i = 0; i < n; i++) {
    a[x[i]]++;
    b[x[i] >> 4] += 2;
  }
}
// REMARK: histogram.c:[[@LINE+2]]:3: remark: idiom histogram not offloaded: cannot lift to FunIL: the bin index or value reads an array at a computed position
void table(const unsigned char *x, const unsigned char *lut, int n, int *bins) {
  for (int i = 0; i < n; i++)
    bins[lut[x[i]]]++;
}
// REMARK: histogram.c:[[@LINE+2]]:3: remark: idiom histogram not offloaded: cannot lift to FunIL: histograms are lifted from nests of depth 1 only
void image(const unsigned char *img, int h, int w, int *bins) {
  for (int i = 0; i < h; i++)
    for (int j = 0; j < w; j++)
      bins[img[i * w + j]]++;
}

// BAD: histogram.c:{{[0-9]+}}:3: remark: idiom histogram not offloaded: translation validation failed: Z3 found inputs on which the lifted FunIL and the LLVM slice differ
