// Loops that look like histograms but are not. With every built-in spec,
// no idiom matches (CHECK); with the histogram and array-reduction specs
// loaded alone, the near miss names the condition that rejects the loop
// (MISS), whatever another spec might get further on the same loop.
// RUN: %clang -O2 -g -fno-vectorize -fno-unroll-loops -S -emit-llvm %s -o %t.ll
// RUN: %opt -passes='loop-simplify,lcssa,print<idiom>' -disable-output %t.ll | FileCheck %s --implicit-check-not='idiom histogram' --implicit-check-not='idiom array-reduction'
// RUN: %opt -idiom-builtin-specs=false -idiom-spec=%srcroot/constraints/specs/histogram.idl -idiom-spec=%srcroot/constraints/specs/array-reduction.idl -passes='loop-simplify,lcssa,print<idiom>' -disable-output %t.ll | FileCheck %s --check-prefix=MISS

// The bin index depends on a bin value: iteration i may read what iteration
// j wrote, so the updates do not commute.
// CHECK-LABEL: Idioms in function 'h_of_h':
// MISS-LABEL: Idioms in function 'h_of_h':
// CHECK-NEXT: loop {{.*}}: no idiom
// MISS-NEXT: loop {{.*}}: no idiom (closest: histogram): {{.*}}InputLoad(m, loop): load reads %0, which the loop also writes
void h_of_h(int *h, int n) {
  for (int i = 0; i < n; i++)
    h[h[i]]++;
}

// The update reads another bin (h[k] = h[k-1] + 1): no load of the element
// it stores, so it is no bin update.
// CHECK-LABEL: Idioms in function 'reads_previous_bin':
// MISS-LABEL: Idioms in function 'reads_previous_bin':
// CHECK-NEXT: loop {{.*}}: no idiom
// MISS-NEXT: loop {{.*}}: no idiom {{.*}}BinUpdate(st, loop): stored value is not computed from a load of the same element
void reads_previous_bin(int *h, const int *k, int n) {
  for (int i = 0; i < n; i++)
    h[k[i]] = h[k[i] - 1] + 1;
}

// The bin array is also read as input (bins[i]): the value read depends on
// the order of the updates.
// CHECK-LABEL: Idioms in function 'bins_read_as_input':
// MISS-LABEL: Idioms in function 'bins_read_as_input':
// CHECK-NEXT: loop {{.*}}: no idiom
// MISS-NEXT: loop {{.*}}: no idiom (closest: histogram): {{.*}}InputLoad(m, loop): load reads %0, which the loop also writes
void bins_read_as_input(int *bins, const int *idx, int n) {
  for (int i = 0; i < n; i++)
    bins[idx[i]] += bins[i];
}

// Another store with a loop-carried effect (a running sum in out[]).
// CHECK-LABEL: Idioms in function 'running_output':
// MISS-LABEL: Idioms in function 'running_output':
// CHECK-NEXT: loop {{.*}}: no idiom
// MISS-NEXT: loop {{.*}}: no idiom {{.*}}BinUpdate(st, loop): stored value is not computed from a load of the same element
void running_output(const unsigned char *img, int *out, int *hist, int n) {
  for (int i = 1; i < n; i++) {
    hist[img[i]]++;
    out[i] = out[i - 1] + img[i];
  }
}

// The old bin value is used outside the update (stored to out[i]).
// CHECK-LABEL: Idioms in function 'bin_value_escapes':
// MISS-LABEL: Idioms in function 'bin_value_escapes':
// CHECK-NEXT: loop {{.*}}: no idiom
// MISS-NEXT: loop {{.*}}: no idiom {{.*}}BinUpdate(st, loop): bin value is stored elsewhere
void bin_value_escapes(const unsigned char *img, int *out, int *hist, int n) {
  for (int i = 0; i < n; i++) {
    int b = hist[img[i]];
    hist[img[i]] = b + 1;
    out[i] = b;
  }
}

// CHECK-LABEL: Idioms in function 'early_exit':
// MISS-LABEL: Idioms in function 'early_exit':
// CHECK-NEXT: loop {{.*}}: no idiom
// MISS-NEXT: loop {{.*}}: no idiom {{.*}}early exit
void early_exit(const unsigned char *img, int *hist, int n) {
  for (int i = 0; i < n; i++) {
    if (img[i] == 0)
      break;
    hist[img[i]]++;
  }
}

// An impure call computes the index.
// CHECK-LABEL: Idioms in function 'impure_index':
// MISS-LABEL: Idioms in function 'impure_index':
// CHECK-NEXT: loop {{.*}}: no idiom
// MISS-NEXT: loop {{.*}}: no idiom {{.*}}PureCall(c): call may have side effects
extern int classify(int);
void impure_index(const int *x, int *hist, int n) {
  for (int i = 0; i < n; i++)
    hist[classify(x[i])]++;
}

// An impure call elsewhere in the body.
// CHECK-LABEL: Idioms in function 'impure_call':
// MISS-LABEL: Idioms in function 'impure_call':
// CHECK-NEXT: loop {{.*}}: no idiom
// MISS-NEXT: loop {{.*}}: no idiom {{.*}}PureCall(c): call may have side effects
extern void note(int);
void impure_call(const unsigned char *img, int *hist, int n) {
  for (int i = 0; i < n; i++) {
    note(img[i]);
    hist[img[i]]++;
  }
}

// h[k] = x - h[k] is not b (+) g(x) for any associative, commutative (+).
// CHECK-LABEL: Idioms in function 'not_commutative':
// MISS-LABEL: Idioms in function 'not_commutative':
// CHECK-NEXT: loop {{.*}}: no idiom
// MISS-NEXT: loop {{.*}}: no idiom (closest: histogram): {{.*}}AssocCommUpdate(st, loop): Z3 finds no associative, commutative (+)
void not_commutative(const int *k, const int *x, int *h, int n) {
  for (int i = 0; i < n; i++)
    h[k[i]] = x[i] - h[k[i]];
}

// Saturation below the type's maximum: b < 200 ? b + 1 : b is not
// uadd.sat(b, 1) (b = 250 stays 250), nor b (+) g for another operator;
// a count starting above the cap would also break min(b + n, 200).
// CHECK-LABEL: Idioms in function 'saturate_below_max':
// MISS-LABEL: Idioms in function 'saturate_below_max':
// CHECK-NEXT: loop {{.*}}: no idiom
// MISS-NEXT: loop {{.*}}: no idiom (closest: histogram): {{.*}}AssocCommUpdate(st, loop): update tests the value it updates, but is not a saturating add at the type's maximum
void saturate_below_max(const unsigned char *img, int n, unsigned char *bins) {
  for (int i = 0; i < n; i++)
    if (bins[img[i]] < 200)
      bins[img[i]]++;
}

// A signed cap: rejected the same way (signed saturating add is not
// associative).
// CHECK-LABEL: Idioms in function 'saturate_signed':
// MISS-LABEL: Idioms in function 'saturate_signed':
// CHECK-NEXT: loop {{.*}}: no idiom
// MISS-NEXT: loop {{.*}}: no idiom (closest: histogram): {{.*}}AssocCommUpdate(st, loop): update tests the value it updates
void saturate_signed(const unsigned char *img, int n, int *bins) {
  for (int i = 0; i < n; i++)
    if (bins[img[i]] < 1000)
      bins[img[i]]++;
}

// One bin array updated with two operators: the updates do not commute.
// CHECK-LABEL: Idioms in function 'two_operators':
// MISS-LABEL: Idioms in function 'two_operators':
// CHECK-NEXT: loop {{.*}}: no idiom
// MISS-NEXT: loop {{.*}}: no idiom (closest: histogram): {{.*}}OneOperatorPerArray(loop): %3 is updated with two operators or types: add and mul
void two_operators(const unsigned char *a, const unsigned char *b, int n, int *h) {
  for (int i = 0; i < n; i++) {
    h[a[i]] += 3;
    h[b[i]] *= 3;
  }
}

// The index is computed from the induction variable only: not a
// data-dependent histogram (and not affine, so not a map either).
// CHECK-LABEL: Idioms in function 'index_from_iv':
// MISS-LABEL: Idioms in function 'index_from_iv':
// CHECK-NEXT: loop {{.*}}: no idiom
// MISS-NEXT: loop {{.*}}: no idiom (closest: histogram): {{.*}}DataDependentIndex(st, loop): bin index does not depend on a loaded value
void index_from_iv(const float *x, float *h, int n) {
  for (int i = 0; i < n; i++)
    h[i % 8] += x[i];
}

// Volatile bins.
// CHECK-LABEL: Idioms in function 'volatile_bins':
// MISS-LABEL: Idioms in function 'volatile_bins':
// CHECK-NEXT: loop {{.*}}: no idiom
// MISS-NEXT: loop {{.*}}: no idiom {{.*}}BinUpdate(st, loop): volatile or atomic store
void volatile_bins(const unsigned char *img, volatile int *hist, int n) {
  for (int i = 0; i < n; i++)
    hist[img[i]]++;
}
