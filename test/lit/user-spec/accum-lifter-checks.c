// A permissive user spec (Inputs/loose-accum.idl: any chain of two loops,
// `lifts accum`) cannot make an unsound offload: the match of an outer-loop
// accumulation (constraints/AccumulationFacts.h) re-derives the roles and
// refuses, with its reason, whatever is not Q[x] = F(Q[x], inputs) with
// inputs the nest does not write. A true accumulation is lifted.
// RUN: %clang -O2 -g -fno-vectorize -fno-unroll-loops -S -emit-llvm %s -o %t.ll
// RUN: %opt -idiom-builtin-specs=false -idiom-spec=%S/Inputs/loose-accum.idl -passes='loop-simplify,lcssa,print<idiom>' -disable-output %t.ll | FileCheck %s

// CHECK-LABEL: Idioms in function 'accumulates':
// CHECK-NEXT: idiom loose-accum (outer-loop accumulation)
// CHECK-NEXT: FunIL:
// CHECK-NOT: not offloaded
// CHECK: OpenCL:
void accumulates(int nk, int nx, const float *a, const float *b, float *q) {
  for (int k = 0; k < nk; k++)
    for (int x = 0; x < nx; x++)
      q[x] += a[k] * b[x];
}

// CHECK-LABEL: Idioms in function 'overwrites':
// CHECK-NEXT: no idiom (closest: loose-accum): matched but cannot be lifted with template 'accum': a store of the nest does not accumulate
void overwrites(int nk, int nx, const float *a, const float *b, float *q) {
  for (int k = 0; k < nk; k++)
    for (int x = 0; x < nx; x++)
      q[x] = a[k] * b[x];
}

// CHECK-LABEL: Idioms in function 'shifted':
// CHECK-NEXT: no idiom (closest: loose-accum): matched but cannot be lifted with template 'accum': the accumulator index depends on the outer loop k
void shifted(int nk, int nx, const float *a, const float *b, float *q) {
  for (int k = 0; k < nk; k++)
    for (int x = 0; x < nx; x++)
      q[x + k] += a[k] * b[x];
}

// CHECK-LABEL: Idioms in function 'reads_other':
// CHECK-NEXT: no idiom (closest: loose-accum): matched but cannot be lifted with template 'accum': the update reads the accumulator array at another element
void reads_other(int nk, int nx, const float *a, float *q) {
  for (int k = 0; k < nk; k++)
    for (int x = 0; x < nx; x++)
      q[x] += a[k] * q[nx - 1 - x];
}

// An input the nest writes (through the same pointer as an accumulator is
// the case above; through another store it is a second, non-accumulating
// store).
// CHECK-LABEL: Idioms in function 'writes_input':
// CHECK-NEXT: no idiom (closest: loose-accum): matched but cannot be lifted with template 'accum': a store of the nest is outside the inner loop
void writes_input(int nk, int nx, float *a, const float *b, float *q) {
  for (int k = 0; k < nk; k++) {
    for (int x = 0; x < nx; x++)
      q[x] += a[k] * b[x];
    a[k + 1] = a[k] * 0.5f;
  }
}

// CHECK-LABEL: Idioms in function 'triangular':
// CHECK-NEXT: no idiom (closest: loose-accum): matched but cannot be lifted with template 'accum': {{.*}}varies in the nest
void triangular(int nk, const float *a, const float *b, float *q) {
  for (int k = 0; k < nk; k++)
    for (int x = 0; x < k; x++)
      q[x] += a[k] * b[x];
}

// A store on some iterations only.
// CHECK-LABEL: Idioms in function 'guarded':
// CHECK-NEXT: no idiom (closest: loose-accum): matched but cannot be lifted with template 'accum':
void guarded(int nk, int nx, const float *a, const float *b, float *q) {
  for (int k = 0; k < nk; k++)
    for (int x = 0; x < nx; x++)
      if (b[x] > 0)
        q[x] += a[k] * b[x];
}

// A call with side effects the update does not use.
// CHECK-LABEL: Idioms in function 'prints':
// CHECK-NEXT: no idiom (closest: loose-accum): matched but cannot be lifted with template 'accum': the nest calls a function that may have side effects other than errno
int printf(const char *, ...);
void prints(int nk, int nx, const float *a, const float *b, float *q) {
  for (int k = 0; k < nk; k++)
    for (int x = 0; x < nx; x++) {
      q[x] += a[k] * b[x];
      printf("%d\n", x);
    }
}

// A scalar sum carried beside the accumulation and used after the nest.
// CHECK-LABEL: Idioms in function 'also_sums':
// CHECK-NEXT: no idiom (closest: loose-accum): matched but cannot be lifted with template 'accum': {{the nest carries a value other than counters|a value computed in the nest is used after it}}
float also_sums(int nk, int nx, const float *a, const float *b, float *q) {
  float s = 0;
  for (int k = 0; k < nk; k++)
    for (int x = 0; x < nx; x++) {
      q[x] += a[k] * b[x];
      s += b[x];
    }
  return s;
}
