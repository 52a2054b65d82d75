// Residency regions across calls (passes/RegionSummaries.h), in the IR and
// the remarks: a loop that calls functions of the module whose summaries
// show that they only run idioms, and library functions that touch only
// their arguments (printf, fprintf to stderr, puts of a constant,
// clock_gettime, sqrt, which may set errno, the runtime's queries), is a
// region; the callee's fallback starts with idiom_region_sync_args (its
// loop touches only its arguments' ranges: docs/ARCHITECTURE.md). The
// negatives form no region and say why. Calls in callees are followed
// through their summaries.
// RUN: %clang-idiom -fno-discard-value-names -S -emit-llvm -Rpass=idiom-offload -Rpass-missed=idiom-offload -I%S/../../../runtime/include %s -o %t.ll 2> %t.remarks
// RUN: FileCheck %s < %t.ll
// RUN: FileCheck %s --check-prefix=REMARK < %t.remarks
// RUN: FileCheck %s --check-prefix=GONE < %t.ll
// The summaries and the pending placeholders do not outlive the run.
// GONE-NOT: idiom.summary
// GONE-NOT: idiom.opaque
// GONE-NOT: idiom.region.pending
// RUN: %clang-idiom -fplugin=%plugin -fno-discard-value-names -S -emit-llvm -mllvm -idiom-residency=false -I%S/../../../runtime/include %s -o - | FileCheck %s --check-prefix=OFF
#include "idiomrt.h"
#include <math.h>
#include <stdio.h>
#include <time.h>

#define N 100000
float x[N], y[N];
char text[N];
int counter;

// CHECK-LABEL: define {{.*}} @axpy(
// CHECK-SAME: !idiom.region.callee
// CHECK: call void @idiom_region_sync_args(ptr {{.*}}@idiom_axpy_{{[0-9]+}}.desc, ptr {{.*}}, i32 4)
// OFF-NOT: idiom_region_
__attribute__((noinline)) void axpy(float *y, const float *x, float a, int n) {
  for (int i = 0; i < n; i++)
    y[i] = a * x[i] + y[i];
}

// A helper without memory accesses is summarised too.
__attribute__((noinline)) float half(float v) { return v * 0.5f; }

// A caller placed before its callee (a pending region, decided at
// OptimizerLast) whose callee also writes its buffer on the host: the
// placeholders are removed.
__attribute__((noinline)) void late_poke(float *y, const float *x, int t);
// CHECK-LABEL: define {{.*}} @pending_refused(
// CHECK-NOT: idiom_region_begin
// CHECK: {{^}}}
void pending_refused(int steps) {
  // REMARK-DAG: region-calls.c:[[@LINE+1]]:3: remark: no residency region: the loop or a function it calls stores to an idiom's buffer (y) outside the idiom
  for (int t = 0; t < steps; t++)
    late_poke(y, x, t);
}
__attribute__((noinline)) void late_poke(float *y, const float *x, int t) {
  for (int i = 0; i < N; i++)
    y[i] = x[i] + y[i];
  y[t] = 0;
}

// CHECK-LABEL: define {{.*}} @positive(
// CHECK: call void @idiom_region_begin()
// CHECK-DAG: call {{.*}}@sqrt(
// CHECK-DAG: call void @idiom_region_end()
// CHECK: {{^}}}
void positive(float a, int steps) {
  struct timespec ts;
  // REMARK-DAG: region-calls.c:[[@LINE+1]]:3: remark: residency region: the buffers of 0 offloaded idiom(s) and of 1 call(s) stay on the device
  for (int t = 0; t < steps; t++) {
    clock_gettime(CLOCK_MONOTONIC, &ts);
    axpy(y, x, half(a), N);
    const char *why = idiom_last_reason();
    printf("%d %ld %.3f %s %f\n", t, (long)ts.tv_nsec, idiom_last_kernel_ms(),
           why ? why : "", sqrt(t - 3.0));
    fprintf(stderr, "variant %d\n", idiom_last_variant());
    puts("done");
    counter++;
  }
}

// A host store to the callee's buffer in the caller's loop.
// CHECK-LABEL: define {{.*}} @host_store(
// CHECK-NOT: idiom_region_begin
// CHECK: {{^}}}
void host_store(float a, int steps) {
  // REMARK-DAG: region-calls.c:[[@LINE+1]]:3: remark: no residency region: the loop or a function it calls stores to an idiom's buffer (y) outside the idiom
  for (int t = 0; t < steps; t++) {
    axpy(y, x, a, N);
    y[t] = 1;
  }
}

// A library call that reads a buffer: puts of a string a kernel writes.
__attribute__((noinline)) void flip(char *s, int n) {
  for (int i = 0; i < n; i++)
    s[i] = s[i] ^ 1;
}
// CHECK-LABEL: define {{.*}} @puts_buffer(
// CHECK-NOT: idiom_region_begin
// CHECK: {{^}}}
void puts_buffer(int steps) {
  // REMARK-DAG: region-calls.c:[[@LINE+1]]:3: remark: no residency region: the loop or a function it calls loads from an idiom's buffer (text) outside the idiom
  for (int t = 0; t < steps; t++) {
    flip(text, N);
    puts(text);
  }
}

// A callee that may be replaced at link time.
__attribute__((noinline, weak)) void weak_axpy(float *y, const float *x,
                                               float a, int n) {
  for (int i = 0; i < n; i++)
    y[i] = a * x[i] + y[i];
}
// CHECK-LABEL: define {{.*}} @weak_callee(
// CHECK-NOT: idiom_region_begin
// CHECK: {{^}}}
void weak_callee(float a, int steps) {
  // REMARK-DAG: region-calls.c:[[@LINE+1]]:3: remark: no residency region: the loop calls weak_axpy, which may access an idiom's buffer
  for (int t = 0; t < steps; t++) {
    axpy(y, x, a, N);
    weak_axpy(y, x, a, N);
  }
}

// A callee whose idiom works on its own stack array: the device copy would
// outlive the frame.
__attribute__((noinline)) float local_array(const float *x, int n) {
  float tmp[4096];
  for (int i = 0; i < 4096; i++)
    tmp[i] = x[i] * 2.0f;
  float s = 0;
  for (int i = 0; i < 4096; i += 512)
    s += tmp[i];
  return s;
}
// CHECK-LABEL: define {{.*}} @local_callee(
// CHECK-NOT: idiom_region_begin
// CHECK: {{^}}}
float local_callee(float a, int steps) {
  float s = 0;
  // REMARK-DAG: region-calls.c:[[@LINE+1]]:3: remark: no residency region: the loop calls local_array, which runs an idiom on a local array
  for (int t = 0; t < steps; t++) {
    axpy(y, x, a, N);
    s += local_array(x, N);
  }
  return s;
}

// A callee that calls another function of the module: followed through the
// summaries.
__attribute__((noinline)) void two_level(float *y, const float *x, float a) {
  axpy(y, x, a, N);
}
// CHECK-LABEL: define {{.*}} @nested_callee(
// CHECK: call void @idiom_region_begin()
// CHECK: {{^}}}
void nested_callee(float a, int steps) {
  // REMARK-DAG: region-calls.c:[[@LINE+1]]:3: remark: residency region: the buffers of 0 offloaded idiom(s) and of 2 call(s) stay on the device
  for (int t = 0; t < steps; t++) {
    axpy(y, x, a, N);
    two_level(y, x, a);
  }
}

// Two levels down, a host write of the buffer.
__attribute__((noinline)) void poke_level(float *v, int t) {
  axpy(v, x, 2.0f, N);
  v[t] = 0;
}
__attribute__((noinline)) void via_level(float *v, int t) { poke_level(v, t); }
// CHECK-LABEL: define {{.*}} @nested_poke(
// CHECK-NOT: idiom_region_begin
// CHECK: {{^}}}
void nested_poke(int steps) {
  // REMARK-DAG: region-calls.c:[[@LINE+1]]:3: remark: no residency region: the loop or a function it calls stores to an idiom's buffer (y) outside the idiom
  for (int t = 0; t < steps; t++)
    via_level(y, t);
}

// Recursion: refused.
__attribute__((noinline)) void recursive(float *v, int d) {
  if (d > 0)
    recursive(v, d - 1);
  axpy(v, x, 0.5f, N);
}
// CHECK-LABEL: define {{.*}} @recursion(
// CHECK-NOT: idiom_region_begin
// CHECK: {{^}}}
void recursion(int steps) {
  // REMARK-DAG: region-calls.c:[[@LINE+1]]:3: remark: no residency region: the loop calls recursive, which calls recursive, which is recursive or too deep in the call graph
  for (int t = 0; t < steps; t++)
    recursive(y, t);
}

// A callee that writes the caller's other buffer on the host.
__attribute__((noinline)) void poke_x(int t) { x[t] = 0; }
// CHECK-LABEL: define {{.*}} @callee_host_write(
// CHECK-NOT: idiom_region_begin
// CHECK: {{^}}}
void callee_host_write(float a, int steps) {
  // REMARK-DAG: region-calls.c:[[@LINE+1]]:3: remark: no residency region: the loop or a function it calls stores to an idiom's buffer (x) outside the idiom
  for (int t = 0; t < steps; t++) {
    axpy(y, x, a, N);
    poke_x(t);
  }
}
