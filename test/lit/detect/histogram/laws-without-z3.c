// Histogram update laws and translation validation without a Z3 context
// (constraints/include/idiom/Constraints/UpdateEvaluation.h,
// passes/TermEvaluation.h). An update `b op t` with t independent of b is
// decided by structural identity; an update whose free variables have at most
// 16 bits (an unsigned char bin and constants) by evaluating it at every
// point, with the answer Z3 gives: the saturating count is uadd.sat, the
// count that tests its bin the wrong way is refused with Z3's reason. A
// 32-bit saturating count is too wide to enumerate: Z3 decides it as before.
//
// RUN: %clang-idiom -fplugin=%plugin -mllvm -idiom-time-report -c %s -o /dev/null -Rpass=idiom-offload 2>&1 | FileCheck %s --check-prefix=SMALL
// RUN: %clang -O2 -fno-vectorize -fno-unroll-loops -S -emit-llvm %s -o %t.ll
// RUN: %opt -idiom-builtin-specs=false -idiom-spec=%srcroot/constraints/specs/histogram.idl -passes='loop-simplify,lcssa,print<idiom>' -disable-output %t.ll | FileCheck %s --check-prefix=MISS
// RUN: %clang-idiom -DWIDE -fplugin=%plugin -mllvm -idiom-time-report -c %s -o /dev/null -Rpass=idiom-offload 2>&1 | FileCheck %s --check-prefix=WIDE
// Corrupted lifts are still refused.
// RUN: %clang-idiom -fplugin=%plugin -mllvm -idiom-test-corrupt-lift -c %s -o /dev/null -Rpass=idiom-offload -Rpass-missed=idiom-offload 2>&1 | FileCheck %s --check-prefix=BAD

#ifndef WIDE
unsigned char sat[256];
// SMALL: laws-without-z3.c:[[@LINE+5]]:3: remark: offloaded histogram (histogram)
// BAD: laws-without-z3.c:[[@LINE+4]]:3: remark: idiom histogram not offloaded: translation validation failed: Z3 found inputs
// MISS-LABEL: Idioms in function 'saturating':
// MISS-NEXT: loop {{.*}}: idiom histogram (histogram)
void saturating(const unsigned char *v, int n) {
  for (int i = 0; i < n; i++)
    if (sat[v[i]] < 255)
      ++sat[v[i]];
}

int keys[1024];
// SMALL: laws-without-z3.c:[[@LINE+5]]:3: remark: offloaded histogram (histogram)
// BAD: laws-without-z3.c:[[@LINE+4]]:3: remark: idiom histogram not offloaded: translation validation failed: Z3 found inputs
// MISS-LABEL: Idioms in function 'key_count':
// MISS-NEXT: loop {{.*}}: idiom histogram (histogram)
void key_count(const int *k, int n) {
  for (int i = 0; i < n; i++)
    keys[k[i] & 1023]++;
}

// b != 0 ? b + 1 : b: a count that only grows bins already counted. Not
// b (+) g for any candidate operator.
unsigned char wrong[256];
// SMALL-NOT: laws-without-z3.c:[[@LINE+3]]:3: remark: offloaded
// MISS-LABEL: Idioms in function 'wrong_way':
// MISS-NEXT: loop {{.*}}: no idiom (closest: histogram): {{.*}}AssocCommUpdate(st, loop): update tests the value it updates, but is not a saturating add at the type's maximum nor a min/max: Z3 finds no associative, commutative (+) with update(b, x) = b (+) g(x) (tried add, uadd.sat, or, and, xor, mul, smax, smin, umax, umin)
void wrong_way(const unsigned char *v, int n) {
  for (int i = 0; i < n; i++)
    if (wrong[v[i]] != 0)
      ++wrong[v[i]];
}
#else
unsigned wide[256];
// WIDE: laws-without-z3.c:[[@LINE+2]]:3: remark: offloaded histogram (histogram)
void saturating_wide(const unsigned char *v, int n) {
  for (int i = 0; i < n; i++)
    if (wide[v[i]] < 0xffffffffu)
      ++wide[v[i]];
}
#endif

// SMALL: {{^ +2 +[0-9.]+  histogram update: exhaustive evaluation, no Z3$}}
// SMALL: {{^ +1 +[0-9.]+  histogram update: structural identity, no Z3$}}
// SMALL: {{^ +1 +[0-9.]+  translation validation: exhaustive evaluation, no Z3$}}
// SMALL: {{^ +1 +[0-9.]+  translation validation: identical terms, no Z3$}}
// SMALL-NOT: z3
// WIDE-NOT: histogram update:
// WIDE: {{^ +1 +[0-9.]+  translation validation: Z3$}}
// WIDE: z3 context creation
// WIDE: z3 histogram: total
