// The plugin's remarks have the pass name idiom-offload, which no LLVM pass
// shares: -Rpass=idiom-offload (the documented spelling, with clang and with
// idiom-cc) shows our remark and not loop-idiom's, on a program where
// loop-idiom turns a zeroing loop into a memset. -Rpass=idiom, a regular
// expression searched in the pass name, shows both (the CONTROL run: it
// proves that loop-idiom fires here, so the negative checks can fail).
// RUN: %clang-idiom -c %s -o /dev/null -Rpass=idiom-offload 2>&1 | FileCheck %s --implicit-check-not=loop-idiom --implicit-check-not=memset
// RUN: %if idiom-cc %{ %idiom-cc -O2 -c %s -o /dev/null -Rpass=idiom-offload 2>&1 | FileCheck %s --implicit-check-not=loop-idiom --implicit-check-not=memset %}
// RUN: %clang-idiom -c %s -o /dev/null -Rpass-missed=idiom-offload -Rpass-analysis=idiom-offload 2>&1 | FileCheck %s --check-prefix=OTHER --implicit-check-not=loop-idiom --implicit-check-not=memset
// RUN: %clang-idiom -c %s -o /dev/null -Rpass=idiom 2>&1 | FileCheck %s --check-prefix=CONTROL

void zero(int *a, int n) {
  // CONTROL: pass-name.c:[[@LINE+2]]:10: remark: Transformed loop-strided store in zero function into a call to llvm.memset{{.*}} [-Rpass=loop-idiom]
  for (int i = 0; i < n; i++)
    a[i] = 0;
}

long sum(const long *a, int n) {
  long s = 0;
  // CHECK: pass-name.c:[[@LINE+2]]:3: remark: offloaded scalar reduction (scalar-reduction) to OpenCL as idiom_sum_0 with 1 accumulator(s): add [-Rpass=idiom-offload]
  // CONTROL: pass-name.c:[[@LINE+1]]:3: remark: offloaded scalar reduction {{.*}} [-Rpass=idiom-offload]
  for (int i = 0; i < n; i++)
    s += a[i];
  return s;
}

void opaque(long);

void calls(const long *a, int n) {
  // OTHER: pass-name.c:[[@LINE+1]]:3: remark: loop is not an idiom (closest: {{.*}} [-Rpass-missed=idiom-offload]
  for (int i = 0; i < n; i++)
    opaque(a[i]);
}
