// One remark per source loop and outcome: the reduction of a static
// function inlined into three callers is offloaded three times and reported
// once, with the number of copies; a loop that no idiom matches, inlined
// twice, is one missed remark with 2 copies. Two distinct source loops stay
// two remarks (distinct), and so do two outcomes of one source loop (scale:
// a map in h1, a recurrence in h2, where it writes A[i+1] from A[i]).
// RUN: %clang-idiom -c %s -o /dev/null -Rpass=idiom-offload -Rpass-missed=idiom-offload 2>&1 | FileCheck %s --implicit-check-not=remark:
// The optimization record has the count as an argument, also for one copy.
// RUN: %clang-idiom -c %s -o /dev/null -fsave-optimization-record -foptimization-record-file=%t.yaml
// RUN: FileCheck %s --check-prefix=YAML < %t.yaml
// Without deferral (opt's function pass) each copy is its own remark.
// RUN: %clang -O2 -Xclang -disable-llvm-optzns -S -emit-llvm %s -o %t.ll
// RUN: %opt -passes='cgscc(inline),function(sroa,instcombine,loop-rotate,loop-simplify,lcssa,idiom-offload)' -pass-remarks=idiom-offload -disable-output %t.ll 2>&1 | FileCheck %s --check-prefix=OPT

static long total(const long *a, int n) {
  long s = 0;
  // CHECK: inlined-copies.c:[[@LINE+9]]:3: remark: offloaded scalar reduction (scalar-reduction) to OpenCL as idiom_f1_0 with 1 accumulator(s): add (3 inlined copies) [-Rpass=idiom-offload]
  // YAML:      --- !Passed{{[[:space:]]+}}Pass: idiom-offload{{[[:space:]]+}}Name: Offloaded
  // YAML-NEXT: DebugLoc: { File: '{{.*}}inlined-copies.c',{{[[:space:]]+}}Line: [[@LINE+7]],{{[[:space:]]+}}Column: 3 }
  // YAML-NEXT: Function: f1
  // YAML:        - Idiom: scalar-reduction
  // YAML:        - InlinedCopies: '3'
  // YAML-NEXT:   - String: ' inlined copies)'
  // OPT-COUNT-3: remark: {{.*}}offloaded scalar reduction (scalar-reduction) to OpenCL as idiom_f1_0 with 1 accumulator(s): add{{$}}
  // OPT-NOT: idiom_f1_0
  for (int i = 0; i < n; i++)
    s += a[i];
  return s;
}

long f1(const long *a, int n) { return total(a, n) + 1; }
long f2(const long *a, int n) { return total(a, n) * 2; }
long f3(const long *a, int n) { return total(a, n) - 3; }

void opaque(long);

static void each(const long *a, int n) {
  // CHECK: inlined-copies.c:[[@LINE+6]]:3: remark: loop is not an idiom (closest: scalar-reduction): {{.*}}: PureCall(c): call may have side effects (2 inlined copies) [-Rpass-missed=idiom-offload]
  // YAML:      --- !Missed{{[[:space:]]+}}Pass: idiom-offload{{[[:space:]]+}}Name: NotAnIdiom
  // YAML-NEXT: DebugLoc: { File: '{{.*}}inlined-copies.c',{{[[:space:]]+}}Line: [[@LINE+4]],{{[[:space:]]+}}Column: 3 }
  // YAML-NEXT: Function: g1
  // YAML:        - Atom: 'PureCall(c)'
  // YAML:        - InlinedCopies: '2'
  for (int i = 0; i < n; i++)
    opaque(a[i]);
}

void g1(const long *a, int n) { each(a, n); }
void g2(const long *a, int n) { each(a, n + 1); }

int distinct(const int *a, const int *b, int n) {
  int s = 0, t = 0;
  // CHECK: inlined-copies.c:[[@LINE+4]]:3: remark: offloaded scalar reduction (scalar-reduction) to OpenCL as {{idiom_distinct_[0-9]+}} with 1 accumulator(s): add [-Rpass=idiom-offload]
  // YAML:      --- !Passed{{[[:space:]]+}}Pass: idiom-offload{{[[:space:]]+}}Name: Offloaded
  // YAML-NEXT: DebugLoc: { File: '{{.*}}inlined-copies.c',{{[[:space:]]+}}Line: [[@LINE+2]],{{[[:space:]]+}}Column: 3 }
  // YAML:        - InlinedCopies: '1'
  for (int i = 0; i < n; i++)
    s += a[i];
  // CHECK: inlined-copies.c:[[@LINE+4]]:3: remark: offloaded scalar reduction (scalar-reduction) to OpenCL as {{idiom_distinct_[0-9]+}} with 1 accumulator(s): add [-Rpass=idiom-offload]
  // YAML:      --- !Passed{{[[:space:]]+}}Pass: idiom-offload{{[[:space:]]+}}Name: Offloaded
  // YAML-NEXT: DebugLoc: { File: '{{.*}}inlined-copies.c',{{[[:space:]]+}}Line: [[@LINE+2]],{{[[:space:]]+}}Column: 3 }
  // YAML:        - InlinedCopies: '1'
  for (int i = 0; i < n; i++)
    t += b[i];
  return s + t;
}

float A[1000], B[1000];

static void scale(float *o, const float *x, int n) {
  // CHECK: inlined-copies.c:[[@LINE+2]]:3: remark: offloaded map (map) to OpenCL as idiom_h1_{{[0-9]+}} [-Rpass=idiom-offload]
  // CHECK: inlined-copies.c:[[@LINE+1]]:3: remark: loop is not an idiom (closest: map): {{.*}}: NoLoopCarriedDependence(loop): {{.*}} [-Rpass-missed=idiom-offload]
  for (int i = 0; i < n; i++)
    o[i] = x[i] * 2.0f;
}

void h1(void) { scale(A, B, 1000); }
void h2(void) { scale(A + 1, A, 999); }
