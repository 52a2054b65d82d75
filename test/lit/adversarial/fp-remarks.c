// Compile-time side of the floating-point contract (docs/ARCHITECTURE.md,
// "Correctness contract"): remarks for refused and accepted forms, the
// kernels' fma and fmax expressions, and the stitched fallback checks.
// RUN: %clang-idiom -fno-math-errno -c %s -o /dev/null -Rpass=idiom-offload -Rpass-missed=idiom-offload -Rpass-analysis=idiom-offload 2>&1 | FileCheck %s
// RUN: %clang-idiom -fno-math-errno -fplugin=%plugin -c %s -o /dev/null -mllvm -idiom-fp-reassoc=false -Rpass=idiom-offload -Rpass-missed=idiom-offload 2>&1 | FileCheck %s --check-prefix=EXACT
// RUN: %clang-idiom -fno-math-errno -fplugin=%plugin -c %s -o /dev/null -mllvm -idiom-approx-libm -Rpass=idiom-offload -Rpass-analysis=idiom-offload 2>&1 | FileCheck %s --check-prefix=APPROX
// RUN: %clang-idiom -fno-math-errno -fno-discard-value-names -S -emit-llvm %s -o %t.ll
// RUN: FileCheck %s --check-prefix=CL < %t.ll
// RUN: FileCheck %s --check-prefix=IR < %t.ll
// RUN: %clang-idiom -fno-math-errno -mfma -S -emit-llvm %s -o %t.fma.ll
// RUN: FileCheck %s --check-prefix=FMA < %t.fma.ll
// RUN: %clang-idiom -fno-math-errno --target=aarch64-linux-gnu -S -emit-llvm %s -o %t.arm.ll -Rpass-missed=idiom-offload 2>&1 | FileCheck %s --check-prefix=ARM
// Prototypes instead of <math.h>: the AArch64 run has no target headers.
float expf(float);
double exp(double);
double pow(double, double);
float sqrtf(float);
float fabsf(float);
float floorf(float);
float ceilf(float);
float fminf(float, float);
float fmaxf(float, float);

// CHECK: fp-remarks.c:[[@LINE+4]]:3: remark: offloaded scalar reduction {{.*}} fmax
// CHECK: fp-remarks.c:[[@LINE+3]]:3: remark: floating-point min/max reduction is exact
// EXACT: fp-remarks.c:[[@LINE+2]]:3: remark: offloaded scalar reduction {{.*}} fmax
float cmax(const float *x, int n, float m) {
  for (int i = 0; i < n; i++)
    if (x[i] > m)
      m = x[i];
  return m;
}

// CHECK: fp-remarks.c:[[@LINE+2]]:3: remark: offloaded scalar reduction {{.*}} fmin
float nmin(const float *x, int n, float m) {
  for (int i = 0; i < n; i++)
    m = fminf(m, x[i]);
  return m;
}

// A NaN element replaces the accumulator: refused (the remark names the
// first alternative of the spec that failed, not analyzeReduction's reason).
// CHECK: fp-remarks.c:[[@LINE+2]]:3: remark: loop is not an idiom (closest: scalar-reduction)
float rmax(const float *x, int n, float m) {
  for (int i = 0; i < n; i++)
    m = m > x[i] ? m : x[i];
  return m;
}

// CHECK: fp-remarks.c:[[@LINE+2]]:3: remark: loop is not an idiom (closest: scalar-reduction)
double rmin(const double *x, int n, double m) {
  for (int i = 0; i < n; i++)
    m = x[i] >= m ? m : x[i];
  return m;
}

// EXACT: fp-remarks.c:[[@LINE+3]]:3: remark: {{.*}}floating-point reduction needs reassociation
float sum(const float *x, int n) {
  float s = 0;
  for (int i = 0; i < n; i++)
    s += x[i];
  return s;
}

// CHECK: fp-remarks.c:[[@LINE+4]]:3: remark: {{.*}}map calls expf, whose OpenCL version is not bit-exact
// APPROX: fp-remarks.c:[[@LINE+3]]:3: remark: offloaded map
// APPROX: fp-remarks.c:[[@LINE+2]]:3: remark: map calls exp, log, sin, cos or pow: its results may differ from the host's libm within the OpenCL 1.2 full-profile ulp bounds
void mexp(float *restrict o, const float *x, int n) {
  for (int i = 0; i < n; i++)
    o[i] = expf(x[i]);
}

// CHECK: fp-remarks.c:[[@LINE+2]]:3: remark: {{.*}}map calls pow, whose OpenCL version is not bit-exact
void mpow(double *restrict o, const double *x, int n) {
  for (int i = 0; i < n; i++)
    o[i] = pow(x[i], 1.5);
}

// Exact libm calls in a map, and an approximate one in a reduction.
// CHECK: fp-remarks.c:[[@LINE+2]]:3: remark: offloaded map
void msqrt(float *restrict o, const float *x, int n) {
  for (int i = 0; i < n; i++)
    o[i] = sqrtf(fabsf(x[i])) + floorf(x[i]) + ceilf(x[i]);
}
// CHECK: fp-remarks.c:[[@LINE+3]]:3: remark: offloaded scalar reduction
double sumexp(const double *x, int n) {
  double s = 0;
  for (int i = 0; i < n; i++)
    s += exp(x[i]);
  return s;
}

// Multiply-add: unfused without FMA, fma() with -mfma.
void muladd(float *restrict o, const float *x, const float *y, int n) {
  for (int i = 0; i < n; i++)
    o[i] = x[i] * y[i] + o[i];
}
// CL: @idiom_muladd_{{[0-9]+}}.source = {{.*}}FP_CONTRACT OFF{{.*}}((({{[^"]*}}) * ({{[^"]*}})) + ({{.*}}
// FMA: @idiom_muladd_{{[0-9]+}}.source = {{.*}}fma({{.*}}
// The -mfma GEMM keeps fma; without it the GEMM is fused as well, under the
// floating-point licence (fp-gemm-contract.c), and a remark says so.
// CHECK: fp-remarks.c:[[@LINE+3]]:3: remark: offloaded GEMM
// CHECK: fp-remarks.c:[[@LINE+2]]:3: remark: floating-point multiply-adds (llvm.fmuladd) of the GEMM are fused (fma) on the device where the host rounds them twice
void gemm(float *restrict C, const float *A, const float *B, int n) {
  for (int i = 0; i < n; i++)
    for (int j = 0; j < n; j++) {
      float s = 0;
      for (int k = 0; k < n; k++)
        s += A[i * n + k] * B[k * n + j];
      C[i * n + j] = s;
    }
}
// CL: @idiom_gemm_{{[0-9]+}}.source = {{.*}}fma(
// FMA: @idiom_gemm_{{[0-9]+}}.source = {{.*}}fma(

// fmaxf in maps: the x86-64 lowering, guarded when no operand is a constant.
void fmax2(float *restrict o, const float *x, const float *y, int n) {
  for (int i = 0; i < n; i++)
    o[i] = fmaxf(x[i], y[i]);
}
void relu(float *restrict o, const float *x, int n) {
  for (int i = 0; i < n; i++)
    o[i] = fmaxf(x[i], 0.0f);
}
// CL: @idiom_fmax2_{{[0-9]+}}.source = {{.*}} = ((((t_1) != (t_1) || (t_1) != (t_1))) ? (t_0) : (((((t_0) > (t_1))) ? (t_0) : (t_1))));
// CL: @idiom_relu_{{[0-9]+}}.source = {{.*}} = ((((t) > (0.0f))) ? (t) : (0.0f));
// ARM: fp-remarks.c:{{[0-9]+}}:3: remark: {{.*}}fmaxf/fminf in a map where the host's lowering (signed zeros, NaN) is not known

// The stitched checks: a zero, infinite or NaN min/max device result (class
// mask 615 = zero|inf|nan) and a non-finite sum re-run the loop.
// IR-LABEL: define {{.*}} @cmax(
// IR: idiom.done:
// IR-NEXT: %idiom.result = load float
// IR-NEXT: [[C:%.*]] = fcmp ogt float %idiom.result, %m
// IR-NEXT: select i1 [[C]], float %idiom.result, float %m
// IR-NEXT: %idiom.ambiguous = call i1 @llvm.is.fpclass.f32(float %idiom.result, i32 615)
// IR-NEXT: br i1 %idiom.ambiguous, label %{{.*}}, label %{{.*}}
// IR-LABEL: define {{.*}} @sum(
// IR: idiom.done:
// IR: %idiom.notfinite = fcmp ueq float %{{.*}}, 0x7FF0000000000000
// IR-NEXT: br i1 %idiom.notfinite, label %{{.*}}, label %{{.*}}
