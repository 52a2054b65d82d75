// 1-D maps whose store's stride is symbolic (a row-major matrix m[i*nc + j]
// walked along its diagonal or a column): the store paired with itself, or
// with the load of a read-modify-write `m[x] *= f`, has one offset and one
// stride s. Two iterations meet iff s == 0 and the loop runs twice, a linear
// question (Z3Checks.cpp, sameAddressOneLoop); the product form
// s*k == s*k' took Z3 2 s (its time-out) in GSL's poly/zsolve.c. A stride
// that may be zero is a dependence (negatives).
//
// RUN: %clang -O2 -g -fno-vectorize -fno-unroll-loops -S -emit-llvm %s -o %t.ll
// RUN: %opt -idiom-builtin-specs=false -idiom-spec=%srcroot/constraints/specs/map.idl -passes='loop-simplify,lcssa,print<idiom>' -disable-output %t.ll | FileCheck %s
// RUN: %clang-idiom -fplugin=%plugin -mllvm -idiom-time-report -DONLY_POSITIVE -c %s -o /dev/null 2>&1 | FileCheck %s --check-prefix=TIME

#include <stddef.h>
#define MAT(m, i, j, nc) m[(i) * (nc) + (j)]

// CHECK-LABEL: Idioms in function 'subdiagonal'
// CHECK: idiom map
void subdiagonal(double *m, size_t nc) {
  for (size_t i = 1; i < nc; i++)
    MAT(m, i, i - 1, nc) = 1.0;
}

// CHECK-LABEL: Idioms in function 'last_column'
// CHECK: idiom map
void last_column(const double *a, double *m, size_t nc) {
  for (size_t i = 0; i < nc; i++)
    MAT(m, i, nc - 1, nc) = -a[i] / a[nc];
}

// CHECK-LABEL: Idioms in function 'scale_column'
// CHECK: idiom map
void scale_column(double *m, size_t nc, size_t i, double f) {
  for (size_t j = 0; j < nc; j++)
    MAT(m, j, i, nc) *= f;
}

#ifndef ONLY_POSITIVE
// The stride s may be 0: every iteration then stores to m[0].
// CHECK-LABEL: Idioms in function 'stride_may_be_zero'
// CHECK-NOT: idiom map
// CHECK: no idiom (closest: map){{.*}}loop-carried dependence
void stride_may_be_zero(double *m, const double *x, long s, long n) {
  for (long i = 0; i < n; i++)
    m[i * s] = x[i];
}

// The same with a read-modify-write: with s == 0 each iteration reads the
// previous one's value.
// CHECK-LABEL: Idioms in function 'scale_stride_may_be_zero'
// CHECK-NOT: idiom map
// CHECK: no idiom (closest: map){{.*}}loop-carried dependence
void scale_stride_may_be_zero(double *m, long s, long n, double f) {
  for (long i = 0; i < n; i++)
    m[i * s] *= f;
}
#endif

// Each positive is decided by the linear query, none by the product form.
// TIME-NOT: z3 dependence: solver
// TIME: z3 dependence: same address
// TIME-NOT: z3 dependence: solver
