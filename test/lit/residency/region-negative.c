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

// A host store to an element of an idiom's buffer.
void host_store(float a) {
  // MISSED: region-negative.c:[[@LINE+1]]:3: remark: no residency region: the loop stores to an idiom's buffer (y) outside the idiom
  for (int t = 0; t < 100; t++) {
    for (int i = 0; i < N; i++)
      y[i] = a * x[i] + y[i];
    y[t] = 0;
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

// A printf of an element: the load is seen first.
void print_element(float a) {
  // MISSED: region-negative.c:[[@LINE+1]]:3: remark: no residency region: the loop {{loads from an idiom's buffer \(y\) outside the idiom|calls printf}}
  for (int t = 0; t < 100; t++) {
    for (int i = 0; i < N; i++)
      y[i] = a * x[i] + y[i];
    printf("%f\n", y[t]);
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

// Through a pointer the plugin cannot tell apart from the buffer.
void through_pointer(float *p, float *q, float a) {
  // MISSED: region-negative.c:[[@LINE+1]]:3: remark: no residency region: the loop stores to memory through a pointer that may point into an idiom's buffer
  for (int t = 0; t < 100; t++) {
    for (int i = 0; i < N; i++)
      p[i] = a * p[i];
    q[t] = 1;
  }
}

// A CSR SpMV reads its row pointers on the host (idiom_run_csr): they are
// one of its buffers, so a host store to them refuses the region, as does
// a host store to the column indices.
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
