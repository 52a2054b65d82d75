// Host accesses to globals of internal linkage whose address is never taken
// (passes/UnescapedGlobals.h) need no routing in a residency region whose
// idiom buffers the plugin cannot identify (pointer arguments, pointers
// loaded from globals, as NAS MG's u and r): no pointer can point into such
// a global. Positives: a loop that reads a coefficient and writes a
// counter in internal arrays, and one whose buffers are loaded from internal
// globals, are regions with no host access routed. Negatives, each a host
// read of an element that the loop's map writes through a pointer to the
// same global: an address-taken global (in an initializer), an external
// global (whose address another translation unit takes), a global passed
// to a call, a global whose address is stored through a pointer: each read
// is routed through the runtime (idiom_region_load). Then on PoCL against
// the sequential build: the same output (a read treated as disjoint would
// print the host's stale element).
// RUN: %clang-idiom -fno-discard-value-names -S -emit-llvm -Rpass=idiom-offload -Rpass-missed=idiom-offload %s -o %t.ll 2> %t.remarks
// RUN: FileCheck %s < %t.ll
// RUN: FileCheck %s --check-prefix=REMARK < %t.remarks
// RUN: %clang -O2 %s %S/Inputs/unescaped-other-tu.c -o %t.seq
// RUN: %clang-idiom %s %S/Inputs/unescaped-other-tu.c -lidiomrt -o %t.idiom
// RUN: %t.seq > %t.expected
// RUN: env IDIOM_ZERO_COPY=off IDIOM_DEVICE=cpu IDIOM_COST=off IDIOM_STATS=1 %t.idiom > %t.out 2> %t.stats
// RUN: diff %t.expected %t.out
// RUN: FileCheck %s --check-prefix=STATS < %t.stats
// STATS: idiom-stats: residency regions=6 {{.*}}host_loads=20 host_stores=0
// RUN: env IDIOM_DEVICE=seq %t.idiom > %t.out2
// RUN: diff %t.expected %t.out2
#include <stdio.h>

#define N 65536
#define M 64
#define STEPS 5

// Internal, never address-taken: the host reads and writes them freely.
static float coef[M];
static int seen[M];
static float got[M];

// CHECK-LABEL: define {{.*}} @positive(
// CHECK: call void @idiom_region_begin()
// CHECK-NOT: idiom_region_load
// CHECK-NOT: idiom_region_store
// CHECK: {{^}}}
__attribute__((noinline)) void positive(float *a, const float *b, int steps) {
  // REMARK-DAG: unescaped-globals.c:[[@LINE+1]]:3: remark: residency region: the buffers of 1 offloaded idiom(s) stay on the device across the loop's iterations (copied back at its exits) [-Rpass=idiom-offload]
  for (int t = 0; t < steps; t++) {
    float c = coef[t % M];
    for (int i = 0; i < N; i++)
      a[i] = c * a[i] + b[i];
    seen[t % M] = t;
  }
}

// Buffers that are pointers loaded from internal globals.
static float *gx, *gy;
// CHECK-LABEL: define {{.*}} @from_globals(
// CHECK: call void @idiom_region_begin()
// CHECK-NOT: idiom_region_load
// CHECK-NOT: idiom_region_store
// CHECK: {{^}}}
__attribute__((noinline)) void from_globals(int steps) {
  // REMARK-DAG: unescaped-globals.c:[[@LINE+1]]:3: remark: residency region: the buffers of 1 offloaded idiom(s) stay on the device across the loop's iterations (copied back at its exits) [-Rpass=idiom-offload]
  for (int t = 0; t < steps; t++) {
    float *y = gy;
    const float *x = gx;
    for (int i = 0; i < N; i++)
      y[i] = 0.5f * y[i] + x[i];
    seen[t % M] += 1;
  }
}

// The loop of each negative: a map through `a`, then a host read of
// element t of a global that `a` points to.
#define NEGATIVE(NAME, G)                                                      \
  __attribute__((noinline)) void NAME(float *a, const float *b, int steps) {  \
    for (int t = 0; t < steps; t++) {                                          \
      for (int i = 0; i < N; i++)                                              \
        a[i] = 0.5f * a[i] + b[i];                                             \
      got[t] += G[t];                                                          \
    }                                                                          \
  }

// Address taken in an initializer.
static float taken[N];
float *taken_ptr = taken;
// CHECK-LABEL: define {{.*}} @neg_taken(
// CHECK: call void @idiom_region_load(
// CHECK: {{^}}}
// REMARK-DAG: unescaped-globals.c:[[@LINE+1]]:1: remark: residency region: the buffers of 1 offloaded idiom(s) stay on the device across the loop's iterations (copied back at its exits); 1 host load(s)/store(s) of their buffers routed through the runtime
NEGATIVE(neg_taken, taken)

// External: another translation unit takes its address.
float ext[N];
float *ext_from_other_tu(void);
// CHECK-LABEL: define {{.*}} @neg_external(
// CHECK: call void @idiom_region_load(
// CHECK: {{^}}}
// REMARK-DAG: unescaped-globals.c:[[@LINE+1]]:1: remark: residency region: {{.*}}; 1 host load(s)/store(s) of their buffers routed through the runtime
NEGATIVE(neg_external, ext)

// Passed to a call (main passes it as `a`).
static float passed[N];
// CHECK-LABEL: define {{.*}} @neg_passed(
// CHECK: call void @idiom_region_load(
// CHECK: {{^}}}
// REMARK-DAG: unescaped-globals.c:[[@LINE+1]]:1: remark: residency region: {{.*}}; 1 host load(s)/store(s) of their buffers routed through the runtime
NEGATIVE(neg_passed, passed)

// Its address stored through a pointer.
static float stored[N];
__attribute__((noinline)) void publish(float **slot) { *slot = stored; }
// CHECK-LABEL: define {{.*}} @neg_stored(
// CHECK: call void @idiom_region_load(
// CHECK: {{^}}}
// REMARK-DAG: unescaped-globals.c:[[@LINE+1]]:1: remark: residency region: {{.*}}; 1 host load(s)/store(s) of their buffers routed through the runtime
NEGATIVE(neg_stored, stored)

static float b[N], c[N];

static double sum(const float *p) {
  double s = 0;
  for (int i = 0; i < N; i++)
    s += p[i] * (double)(1 + i % 5);
  return s;
}

int main(void) {
  static float y[N];
  for (int i = 0; i < N; i++) {
    b[i] = (float)(i % 100) * 0.25f;
    c[i] = 1.0f + (float)(i % 7);
  }
  for (int k = 0; k < M; k++)
    coef[k] = 0.5f + (float)k / 128.0f;
  positive(c, b, STEPS);
  gx = b;
  gy = y;
  from_globals(STEPS);
  neg_taken(taken_ptr, b, STEPS);
  neg_external(ext_from_other_tu(), b, STEPS);
  neg_passed(passed, b, STEPS);
  float *p;
  publish(&p);
  neg_stored(p, b, STEPS);
  printf("c %.9e y %.9e\n", sum(c), sum(y));
  printf("taken %.9e ext %.9e passed %.9e stored %.9e\n", sum(taken),
         sum(ext), sum(passed), sum(stored));
  for (int k = 0; k < STEPS; k++)
    printf("seen %d got %.9e\n", seen[k], (double)got[k]);
  return 0;
}
