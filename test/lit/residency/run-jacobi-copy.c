// A Jacobi time loop over flattened 2-D arrays: a 4-point stencil (a map)
// from a into b, the copy of b back into a, which LoopIdiomRecognize turns
// into a memcpy, and a residual reduction. The memcpy becomes
// idiom_region_memmove, so the loop is a residency region: on PoCL each
// array crosses once, the copy runs on the device, and the reduction
// returns only its scalar. Integer data, so every build prints exactly
// what the sequential build prints: forced onto the device, with the
// defaults, without the region and without OpenCL.
// RUN: %clang -O2 %s -o %t.seq
// RUN: %clang-idiom -Rpass=idiom-offload %s -lidiomrt -o %t.idiom 2> %t.remarks
// RUN: FileCheck %s --check-prefix=REMARK < %t.remarks
// RUN: %clang-idiom -fplugin=%plugin -mllvm -idiom-residency=false %s -lidiomrt -o %t.noregion
// RUN: %t.seq > %t.expected
// RUN: env IDIOM_ZERO_COPY=off IDIOM_MIN_TRIP=0 IDIOM_STATS=1 %t.idiom > %t.out 2> %t.stats
// RUN: diff %t.expected %t.out
// Zero-copy on PoCL (runtime/lib/zerocopy.c): the same output, and the runs
// passed buffers over the program's memory.
// RUN: env IDIOM_COST=off IDIOM_MIN_TRIP=0 IDIOM_STATS=1 %t.idiom > %t.zc 2> %t.zcstats
// RUN: diff %t.expected %t.zc
// RUN: grep -q "idiom-stats: zero-copy args=[1-9]" %t.zcstats
// RUN: FileCheck %s --check-prefix=STATS < %t.stats
// RUN: %t.idiom > %t.out2
// RUN: diff %t.expected %t.out2
// RUN: env IDIOM_MIN_TRIP=0 %t.noregion > %t.out3
// RUN: diff %t.expected %t.out3
// RUN: env IDIOM_DEVICE=seq %t.idiom > %t.out4
// RUN: diff %t.expected %t.out4
#include <stdio.h>

#define N 256
static int a[N * N], b[N * N];

__attribute__((noinline)) static long run(int steps) {
  long total = 0;
  // REMARK: run-jacobi-copy.c:[[@LINE+1]]:3: remark: residency region
  for (int t = 0; t < steps; t++) {
    for (int i = 1; i < N - 1; i++)
      for (int j = 1; j < N - 1; j++)
        b[i * N + j] = (a[(i - 1) * N + j] + a[(i + 1) * N + j] +
                        a[i * N + j - 1] + a[i * N + j + 1]) / 4 + t % 3;
    for (int k = 0; k < N * N; k++)
      a[k] = b[k];
    long s = 0;
    for (int k = 0; k < N * N; k++)
      s += b[k] % 7;
    total += s;
  }
  return total;
}

int main(void) {
  for (int k = 0; k < N * N; k++)
    a[k] = b[k] = (k * 37) % 1001;
  printf("%ld\n", run(40));
  long c = 0;
  for (int k = 0; k < N * N; k += 97)
    c = c * 31 + a[k] + b[k];
  printf("%ld\n", c);
  return 0;
}
// 40 copies on the device (the first one grows the entries of the
// stencil's interior ranges to the whole arrays); nothing comes back until
// the region's end, and the reduction returns only its scalars.
// STATS-DAG: idiom-stats: run-jacobi-copy.c:{{[0-9]+}} map calls=40 offloaded=40 {{.*}} bytes_out=0{{$}}
// STATS-DAG: idiom-stats: run-jacobi-copy.c:{{[0-9]+}} scalar-reduction calls=40 offloaded=40 {{.*}} bytes_in=0 bytes_out=320{{$}}
// STATS-DAG: idiom-stats: residency regions=1 reused={{[0-9]+}} syncs=0 flushed_bytes={{[0-9]+}} evicted=0 device_copies=40 grown=0 offsets={{[0-9]+}} views={{[0-9]+}} host_loads=0 host_stores=0 snapshots=0{{$}}
