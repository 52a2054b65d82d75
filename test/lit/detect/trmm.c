// Triangular matrix products in place (BLAS xTRMM, issue 13; spec trmm,
// constraints/specs/trmm.idl): PolyBench trmm, float and double, and the
// BLAS's left upper form (A[i][k], not transposed), have only anti dependences
// (OnlyAntiDependences: row i reads rows that later iterations write), so
// each equals its out-of-place product on the original B, and is offloaded
// as that product (`lifts trmm`: test/lit/lift/trmm.c, run/trmm.c).
// Negatives, each with the dependence that makes the order matter: k < i
// with i ascending (a flow dependence on the loop i: rows read were written
// by earlier iterations), a product reading the row it writes (a flow
// dependence on the loop j), k running down to i (the loop k reads the
// output element after updating it), and a factor read through a pointer
// that may point into B (refused by the spec's loads). The plugin build
// prints what the sequential build prints.
// RUN: %clang-idiom -g %s -lidiomrt -lm -Rpass=idiom-offload -Rpass-missed=idiom-offload -o %t.idiom 2> %t.remarks
// RUN: FileCheck %s < %t.remarks
// RUN: %clang -O2 %s -lm -o %t.seq
// RUN: %t.seq > %t.expected
// RUN: env IDIOM_COST=off IDIOM_MIN_TRIP=1 IDIOM_DEVICE=cpu %t.idiom > %t.out
// RUN: diff %t.expected %t.out
#include <stdio.h>

#define M 40
#define N 48

static float Af[M][M], Bf[M][N];
static double Ad[M][M], Bd[M][N];

// CHECK-DAG: trmm.c:[[@LINE+2]]:3: remark: offloaded TRMM (trmm) to OpenCL
__attribute__((noinline)) void trmm_float(float alpha) {
  for (int i = 0; i < M; i++)
    for (int j = 0; j < N; j++) {
      for (int k = i + 1; k < M; k++)
        Bf[i][j] += Af[k][i] * Bf[k][j];
      Bf[i][j] = alpha * Bf[i][j];
    }
}

// CHECK-DAG: trmm.c:[[@LINE+2]]:3: remark: offloaded TRMM (trmm) to OpenCL
__attribute__((noinline)) void trmm_double(double alpha) {
  for (int i = 0; i < M; i++)
    for (int j = 0; j < N; j++) {
      for (int k = i + 1; k < M; k++)
        Bd[i][j] += Ad[k][i] * Bd[k][j];
      Bd[i][j] = alpha * Bd[i][j];
    }
}

// BLAS's left upper form without transposition (B = A B, A upper
// triangular): A[i][k], the rows read still those below row i.
// CHECK-DAG: trmm.c:[[@LINE+2]]:3: remark: offloaded TRMM (trmm) to OpenCL
__attribute__((noinline)) void trmm_upper(float alpha) {
  for (int i = 0; i < M; i++)
    for (int j = 0; j < N; j++) {
      for (int k = i + 1; k < M; k++)
        Bf[i][j] += Af[i][k] * Bf[k][j];
      Bf[i][j] = alpha * Bf[i][j];
    }
}

// k < i with i ascending: row i reads rows that earlier iterations wrote.
// CHECK-DAG: trmm.c:[[@LINE+3]]:3: remark: loop is not an idiom (closest: trmm): <builtin>/trmm.idl:{{[0-9]+}}:{{[0-9]+}}: OnlyAntiDependences(loop): loop-carried flow dependence: the load at {{.*}}trmm.c:[[@LINE+6]]:{{[0-9]+}} in iteration {{[0-9]+}} (inner iteration {{.*}}) reads an element that the store at {{.*}}trmm.c:[[@LINE+6]]:{{[0-9]+}} wrote in iteration {{[0-9]+}}
// CHECK-NOT: trmm.c:[[@LINE+2]]:3: remark: offloaded
__attribute__((noinline)) void trmm_below(float alpha) {
  for (int i = 0; i < M; i++)
    for (int j = 0; j < N; j++) {
      for (int k = 0; k < i; k++)
        Bf[i][j] += Af[k][i] * Bf[k][j];
      Bf[i][j] = alpha * Bf[i][j];
    }
}

// A product into the row it reads: iteration j reads B[i][k], which the
// earlier iteration j = k wrote.
// CHECK-DAG: trmm.c:[[@LINE+3]]:3: remark: loop is not an idiom (closest: trmm): <builtin>/trmm.idl:{{[0-9]+}}:{{[0-9]+}}: OnlyAntiDependences(loop): in the loop at {{.*}}trmm.c:[[@LINE+4]] inside it: loop-carried flow dependence: the load at {{.*}}trmm.c:[[@LINE+6]]:{{[0-9]+}} in iteration {{[0-9]+}} (inner iteration {{.*}}) reads an element that the store at {{.*}}trmm.c:[[@LINE+6]]:{{[0-9]+}} wrote in iteration {{[0-9]+}}
// CHECK-NOT: trmm.c:[[@LINE+2]]:3: remark: offloaded
__attribute__((noinline)) void trmm_same_row(float alpha) {
  for (int i = 0; i < M; i++)
    for (int j = 0; j < M; j++) {
      for (int k = i + 1; k < M; k++)
        Bf[i][j] += Af[k][i] * Bf[i][k];
      Bf[i][j] = alpha * Bf[i][j];
    }
}

// k runs down to i: its last step reads B[i][j] as an operand after the
// earlier steps updated it.
// CHECK-DAG: trmm.c:[[@LINE+3]]:3: remark: loop is not an idiom (closest: trmm): <builtin>/trmm.idl:{{[0-9]+}}:{{[0-9]+}}: OnlyAntiDependences(loop): in the loop at {{.*}}trmm.c:[[@LINE+5]] inside it: loop-carried flow dependence
// CHECK-NOT: trmm.c:[[@LINE+2]]:3: remark: offloaded
__attribute__((noinline)) void trmm_k_down(float alpha) {
  for (int i = 0; i < M; i++)
    for (int j = 0; j < N; j++) {
      for (int k = M - 1; k >= i; k--)
        Bf[i][j] += Af[k][i] * Bf[k][j];
      Bf[i][j] = alpha * Bf[i][j];
    }
}

// alpha read through a pointer that may point into B, inside the nest.
// CHECK-DAG: trmm.c:[[@LINE+3]]:3: remark: loop is not an idiom (closest: trmm): <builtin>/trmm.idl:{{[0-9]+}}:{{[0-9]+}}: SameElement(m, st): memory operation does not access the output element: {{.*}} = load float, ptr %0
// CHECK-NOT: trmm.c:[[@LINE+2]]:3: remark: offloaded
__attribute__((noinline)) void trmm_alpha_alias(const float *alpha) {
  for (int i = 0; i < M; i++)
    for (int j = 0; j < N; j++) {
      for (int k = i + 1; k < M; k++)
        Bf[i][j] += Af[k][i] * Bf[k][j];
      Bf[i][j] = *alpha * Bf[i][j];
    }
}

static void init(void) {
  for (int i = 0; i < M; i++) {
    for (int k = 0; k < M; k++) {
      Af[i][k] = (float)((i * 7 + k * 3) % 11) / 11.0f;
      Ad[i][k] = (double)((i * 5 + k * 2) % 13) / 13.0;
    }
    for (int j = 0; j < N; j++) {
      Bf[i][j] = (float)((i * 3 + j) % 17) / 17.0f;
      Bd[i][j] = (double)((i + j * 5) % 19) / 19.0;
    }
  }
}

static void print(const char *what) {
  double sf = 0, sd = 0;
  for (int i = 0; i < M; i++)
    for (int j = 0; j < N; j++) {
      sf += Bf[i][j] * (double)(1 + (i + j) % 5);
      sd += Bd[i][j] * (double)(1 + (i * j) % 7);
    }
  printf("%s %.6e %.9e\n", what, sf, sd);
}

int main(void) {
  init();
  trmm_float(1.5f);
  trmm_double(0.75);
  print("trmm");
  init();
  trmm_upper(0.5f);
  print("upper");
  init();
  trmm_below(1.25f);
  print("below");
  init();
  trmm_same_row(1.0f);
  print("same_row");
  init();
  trmm_k_down(0.5f);
  print("k_down");
  init();
  trmm_alpha_alias(&Bf[M - 1][N - 1]);
  print("alpha_alias");
  return 0;
}
