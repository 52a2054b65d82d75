// Loops that are not residency regions: the body touches an idiom's buffer
// outside the idiom, or calls code the plugin cannot see. No region call is
// placed there, and a missed remark says why.
// RUN: %clang-idiom -fno-discard-value-names -S -emit-llvm -Rpass-missed=idiom-offload %s -o %t.ll 2> %t.remarks
// RUN: FileCheck %s < %t.ll
// RUN: FileCheck %s --check-prefix=MISSED < %t.remarks
#include <setjmp.h>
#include <stdio.h>

#define N 100000
float x[N], y[N];
void opaque(void);
jmp_buf env;

// CHECK-NOT: idiom_region_begin
// CHECK-NOT: idiom_region_end

// A host loop over an idiom's buffer whose trip count depends on the data:
// no range for idiom_region_load/store (RegionHostAccess.h). (A single
// host load or store, or a host loop with a computable range, is routed:
// region-host-access.c.)
void host_loop_unknown_range(float a) {
  // MISSED: region-negative.c:[[@LINE+1]]:3: remark: no residency region: the loop stores to an idiom's buffer (y) outside the idiom, in an inner loop whose address range scalar evolution cannot compute
  for (int t = 0; t < 100; t++) {
    for (int i = 0; i < N; i++)
      y[i] = a * x[i] + y[i];
    for (int i = 0; y[i] > 1.0f; i++)
      y[i] = 0;
  }
}

// A nest of host loops over an idiom's buffer: ranges are routed one loop
// deep (a bounded number of runtime calls per iteration of the region's
// loop; the inner loop's range would be routed once per outer iteration).
void host_nest(float a, int m) {
  // MISSED: region-negative.c:[[@LINE+1]]:3: remark: no residency region: the loop {{loads from|stores to}} an idiom's buffer (y) outside the idiom, in a nest of host loops (ranges are routed one loop deep)
  for (int t = 0; t < 100; t++) {
    for (int i = 0; i < N; i++)
      y[i] = a * x[i] + y[i];
    for (int s = 0; s < m; s++)
      for (int i = 0; i < s; i++)
        y[i + 1] += y[i];
  }
}

// The buffer's address escapes to code the plugin cannot see.
void keep(float *p);
void escaping_pointer(float a) {
  // MISSED: region-negative.c:[[@LINE+1]]:3: remark: no residency region: the loop calls keep, which may access an idiom's buffer
  for (int t = 0; t < 100; t++) {
    for (int i = 0; i < N; i++)
      y[i] = a * x[i] + y[i];
    keep(y + t);
  }
}

// A call the plugin cannot see.
void opaque_call(float a) {
  // MISSED: region-negative.c:[[@LINE+1]]:3: remark: no residency region: the loop calls opaque, which may access an idiom's buffer
  for (int t = 0; t < 100; t++) {
    for (int i = 0; i < N; i++)
      y[i] = a * x[i] + y[i];
    opaque();
  }
}

// An exit that is not a branch (a computed goto out of the loop).
void computed_goto(float a, int k) {
  static void *const targets[] = {&&out, &&next};
  // MISSED: region-negative.c:[[@LINE+1]]:3: remark: no residency region: {{.*}}
  for (int t = 0; t < 100; t++) {
    for (int i = 0; i < N; i++)
      y[i] = a * x[i] + y[i];
    goto *targets[t == k ? 0 : 1];
  next:;
  }
out:;
}

// An idiom in a function of another translation unit.
void other_tu_idiom(float *v, int n);
void other_tu(float a) {
  // MISSED: region-negative.c:[[@LINE+1]]:3: remark: no residency region: the loop calls other_tu_idiom
  for (int t = 0; t < 100; t++) {
    for (int i = 0; i < N; i++)
      y[i] = a * x[i] + y[i];
    other_tu_idiom(x, N);
  }
}

// A CSR SpMV reads its row pointers on the host (idiom_run_csr): they are
// one of its buffers and memoises that check for the region (csr.c), so a
// host store to them refuses the region, as does a host store to the column
// indices (its loads are routed as elsewhere).
int rp[N + 1], ci[N];
double va[N], xv[N], yv[N];
void csr_host_store_ptr(int it) {
  // MISSED: region-negative.c:[[@LINE+1]]:3: remark: no residency region: the loop stores to an idiom's buffer (rp) outside the idiom
  for (int t = 0; t < it; t++) {
    for (int i = 0; i < N; i++) {
      double s = 0.0;
      for (int k = rp[i]; k < rp[i + 1]; k++)
        s += va[k] * xv[ci[k]];
      yv[i] = s;
    }
    rp[N] = rp[N] - (t & 1);
  }
}

void csr_host_store_col(int it) {
  // MISSED: region-negative.c:[[@LINE+1]]:3: remark: no residency region: the loop stores to an idiom's buffer (ci) outside the idiom
  for (int t = 0; t < it; t++) {
    for (int i = 0; i < N; i++) {
      double s = 0.0;
      for (int k = rp[i]; k < rp[i + 1]; k++)
        s += va[k] * xv[ci[k]];
      yv[i] = s;
    }
    ci[t] = t;
  }
}
