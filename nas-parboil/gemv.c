/*
 * gemv.c - dense matrix-vector products y = A x and y = A^T x, written as
 * PolyBench writes them: mvt (x1 += A y1 and x2 += A^T y2, both as row
 * sweeps), bicg (s = A^T r with i outer and s[j] updated in the inner loop,
 * q = A p), atax (tmp = A x, y = A^T tmp), and the bicg nest with both
 * products fused in one i/j loop, on a 4096 x 4096 float matrix (64 MB; each
 * product has 4096 outputs, the runtime's default IDIOM_MIN_TRIP). A Gauss-Seidel-like sweep that reads
 * the vector it writes must stay sequential.
 *
 * Loops carry a trailing marker comment on their `for` line:
 *   idiom: gemv | gemv-pair | map | reduction  -- expected to be offloaded
 *   not-idiom: REASON              -- must stay sequential
 *   maybe: REASON                  -- either is fine
 * Output: "n N" first, then "label value" lines (see compare.py); ".f32"
 * labels hold single-precision results (here every vector).
 *
 * Every element of a GEMV is summed in the loop's order, on the device as on
 * the host, so the vectors are the sequential ones bit for bit; only the
 * checksums (reductions over a vector) are reassociated, within the default
 * tolerance of compare.py.
 */
#include <stdio.h>

#define N 4096

static float A[N][N];
static float x1[N], x2[N], y1[N], y2[N];
static float s[N], q[N], r[N], p[N], s2[N], q2[N], gs[N];
static float xf[N], yf[N], tmpf[N];

/* Uniform values in [-1, 1) from a 31-bit LCG (deterministic, no rand()). */
static unsigned lcg_state = 4711u;
static float next_uniform(void)
{
  lcg_state = lcg_state * 1103515245u + 12345u;
  return (float)((lcg_state >> 8) & 0xffffff) / 8388608.0f - 1.0f;
}

static void fill(float *v, long len)
{
  long i;
  for (i = 0; i < len; i++) /* not-idiom: recurrence (LCG state) */
    v[i] = next_uniform();
}

/* PolyBench mvt: x1 = x1 + A y1; x2 = x2 + A^T y2. */
static void mvt(int n)
{
  int i, j;
  for (i = 0; i < n; i++) /* idiom: gemv (row sweep, x1[i] updated in place) */
    for (j = 0; j < n; j++)
      x1[i] = x1[i] + A[i][j] * y1[j];
  for (i = 0; i < n; i++) /* idiom: gemv (A^T as a column sweep) */
    for (j = 0; j < n; j++)
      x2[i] = x2[i] + A[j][i] * y2[j];
}

/* PolyBench bicg, the two products in separate nests. */
static void bicg_split(int n)
{
  int i, j;
  for (i = 0; i < n; i++) /* maybe: map (s = 0; LLVM makes it a memset) */
    s[i] = 0.0;
  for (i = 0; i < n; i++) /* idiom: gemv (transposed: s[j] += r[i] * A[i][j], i outer) */
    for (j = 0; j < n; j++)
      s[j] = s[j] + r[i] * A[i][j];
  for (i = 0; i < n; i++) { /* idiom: gemv (q[i] = 0, then q[i] += A[i][j] * p[j]) */
    q[i] = 0.0;
    for (j = 0; j < n; j++)
      q[i] = q[i] + A[i][j] * p[j];
  }
}

/* PolyBench bicg as written there: both products in one nest. */
static void bicg_fused(int n)
{
  int i, j;
  for (i = 0; i < n; i++) /* maybe: map (s2 = 0; LLVM makes it a memset) */
    s2[i] = 0.0;
  for (i = 0; i < n; i++) { /* idiom: gemv-pair (GEMV and GEMV^T: two kernels, one call) */
    q2[i] = 0.0;
    for (j = 0; j < n; j++) {
      s2[j] = s2[j] + r[i] * A[i][j];
      q2[i] = q2[i] + A[i][j] * p[j];
    }
  }
}

/* PolyBench atax: tmp = A x; y = A^T tmp. */
static void atax(int n)
{
  int i, j;
  for (i = 0; i < n; i++) /* maybe: map (y = 0; LLVM makes it a memset) */
    yf[i] = 0.0f;
  for (i = 0; i < n; i++) { /* idiom: gemv (tmp[i] = 0, then tmp[i] += A[i][j] * x[j]) */
    tmpf[i] = 0.0f;
    for (j = 0; j < n; j++)
      tmpf[i] = tmpf[i] + A[i][j] * xf[j];
  }
  for (i = 0; i < n; i++) /* idiom: gemv (transposed: y[j] += A[i][j] * tmp[i]) */
    for (j = 0; j < n; j++)
      yf[j] = yf[j] + A[i][j] * tmpf[i];
}

/* A Gauss-Seidel-like sweep: row i reads the elements of gs updated by the
   rows before it, so the rows are not independent. */
static void sweep(int n)
{
  int i, j;
  for (i = 0; i < n; i++) /* not-idiom: gs read at another index (rows depend on earlier rows) */
    for (j = 0; j < n; j++)
      gs[i] = gs[i] + 1e-3f * A[i][j] * gs[j];
}

static double checksum(const float *v, int n)
{
  double c = 0;
  int i;
  for (i = 0; i < n; i++) /* idiom: reduction (sum) */
    c += v[i];
  return c;
}

static void print_vector(const char *name, const float *v, int n)
{
  int k;
  printf("%s_sum.f32 %.10e\n", name, checksum(v, n));
  for (k = 0; k < 8; k++) {
    int i = (k * 263 + 7) % n;
    printf("%s_%d.f32 %.10e\n", name, i, (double)v[i]);
  }
}

int main(void)
{
  int i;
  fill(&A[0][0], (long)N * N);
  fill(x1, N);
  fill(x2, N);
  fill(y1, N);
  fill(y2, N);
  fill(r, N);
  fill(p, N);
  fill(gs, N);
  for (i = 0; i < N; i++) /* idiom: map (x = p / 2) */
    xf[i] = 0.5f * p[i];

  mvt(N);
  bicg_split(N);
  bicg_fused(N);
  atax(N);
  sweep(N);

  printf("n %d\n", N);
  print_vector("mvt_x1", x1, N);
  print_vector("mvt_x2", x2, N);
  print_vector("bicg_s", s, N);
  print_vector("bicg_q", q, N);
  print_vector("bicg_fused_s", s2, N);
  print_vector("bicg_fused_q", q2, N);
  print_vector("sweep", gs, N);
  print_vector("atax_tmp", tmpf, N);
  print_vector("atax_y", yf, N);
  return 0;
}
