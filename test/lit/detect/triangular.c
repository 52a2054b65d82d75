// Dot products in triangular nests (constraints/specs/triangular.idl, issue
// #13): the row solves of Cholesky and LU are sequential in j, and their
// missed remark names the dependence (IndependentIterations: the store of
// A[i][j] in iteration j and the load of A[i][k], k = j, in a later
// iteration); a triangular matrix-vector product, whose rows are
// independent, is lifted as a TRMV (`lifts trmv`: test/lit/lift/trmv.c,
// test/lit/run/trmv.c) and offloaded. Negatives as
// carefully: an anti dependence (iteration j writes what earlier ones read),
// an output dependence, an address read from memory (not proven), and the
// same nests with bounds that make them rectangular stay the rectangular
// specs' (gemv). The plugin build prints what the sequential build prints.
// RUN: %clang-idiom -g %s -lidiomrt -lm -Rpass=idiom-offload -Rpass-missed=idiom-offload -o %t.idiom 2> %t.remarks
// RUN: FileCheck %s < %t.remarks
// RUN: %clang -O2 %s -lm -o %t.seq
// RUN: %t.seq > %t.expected
// RUN: env IDIOM_COST=off IDIOM_MIN_TRIP=1 IDIOM_DEVICE=cpu %t.idiom > %t.out
// RUN: diff %t.expected %t.out
#include <math.h>
#include <stdio.h>

#define N 48

// PolyBench 4 cholesky: iteration j of the row solve reads A[i][k] for
// k < j, which iterations k wrote.
// CHECK-DAG: triangular.c:[[@LINE+4]]:5: remark: loop is not an idiom (closest: triangular-dot): <builtin>/triangular.idl:{{[0-9]+}}:{{[0-9]+}}: IndependentIterations(loop): loop-carried flow dependence: the load at {{.*}}triangular.c:[[@LINE+6]]:{{[0-9]+}} in iteration {{[0-9]+}} (inner iteration {{[0-9]+}}) reads an element that the store at {{.*}}triangular.c:[[@LINE+6]]:{{[0-9]+}} wrote in iteration {{[0-9]+}}{{.*}}, so the iterations must run in order
// CHECK-NOT: triangular.c:[[@LINE+3]]:5: remark: offloaded
__attribute__((noinline)) void cholesky(int n, double A[N][N]) {
  for (int i = 0; i < n; i++) {
    for (int j = 0; j < i; j++) {
      for (int k = 0; k < j; k++)
        A[i][j] -= A[i][k] * A[j][k];
      A[i][j] /= A[j][j];
    }
    for (int k = 0; k < i; k++)
      A[i][i] -= A[i][k] * A[i][k];
    A[i][i] = sqrt(A[i][i]);
  }
}

// PolyBench 4 lu: the same solve for L's row (the loop over U's row, j >= i,
// is rectangular for a fixed i).
// CHECK-DAG: triangular.c:[[@LINE+4]]:5: remark: loop is not an idiom (closest: triangular-dot): <builtin>/triangular.idl:{{[0-9]+}}:{{[0-9]+}}: IndependentIterations(loop): loop-carried flow dependence: the load at {{.*}}triangular.c:[[@LINE+6]]:{{[0-9]+}} in iteration
// CHECK-NOT: triangular.c:[[@LINE+3]]:5: remark: offloaded
__attribute__((noinline)) void lu(int n, double A[N][N]) {
  for (int i = 0; i < n; i++) {
    for (int j = 0; j < i; j++) {
      for (int k = 0; k < j; k++)
        A[i][j] -= A[i][k] * A[k][j];
      A[i][j] /= A[j][j];
    }
    for (int j = i; j < n; j++)
      for (int k = 0; k < i; k++)
        A[i][j] -= A[i][k] * A[k][j];
  }
}

// A lower-triangular matrix-vector product: rows are independent.
// CHECK-DAG: triangular.c:[[@LINE+3]]:3: remark: offloaded TRMV (triangular-dot) to OpenCL
__attribute__((noinline)) void trmv(int n, double L[N][N], const double *x,
                                    double *y) {
  for (int i = 0; i < n; i++) {
    double s = 0;
    for (int j = 0; j <= i; j++)
      s += L[i][j] * x[j];
    y[i] = s;
  }
}

// Anti dependence: iteration j reads v[k] for k > j, and the later
// iteration k updates v[k] (a backward substitution run forwards).
// CHECK-DAG: triangular.c:[[@LINE+3]]:3: remark: loop is not an idiom (closest: triangular-dot): <builtin>/triangular.idl:{{[0-9]+}}:{{[0-9]+}}: IndependentIterations(loop): loop-carried anti dependence: the store at {{.*}}triangular.c:[[@LINE+5]]:{{[0-9]+}} in iteration {{[0-9]+}} (inner iteration {{[0-9]+}}) writes an element that the load at {{.*}}triangular.c:[[@LINE+5]]:{{[0-9]+}} read in iteration {{[0-9]+}} (inner iteration {{[0-9]+}}), so the iterations must run in order
// CHECK-NOT: triangular.c:[[@LINE+2]]:3: remark: offloaded
__attribute__((noinline)) void anti(int n, double U[N][N], double *v) {
  for (int j = 0; j < n; j++)
    for (int k = j + 1; k < n; k++)
      v[j] += U[j][k] * v[k];
}

// Output and flow dependences: every j updates w[k] for k < j.
// CHECK-DAG: triangular.c:[[@LINE+3]]:3: remark: loop is not an idiom (closest: triangular-dot): <builtin>/triangular.idl:{{[0-9]+}}:{{[0-9]+}}: IndependentIterations(loop): loop-carried {{output|flow|anti}} dependence
// CHECK-NOT: triangular.c:[[@LINE+2]]:3: remark: offloaded
__attribute__((noinline)) void output(int n, const double *a, double *w) {
  for (int j = 0; j < n; j++)
    for (int k = 0; k < j; k++)
      w[k] += a[j] * a[k];
}

// The row written is read from memory: the dependence is not decided.
// CHECK-DAG: triangular.c:[[@LINE+3]]:3: remark: loop is not an idiom (closest: triangular-dot): <builtin>/triangular.idl:{{[0-9]+}}:{{[0-9]+}}: IndependentIterations(loop): the address of the {{load|store}} at {{.*}}triangular.c:[[@LINE+5]]:{{[0-9]+}} is not affine in the induction variables of the loop and the loops inside it
__attribute__((noinline)) void indirect(int n, double A[N][N], const int *row,
                                        const double *x) {
  for (int j = 0; j < n; j++)
    for (int k = 0; k < j; k++)
      A[row[j]][k] += A[j][k] * x[k];
}

// Rectangular: a GEMV, not this spec's.
// CHECK-DAG: triangular.c:[[@LINE+3]]:3: remark: offloaded GEMV (gemv)
__attribute__((noinline)) void rect(int n, double A[N][N], const double *x,
                                    double *y) {
  for (int i = 0; i < n; i++) {
    double s = 0;
    for (int j = 0; j < n; j++)
      s += A[i][j] * x[j];
    y[i] = s;
  }
}

static double M1[N][N], M2[N][N], M3[N][N], x[N], y[N], v[N], w[N];
static int rows[N];

int main(void) {
  for (int i = 0; i < N; i++) {
    for (int j = 0; j < N; j++) {
      double u = (double)((i * 31 + j * 17) % 23) / 23.0 - 0.5;
      M1[i][j] = u;
      M2[i][j] = u + (i == j ? N : 0);
      M3[i][j] = u;
    }
    x[i] = (double)(i % 7) / 7.0;
    v[i] = x[i];
    w[i] = 1.0;
    rows[i] = (i * 5) % N;
  }
  for (int i = 0; i < N; i++) // M1 = B B^T + N I: positive definite
    for (int j = 0; j <= i; j++) {
      double s = i == j ? N : 0;
      for (int k = 0; k < N; k++)
        s += M3[i][k] * M3[j][k];
      M1[i][j] = M1[j][i] = s;
    }
  cholesky(N, M1);
  lu(N, M2);
  trmv(N, M2, x, y);
  anti(N, M2, v);
  output(N, x, w);
  indirect(N, M3, rows, x);
  rect(N, M3, x, y);
  double c = 0;
  for (int i = 0; i < N; i++)
    for (int j = 0; j < N; j++)
      c += M1[i][j] * (i + 1) + M2[i][j] * (j + 1) + M3[i][j];
  for (int i = 0; i < N; i++)
    c += y[i] + v[i] + w[i];
  printf("%.17g\n", c);
  return 0;
}
