// Row temporaries (passes/RowTemporaries.h): a row loop whose first inner
// loop fills local arrays that the next inner loop reads at neighbouring
// elements (NAS MG's psinv and resid) is privatised, each read replaced by
// the fill expression at that element, and the nest, now perfect, is a 3-D
// (or 2-D) map; two loops that read the temporaries are fused
// (passes/ConsumerFusion.h, more in consumer-fusion.c). Negatives, each with
// the reason: the temporary read after the nest, read at an element the row
// does not write (before the first, beyond the last: a value carried from
// an earlier row), read before the row fills it, passed to a call, written
// outside its fill loop (an initialising memset), written on some
// iterations only, and a fill loop with a call.
// RUN: %clang-idiom -g -c %s -o /dev/null -Rpass=idiom-offload -Rpass-missed=idiom-offload 2>&1 | FileCheck %s
#define N 34
void use(double *);
double noise(int);

// Positive, constant sizes: the 27-point smoother of NAS MG (psinv).
void smooth(double (*r)[N][N], double (*u)[N][N], const double *c) {
  double r1[N], r2[N];
  // CHECK: row-temporaries.c:[[@LINE+1]]:3: remark: offloaded 3-D map (map)
  for (int i3 = 1; i3 < N - 1; i3++)
    for (int i2 = 1; i2 < N - 1; i2++) {
      for (int i1 = 0; i1 < N; i1++) {
        r1[i1] = r[i3][i2 - 1][i1] + r[i3][i2 + 1][i1] + r[i3 - 1][i2][i1] + r[i3 + 1][i2][i1];
        r2[i1] = r[i3 - 1][i2 - 1][i1] + r[i3 - 1][i2 + 1][i1] + r[i3 + 1][i2 - 1][i1] + r[i3 + 1][i2 + 1][i1];
      }
      for (int i1 = 1; i1 < N - 1; i1++)
        u[i3][i2][i1] = u[i3][i2][i1] + c[0] * r[i3][i2][i1] +
                        c[1] * (r[i3][i2][i1 - 1] + r[i3][i2][i1 + 1] + r1[i1]) +
                        c[2] * (r2[i1] + r1[i1 - 1] + r1[i1 + 1]);
    }
}

// 2-D: rows of a plane.
void smooth2d(int n, double (*a)[n], double (*b)[n]) {
  double t[1024];
  // CHECK: row-temporaries.c:[[@LINE+1]]:3: remark: offloaded 2-D map (map)
  for (int j = 1; j < n - 1; j++) {
    for (int i = 0; i < n; i++)
      t[i] = a[j - 1][i] + a[j + 1][i];
    for (int i = 1; i < n - 1; i++)
      b[j][i] = 0.5 * a[j][i] + 0.125 * (t[i - 1] + t[i] + t[i + 1]);
  }
}

// The temporary is read after the nest.
double read_after(double (*a)[N][N], double (*b)[N][N]) {
  double t[N];
  // CHECK: row-temporaries.c:[[@LINE+1]]:3: remark: row temporaries not privatised: row temporary 't' is read outside the nest (the last row's values would have to be written back)
  for (int k = 1; k < N - 1; k++)
    for (int j = 1; j < N - 1; j++) {
      for (int i = 0; i < N; i++)
        t[i] = a[k][j - 1][i] + a[k][j + 1][i];
      for (int i = 1; i < N - 1; i++)
        b[k][j][i] = t[i - 1] + t[i + 1];
    }
  return t[5];
}

// Read at an element the fill does not write in this row (t[0]).
void read_before(double (*a)[N][N], double (*b)[N][N]) {
  double t[N];
  // CHECK: row-temporaries.c:[[@LINE+1]]:3: remark: row temporaries not privatised: row temporary 't' is read at an element before the first one its fill loop writes in the row (a value carried from an earlier row)
  for (int k = 1; k < N - 1; k++)
    for (int j = 1; j < N - 1; j++) {
      for (int i = 1; i < N; i++)
        t[i] = a[k][j - 1][i] + a[k][j + 1][i];
      for (int i = 1; i < N - 1; i++)
        b[k][j][i] = t[i - 1] + t[i + 1];
    }
}

// Read beyond the last element written in this row.
void read_beyond(double (*a)[N][N], double (*b)[N][N]) {
  double t[N];
  // CHECK: row-temporaries.c:[[@LINE+1]]:3: remark: row temporaries not privatised: row temporary 't' is read beyond the last element its fill loop writes in the row (a value carried from an earlier row)
  for (int k = 1; k < N - 1; k++)
    for (int j = 1; j < N - 1; j++) {
      for (int i = 0; i < N - 2; i++)
        t[i] = a[k][j - 1][i] + a[k][j + 1][i];
      for (int i = 1; i < N - 1; i++)
        b[k][j][i] = t[i - 1] + t[i + 1];
    }
}

// Carried across rows: read before the row fills it.
void carried(double (*a)[N][N], double (*b)[N][N]) {
  double t[N];
  // CHECK: row-temporaries.c:[[@LINE+1]]:3: remark: row temporaries not privatised: a loop that fills row temporaries does not run before the loop that reads them on every path through the row (its header does not dominate the reader's preheader: a value may be carried from an earlier row)
  for (int k = 1; k < N - 1; k++)
    for (int j = 1; j < N - 1; j++) {
      for (int i = 1; i < N - 1; i++)
        b[k][j][i] = t[i - 1] + t[i + 1];
      for (int i = 0; i < N; i++)
        t[i] = a[k][j - 1][i] + a[k][j + 1][i];
    }
}

// Two loops read the temporaries: fused (passes/ConsumerFusion.h; their
// arrays b and c checked disjoint at run time), one 3-D map.
void two_consumers(double (*a)[N][N], double (*b)[N][N], double (*c)[N][N]) {
  double t[N];
  // CHECK: row-temporaries.c:[[@LINE+1]]:3: remark: offloaded 3-D map (map)
  for (int k = 1; k < N - 1; k++)
    for (int j = 1; j < N - 1; j++) {
      for (int i = 0; i < N; i++)
        t[i] = a[k][j - 1][i] + a[k][j + 1][i];
      for (int i = 1; i < N - 1; i++)
        b[k][j][i] = t[i - 1] + t[i + 1];
      for (int i = 1; i < N - 1; i++)
        c[k][j][i] = 2.0 * t[i];
    }
}

// The temporary escapes to a call.
void escapes(double (*a)[N][N], double (*b)[N][N]) {
  double t[N];
  // CHECK: row-temporaries.c:[[@LINE+1]]:3: remark: row temporaries not privatised: row temporary 't' escapes (used by call)
  for (int k = 1; k < N - 1; k++)
    for (int j = 1; j < N - 1; j++) {
      for (int i = 0; i < N; i++)
        t[i] = a[k][j - 1][i] + a[k][j + 1][i];
      for (int i = 1; i < N - 1; i++)
        b[k][j][i] = t[i - 1] + t[i + 1];
      use(t);
    }
}

// Written outside its fill loop: the initialisation is a memset.
void initialised(double (*a)[N][N], double (*b)[N][N]) {
  double t[N] = {0};
  // CHECK: row-temporaries.c:[[@LINE+1]]:3: remark: row temporaries not privatised: row temporary 't' is written outside its fill loop (llvm.memset
  for (int k = 1; k < N - 1; k++)
    for (int j = 1; j < N - 1; j++) {
      for (int i = 0; i < N; i++)
        t[i] = a[k][j - 1][i] + a[k][j + 1][i];
      for (int i = 1; i < N - 1; i++)
        b[k][j][i] = t[i - 1] + t[i + 1];
    }
}

// A fill loop with a call that is not pure.
void impure_fill(double (*a)[N][N], double (*b)[N][N]) {
  double t[N];
  // CHECK: row-temporaries.c:[[@LINE+1]]:3: remark: row temporaries not privatised: a loop that fills row temporaries has an instruction other than pure arithmetic, loads and the temporaries' stores (call)
  for (int k = 1; k < N - 1; k++)
    for (int j = 1; j < N - 1; j++) {
      for (int i = 0; i < N; i++)
        t[i] = a[k][j - 1][i] + noise(i);
      for (int i = 1; i < N - 1; i++)
        b[k][j][i] = t[i - 1] + t[i + 1];
    }
}

// Written only on some iterations of the fill loop: the other elements
// keep an earlier row's values.
void conditional_fill(double (*a)[N][N], double (*b)[N][N]) {
  double t[N];
  // CHECK: row-temporaries.c:[[@LINE+1]]:3: remark: row temporaries not privatised: row temporary 't' is written only on some iterations of its fill loop
  for (int k = 1; k < N - 1; k++)
    for (int j = 1; j < N - 1; j++) {
      for (int i = 0; i < N; i++)
        if (a[k][j][i] > 0.0)
          t[i] = a[k][j - 1][i] + a[k][j + 1][i];
      for (int i = 1; i < N - 1; i++)
        b[k][j][i] = t[i - 1] + t[i + 1];
    }
}

// Two fill loops, one temporary each, in float.
void two_fills(int n, int m, float (*a)[n], float (*b)[n]) {
  float t1[512], t2[512];
  // CHECK: row-temporaries.c:[[@LINE+1]]:3: remark: offloaded 2-D map (map)
  for (int j = 1; j < m - 1; j++) {
    for (int i = 0; i < n; i++)
      t1[i] = a[j - 1][i] * 2.0f + a[j + 1][i];
    for (int i = 0; i < n; i++)
      t2[i] = a[j][i] - a[j - 1][i];
    for (int i = 1; i < n - 1; i++)
      b[j][i] = t1[i - 1] * t2[i + 1] + t1[i + 1] - t2[i - 1] + t1[i];
  }
}

// NAS MG's restriction (rprj3): the temporary filled and read at odd
// elements (a stride of two), on a grid twice as fine as the output.
void restrict_rows(int n, int m, double (*a)[2 * n + 2], double (*b)[n]) {
  double x[1030];
  // CHECK: row-temporaries.c:[[@LINE+1]]:3: remark: offloaded 2-D map (map)
  for (int j = 1; j < m - 1; j++) {
    for (int k = 1; k < n; k++) {
      int i = 2 * k - 1;
      x[i] = a[2 * j][i] + a[2 * j - 1][i];
    }
    for (int k = 1; k < n - 1; k++) {
      int i = 2 * k - 1;
      b[j][k] = 0.5 * x[i] + 0.25 * x[i + 2];
    }
  }
}

// Rows inside a time loop whose buffers swap: the nest is the row loop
// (versioned at each step), and the fill loop's own guard (n > 0) holds
// wherever the row loop runs (n > 2). Privatised, the row nest is perfect:
// a stencil with reads forwarded from the previous iteration (detected
// only), so the copy is dropped and the unchanged nest runs.
void time_rows(int n, int steps, double (*a)[n], double (*b)[n]) {
  double t[1024];
  for (int s = 0; s < steps; s++) {
    // CHECK: row-temporaries.c:[[@LINE+1]]:5: remark: detected idiom stencil
    for (int j = 1; j < n - 1; j++) {
      for (int i = 0; i < n; i++)
        t[i] = a[j - 1][i] + a[j + 1][i];
      for (int i = 1; i < n - 1; i++)
        b[j][i] = 0.5 * a[j][i] + 0.25 * (t[i - 1] + t[i + 1]);
    }
    double (*tmp)[n] = a;
    a = b;
    b = tmp;
  }
}
