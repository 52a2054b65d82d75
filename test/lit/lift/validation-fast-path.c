// Translation validation without a Z3 context (passes/ValidationTerms.h):
// when both sides translate to the same hash-consed term, equality holds
// without a solver; when they differ but their leaves have at most 16 bits,
// evaluation at every point decides (passes/TermEvaluation.h); any other
// pair still goes to Z3, which proves an equal one and refuses an unequal
// one. -idiom-time-report counts the paths.
//
// The map's lift is the loop's own expression: identical terms, and no Z3
// context is made in the whole compile.
// RUN: %clang-idiom -DMAP_ONLY -ffp-contract=off -fplugin=%plugin -mllvm -idiom-time-report -c %s -o /dev/null -Rpass=idiom-offload 2>&1 | FileCheck %s --check-prefix=MAP
// The saturating histogram's update, select(icmp_ult(add(a, b), a), -1, add(a, b))
// against the loop's guarded increment, is equal but not identical: over an
// 8-bit bin, evaluation proves it and no Z3 context is made.
// RUN: %clang-idiom -ffp-contract=off -fplugin=%plugin -mllvm -idiom-time-report -c %s -o /dev/null -Rpass=idiom-offload 2>&1 | FileCheck %s --check-prefix=BOTH
// Unequal pairs (the lift corrupted: first add -> sub) are not identical and
// Z3 refuses both.
// (A generous wall-clock timeout, as in validation.c: on a loaded machine the
// float refutation can take more than the default 2 s of wall time.)
// RUN: %clang-idiom -ffp-contract=off -fplugin=%plugin -mllvm -idiom-test-corrupt-lift -mllvm -idiom-z3-timeout=600000 -mllvm -idiom-time-report -c %s -o /dev/null -Rpass=idiom-offload -Rpass-missed=idiom-offload 2>&1 | FileCheck %s --check-prefix=BAD

// MAP: validation-fast-path.c:[[@LINE+6]]:3: remark: offloaded map
// BOTH: validation-fast-path.c:[[@LINE+5]]:3: remark: offloaded map
// BAD: validation-fast-path.c:[[@LINE+4]]:3: remark: idiom map not offloaded: translation validation failed: Z3 found inputs on which the lifted FunIL and the LLVM slice differ
void axpy(float *y, const float *x, float a, int n) {
  // The loop starts at 1: the induction variable is 1 + 1 * k, the lifted
  // index k + 1 (add's operands commute, a canonicalisation).
  for (int i = 1; i < n; i++)
    y[i] = a * x[i - 1] + y[i];
}

#ifndef MAP_ONLY
unsigned char sat[256];
// BOTH: validation-fast-path.c:[[@LINE+3]]:3: remark: offloaded histogram (histogram)
// BAD: validation-fast-path.c:[[@LINE+2]]:3: remark: idiom histogram not offloaded: translation validation failed: Z3 found inputs on which the lifted FunIL and the LLVM slice differ
void saturating(const unsigned char *v, int n) {
  for (int i = 0; i < n; i++)
    if (sat[v[i]] < 255)
      ++sat[v[i]];
}
#endif

// MAP-NOT: translation validation: Z3
// MAP: {{^ +1 +[0-9.]+  translation validation: identical terms, no Z3$}}
// MAP-NOT: translation validation: Z3
// MAP-NOT: z3 context creation
// BOTH-NOT: translation validation: Z3
// BOTH: {{^ +1 +[0-9.]+  translation validation: exhaustive evaluation, no Z3$}}
// BOTH: {{^ +1 +[0-9.]+  translation validation: identical terms, no Z3$}}
// BOTH-NOT: translation validation: Z3
// BOTH-NOT: z3 context creation
// BAD: {{^ +2 +[0-9.]+  translation validation: Z3$}}
// BAD-NOT: identical terms
