// In a residency region's loop a memcpy, memmove or memset that may touch an
// idiom's buffer becomes idiom_region_memmove / idiom_region_memset (copied
// or filled on the device when the region holds the ranges there); one that
// provably touches none (a scratch array of the loop) stays as it was.
// Without regions nothing is rewritten.
// RUN: %clang-idiom -fno-discard-value-names -S -emit-llvm -Rpass=idiom-offload %s -o %t.ll 2> %t.remarks
// RUN: FileCheck %s < %t.ll
// RUN: FileCheck %s --check-prefix=REMARK < %t.remarks
// RUN: %clang-idiom -fplugin=%plugin -fno-discard-value-names -S -emit-llvm -mllvm -idiom-residency=false %s -o - | FileCheck %s --check-prefix=OFF
#include <string.h>

#define N 100000
float x[N], y[N], z[N];

// Each routed copy runs inline while no thread has a region open (the
// runtime's idiom_regions_open is 0), through the runtime otherwise.
// CHECK-LABEL: define {{.*}} @copy_back(
// CHECK: call void @idiom_region_begin()
// CHECK-DAG: [[OPEN:%idiom.regions[0-9]*]] = load atomic i32, ptr @idiom_regions_open monotonic
// CHECK-DAG: icmp eq i32 [[OPEN]], 0
// CHECK-DAG: call void @llvm.memcpy{{.*}}(ptr {{.*}}@x, ptr {{.*}}@y, i64 400000
// CHECK-DAG: call void @idiom_region_memmove(ptr {{.*}}@x, ptr {{.*}}@y, i64 400000)
// CHECK-DAG: call void @llvm.memset{{.*}}(ptr {{.*}}@z, i8 0, i64 400000
// CHECK-DAG: call void @idiom_region_memset(ptr {{.*}}@z, i32 0, i64 400000)
// CHECK-DAG: call void @idiom_region_end()
// CHECK: {{^}}}
// OFF-LABEL: define {{.*}} @copy_back(
// OFF-NOT: idiom_region_
// OFF: {{^}}}
void copy_back(int steps) {
  // REMARK: region-copy.c:[[@LINE+1]]:3: remark: residency region
  for (int t = 0; t < steps; t++) {
    for (int i = 0; i < N; i++)
      y[i] = 0.5f * x[i] + z[i];
    memcpy(x, y, sizeof x);
    memset(z, 0, sizeof z);
    for (int i = 0; i < N; i++)
      z[i] = z[i] + x[i];
  }
}

// A copy between two arrays that no idiom of the loop uses stays a memcpy.
// CHECK-LABEL: define {{.*}} @scratch_copy(
// CHECK: call void @idiom_region_begin()
// CHECK-NOT: idiom_region_memmove
// CHECK: call void @llvm.memcpy
// CHECK-NOT: idiom_region_memmove
// CHECK: {{^}}}
float p[64], q[64];
void scratch_copy(int steps, float *restrict u, const float *restrict v) {
  for (int t = 0; t < steps; t++) {
    for (int i = 0; i < N; i++)
      u[i] = 2.0f * v[i];
    memcpy(p, q, sizeof p);
  }
}

// A swap of two structs through a temporary (nas-parboil/fft.c's bit
// reversal) is three copies in one block: one check of idiom_regions_open
// covers them (the address arithmetic between them moves before it), not
// one each (2% more instructions for fft.c with every site on the host,
// bench/host_overhead.sh).
// CHECK-LABEL: define {{.*}} @swap_pairs(
// CHECK: call void @idiom_region_begin()
// CHECK: [[OPEN:%idiom.regions[0-9]*]] = load atomic i32, ptr @idiom_regions_open monotonic
// CHECK-NEXT: icmp eq i32 [[OPEN]], 0
// CHECK-NOT: @idiom_regions_open
// CHECK: call void @llvm.memcpy
// CHECK-NEXT: call void @llvm.memcpy
// CHECK-NEXT: call void @llvm.memcpy
// CHECK-NOT: @idiom_regions_open
// CHECK: call void @idiom_region_memmove(
// CHECK-NEXT: call void @idiom_region_memmove(
// CHECK-NEXT: call void @idiom_region_memmove(
// CHECK-NOT: @idiom_regions_open
// CHECK: {{^}}}
typedef struct {
  double re, im;
} cplx;
cplx w[N];
void swap_pairs(int steps, double s) {
  for (int t = 0; t < steps; t++) {
    for (int i = 0; i < N; i++) {
      w[i].re = s * w[i].re;
      w[i].im = s * w[i].im;
    }
    for (int i = 0; i < N / 2; i++) {
      if ((i & 3) == 1) {
        cplx tmp = w[i];
        w[i] = w[N - 1 - i];
        w[N - 1 - i] = tmp;
      }
    }
  }
}
