// The wall-clock limit of a Z3 query (-idiom-z3-timeout) is enforced by the
// plugin's own watchdog thread (Z3Budget.cpp), which interrupts the query's
// solver, not by Z3's "timeout" parameter: Debian 12's Z3 4.8.12 runs that
// on a pool of timer threads that can deadlock, which hung a compile of
// GSL's fft/fft.c forever. With the resource limit off, a 5 ms limit stops
// the slow queries of a bit-vector hash update, the remark names it, and
// the compile ends (the bound is generous); the same with a limit long
// enough for the queries to end on their own (no remark about time).
// RUN: timeout 60 %clang-idiom -fplugin=%plugin -mllvm -idiom-z3-rlimit=0 -mllvm -idiom-z3-timeout=5 -c %s -o /dev/null -Rpass-missed=idiom-offload 2>&1 | FileCheck %s
// RUN: timeout 120 %clang-idiom -fplugin=%plugin -mllvm -idiom-z3-rlimit=0 -mllvm -idiom-z3-timeout=600000 -mllvm -idiom-loop-z3-queries=3 -c %s -o /dev/null -Rpass-missed=idiom-offload 2>&1 | FileCheck %s --check-prefix=LONG

void hash_buckets(unsigned *bins, const unsigned *keys, const unsigned *w,
                  int n, unsigned p) {
  // CHECK: z3-timeout-watchdog.c:[[@LINE+2]]:3: remark: {{.*}}timeout of 5 ms reached (-idiom-z3-timeout)
  // LONG-NOT: timeout of
  for (int i = 0; i < n; i++) {
    unsigned b = keys[i] & 1023;
    unsigned h = bins[b];
    bins[b] = (h * w[i]) % p + (h | w[i]);
  }
}
