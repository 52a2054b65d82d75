// A time loop of a map and a reduction (100 iterations) on PoCL: inside the
// residency region each buffer is copied in once and the reduction returns
// only its 8-byte result; without the region (-idiom-residency=false) every
// call copies its buffers both ways. Both builds print what the sequential
// build prints.
// RUN: %clang -O2 %s -o %t.seq
// RUN: %clang-idiom %s -lidiomrt -o %t.idiom
// RUN: %clang-idiom -fplugin=%plugin -mllvm -idiom-residency=false %s -lidiomrt -o %t.noregion
// RUN: %t.seq > %t.expected
// RUN: env IDIOM_ZERO_COPY=off IDIOM_MIN_TRIP=0 IDIOM_STATS=1 %t.idiom > %t.out 2> %t.stats
// RUN: diff %t.expected %t.out
// Zero-copy on PoCL (runtime/lib/zerocopy.c): the same output, and the runs
// passed buffers over the program's memory.
// RUN: env IDIOM_COST=off IDIOM_MIN_TRIP=0 IDIOM_STATS=1 %t.idiom > %t.zc 2> %t.zcstats
// RUN: diff %t.expected %t.zc
// RUN: grep -q "idiom-stats: zero-copy args=[1-9]" %t.zcstats
// RUN: FileCheck %s --check-prefix=REGION < %t.stats
// RUN: env IDIOM_ZERO_COPY=off IDIOM_MIN_TRIP=0 IDIOM_STATS=1 %t.noregion > %t.out2 2> %t.stats2
// RUN: diff %t.expected %t.out2
// RUN: FileCheck %s --check-prefix=NOREGION < %t.stats2
// RUN: env IDIOM_DEVICE=seq %t.idiom > %t.out3
// RUN: diff %t.expected %t.out3
#include <stdio.h>

#define N 65536
static int x[N], y[N];

__attribute__((noinline)) static long run(int steps) {
  long total = 0;
  for (int t = 0; t < steps; t++) {
    for (int i = 0; i < N; i++)
      y[i] = x[i] + y[i] % 1000;
    long s = 0;
    for (int i = 0; i < N; i++)
      s += y[i];
    total += s;
  }
  return total;
}

int main(void) {
  for (int i = 0; i < N; i++) {
    x[i] = i % 13;
    y[i] = i % 7;
  }
  printf("%ld\n", run(100));
  long c = 0;
  for (int i = 0; i < N; i += 97)
    c = c * 31 + y[i];
  printf("%ld\n", c);
  return 0;
}
// 2 x 65536 ints copied in once; nothing copied back by the map's calls;
// the reduction reads the device's y and returns 8 bytes per call.
// REGION-DAG: idiom-stats: run-timeloop.c:run map calls=100 offloaded=100 {{.*}} bytes_in=524288 bytes_out=0{{$}}
// REGION-DAG: idiom-stats: run-timeloop.c:run scalar-reduction calls=100 offloaded=100 {{.*}} bytes_in=0 bytes_out=800{{$}}
// REGION-DAG: idiom-stats: residency regions=1 reused=
// 100 times both ways.
// NOREGION-DAG: idiom-stats: run-timeloop.c:run map calls=100 offloaded=100 {{.*}} bytes_in=52428800 bytes_out=26214400{{$}}
// NOREGION-DAG: idiom-stats: run-timeloop.c:run scalar-reduction calls=100 offloaded=100 {{.*}} bytes_in=26214400 bytes_out=800{{$}}
// NOREGION-NOT: residency
