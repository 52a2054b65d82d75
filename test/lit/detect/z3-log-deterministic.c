// Two compiles of one input ask Z3 the same queries, term for term
// (-idiom-z3-log, Z3Budget.h). Z3 numbers its terms in creation order and
// its search follows the numbers, so a term built or released in address
// order (a pointer-keyed map of Z3 terms) changed how much work a query
// took from one compile to the next: NAS MG's ghost-plane copy (mg.c:79)
// was left on the host about once in ten compiles, its query stopped by
// the resource limit. The logs of two compiles are compared byte for byte.
// Before: two compiles of mg.c (417 queries, most of them grid
// dependences) differed in 361 queries, and one of three compiles of
// gridding.c (histogram and bisection queries) differed from the others.
// mg.c's compiles run with a tenth of the default resource limit, which
// changes how far each query goes but not how it is built (402 queries in
// 3 s instead of 417 in 37 s), and without the CPU-time limit, which load
// could reach.
// RUN: rm -f %t.mg1 %t.mg2 %t.gr1 %t.gr2
// RUN: %clang-idiom -fplugin=%plugin -c %srcroot/nas-parboil/mg.c -o /dev/null -mllvm -idiom-z3-timeout=600000 -mllvm -idiom-z3-rlimit=100000 -mllvm -idiom-z3-log=%t.mg1
// RUN: %clang-idiom -fplugin=%plugin -c %srcroot/nas-parboil/mg.c -o /dev/null -mllvm -idiom-z3-timeout=600000 -mllvm -idiom-z3-rlimit=100000 -mllvm -idiom-z3-log=%t.mg2
// RUN: cmp %t.mg1 %t.mg2
// RUN: %clang-idiom -fplugin=%plugin -c %srcroot/nas-parboil/gridding.c -o /dev/null -mllvm -idiom-z3-log=%t.gr1
// RUN: %clang-idiom -fplugin=%plugin -c %srcroot/nas-parboil/gridding.c -o /dev/null -mllvm -idiom-z3-log=%t.gr2
// RUN: cmp %t.gr1 %t.gr2
// RUN: FileCheck %s < %t.gr1
// The log: one comment line per query, then the query as SMT-LIB 2.
// CHECK: ; idiom z3 query 0: {{sat|unsat}}, {{[0-9]+}} resource units
// CHECK: (check-sat)
// CHECK: ; idiom z3 query 1: {{sat|unsat|unknown}},
