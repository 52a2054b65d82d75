// A malformed spec file: each error is reported as FILE:LINE:COL and the
// compilation goes on, with the built-in idioms and the definitions that load.
// RUN: %clang-idiom -fplugin=%plugin -mllvm -idiom-spec=%S/Inputs/broken.idl -c %s -o /dev/null -Rpass=idiom-offload 2>&1 | FileCheck %s
// RUN: %clang-idiom -fplugin=%plugin -mllvm -idiom-spec=%S/Inputs/missing.idl -c %s -o /dev/null 2>&1 | FileCheck %s --check-prefix=MISSING

// CHECK-DAG: broken.idl:3:20: error: {{.*}}NoSuchAtom
// CHECK-DAG: broken.idl:6:{{[0-9]+}}: error:
// MISSING: missing.idl:0:0: error:

long sum(const long *x, int n) {
  long s = 0;
  // CHECK: broken.c:[[@LINE+1]]:3: remark: offloaded scalar reduction (scalar-reduction)
  for (int i = 0; i < n; i++)
    s += x[i];
  return s;
}
