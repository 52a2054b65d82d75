// -Rpass=idiom-offload reports each offloaded idiom with its kind at its source line;
// -Rpass-missed=idiom-offload reports near misses with the failing condition.
// RUN: %clang-idiom -c %s -o /dev/null -Rpass=idiom-offload 2>&1 | FileCheck %s --check-prefix=PASS
// RUN: %clang-idiom -c %s -o /dev/null -Rpass-missed=idiom-offload 2>&1 | FileCheck %s --check-prefix=MISS
// RUN: %clang-idiom -c %s -o /dev/null -Rpass-analysis=idiom-offload 2>&1 | FileCheck %s --check-prefix=NOTE

double dot(const double *x, const double *y, int n) {
  double s = 0;
  // PASS: remarks.c:[[@LINE+1]]:3: remark: offloaded scalar reduction (scalar-reduction) to OpenCL as idiom_dot_0 with 1 accumulator(s): fadd
  for (int i = 0; i < n; i++)
    s += x[i] * y[i];
  return s;
}
// NOTE: remark: floating-point reduction is reassociated

void axpy(double *y, const double *x, double a, int n) {
  // PASS: remarks.c:[[@LINE+1]]:3: remark: offloaded map (map) to OpenCL as idiom_axpy_1
  for (int i = 0; i < n; i++)
    y[i] += a * x[i];
}

void recur(double *y, int n) {
  // MISS: remarks.c:[[@LINE+1]]:3: remark: loop is not an idiom (closest: {{.*}}
  for (int i = 1; i < n; i++)
    y[i] = y[i - 1] * 0.5 + y[i];
}
// PASS-NOT: recur
