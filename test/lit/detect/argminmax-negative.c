// argmin/argmax near misses: the index must be taken exactly when the
// min/max takes its element, and must grow with the iteration; each is
// reported with the failing condition and not offloaded.
// RUN: %clang-idiom -O2 -g -c %s -o /dev/null -Rpass=idiom-offload -Rpass-missed=idiom-offload 2>&1 | FileCheck %s --implicit-check-not="remark: offloaded"

// The index follows another condition than the minimum.
// CHECK: argminmax-negative.c:[[@LINE+4]]:3: remark: {{.*}}PLACEHOLDER1
int other_condition(const int *a, int n) {
  int best = a[0], k = 0;
  for (int i = 1; i < n; i++) {
    if (a[i] < best)
      best = a[i];
    if (a[i] > 100)
      k = i;
  }
  return k + best;
}
