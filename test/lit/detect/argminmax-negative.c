// argmin/argmax near misses: the index must be taken exactly when the
// min/max takes its element, from a compare that ignores NaN, and must grow
// with the iteration without wrapping. Each loop is reported with the
// failing condition and none is offloaded but the last, the control.
// RUN: %clang-idiom -g -c %s -o /dev/null -Rpass=idiom-offload -Rpass-missed=idiom-offload 2>&1 | FileCheck %s --implicit-check-not="remark: offloaded"

// The index follows another condition than the minimum.
// CHECK: argminmax-negative.c:[[@LINE+3]]:3: remark: loop is not an idiom (closest: scalar-reduction): {{.*}}ArgIndexPhi(phi, loop): index update is not tied to a min/max update: its condition is not the compare of a min/max accumulator with its element [-Rpass-missed=idiom-offload]
int other_condition(const int *a, int n) {
  int best = a[0], k = 0;
  for (int i = 1; i < n; i++) {
    if (a[i] < best)
      best = a[i];
    if (a[i] > 100)
      k = i;
  }
  return k + best;
}

// The index decreases with the iteration: the smaller one is not the first.
// CHECK: argminmax-negative.c:[[@LINE+3]]:3: remark: loop is not an idiom (closest: scalar-reduction): {{.*}}ArgIndexPhi(phi, loop): index update does not store an increasing function of the induction variable: {{.*}}sub
int decreasing(const int *a, int n) {
  int best = a[0], k = 0;
  for (int i = 1; i < n; i++)
    if (a[i] < best) {
      best = a[i];
      k = n - i;
    }
  return k + best;
}

// The index is taken when the minimum keeps its value.
// CHECK: argminmax-negative.c:[[@LINE+4]]:3: remark: loop is not an idiom (closest: scalar-reduction): {{.*}}ArgIndexPhi(phi, loop): index update takes the new index when the min/max update keeps its value
int index_when_kept(const float *a, int n) {
  float best = a[0];
  int k = 0;
  for (int i = 1; i < n; i++) {
    if (a[i] < best)
      best = a[i];
    else
      k = i;
  }
  return k + (int)best;
}

// A NaN element replaces the best value (the compare is unordered).
// CHECK: argminmax-negative.c:[[@LINE+4]]:3: remark: loop is not an idiom (closest: scalar-reduction): {{.*}}ArgIndexPhi(phi, loop): index update is not tied to a min/max update: {{.*}} is not a reduction: floating-point min reduction whose element replaces the accumulator when either is NaN
int unordered(const float *a, int n) {
  float best = a[0];
  int k = 0;
  for (int i = 1; i < n; i++)
    if (!(a[i] >= best)) {
      best = a[i];
      k = i;
    }
  return k + (int)best;
}

// A count of the improvements is not a reduction either.
// CHECK: argminmax-negative.c:[[@LINE+4]]:3: remark: loop is not an idiom (closest: scalar-reduction)
int count_improvements(const float *a, int n) {
  float best = a[0];
  int c = 0;
  for (int i = 1; i < n; i++)
    if (a[i] < best) {
      best = a[i];
      c++;
    }
  return c + (int)best;
}

// Without the value, the loop reads a[k] at the accumulator's index (not
// supported: neither affine nor a gather).
// CHECK: argminmax-negative.c:[[@LINE+3]]:3: remark: loop is not an idiom (closest: scalar-reduction): {{.*}}AffineAccess(ld, loop): address is not affine
int no_value(const int *a, int n) {
  int k = 0;
  for (int i = 1; i < n; i++)
    if (a[i] < a[k])
      k = i;
  return k;
}

// An int index of a long loop may wrap around (the bound is not known); the
// same loop with a constant bound is offloaded.
// CHECK: argminmax-negative.c:[[@LINE+4]]:3: remark: loop is not an idiom (closest: scalar-reduction): {{.*}}ArgIndexPhi(phi, loop): index may wrap around or reach the 32-bit limit: {{.*}}trunc i64
int narrow_index(const float *a, long n) {
  float best = a[0];
  int k = 0;
  for (long i = 1; i < n; i++)
    if (a[i] < best) {
      best = a[i];
      k = (int)i;
    }
  return k;
}

// CHECK: argminmax-negative.c:[[@LINE+4]]:3: remark: offloaded scalar reduction (scalar-reduction) to OpenCL as {{.*}} with 2 accumulator(s): argindex-first fmin
int narrow_index_bounded(const float *a) {
  float best = a[0];
  int k = 0;
  for (long i = 1; i < 1000; i++)
    if (a[i] < best) {
      best = a[i];
      k = (int)i;
    }
  return k;
}
