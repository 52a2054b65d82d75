// -fsave-optimization-record writes the plugin's remarks as YAML, with
// structured arguments besides the text: each offload (Kind, Idiom, Kernel,
// Site, InlinedCopies), each loop that is not an idiom (Idiom, the failing
// atom of the closest spec as Atom with its spec location AtomLoc, Reason)
// and each idiom not offloaded (Idiom, Reason, Stage).
// RUN: %clang-idiom -c %s -o /dev/null -fsave-optimization-record -foptimization-record-file=%t.yaml
// RUN: FileCheck %s < %t.yaml
// -foptimization-record-passes=idiom-offload keeps only ours: loop-idiom's
// memset remark (in the full record, the ALL run) is left out.
// RUN: %clang-idiom -c %s -o /dev/null -fsave-optimization-record -foptimization-record-file=%t.ours.yaml -foptimization-record-passes=idiom-offload
// RUN: FileCheck %s --check-prefix=OURS < %t.ours.yaml
// RUN: FileCheck %s --check-prefix=ALL < %t.yaml

// ALL: Pass: loop-idiom
// OURS-NOT: Pass: loop-idiom
// OURS: Pass: idiom-offload
// OURS-NOT: Pass: loop-idiom
void zero(int *a, int n) {
  for (int i = 0; i < n; i++)
    a[i] = 0;
}

// CHECK:      --- !Passed{{[[:space:]]+}}Pass: idiom-offload{{[[:space:]]+}}Name: Offloaded
// CHECK-NEXT: DebugLoc: { File: '{{.*}}records.c',{{[[:space:]]+}}Line: [[@LINE+19]],{{[[:space:]]+}}Column: 3 }
// CHECK-NEXT: Function: dot
// CHECK-NEXT: Args:
// CHECK-NEXT:   - String: 'offloaded '
// CHECK-NEXT:   - Kind: scalar reduction
// CHECK-NEXT:   - String: ' ('
// CHECK-NEXT:   - Idiom: scalar-reduction
// CHECK-NEXT:   - String: ') to OpenCL as '
// CHECK-NEXT:   - Kernel: idiom_dot_0
// CHECK-NEXT:   - String: ' with '
// CHECK-NEXT:   - Accumulators: '1'
// CHECK-NEXT:   - String: ' accumulator(s):'
// CHECK-NEXT:   - String: ' '
// CHECK-NEXT:   - Operator: fadd
// CHECK-NEXT:   - InlinedCopies: '1'
// CHECK-NEXT:   - Site: 'records.c:[[@LINE+4]]'
// CHECK-NEXT: ...
double dot(const double *x, const double *y, int n) {
  double s = 0;
  for (int i = 0; i < n; i++)
    s += x[i] * y[i];
  return s;
}

void opaque(long);

// CHECK:      --- !Missed{{[[:space:]]+}}Pass: idiom-offload{{[[:space:]]+}}Name: NotAnIdiom
// CHECK-NEXT: DebugLoc: { File: '{{.*}}records.c',{{[[:space:]]+}}Line: [[@LINE+14]],{{[[:space:]]+}}Column: 3 }
// CHECK-NEXT: Function: calls
// CHECK-NEXT: Args:
// CHECK-NEXT:   - String: 'loop is not an idiom (closest: '
// CHECK-NEXT:   - Idiom: scalar-reduction
// CHECK-NEXT:   - String: '): '
// CHECK-NEXT:   - AtomLoc: '<builtin>/scalar-reduction.idl:{{[0-9]+}}:{{[0-9]+}}'
// CHECK-NEXT:   - String: ': '
// CHECK-NEXT:   - Atom: 'PureCall(c)'
// CHECK-NEXT:   - String: ': '
// CHECK-NEXT:   - Reason: call may have side effects
// CHECK-NEXT:   - InlinedCopies: '1'
// CHECK-NEXT: ...
void calls(const long *a, int n) {
  for (int i = 0; i < n; i++)
    opaque(a[i]);
}

#define ACC8(X)                                                                \
  a0 += X;                                                                     \
  a1 ^= X;                                                                     \
  a2 |= X;                                                                     \
  a3 &= X;                                                                     \
  a4 = a4 > X ? a4 : X;                                                        \
  a5 = a5 < X ? a5 : X;                                                        \
  a6 += X * 3;                                                                 \
  a7 += X ^ 0x55;

// CHECK:      --- !Missed{{[[:space:]]+}}Pass: idiom-offload{{[[:space:]]+}}Name: NotOffloaded
// CHECK-NEXT: DebugLoc: { File: '{{.*}}records.c',{{[[:space:]]+}}Line: [[@LINE+13]],{{[[:space:]]+}}Column: 3 }
// CHECK-NEXT: Function: nine
// CHECK-NEXT: Args:
// CHECK-NEXT:   - String: 'idiom '
// CHECK-NEXT:   - Idiom: scalar-reduction
// CHECK-NEXT:   - String: ' not offloaded: '
// CHECK-NEXT:   - Reason: 'reduction with 9 accumulators is beyond the runtime{{.*}}limit of 8 (IDIOM_MAX_RESULTS)'
// CHECK-NEXT:   - InlinedCopies: '1'
// CHECK-NEXT:   - Stage: limits
// CHECK-NEXT: ...
long nine(const int *x, int n) {
  int a0 = 0, a1 = 0, a2 = 0, a3 = -1, a4 = -1000000, a5 = 1000000, a6 = 0, a7 = 0;
  long a8 = 0;
  for (int i = 0; i < n; i++) {
    ACC8(x[i])
    a8 += (long)x[i] * x[i];
  }
  return (long)a0 + a1 + a2 + a3 + a4 + a5 + a6 + a7 + a8;
}
