// The runtime takes at most IDIOM_MAX_RESULTS (8) accumulators per
// reduction (runtime/include/idiomrt.h) and declines a descriptor with more
// on every call. The plugin checks the limit at compile time: 8 accumulators
// are offloaded, 9 are not (a missed remark, no runtime call).
// RUN: %clang-idiom -c %s -o /dev/null -Rpass=idiom-offload -Rpass-missed=idiom-offload 2>&1 | FileCheck %s
// RUN: %clang-idiom -S -emit-llvm %s -o - | FileCheck %s --check-prefix=IR

#define ACC8(X)                                                                \
  a0 += X;                                                                     \
  a1 ^= X;                                                                     \
  a2 |= X;                                                                     \
  a3 &= X;                                                                     \
  a4 = a4 > X ? a4 : X;                                                        \
  a5 = a5 < X ? a5 : X;                                                        \
  a6 += X * 3;                                                                 \
  a7 += X ^ 0x55;

long eight(const int *x, int n) {
  int a0 = 0, a1 = 0, a2 = 0, a3 = -1, a4 = -1000000, a5 = 1000000, a6 = 0, a7 = 0;
  // CHECK: runtime-limits.c:[[@LINE+1]]:3: remark: offloaded scalar reduction (scalar-reduction) to OpenCL as idiom_eight_0 with 8 accumulator(s)
  for (int i = 0; i < n; i++) {
    ACC8(x[i])
  }
  return (long)a0 + a1 + a2 + a3 + a4 + a5 + a6 + a7;
}

long nine(const int *x, int n) {
  int a0 = 0, a1 = 0, a2 = 0, a3 = -1, a4 = -1000000, a5 = 1000000, a6 = 0, a7 = 0;
  long a8 = 0;
  // CHECK: runtime-limits.c:[[@LINE+1]]:3: remark: idiom scalar-reduction not offloaded: reduction with 9 accumulators is beyond the runtime's limit of 8 (IDIOM_MAX_RESULTS)
  for (int i = 0; i < n; i++) {
    ACC8(x[i])
    a8 += (long)x[i] * x[i];
  }
  return (long)a0 + a1 + a2 + a3 + a4 + a5 + a6 + a7 + a8;
}
// CHECK-NOT: idiom_nine

// Only the first function calls the runtime.
// IR-LABEL: define {{.*}} @eight(
// IR: call {{.*}} @idiom_run(
// IR-LABEL: define {{.*}} @nine(
// IR-NOT: @idiom_run(
// IR: ret i64
