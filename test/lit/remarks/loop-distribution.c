// Loops that loop distribution (passes/LoopDistribution.h) refuses, each
// with the reason in a missed remark; the positives (and the negatives that
// need a run: dependences, registers, overlap) are in
// test/lit/run/loop-distribution.c. Last, a distribution that no idiom
// uses, undone.
// RUN: %clang-idiom -g -c %s -o /dev/null -Rpass-missed=idiom-offload -Rpass-analysis=idiom-offload 2>&1 | FileCheck %s --implicit-check-not="loop distributed"

#define M 64
#define N 48
double A[M][N], R[N], Q[M][N], X[N];
void sink(int);

// CHECK: loop-distribution.c:[[#@LINE+2]]:3: remark: loop not distributed into its parts: its body accesses memory outside its inner loops other than by plain loads and stores (call)
void with_call(void) {
  for (int j = 0; j < N; j++) {
    R[j] = 0.0;
    for (int i = 0; i < M; i++)
      R[j] += Q[i][0] * A[i][j];
    sink(j);
    for (int i = 0; i < M; i++)
      A[i][j] = A[i][j] - Q[i][0] * R[j];
  }
}

// CHECK: loop-distribution.c:[[#@LINE+2]]:3: remark: loop not distributed into its parts: the control flow of its body depends on a value computed by part 1
void control(void) {
  for (int j = 0; j < N; j++) {
    double s = 0.0;
    for (int i = 0; i < M; i++)
      s += Q[i][0] * A[i][j];
    R[j] = s;
    if (s > 1.0)
      for (int i = 0; i < M; i++)
        A[i][j] = A[i][j] * 0.5;
  }
}

// CHECK: loop-distribution.c:[[#@LINE+3]]:3: remark: loop not distributed into its parts: the loop carries a value from one iteration to the next in a register (a header phi besides its induction variable)
double carried(void) {
  double t = 0.0;
  for (int j = 0; j < N; j++) {
    for (int i = 0; i < M; i++)
      A[i][j] = A[i][j] + t;
    for (int i = 0; i < M; i++)
      t += A[i][j];
    X[j] = t;
  }
  return t;
}

// CHECK: loop-distribution.c:[[#@LINE+2]]:3: remark: loop not distributed into its parts: its inner loops do not run one after the other (an inner loop's header does not dominate the next one's)
void branches(void) {
  for (int j = 0; j < N; j++) {
    if (X[j] > 0.0)
      for (int i = 0; i < M; i++)
        A[i][j] = A[i][j] * 2.0;
    else
      for (int i = 0; i < M; i++)
        A[i][j] = A[i][j] * 3.0;
  }
}

// Distributed, but neither part is an idiom (each is a recurrence in i):
// the distribution is undone (its check becomes false).
// CHECK: loop-distribution.c:[[#@LINE+4]]:3: remark: loop distributed into 2 loops, one per part, behind a run-time check
// CHECK: loop-distribution.c:[[#@LINE+3]]:3: remark: loop distribution undone: no idiom was offloaded from its loops
double Y[M][N];
void recurrences(void) {
  for (int j = 0; j < N; j++) {
    for (int i = 1; i < M; i++)
      A[i][j] = A[i - 1][j] * 0.5 + 1.0;
    for (int i = 1; i < M; i++)
      Y[i][j] = Y[i - 1][j] * 0.25 + A[i][j];
  }
}
