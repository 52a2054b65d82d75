// A device kernel performs every load, store and division of the loop body
// for every iteration. Loops that do them only under a condition are not
// offloaded (a store under a condition would write every element, a load
// under a condition would read elements the loop never reads); reductions
// whose element is selected, guarded histogram bin updates and guarded
// loads of objects known to cover the iteration space still are.
// RUN: %clang-idiom -c %s -o /dev/null -Rpass=idiom-offload -Rpass-missed=idiom-offload -Rpass-analysis=idiom-offload 2>&1 | FileCheck %s
// RUN: %clang-idiom -c %s -o /dev/null -Rpass=idiom-offload 2> %t.pass
// RUN: FileCheck %s --check-prefix=PASS < %t.pass
// RUN: FileCheck %s --check-prefix=NOOFF < %t.pass

// Negatives: conditional stores.

void masked_scale(float *o, const float *x, const int *m, int n) {
  // CHECK: guarded-memory.c:[[@LINE+1]]:3: remark: loop is not an idiom (closest: map): matched but cannot be lifted with template 'map': store executes only under a condition: the device would write every element
  for (int i = 0; i < n; i++)
    if (m[i])
      o[i] = x[i] * 2;
}

void clip(float *out, const float *in, float t, int n) {
  // CHECK: guarded-memory.c:[[@LINE+1]]:3: remark: {{.*}}store executes only under a condition
  for (int i = 0; i < n; i++)
    if (in[i] > t)
      out[i] = t;
}

void zero_negatives(int *r, const int *q, int n) {
  // CHECK: guarded-memory.c:[[@LINE+1]]:3: remark: {{.*}}store executes only under a condition
  for (int i = 0; i < n; i++)
    if (q[i] < 0)
      r[i] = 0;
}

void mean(int *mean, const int *sum, const int *cnt, int n) {
  // CHECK: guarded-memory.c:[[@LINE+1]]:3: remark: {{.*}}store executes only under a condition
  for (int i = 0; i < n; i++)
    if (cnt[i])
      mean[i] = sum[i] / cnt[i];
}

void fmean(float *mean, const float *sum, const int *cnt, int n) {
  // CHECK: guarded-memory.c:[[@LINE+1]]:3: remark: {{.*}}store executes only under a condition
  for (int i = 0; i < n; i++)
    if (cnt[i])
      mean[i] = sum[i] / cnt[i];
}

void masked_copy(float *o, const float *x, const int *m, int n) {
  // CHECK: guarded-memory.c:[[@LINE+1]]:3: remark: {{.*}}store executes only under a condition
  for (int i = 0; i < n; i++)
    if (m[i])
      o[i] = x[i];
}

// A stencil that skips its first and last point: the device would read
// in[-1] and in[n].
void smooth_inner(float *out, const float *in, int n) {
  // CHECK: guarded-memory.c:[[@LINE+1]]:3: remark: {{.*}}{{executes only under a condition|detected idiom stencil}}
  for (int i = 0; i < n; i++) {
    if (i == 0 || i == n - 1)
      continue;
    out[i] = (in[i - 1] + in[i] + in[i + 1]) / 3.0f;
  }
}

// The same on arrays of known size (the loads could not fault, the stores
// are still conditional), in double, and along the rows of a 2-D nest.
#define NS 10000
float gin[NS], gout[NS];
void smooth_fixed(void) {
  // CHECK: guarded-memory.c:[[@LINE+1]]:3: remark: {{.*}}{{executes only under a condition|detected idiom stencil}}
  for (int i = 0; i < NS; i++) {
    if (i == 0 || i == NS - 1)
      continue;
    gout[i] = (gin[i - 1] + gin[i] + gin[i + 1]) / 3.0f;
  }
}

void smooth_d(double *out, const double *in, long n) {
  // CHECK: guarded-memory.c:[[@LINE+1]]:3: remark: {{.*}}{{executes only under a condition|detected idiom stencil}}
  for (long i = 0; i < n; i++) {
    if (i == 0 || i == n - 1)
      continue;
    out[i] = 0.25 * in[i - 1] + 0.5 * in[i] + 0.25 * in[i + 1];
  }
}

void smooth_rows(float *out, const float *in, int n, int m) {
  // CHECK: guarded-memory.c:[[@LINE+1]]:3: remark: {{.*}}{{executes only under a condition|detected idiom stencil}}
  for (int i = 0; i < n; i++)
    for (int j = 0; j < m; j++) {
      if (j == 0 || j == m - 1)
        continue;
      out[i * m + j] = in[i * m + j - 1] + in[i * m + j + 1];
    }
}

// 2-D: the inner loop's store is conditional.
void masked_2d(float *o, const float *x, int rows, int cols) {
  // CHECK: guarded-memory.c:[[@LINE+1]]:3: remark: {{.*}}store executes only under a condition
  for (int i = 0; i < rows; i++)
    for (int j = 0; j < cols; j++)
      if (x[i * cols + j] != 0.0f)
        o[i * cols + j] = 1.0f / x[i * cols + j];
}

// Negatives: conditional loads.

// The bin index is read only where the mask is set, from a pointer of
// unknown extent.
void masked_histogram(int *h, const unsigned char *k, const int *m, int n) {
  // CHECK: guarded-memory.c:[[@LINE+1]]:3: remark: {{.*}}load executes only under a condition: the device would read elements the loop does not read
  for (int i = 0; i < n; i++)
    if (m[i])
      h[k[i]]++;
}

// A guarded bin update whose value divides by what the guard excludes.
void histogram_div(int *h, const unsigned char *k, const int *s, const int *c, int n) {
  // CHECK: guarded-memory.c:[[@LINE+1]]:3: remark: {{.*}}integer division executes only under a condition
  for (int i = 0; i < n; i++) {
    int ci = c[i], si = s[i];
    unsigned char ki = k[i] ^ (unsigned char)si;
    if ((ci != 0) & (ki != 7))
      h[ki] += si / ci;
  }
}

// GEMMs that skip the zeros of A: test/lit/user-spec/gemm-lifter-checks.c
// (the built-in spec does not match them).

// Positives.

float relu_sum(const float *x, int n) {
  float s = 0;
  // PASS: guarded-memory.c:[[@LINE+1]]:3: remark: offloaded scalar reduction (scalar-reduction) to OpenCL as {{.*}} with 1 accumulator(s): fadd
  for (int i = 0; i < n; i++)
    s += x[i] > 0 ? x[i] : 0;
  return s;
}

long positive_sum(const int *x, int n) {
  long s = 0;
  // PASS: guarded-memory.c:[[@LINE+1]]:3: remark: offloaded scalar reduction (scalar-reduction) to OpenCL as {{.*}} with 1 accumulator(s): add
  for (int i = 0; i < n; i++)
    if (x[i] > 0)
      s += x[i];
  return s;
}

// Every element written, some with their old value: a map.
void select_scale(float *o, const float *x, const int *m, int n) {
  // PASS: guarded-memory.c:[[@LINE+1]]:3: remark: offloaded map (map) to OpenCL
  for (int i = 0; i < n; i++) {
    float v = x[i] * 2, old = o[i];
    o[i] = m[i] ? v : old;
  }
}

// A guarded bin update is a histogram by design.
void guarded_bins(int *h, const unsigned char *k, int n) {
  static int bins[256];
  // PASS: guarded-memory.c:[[@LINE+1]]:3: remark: offloaded histogram
  for (int i = 0; i < n; i++)
    if (k[i] < 100)
      bins[k[i]]++;
  for (int b = 0; b < 256; b++)
    h[b] = bins[b];
}

// A guarded load of arrays known to cover the iteration space cannot fault.
#define NK 4096
unsigned char keys[NK];
int mask[NK];
int hist[256];
void masked_known_histogram(void) {
  // PASS: guarded-memory.c:[[@LINE+1]]:3: remark: offloaded histogram
  for (int i = 0; i < NK; i++)
    if (mask[i])
      hist[keys[i]]++;
}

// None of the negatives is offloaded.
// NOOFF-NOT: idiom_masked_scale
// NOOFF-NOT: idiom_clip
// NOOFF-NOT: idiom_zero_negatives
// NOOFF-NOT: idiom_mean
// NOOFF-NOT: idiom_fmean
// NOOFF-NOT: idiom_masked_copy
// NOOFF-NOT: idiom_smooth
// NOOFF-NOT: idiom_masked_2d
// NOOFF-NOT: idiom_masked_histogram
// NOOFF-NOT: idiom_histogram_div
