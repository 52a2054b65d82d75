// Host loads and stores of idiom buffers inside residency regions
// (RegionHostAccess.h): a Gram-Schmidt-like k loop (the norm of column k
// and Q's column k in host loops with strided ranges, R[k][k] stored on the
// host, the distributed j loop's GEMV^T and rank-1 update on the device) is
// one region; single host loads and stores in a region loop's body are
// routed one element at a time; a host store in an inner loop that also
// runs the idiom keeps the outer loop out (the inner loop is the region).
// RUN: %clang-idiom -fno-discard-value-names -S -emit-llvm -Rpass=idiom-offload -Rpass-missed=idiom-offload %s -o %t.ll 2> %t.remarks
// RUN: FileCheck %s < %t.ll
// RUN: FileCheck %s --check-prefix=REMARK < %t.remarks
#include <math.h>
#include <stdio.h>

#define M 512
#define N 384
double A[M][N], R[N][N], Q[M][N];

// CHECK-LABEL: define {{.*}}void @gram_schmidt(
// CHECK: call void @idiom_region_begin()
// The column reads of A: 8-byte elements N * 8 bytes apart, M of them.
// CHECK-DAG: call void @idiom_region_load(ptr {{.*}}, i64 8, i64 3072, i64 512)
// R[k][k] = sqrt(nrm): written through after the store.
// CHECK-DAG: call void @idiom_region_store(ptr {{.*}}, i64 8, i64 0, i64 1)
// Q's column: made current before the loop, written through after it.
// CHECK-DAG: call void @idiom_region_store(ptr {{.*}}, i64 8, i64 3072, i64 512)
// CHECK-DAG: call void @idiom_region_end()
void gram_schmidt(void) {
  // REMARK: region-host-access.c:[[@LINE+1]]:3: remark: residency region: the buffers of 2 offloaded idiom(s) stay on the device across the loop's iterations (copied back at its exits); {{[0-9]+}} host load(s)/store(s) of their buffers routed through the runtime
  for (int k = 0; k < N; k++) {
    double nrm = 0.0;
    for (int i = 0; i < M; i++)
      nrm += A[i][k] * A[i][k];
    R[k][k] = sqrt(nrm);
    for (int i = 0; i < M; i++)
      Q[i][k] = A[i][k] / R[k][k];
    for (int j = k + 1; j < N; j++) {
      R[k][j] = 0.0;
      for (int i = 0; i < M; i++)
        R[k][j] += Q[i][k] * A[i][j];
      for (int i = 0; i < M; i++)
        A[i][j] = A[i][j] - Q[i][k] * R[k][j];
    }
  }
}

#define L 100000
float x[L], y[L];

// CHECK-LABEL: define {{.*}}void @single_accesses(
// CHECK: call void @idiom_region_begin()
// CHECK-DAG: call void @idiom_region_store(ptr {{.*}}, i64 4, i64 0, i64 1)
// CHECK-DAG: call void @idiom_region_load(ptr {{.*}}, i64 4, i64 0, i64 1)
// CHECK-DAG: call void @idiom_region_end()
void single_accesses(float a) {
  // REMARK: region-host-access.c:[[@LINE+1]]:3: remark: residency region: the buffers of 1 offloaded idiom(s) {{.*}}; 2 host load(s)/store(s)
  for (int t = 0; t < 100; t++) {
    for (int i = 0; i < L; i++)
      y[i] = a * x[i] + y[i];
    y[t] = 0;
    printf("%f\n", y[t + 1]);
  }
}

// CHECK-LABEL: define {{.*}}void @beside_idiom(
void beside_idiom(float a, int m) {
  // REMARK: region-host-access.c:[[@LINE+1]]:3: remark: no residency region: the loop stores to an idiom's buffer (y) outside the idiom, in an inner loop that also runs device work or a fallback
  for (int t = 0; t < 100; t++) {
    // REMARK: region-host-access.c:[[@LINE+1]]:5: remark: residency region: the buffers of 1 offloaded idiom(s) {{.*}}; 1 host load(s)/store(s)
    for (int s = 0; s < m; s++) {
      for (int i = 0; i < L; i++)
        y[i] = a * x[i] + y[i];
      y[s + t] = 0;
    }
  }
}
