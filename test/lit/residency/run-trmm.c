// TRMM inside residency regions (issues 12 and 13). The band program reads B
// through an IN buffer flagged IDIOM_ARG_SNAPSHOT over the array it writes;
// inside a region the snapshot of a range the table holds is a device-side
// copy of its entry, made on the queue before the kernel
// (runtime/lib/resid_run.c, phase 3), so B stays on the device across the
// time loop: copied in once by the first call, never copied back until the
// region ends. Four programs (argv[1]), each a time loop of a map over B and
// a TRMM, against the sequential build bit for bit:
//   plain  no host access between the steps;
//   read   the host reads an element of B every step (a routed load,
//          idiom_region_load: the element is copied back, B stays resident);
//   write  the host writes an element of B every step (a routed store);
//   alias  TRMMs on run-time pointers in a time loop: B and A distinct,
//          offloaded; then A is B's own array (m == n): the A range, an IN
//          buffer that is no snapshot, overlaps the output, the run is
//          declined ("overlapping input/output ranges") and the loop runs.
// With IDIOM_ZERO_COPY=off every range goes through the table: the map's
// site copies B in once (40 x 48 floats), the TRMM's copies only A's
// rectangle (39 x 40 floats) and nothing back; each TRMM's snapshot is a
// device copy (snapshots=5).
// RUN: %clang -O2 %s -o %t.seq
// RUN: %clang-idiom %s -Rpass=idiom-offload -lidiomrt -o %t.idiom 2> %t.remarks
// RUN: FileCheck %s --check-prefix=REMARK < %t.remarks
// RUN: %t.seq plain > %t.plain.expected
// RUN: %t.seq read > %t.read.expected
// RUN: %t.seq write > %t.write.expected
// RUN: %t.seq alias > %t.alias.expected
// RUN: env IDIOM_DEVICE=cpu IDIOM_COST=off IDIOM_MIN_TRIP=0 IDIOM_ZERO_COPY=off IDIOM_STATS=1 %t.idiom plain > %t.plain.out 2> %t.plain.stats
// RUN: diff %t.plain.expected %t.plain.out
// RUN: FileCheck %s --check-prefix=PLAIN < %t.plain.stats
// RUN: env IDIOM_DEVICE=cpu IDIOM_COST=off IDIOM_MIN_TRIP=0 IDIOM_ZERO_COPY=off IDIOM_STATS=1 %t.idiom read > %t.read.out 2> %t.read.stats
// RUN: diff %t.read.expected %t.read.out
// RUN: FileCheck %s --check-prefix=READ < %t.read.stats
// RUN: env IDIOM_DEVICE=cpu IDIOM_COST=off IDIOM_MIN_TRIP=0 IDIOM_ZERO_COPY=off IDIOM_STATS=1 %t.idiom write > %t.write.out 2> %t.write.stats
// RUN: diff %t.write.expected %t.write.out
// RUN: FileCheck %s --check-prefix=WRITE < %t.write.stats
// RUN: env IDIOM_DEVICE=cpu IDIOM_COST=off IDIOM_MIN_TRIP=0 IDIOM_ZERO_COPY=off IDIOM_STATS=1 %t.idiom alias > %t.alias.out 2> %t.alias.stats
// RUN: diff %t.alias.expected %t.alias.out
// RUN: FileCheck %s --check-prefix=ALIAS < %t.alias.stats
// Zero-copy on (PoCL's default): the same outputs.
// RUN: env IDIOM_DEVICE=cpu IDIOM_COST=off IDIOM_MIN_TRIP=0 %t.idiom plain > %t.plain.zc
// RUN: diff %t.plain.expected %t.plain.zc
// RUN: env IDIOM_DEVICE=cpu IDIOM_COST=off IDIOM_MIN_TRIP=0 %t.idiom read > %t.read.zc
// RUN: diff %t.read.expected %t.read.zc
// RUN: env IDIOM_DEVICE=cpu IDIOM_COST=off IDIOM_MIN_TRIP=0 %t.idiom write > %t.write.zc
// RUN: diff %t.write.expected %t.write.zc
// RUN: env IDIOM_DEVICE=cpu IDIOM_COST=off IDIOM_MIN_TRIP=0 %t.idiom alias > %t.alias.zc
// RUN: diff %t.alias.expected %t.alias.zc
#include <stdio.h>
#include <string.h>

#define M 40
#define N 48
#define Q 37
static float A[M][M], B[M][N];
static float P[Q * Q], R[Q * Q];

static unsigned long hash(const float *x, int n) {
  unsigned long h = 0;
  for (int i = 0; i < n; i++) {
    unsigned u;
    memcpy(&u, &x[i], sizeof u);
    h = h * 1000003u + u;
  }
  return h;
}

// One step of the time loops: the map, then the TRMM (inlined into each
// loop, whose region it is part of).
// PLAIN-DAG: idiom-stats: run-trmm.c:[[@LINE+8]] map calls=5 offloaded=5 {{.*}} bytes_in=7680 bytes_out=0{{$}}
// PLAIN-DAG: idiom-stats: run-trmm.c:[[@LINE+10]] trmm calls=5 offloaded=5 {{.*}}fallbacks=0 {{.*}} bytes_in=6240 bytes_out=0{{$}}
// READ-DAG: idiom-stats: run-trmm.c:[[@LINE+6]] map calls=5 offloaded=5 {{.*}} bytes_in=7680 bytes_out=0{{$}}
// READ-DAG: idiom-stats: run-trmm.c:[[@LINE+8]] trmm calls=5 offloaded=5 {{.*}}fallbacks=0 {{.*}} bytes_in=6240 bytes_out=0{{$}}
// WRITE-DAG: idiom-stats: run-trmm.c:[[@LINE+4]] map calls=5 offloaded=5 {{.*}} bytes_in=7680 bytes_out=0{{$}}
// WRITE-DAG: idiom-stats: run-trmm.c:[[@LINE+6]] trmm calls=5 offloaded=5 {{.*}}fallbacks=0 {{.*}} bytes_in=6240 bytes_out=0{{$}}
// REMARK-DAG: run-trmm.c:[[@LINE+5]]:3: remark: offloaded TRMM (trmm) to OpenCL
__attribute__((always_inline)) static inline void step(float alpha) {
  for (int i = 0; i < M; i++)
    for (int j = 0; j < N; j++)
      B[i][j] = B[i][j] * 0.5f + 0.25f;
  for (int i = 0; i < M; i++)
    for (int j = 0; j < N; j++) {
      for (int k = i + 1; k < M; k++)
        B[i][j] += A[k][i] * B[k][j];
      B[i][j] = alpha * B[i][j];
    }
}

// REMARK-DAG: run-trmm.c:[[@LINE+3]]:3: remark: residency region
// PLAIN-DAG: idiom-stats: residency regions=1 {{.*}} syncs=0 flushed_bytes=7680 {{.*}} snapshots=5{{$}}
__attribute__((noinline)) static void steps(int n, float alpha) {
  for (int t = 0; t < n; t++)
    step(alpha);
}

// REMARK-DAG: run-trmm.c:[[@LINE+4]]:3: remark: residency region
// READ-DAG: idiom-stats: residency regions=1 {{.*}} syncs=0 {{.*}} host_loads=5 host_stores=0 snapshots=5{{$}}
__attribute__((noinline)) static float steps_read(int n, float alpha) {
  float s = 0;
  for (int t = 0; t < n; t++) {
    step(alpha);
    s += B[(t * 7) % M][(t * 5) % N];
  }
  return s;
}

// REMARK-DAG: run-trmm.c:[[@LINE+3]]:3: remark: residency region
// WRITE-DAG: idiom-stats: residency regions=1 {{.*}} syncs=0 {{.*}} host_loads=0 host_stores=5 snapshots=5{{$}}
__attribute__((noinline)) static void steps_write(int n, float alpha) {
  for (int t = 0; t < n; t++) {
    step(alpha);
    B[(t * 3) % M][(t * 11) % N] = (float)t * 0.125f;
  }
}

// ALIAS-DAG: idiom-stats: run-trmm.c:[[@LINE+3]] trmm calls=5 offloaded=3 {{.*}}fallbacks=2 {{.*}}reasons="overlapping input/output ranges" x2 bytes_in=10804 bytes_out=0{{$}}
__attribute__((noinline)) static void trmm_p(int m, int n, float alpha,
                                             float A[m][m], float B[m][n]) {
  for (int i = 0; i < m; i++)
    for (int j = 0; j < n; j++) {
      for (int k = i + 1; k < m; k++)
        B[i][j] += A[k][i] * B[k][j];
      B[i][j] = alpha * B[i][j];
    }
}

// REMARK-DAG: run-trmm.c:[[@LINE+3]]:3: remark: residency region
// ALIAS-DAG: idiom-stats: residency regions=2 {{.*}} snapshots=3{{$}}
__attribute__((noinline)) static void steps_p(int n, float *a, float *b) {
  for (int t = 0; t < n; t++)
    trmm_p(Q, Q, 0.75f, (float(*)[Q])a, (float(*)[Q])b);
}

int main(int argc, char **argv) {
  const char *v = argc > 1 ? argv[1] : "plain";
  for (int i = 0; i < M; i++) {
    for (int k = 0; k < M; k++)
      A[i][k] = (float)((i * 7 + k * 3) % 11) / 44.0f;
    for (int j = 0; j < N; j++)
      B[i][j] = (float)((i * 3 + j) % 17) / 17.0f;
  }
  for (int i = 0; i < Q * Q; i++) {
    P[i] = (float)((i * 5) % 13) / 52.0f;
    R[i] = (float)((i * 3) % 19) / 19.0f;
  }
  if (!strcmp(v, "plain")) {
    steps(5, 0.5f);
  } else if (!strcmp(v, "read")) {
    printf("%.9g\n", steps_read(5, 0.5f));
  } else if (!strcmp(v, "write")) {
    steps_write(5, 0.5f);
  } else {
    steps_p(3, P, R);
    printf("%lx\n", hash(R, Q * Q));
    steps_p(2, R, R);
    printf("%lx\n", hash(R, Q * Q));
    return 0;
  }
  printf("%lx %.9g %.9g\n", hash(&B[0][0], M * N), B[0][0], B[M - 1][N - 1]);
  return 0;
}
