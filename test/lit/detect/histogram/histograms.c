// Histograms the built-in histogram spec must detect: bins[idx(x)] (+)= g(x)
// with a data-dependent bin index and an associative, commutative update
// proved with Z3. Each must be reported by `histogram` (bin count known at
// compile time) or `histogram-runtime-bins` (bin count known only at run
// time), never by `map`: the store address is not affine.
// RUN: %clang -O2 -g -fno-vectorize -fno-unroll-loops -S -emit-llvm %s -o %t.ll
// RUN: %opt -passes='loop-simplify,lcssa,print<idiom>' -disable-output %t.ll | FileCheck %s --implicit-check-not='idiom map' --implicit-check-not='no idiom'
// The same loops at plain -O2, where the plugin runs at VectorizerStart.
// RUN: %clang-idiom -c %s -o /dev/null -Rpass=idiom-offload -Rpass-analysis=idiom-offload -Rpass-missed=idiom-offload 2>&1 | FileCheck %s --check-prefix=O2 --implicit-check-not='not an idiom'

// The bin count comes from the global array's type.
int hist[256];
// CHECK-LABEL: Idioms in function 'global_u8':
// CHECK-NEXT: loop {{.*}}: idiom histogram (histogram)
void global_u8(const unsigned char *img, int n) {
  // O2: histograms.c:[[@LINE+1]]:3: remark: offloaded histogram (histogram) to OpenCL as {{idiom_[a-z0-9_]+}} with operator add
  for (int i = 0; i < n; i++)
    hist[img[i]]++;
}

// `int *bins` indexed by an int: the extent is unknown at compile time.
// CHECK-LABEL: Idioms in function 'float_bins':
// CHECK-NEXT: loop {{.*}}: idiom histogram-runtime-bins (histogram)
void float_bins(const float *x, int n, int *bins, int nbins) {
  // O2: histograms.c:[[@LINE+1]]:3: remark: offloaded histogram (histogram-runtime-bins) to OpenCL as {{idiom_[a-z0-9_]+}} with operator
  for (int i = 0; i < n; i++)
    bins[(int)(x[i] * nbins)] += 1;
}

// CHECK-LABEL: Idioms in function 'radix_digit':
// CHECK-NEXT: loop {{.*}}: idiom histogram-runtime-bins (histogram)
void radix_digit(const unsigned *key, int n, unsigned *cnt, int shift) {
  // O2: histograms.c:[[@LINE+1]]:3: remark: offloaded histogram (histogram-runtime-bins) to OpenCL as {{idiom_[a-z0-9_]+}} with operator
  for (int i = 0; i < n; i++)
    cnt[key[i] >> shift]++;
}

// The index's value range bounds the bins of a global: key >> 24 < 256.
// CHECK-LABEL: Idioms in function 'radix_top_byte':
// CHECK-NEXT: loop {{.*}}: idiom histogram (histogram)
unsigned cnt[256];
void radix_top_byte(const unsigned *key, int n) {
  // O2: histograms.c:[[@LINE+1]]:3: remark: offloaded histogram (histogram) to OpenCL as {{idiom_[a-z0-9_]+}} with operator add
  for (int i = 0; i < n; i++)
    cnt[key[i] >> 24]++;
}

// A weighted floating-point histogram (fadd over the reals, as for
// scalar reductions).
// CHECK-LABEL: Idioms in function 'weighted':
// CHECK-NEXT: loop {{.*}}: idiom histogram-runtime-bins (histogram)
void weighted(const int *idx, const double *w, double *bins, int n) {
  // O2: histograms.c:[[@LINE+1]]:3: remark: offloaded histogram (histogram-runtime-bins) to OpenCL as {{idiom_[a-z0-9_]+}} with operator
  for (int i = 0; i < n; i++)
    bins[idx[i]] += w[i];
}

// Subtracting from a bin is adding the negation: (+) is add.
// CHECK-LABEL: Idioms in function 'debit':
// CHECK-NEXT: loop {{.*}}: idiom histogram-runtime-bins (histogram)
void debit(const int *acct, const long *amount, long *balance, int n) {
  // O2: histograms.c:[[@LINE+1]]:3: remark: offloaded histogram (histogram-runtime-bins) to OpenCL as {{idiom_[a-z0-9_]+}} with operator
  for (int i = 0; i < n; i++)
    balance[acct[i]] -= amount[i];
}

// Max per bin through a ternary: fmax (compare and select).
// CHECK-LABEL: Idioms in function 'max_per_bin':
// CHECK-NEXT: loop {{.*}}: idiom histogram-runtime-bins (histogram)
void max_per_bin(const int *idx, const float *w, float *bins, int n) {
  // O2: histograms.c:[[@LINE+1]]:3: remark: idiom histogram-runtime-bins not offloaded: translation validation failed: Z3 found inputs on which the lifted FunIL and the LLVM slice differ
  for (int i = 0; i < n; i++) {
    int k = idx[i];
    bins[k] = w[i] > bins[k] ? w[i] : bins[k];
  }
}

// The same with an if: the store runs when the test of the bin holds.
// CHECK-LABEL: Idioms in function 'max_if':
// CHECK-NEXT: loop {{.*}}: idiom histogram-runtime-bins (histogram)
void max_if(const int *idx, const float *w, float *bins, int n) {
  // O2: histograms.c:[[@LINE+1]]:3: remark: idiom histogram-runtime-bins not offloaded: translation validation failed: Z3 found inputs on which the lifted FunIL and the LLVM slice differ
  for (int i = 0; i < n; i++) {
    int k = idx[i];
    if (w[i] > bins[k])
      bins[k] = w[i];
  }
}

// Integer min per bin (llvm.smin); 64 bins from the global's type.
int lowest[64];
// CHECK-LABEL: Idioms in function 'min_per_bin':
// CHECK-NEXT: loop {{.*}}: idiom histogram (histogram)
void min_per_bin(const int *key, const int *v, int n) {
  // O2: histograms.c:[[@LINE+1]]:3: remark: offloaded histogram (histogram) to OpenCL as {{idiom_[a-z0-9_]+}} with operator smin
  for (int i = 0; i < n; i++) {
    int k = key[i] & 63;
    lowest[k] = v[i] < lowest[k] ? v[i] : lowest[k];
  }
}

// A bit set per bin: or.
// CHECK-LABEL: Idioms in function 'bitmask':
// CHECK-NEXT: loop {{.*}}: idiom histogram (histogram)
void bitmask(const unsigned *key, int n, unsigned *mask) {
  // O2: histograms.c:[[@LINE+1]]:3: remark: offloaded histogram (histogram) to OpenCL as {{idiom_[a-z0-9_]+}} with operator
  for (int i = 0; i < n; i++)
    mask[key[i] & 63] |= 1u << (key[i] >> 6);
}

// A conditional update: the store runs under a branch on the input.
// CHECK-LABEL: Idioms in function 'above_threshold':
// CHECK-NEXT: loop {{.*}}: idiom histogram-runtime-bins (histogram)
void above_threshold(const double *x, int n, double t, int *bins) {
  // O2: histograms.c:[[@LINE+1]]:3: remark: offloaded histogram (histogram-runtime-bins) to OpenCL as {{idiom_[a-z0-9_]+}} with operator
  for (int i = 0; i < n; i++)
    if (x[i] > t)
      bins[(int)x[i]]++;
}

// A conditional increment folded into the value: bins[k] += (x > t).
// CHECK-LABEL: Idioms in function 'count_if':
// CHECK-NEXT: loop {{.*}}: idiom histogram (histogram)
void count_if(const double *x, int n, double t, int *bins) {
  // O2: histograms.c:[[@LINE+1]]:3: remark: offloaded histogram (histogram) to OpenCL as {{idiom_[a-z0-9_]+}} with operator
  for (int i = 0; i < n; i++)
    bins[(int)x[i] & 15] += x[i] > t;
}

// Saturating counts at the type's maximum: the update is
// b == 255 ? b : b + 1, which Z3 proves equal to uadd.sat(b, 1); uadd.sat
// is associative and commutative (on unsigned values it is min(a + b, 255)
// in unbounded arithmetic), so the counts may be combined in any order.
// CHECK-LABEL: Idioms in function 'saturating_branch':
// CHECK-NEXT: loop {{.*}}: idiom histogram (histogram)
void saturating_branch(const unsigned char *img, int n, unsigned char *bins) {
  // O2: histograms.c:[[@LINE+1]]:3: remark: offloaded histogram (histogram) to OpenCL as {{idiom_[a-z0-9_]+}} with operator
  for (int i = 0; i < n; i++) {
    int k = img[i];
    if (bins[k] < 255)
      bins[k]++;
  }
}

// The same written as a select.
// CHECK-LABEL: Idioms in function 'saturating_select':
// CHECK-NEXT: loop {{.*}}: idiom histogram (histogram)
void saturating_select(const unsigned char *img, int n, unsigned char *bins) {
  // O2: histograms.c:[[@LINE+1]]:3: remark: offloaded histogram (histogram) to OpenCL as {{idiom_[a-z0-9_]+}} with operator
  for (int i = 0; i < n; i++) {
    int k = img[i];
    bins[k] = bins[k] < 255 ? bins[k] + 1 : 255;
  }
}

// Saturating add of weights (umin of the widened sum, then truncation).
// CHECK-LABEL: Idioms in function 'saturating_weights':
// CHECK-NEXT: loop {{.*}}: idiom histogram (histogram)
void saturating_weights(const unsigned char *img, const unsigned char *w, int n,
                        unsigned char *bins) {
  // O2: histograms.c:[[@LINE+1]]:3: remark: offloaded histogram (histogram) to OpenCL as {{idiom_[a-z0-9_]+}} with operator
  for (int i = 0; i < n; i++) {
    unsigned s = bins[img[i]] + w[i];
    bins[img[i]] = s > 255 ? 255 : s;
  }
}

// 16-bit saturating counts.
// CHECK-LABEL: Idioms in function 'saturating_u16':
// CHECK-NEXT: loop {{.*}}: idiom histogram (histogram)
void saturating_u16(const unsigned char *img, int n, unsigned short *bins) {
  // O2: histograms.c:[[@LINE+1]]:3: remark: offloaded histogram (histogram) to OpenCL as {{idiom_[a-z0-9_]+}} with operator
  for (int i = 0; i < n; i++) {
    unsigned short b = bins[img[i]];
    if (b != 65535)
      bins[img[i]] = b + 1;
  }
}

// Two histograms in one loop, with different operators and bin counts.
// CHECK-LABEL: Idioms in function 'two_histograms':
// CHECK-NEXT: loop {{.*}}: idiom histogram (histogram)
void two_histograms(const unsigned char *img, int n, int *all, int *coarse) {
  // O2: histograms.c:[[@LINE+1]]:3: remark: idiom histogram not offloaded: cannot lift to FunIL: the loop makes 2 bin updates per iteration; one reduceIndexed lifts one (several histograms in one loop are not offloaded)
  for (int i = 0; i < n; i++) {
    all[img[i]]++;
    coarse[img[i] >> 4] += img[i];
  }
}

// Two updates of the same bins in one iteration (same operator): one
// reduceIndexed over (i, update) (HistogramLift::More).
// CHECK-LABEL: Idioms in function 'pairs':
// CHECK-NEXT: loop {{.*}}: idiom histogram (histogram)
void pairs(const unsigned char *a, const unsigned char *b, int n, int *bins) {
  // O2: histograms.c:[[@LINE+1]]:3: remark: offloaded histogram (histogram) to OpenCL as idiom_pairs_{{[0-9]+}} with operator add
  for (int i = 0; i < n; i++) {
    bins[a[i]]++;
    bins[b[i]] += 2;
  }
}

// An image histogram over two nested loops: reported once, at the outer loop.
// CHECK-LABEL: Idioms in function 'image_2d':
// CHECK-NEXT: loop {{.*}}: idiom histogram (histogram)
// CHECK-NOT: loop
void image_2d(const unsigned char *img, int h, int w, int *bins) {
  // O2: histograms.c:[[@LINE+1]]:3: remark: idiom histogram not offloaded: cannot lift to FunIL: histograms are lifted from nests of depth 1 only (this nest has depth 2)
  for (int i = 0; i < h; i++)
    for (int j = 0; j < w; j++)
      bins[img[i * w + j]]++;
}

// A lookup table between the input and the bin (a gather from an input).
// CHECK-LABEL: Idioms in function 'through_table':
// CHECK-NEXT: loop {{.*}}: idiom histogram-runtime-bins (histogram)
void through_table(const unsigned char *img, const int *lut, int n, int *bins) {
  // O2: histograms.c:[[@LINE+1]]:3: remark: idiom histogram-runtime-bins not offloaded: cannot lift to FunIL: the bin index or value reads an array at a computed position (e.g. bins[lut[x[i]]]); only affine input reads are lifted
  for (int i = 0; i < n; i++)
    bins[lut[img[i]]]++;
}

// The bins and the input are pointers that may overlap. Detection reports
// the histogram; legality is the lifter's run-time check (bins
// [bins, bins + extent) against the input ranges, as for maps).
// CHECK-LABEL: Idioms in function 'may_alias':
// CHECK-NEXT: loop {{.*}}: idiom histogram-runtime-bins (histogram)
void may_alias(int *bins, const int *x, int n) {
  // O2: histograms.c:[[@LINE+1]]:3: remark: offloaded histogram (histogram-runtime-bins) to OpenCL as {{idiom_[a-z0-9_]+}} with operator
  for (int i = 0; i < n; i++)
    bins[x[i]]++;
}
