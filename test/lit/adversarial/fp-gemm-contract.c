// The floating-point licence for GEMMs (docs/ARCHITECTURE.md, "Floating
// point"): with clang's default -ffp-contract=on the update is llvm.fmuladd,
// which this host (x86-64 without -mfma) evaluates unfused. Under the
// licence (-idiom-fp-reassoc, default on) a GEMM, a product of a 2mm chain
// and a triangular GEMM (SYRK) are lifted with `fma`, so every variant of
// their kernels is fused, and an analysis remark says so; a GEMV and a map
// keep the host's unfused evaluation. With -idiom-fp-reassoc=false, or with
// fmul and fadd in the IR (-ffp-contract=off), no kernel has an fma.
// RUN: %clang-idiom -fno-discard-value-names -S -emit-llvm %s -o %t.ll -Rpass-analysis=idiom-offload 2> %t.remarks
// RUN: FileCheck %s --check-prefix=REMARK < %t.remarks
// RUN: FileCheck %s --check-prefix=FUSED < %t.ll
// RUN: grep -c 'fused (fma) on the device' %t.remarks | FileCheck %s --check-prefix=THREE
// RUN: grep '@idiom_gemv_[0-9]*\.source' %t.ll | grep -c 'FP_CONTRACT OFF' | FileCheck %s --check-prefix=ONE
// RUN: grep '@idiom_gemv_[0-9]*\.source\|@idiom_scale_[0-9]*\.source' %t.ll | not grep 'fma('
// RUN: %clang-idiom -fplugin=%plugin -mllvm -idiom-fp-reassoc=false -S -emit-llvm %s -o %t.exact.ll -Rpass=idiom-offload -Rpass-analysis=idiom-offload 2> %t.exact.remarks
// RUN: grep -c 'remark: offloaded' %t.exact.remarks | FileCheck %s --check-prefix=FIVE
// RUN: not grep 'fused (fma)' %t.exact.remarks
// RUN: grep -c '\.source = ' %t.exact.ll | FileCheck %s --check-prefix=FIVE
// RUN: not grep 'fma(' %t.exact.ll
// RUN: %clang-idiom -ffp-contract=off -S -emit-llvm %s -o %t.off.ll -Rpass=idiom-offload -Rpass-analysis=idiom-offload 2> %t.off.remarks
// RUN: grep -c 'remark: offloaded' %t.off.remarks | FileCheck %s --check-prefix=FIVE
// RUN: not grep 'fused (fma)' %t.off.remarks
// RUN: grep -c '\.source = ' %t.off.ll | FileCheck %s --check-prefix=FIVE
// RUN: not grep 'fma(' %t.off.ll
// THREE: {{^}}3{{$}}
// FIVE: {{^}}5{{$}}
// ONE: {{^}}1{{$}}

void gemm(int m, int n, int k, float alpha, const float *a, const float *b, float beta,
          float *c) {
  // REMARK: fp-gemm-contract.c:[[@LINE+1]]:3: remark: floating-point multiply-adds (llvm.fmuladd) of the GEMM are fused (fma) on the device where the host rounds them twice
  for (int i = 0; i < m; i++)
    for (int j = 0; j < n; j++) {
      float s = 0;
      for (int p = 0; p < k; p++)
        s += a[i * k + p] * b[p * n + j];
      c[i * n + j] = alpha * s + beta * c[i * n + j];
    }
}
// FUSED: @idiom_gemm_{{[0-9]+}}.source = {{.*}}fma(

void chain(int m, int n, int k, float alpha, const float *a, const float *b, float *t) {
  // REMARK: fp-gemm-contract.c:[[@LINE+1]]:3: remark: floating-point multiply-adds
  for (int i = 0; i < m; i++)
    for (int j = 0; j < n; j++) {
      t[i * n + j] = 0.0f;
      for (int p = 0; p < k; p++)
        t[i * n + j] += alpha * a[i * k + p] * b[p * n + j];
    }
}
// FUSED: @idiom_chain_{{[0-9]+}}.source = {{.*}}fma(

void syrk(int n, int k, float alpha, float beta, const float *a, float *c) {
  // REMARK: fp-gemm-contract.c:[[@LINE+1]]:3: remark: floating-point multiply-adds
  for (int i = 0; i < n; i++)
    for (int j = 0; j <= i; j++) {
      float s = 0;
      for (int p = 0; p < k; p++)
        s += a[i * k + p] * a[j * k + p];
      c[i * n + j] = alpha * s + beta * c[i * n + j];
    }
}
// FUSED: @idiom_syrk_{{[0-9]+}}.source = {{.*}}fma(

// Not fused: a GEMV and a map.
void gemv(int m, int n, const float *a, const float *x, float *y) {
  for (int i = 0; i < m; i++) {
    float s = 0;
    for (int j = 0; j < n; j++)
      s += a[i * n + j] * x[j];
    y[i] = s;
  }
}

void scale(int n, float alpha, const float *x, float *restrict y) {
  for (int i = 0; i < n; i++)
    y[i] = alpha * x[i] + y[i];
}
