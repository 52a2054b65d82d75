// A fixed-order reduction (a floating-point sum: runtime/lib/tuning.c runs
// the one variant its marker names for the device type, never timing the
// others) has that variant built alone on a device whose builds go one
// variant per step (a GPU's; here PoCL under the slow-build knob
// IDIOM_TEST_SLOW_BUILD_MS, runtime/lib/program_cache.c), and no other:
// before, all of its variants were built, one per step, before its first
// run (a CG's checksum on the H200 began one more build from source in
// every process, which its exit waited for). Run 1 writes the profile;
// run 2, whose profile says the device wins (started at program start),
// builds the sum's variant alone ("(fixed order)", one build from source
// for its line), runs it (tuned=fixed) and prints what the sequential
// build prints (the sum's terms are small integers: exact in any order).
// (Whether the variant's binary on disk counts as a load, program_cache.c's
// idiomrt_program_first_on_disk, is not tested here: on PoCL the runtime
// saves binaries only of builds on the caller's thread, whole programs,
// which that function's first check answers.)
// A wall-clock policy test: not in the hardened suite (test/lit/lit.cfg.py).
// UNSUPPORTED: hardened
// RUN: %clang -O2 %s -o %t.seq
// RUN: %clang-idiom -g %s -lidiomrt -o %t.idiom
// RUN: %t.seq > %t.expected
// RUN: rm -rf %t.cache %t.prof
// RUN: env IDIOM_PROFILE=%t.prof IDIOM_CACHE_DIR=%t.cache IDIOM_TEST_SLOW_BUILD_MS=150 %t.idiom > %t.out1
// RUN: diff %t.expected %t.out1
// RUN: python3 %S/Inputs/profile_edit.py fast %t.prof
// RUN: python3 %S/Inputs/profile_edit.py worthy 60000 %t.prof
// RUN: python3 %S/Inputs/profile_edit.py wall 60000 100 %t.prof
// RUN: python3 %S/Inputs/profile_edit.py fruitless 0 0 %t.prof
// RUN: rm -rf %t.cache
// RUN: env IDIOM_PROFILE=%t.prof IDIOM_CACHE_DIR=%t.cache IDIOM_TEST_SLOW_BUILD_MS=150 IDIOM_DEBUG=1 IDIOM_STATS=1 %t.idiom > %t.out2 2> %t.err2
// RUN: diff %t.expected %t.out2
// RUN: FileCheck %s < %t.err2
// RUN: grep -c "fixed-order-alone.c:%(line+17): built program from source" %t.err2 | grep -qx 1
// RUN: not grep -q "fixed-order-alone.c:%(line+16): .* variants built one by one" %t.err2
// CHECK: fixed-order-alone.c:[[@LINE+15]]: variant {{[0-9]}} of {{[0-9]}} built alone on {{.*}} (fixed order)
// CHECK: idiom-stats: fixed-order-alone.c:[[@LINE+14]] scalar-reduction {{.*}}offloaded={{[1-9][0-9]*}} {{.*}}tuned=fixed
#include <stdio.h>

#define N (1 << 21)
#define REPS 800

static double x[N];

int main(void) {
  double total = 0.0;
  for (int r = 0; r < REPS; ++r) {
    for (int i = 0; i < N; ++i)
      x[i] = (double)((i + r) % 7);
    double s = 0.0;
    for (int i = 0; i < N; ++i)
      s += x[i];
    total += s;
  }
  printf("%.1f\n", total);
  return 0;
}
