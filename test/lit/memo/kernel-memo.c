// The on-disk memos (passes/KernelMemo.h, constraints CompileCache.h): a
// second compile of the same file reads the generated OpenCL back instead of
// running the rewrite system, and emits the same IR.
// RUN: rm -rf %t.cache && mkdir -p %t.cache
// RUN: env IDIOM_CACHE_DIR=%t.cache %clang-idiom -fplugin=%plugin -mllvm -idiom-time-report -S -emit-llvm %s -o %t.1.ll 2> %t.1.err
// RUN: FileCheck %s --check-prefix=FIRST < %t.1.err
// RUN: env IDIOM_CACHE_DIR=%t.cache %clang-idiom -fplugin=%plugin -mllvm -idiom-time-report -S -emit-llvm %s -o %t.2.ll 2> %t.2.err
// RUN: FileCheck %s --check-prefix=SECOND < %t.2.err
// RUN: diff %t.1.ll %t.2.ll
// With IDIOM_CACHE_DIR=off nothing is read or written.
// RUN: env IDIOM_CACHE_DIR=off %clang-idiom -fplugin=%plugin -mllvm -idiom-time-report -S -emit-llvm %s -o %t.3.ll 2> %t.3.err
// RUN: FileCheck %s --check-prefix=FIRST < %t.3.err
// RUN: diff %t.1.ll %t.3.ll

// FIRST: idiom time report
// FIRST-NOT: opencl memo hit
// FIRST: {{^ +2 .*}} generateOpenCL
// FIRST-NOT: opencl memo hit
// SECOND: idiom time report
// SECOND-NOT: generateOpenCL
// SECOND: {{^ +2 .*}} opencl memo hit

float sum(const float *x, int n) {
  float s = 0;
  for (int i = 0; i < n; i++)
    s += x[i];
  return s;
}

void scale(float *y, const float *x, float a, int n) {
  for (int i = 0; i < n; i++)
    y[i] = a * x[i];
}
