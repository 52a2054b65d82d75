// The per-loop work budget of the constraint search (-idiom-loop-atom-calls):
// atom calls over all idioms tried on one loop. When it runs out, the idioms
// left are not tried, the loop stays as it was, and a missed remark names the
// budget. Default budget: the map below is offloaded. A budget that the
// specs tried before map use up leaves it untried; a budget that runs out in
// the middle of map's own search stops it there.
// RUN: %clang-idiom -c %s -o /dev/null -Rpass=idiom-offload -Rpass-missed=idiom-offload 2>&1 | FileCheck %s --check-prefix=DEFAULT
// RUN: %clang-idiom -fplugin=%plugin -mllvm -idiom-loop-atom-calls=5 -c %s -o /dev/null -Rpass=idiom-offload -Rpass-missed=idiom-offload 2>&1 | FileCheck %s --check-prefix=TINY
// RUN: %clang-idiom -fplugin=%plugin -mllvm -idiom-loop-atom-calls=25 -c %s -o /dev/null -Rpass=idiom-offload -Rpass-missed=idiom-offload 2>&1 | FileCheck %s --check-prefix=SMALL
// RUN: %clang-idiom -fplugin=%plugin -mllvm -idiom-loop-atom-calls=0 -c %s -o /dev/null -Rpass=idiom-offload -Rpass-missed=idiom-offload 2>&1 | FileCheck %s --check-prefix=DEFAULT

void scale(double *restrict y, const double *restrict x, long n) {
  // DEFAULT: search-budget.c:[[@LINE+6]]:3: remark: offloaded map (map) to OpenCL as idiom_scale_0
  // DEFAULT-NOT: budget
  // TINY: search-budget.c:[[@LINE+4]]:3: remark: per-loop work budget exceeded: more than 5 atom calls of the constraint search (-idiom-loop-atom-calls); idiom gemm and those after it not tried to the end
  // TINY-NOT: offloaded
  // SMALL: search-budget.c:[[@LINE+2]]:3: remark: per-loop work budget exceeded: more than 25 atom calls of the constraint search (-idiom-loop-atom-calls); idiom map and those after it not tried to the end
  // SMALL-NOT: offloaded
  for (long i = 0; i < n; i++)
    y[i] = 2.0 * x[i];
}
