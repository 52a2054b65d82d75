// Contraction by -ffp-contract=fast: clang gives the loop's fmul and fadd the
// `contract` flag (no llvm.fmuladd), and on a target with FMA the selection
// DAG fuses each pair into one fma, which the lifted kernel, evaluating the
// operations one by one, would not mirror. Every lifter refuses such a loop
// (HostFloat.h mayContractOnHost, checked in liftToFunIL) unless the GEMM's
// floating-point licence or a float sum's reassociation licence (its
// accumulator's links only) covers it; translation validation refuses the
// pair too where the lifter's check is skipped (-idiom-test-lift-contractions).
// Unaffected: C's default contraction (llvm.fmuladd, mirrored as fma with
// -mfma), a target without FMA (x86-64 baseline: the back end cannot fuse),
// integer code, and float code without an add of a product.
// RUN: %clang-idiom -mfma -ffp-contract=fast -c %s -o /dev/null -Rpass=idiom-offload -Rpass-missed=idiom-offload 2>&1 | FileCheck %s --check-prefixes=FAST,ALL
// RUN: %clang-idiom --target=aarch64-linux-gnu -ffp-contract=fast -S %s -o /dev/null -Rpass=idiom-offload -Rpass-missed=idiom-offload 2>&1 | FileCheck %s --check-prefixes=FAST,ALL
// RUN: %clang-idiom -mfma -c %s -o /dev/null -Rpass=idiom-offload -Rpass-missed=idiom-offload 2>&1 | FileCheck %s --check-prefixes=ON,ALL
// RUN: %clang-idiom -ffp-contract=fast -c %s -o /dev/null -Rpass=idiom-offload -Rpass-missed=idiom-offload 2>&1 | FileCheck %s --check-prefixes=ON,ALL
// RUN: %clang-idiom -fplugin=%plugin -mllvm -idiom-test-lift-contractions -mfma -ffp-contract=fast -c %s -o /dev/null -Rpass=idiom-offload -Rpass-missed=idiom-offload 2>&1 | FileCheck %s --check-prefixes=TV,ALL
// The IR really carries the pairs, and no llvm.fmuladd:
// RUN: %clang -O2 -mfma -ffp-contract=fast -fno-vectorize -fno-unroll-loops -S -emit-llvm %s -o - | FileCheck %s --check-prefix=IR
// IR: fmul contract float
// IR: fadd contract float
// IR-NOT: llvm.fmuladd

void map(float *restrict y, const float *restrict a, const float *restrict b,
         const float *restrict c, int n) {
  // FAST-DAG: fp-contract-fast.c:[[@LINE+3]]:3: remark: idiom map not offloaded: cannot lift to FunIL: the loop body adds a product that the host's back end may contract into one fma (-ffp-contract=fast on a target with FMA), which the kernel would not mirror
  // ON-DAG: fp-contract-fast.c:[[@LINE+2]]:3: remark: offloaded map (map) to OpenCL as idiom_map_
  // TV-DAG: fp-contract-fast.c:[[@LINE+1]]:3: remark: idiom map not offloaded: translation validation failed: translation validation: the slice adds a product that the host's back end may contract into one fma (-ffp-contract=fast), which the lifted program does not mirror
  for (int i = 0; i < n; i++)
    y[i] = a[i] * b[i] + c[i];
}

void stencil(float *restrict y, const float *restrict x, int n) {
  // FAST-DAG: fp-contract-fast.c:[[@LINE+3]]:3: remark: idiom map not offloaded: cannot lift to FunIL: the loop body adds a product that the host's back end may contract into one fma
  // ON-DAG: fp-contract-fast.c:[[@LINE+2]]:3: remark: offloaded map (map) to OpenCL as idiom_stencil_
  // TV-DAG: fp-contract-fast.c:[[@LINE+1]]:3: remark: idiom map not offloaded: translation validation failed: translation validation: the slice adds a product
  for (int i = 1; i < n - 1; i++)
    y[i] = 0.25f * x[i - 1] + 0.5f * x[i] + 0.25f * x[i + 1];
}

// A float sum whose only fusable pair is its term's product and the
// accumulator's add, fma(a, a, s): the reassociation licence covers it (the
// kernel's compensated sum of the rounded products stays within the loop's
// own bound, HostFloat.h sumContractions), under every setting.
float sumsq(const float *a, int n) {
  // ALL-DAG: fp-contract-fast.c:[[@LINE+2]]:3: remark: offloaded scalar reduction (scalar-reduction) to OpenCL as idiom_sumsq_
  float s = 0.0f;
  for (int i = 0; i < n; i++)
    s += a[i] * a[i];
  return s;
}

double dot(const double *a, const double *b, int n) {
  // ALL-DAG: fp-contract-fast.c:[[@LINE+3]]:3: remark: offloaded scalar reduction (scalar-reduction) to OpenCL as idiom_dot_
  // NOREASSOC: fp-contract-fast.c:[[@LINE+2]]:3: remark: loop is not an idiom (closest: scalar-reduction): matched but cannot be lifted with template 'reduction': floating-point reduction needs reassociation
  double s = 0.0;
  for (int i = 0; i < n; i++)
    s += a[i] * b[i];
  return s;
}

// Not covered by the sum's licence: a fusable pair inside the term
// (fma(a, b, c) changes each term's bits), and a product's link (the
// distributive fold fma(p, a, p)). Without the reassociation licence no
// float sum is reordered at all.
// RUN: %clang-idiom -fplugin=%plugin -mllvm -idiom-fp-reassoc=false -mfma -ffp-contract=fast -c %s -o /dev/null -Rpass=idiom-offload -Rpass-missed=idiom-offload 2>&1 | FileCheck %s --check-prefix=NOREASSOC
float sum_inner(const float *a, const float *b, const float *c, int n) {
  // FAST-DAG: fp-contract-fast.c:[[@LINE+4]]:3: remark: idiom scalar-reduction not offloaded: cannot lift to FunIL: the loop body adds a product that the host's back end may contract into one fma
  // ON-DAG: fp-contract-fast.c:[[@LINE+3]]:3: remark: offloaded scalar reduction (scalar-reduction) to OpenCL as idiom_sum_inner_
  // TV-DAG: fp-contract-fast.c:[[@LINE+2]]:3: remark: idiom scalar-reduction not offloaded: translation validation failed: translation validation: the slice adds a product
  float s = 0.0f;
  for (int i = 0; i < n; i++)
    s += a[i] * b[i] + c[i];
  return s;
}

float prod_unit(const float *a, int n) {
  // FAST-DAG: fp-contract-fast.c:[[@LINE+4]]:3: remark: idiom scalar-reduction not offloaded: cannot lift to FunIL: the loop body adds a product that the host's back end may contract into one fma
  // ON-DAG: fp-contract-fast.c:[[@LINE+3]]:3: remark: offloaded scalar reduction (scalar-reduction) to OpenCL as idiom_prod_unit_
  // TV-DAG: fp-contract-fast.c:[[@LINE+2]]:3: remark: idiom scalar-reduction not offloaded: translation validation failed: translation validation: the slice adds a product
  float p = 1.0f;
  for (int i = 0; i < n; i++)
    p *= a[i] + 1.0f;
  return p;
}

// A weighted bin: w*v+c (llvm.fmuladd with C's default contraction) added
// to the bin.
void histo(float *restrict h, const int *restrict bin, const float *restrict w,
           const float *restrict v, const float *restrict c, int n) {
  // FAST-DAG: fp-contract-fast.c:[[@LINE+3]]:3: remark: idiom histogram not offloaded: cannot lift to FunIL: the loop body adds a product that the host's back end may contract into one fma
  // ON-DAG: fp-contract-fast.c:[[@LINE+2]]:3: remark: offloaded histogram (histogram) to OpenCL as idiom_histo_
  // TV-DAG: fp-contract-fast.c:[[@LINE+1]]:3: remark: idiom histogram not offloaded: translation validation failed: translation validation: the slice adds a product
  for (int i = 0; i < n; i++)
    h[bin[i] & 255] += w[i] * v[i] + c[i];
}

// (a + 1) * b: the distributive fold (fma(a, b, b)), which LLVM 19 applies
// under -ffast-math; refused under -ffp-contract=fast too (over-approximated).
void unit(float *restrict y, const float *restrict a, const float *restrict b, int n) {
  // FAST-DAG: fp-contract-fast.c:[[@LINE+3]]:3: remark: idiom map not offloaded: cannot lift to FunIL: the loop body adds a product that the host's back end may contract into one fma
  // ON-DAG: fp-contract-fast.c:[[@LINE+2]]:3: remark: offloaded map (map) to OpenCL as idiom_unit_
  // TV-DAG: fp-contract-fast.c:[[@LINE+1]]:3: remark: idiom map not offloaded: translation validation failed: translation validation: the slice adds a product
  for (int i = 0; i < n; i++)
    y[i] = (a[i] + 1.0f) * b[i];
}

// -(a*b) - c: the fneg is looked through (vfnmsub on x86).
void negated(float *restrict y, const float *restrict a, const float *restrict b,
             const float *restrict c, int n) {
  // FAST-DAG: fp-contract-fast.c:[[@LINE+3]]:3: remark: idiom map not offloaded: cannot lift to FunIL: the loop body adds a product that the host's back end may contract into one fma
  // ON-DAG: fp-contract-fast.c:[[@LINE+2]]:3: remark: offloaded map (map) to OpenCL as idiom_negated_
  // TV-DAG: fp-contract-fast.c:[[@LINE+1]]:3: remark: idiom map not offloaded: translation validation failed: translation validation: the slice adds a product
  for (int i = 0; i < n; i++)
    y[i] = -(a[i] * b[i]) - c[i];
}

// The other lifters: a CSR SpMV, an outer-loop accumulation (column
// reduction) and a histogram whose bin is found by a bisection search over a
// multiply-add.
void csr(int n, const int *rowptr, const int *col, const float *val, const float *x,
         float *y) {
  // FAST-DAG: fp-contract-fast.c:[[@LINE+3]]:3: remark: idiom spmv-csr not offloaded: cannot lift to FunIL: the loop body adds a product that the host's back end may contract into one fma
  // ON-DAG: fp-contract-fast.c:[[@LINE+2]]:3: remark: offloaded CSR SpMV (spmv-csr) to OpenCL as idiom_csr_
  // TV-DAG: fp-contract-fast.c:[[@LINE+1]]:3: remark: idiom spmv-csr not offloaded: translation validation failed: translation validation: the slice adds a product
  for (int i = 0; i < n; i++) {
    float sum = 0;
    for (int j = rowptr[i]; j < rowptr[i + 1]; j++)
      sum += val[j] * x[col[j]];
    y[i] = sum;
  }
}

void sumsq_columns(int n, int m, double (*data)[1000], const double *mu, double *sd) {
  // FAST-DAG: fp-contract-fast.c:[[@LINE+3]]:3: remark: idiom column-reduction not offloaded: cannot lift to FunIL: the loop body adds a product that the host's back end may contract into one fma
  // ON-DAG: fp-contract-fast.c:[[@LINE+2]]:3: remark: offloaded column reduction (column-reduction) to OpenCL as idiom_sumsq_columns_
  // TV-DAG: fp-contract-fast.c:[[@LINE+1]]:3: remark: idiom column-reduction not offloaded: translation validation failed: translation validation: the slice adds a product
  for (int j = 0; j < m; j++) {
    sd[j] = 0.0;
    for (int i = 0; i < n; i++)
      sd[j] += (data[i][j] - mu[j]) * (data[i][j] - mu[j]);
  }
}

float binb[21];
long hist[21];
void search_bins(const float *x, const float *y, const float *z, int n) {
  // FAST-DAG: fp-contract-fast.c:[[@LINE+3]]:3: remark: idiom histogram-search not offloaded: cannot lift to FunIL: the loop body adds a product that the host's back end may contract into one fma
  // ON-DAG: fp-contract-fast.c:[[@LINE+2]]:3: remark: offloaded histogram (histogram-search) to OpenCL as idiom_search_bins_
  // TV-DAG: fp-contract-fast.c:[[@LINE+1]]:3: remark: idiom histogram-search not offloaded: translation validation failed: translation validation: the slice adds a product
  for (int i = 0; i < n; i++) {
    float d = x[i] * y[i] + z[i];
    int min = 0, max = 20;
    while (max > min + 1) {
      int k = (min + max) / 2;
      if (d >= binb[k])
        max = k;
      else
        min = k;
    }
    hist[min] += 1;
  }
}

// Offloaded under every setting: no add of a product, (a + b) * c (no fold
// without a unit constant), integer multiply-adds, and the GEMM under the
// floating-point licence (-idiom-fp-reassoc, default on: within its bound).
void sumprod(float *restrict y, const float *restrict a, const float *restrict b,
             const float *restrict c, int n) {
  // ALL-DAG: fp-contract-fast.c:[[@LINE+1]]:3: remark: offloaded map (map) to OpenCL as idiom_sumprod_
  for (int i = 0; i < n; i++)
    y[i] = (a[i] + b[i]) * c[i];
}

void prod(float *restrict y, const float *restrict a, const float *restrict b, int n) {
  // ALL-DAG: fp-contract-fast.c:[[@LINE+1]]:3: remark: offloaded map (map) to OpenCL as idiom_prod_
  for (int i = 0; i < n; i++)
    y[i] = a[i] * b[i];
}

long idot(const long *a, const long *b, int n) {
  long s = 0;
  // ALL-DAG: fp-contract-fast.c:[[@LINE+1]]:3: remark: offloaded scalar reduction (scalar-reduction) to OpenCL as idiom_idot_
  for (int i = 0; i < n; i++)
    s += a[i] * b[i];
  return s;
}

void gemm(float *restrict C, const float *restrict A, const float *restrict B, int n) {
  // ALL-DAG: fp-contract-fast.c:[[@LINE+1]]:3: remark: offloaded GEMM (gemm) to OpenCL as idiom_gemm_
  for (int i = 0; i < n; i++)
    for (int j = 0; j < n; j++) {
      float s = 0.0f;
      for (int k = 0; k < n; k++)
        s += A[i * n + k] * B[k * n + j];
      C[i * n + j] = s;
    }
}
