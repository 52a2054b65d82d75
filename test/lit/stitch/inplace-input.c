// The flags field of IN buffer arguments (idiom_arg::flags, bit 2
// IDIOM_ARG_INPLACE): set where every load of the input reads, before the
// store and in the same block, the element that every store of one output
// writes (same index function, same element type), so that the runtime may
// accept the call with the input's range identical to the output's (NAS
// MG's resid(u, r, r)); elsewhere 0. Fields: { kind, flags, ptr, bytes,
// value }; kinds 0 IN, 1 OUT, 2 INOUT, 3 I32, 4 I64.
// RUN: %clang-idiom -S -emit-llvm %s -o %t.ll
// RUN: sed "s/{ i32, i32, ptr, i64, i64 } //g" %t.ll | FileCheck %s

// r = v - 2 u over a VLA grid: v flagged, u (its neighbours read) not.
// CHECK-DAG: @idiom_resid_{{[0-9]+}}.args = {{.*}}{ i32 0, i32 4, {{.*}}zeroinitializer, { i32 1, i32 0,
void resid(void *ou, void *ov, void *or, int n1, int n2) {
  double (*u)[n1] = ou, (*v)[n1] = ov, (*r)[n1] = or;
  for (int i2 = 1; i2 < n2 - 1; i2++)
    for (int i1 = 1; i1 < n1 - 1; i1++)
      r[i2][i1] = v[i2][i1] - 2.0 * (u[i2][i1 - 1] + u[i2][i1 + 1]);
}

// Another element type (float read, double written): not flagged.
// CHECK-DAG: @idiom_widen_{{[0-9]+}}.args = {{.*}}zeroinitializer, { i32 1, i32 1,
void widen(double *y, const float *x, int n) {
  for (int i = 0; i < n; i++)
    y[i] = 2.0 * x[i];
}

