// Per-row products through a temporary, batched (passes/RowProducts.h):
// PolyBench doitgen's `for r, q { for p { sum[p] = 0; for s sum[p] +=
// A[r][q][s] * C4[s][p]; } for p A[r][q][p] = sum[p]; }` is one GEMM over
// the flattened (r, q) rows into an expanded temporary, remarked at the
// outer row loop; so are the form with one row loop and a local temporary
// and the form with constant sizes.
// Negatives, each with the reason: the copy goes into the next row (a row
// reads what an earlier row wrote), the s range depends on q (the rows do
// not flatten).
// RUN: %clang-idiom -g -c %s -o /dev/null -Rpass=idiom-offload -Rpass-missed=idiom-offload 2>&1 | FileCheck %s

// PolyBench 4's kernel: the temporary is the caller's (it may alias A or
// C4: checked at run time), sizes are parameters.
void doitgen(int nr, int nq, int np, double A[nr][nq][np], double C4[np][np],
             double sum[np]) {
  // CHECK: row-products.c:[[@LINE+1]]:3: remark: offloaded GEMM (gemm)
  for (int r = 0; r < nr; r++)
    for (int q = 0; q < nq; q++) {
      for (int p = 0; p < np; p++) {
        sum[p] = 0.0;
        for (int s = 0; s < np; s++)
          sum[p] += A[r][q][s] * C4[s][p];
      }
      for (int p = 0; p < np; p++)
        A[r][q][p] = sum[p];
    }
}

// One row loop, a local temporary, float.
#define P 64
void rows(int n, float (*a)[P], const float (*c)[P]) {
  float t[P];
  // CHECK: row-products.c:[[@LINE+1]]:3: remark: offloaded GEMM (gemm)
  for (int q = 0; q < n; q++) {
    for (int p = 0; p < P; p++) {
      float acc = 0.0f;
      for (int s = 0; s < P; s++)
        acc += a[q][s] * c[s][p];
      t[p] = acc;
    }
    for (int p = 0; p < P; p++)
      a[q][p] = t[p];
  }
}

// Constant sizes: the GEP indexes a[r][q][s] with r and q themselves (they
// do not flatten; the address does).
void fixed(int nr, double (*a)[16][P], const double (*c)[P]) {
  double t[P];
  // CHECK: row-products.c:[[@LINE+1]]:3: remark: offloaded GEMM (gemm)
  for (int r = 0; r < nr; r++)
    for (int q = 0; q < 16; q++) {
      for (int p = 0; p < P; p++) {
        double acc = 0.0;
        for (int s = 0; s < P; s++)
          acc += a[r][q][s] * c[s][p];
        t[p] = acc;
      }
      for (int p = 0; p < P; p++)
        a[r][q][p] = t[p];
    }
}

// Each row's product goes into the next row, which the next q reads.
void chain(int n, double (*a)[P], const double (*c)[P]) {
  double t[P];
  // CHECK: row-products.c:[[@LINE+1]]:3: remark: row products not batched: the fill loop reads before its own row of the copies' destination (a row that an earlier row's copy wrote)
  for (int q = 0; q + 1 < n; q++) {
    for (int p = 0; p < P; p++) {
      double acc = 0.0;
      for (int s = 0; s < P; s++)
        acc += a[q][s] * c[s][p];
      t[p] = acc;
    }
    for (int p = 0; p < P; p++)
      a[q + 1][p] = t[p];
  }
}

// The s range depends on q: no GEMM over the flattened rows.
void triangle(int nr, double (*a)[P][P], const double (*c)[P]) {
  double t[P];
  // CHECK: row-products.c:[[@LINE+1]]:3: remark: row products not batched: the fill loop uses a value that varies with the row loops otherwise than with the flattened row
  for (int r = 0; r < nr; r++)
    for (int q = 0; q < P; q++) {
      for (int p = 0; p < P; p++) {
        double acc = 0.0;
        for (int s = 0; s <= q; s++)
          acc += a[r][q][s] * c[s][p];
        t[p] = acc;
      }
      for (int p = 0; p < P; p++)
        a[r][q][p] = t[p];
    }
}
