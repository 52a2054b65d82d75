// Loops over types and shapes the analyses do not model must end with a
// remark and leave the loop as it was, never crash the compiler: i128 and
// _BitInt accumulators and arrays (constants wider than 64 bits), pointer-
// typed induction variables, loops over pointers, huge constant strides
// (byte offsets that wrap i64), and a trip count of 2^32 from a wrapping i32.
// RUN: %clang-idiom -c %s -o /dev/null -Rpass=idiom-offload -Rpass-missed=idiom-offload 2>&1 | FileCheck %s
// RUN: %clang-idiom -O3 -c %s -o /dev/null -Rpass=idiom-offload -Rpass-missed=idiom-offload 2>&1 | FileCheck %s --check-prefix=ANY
// ANY-NOT: PLEASE submit a bug report
// ANY: remark:

__int128 sum128(const __int128 *a, int n) {
  __int128 s = 0;
  // CHECK-DAG: odd-types.c:[[@LINE+1]]:3: remark: loop is not an idiom
  for (int i = 0; i < n; i++)
    s += a[i] * (((__int128)1 << 100) + 7);
  return s;
}

void scale128(__int128 *b, const long *a, int n) {
  // CHECK-DAG: odd-types.c:[[@LINE+1]]:3: remark: idiom map not offloaded: cannot lift to FunIL: slice computes a value of unsupported type
  for (int i = 0; i < n; i++)
    b[i] = (__int128)a[i] * (((__int128)1 << 90) - 3);
}

unsigned _BitInt(37) sumbits(const unsigned _BitInt(37) *a, int n) {
  unsigned _BitInt(37) s = 0;
  // clang keeps _BitInt(37) in memory as i64 and the xor chain is i64: an
  // ordinary xor reduction.
  // CHECK-DAG: odd-types.c:[[@LINE+1]]:3: remark: offloaded scalar reduction (scalar-reduction) to OpenCL as {{.*}}: xor
  for (int i = 0; i < n; i++)
    s ^= a[i];
  return s;
}

void fill_bits(_BitInt(200) *b, int n) {
  // CHECK-DAG: odd-types.c:[[@LINE+1]]:3: remark: idiom map not offloaded: cannot lift to FunIL: slice computes a value of unsupported type
  for (int i = 0; i < n; i++)
    b[i] = (_BitInt(200))i << 150;
}

unsigned long sum_wide_iv(const unsigned *a, unsigned long n) {
  unsigned long s = 0;
  // An i128 induction variable with a step of 2^64 (indvars rewrites it to
  // an i64 counter, which is what the plugin sees).
  // CHECK-DAG: odd-types.c:[[@LINE+1]]:3: remark: {{offloaded|loop is not an idiom}}
  for (unsigned __int128 i = 0; i < ((unsigned __int128)n << 64); i += (unsigned __int128)1 << 64)
    s += a[(unsigned long)(i >> 64)];
  return s;
}

void zero_by_pointer(double *a, double *end) {
  // The trip count is ((end - a) / 8) in ptrtoint terms, which the Z3
  // translation of the dependence test does not model.
  // CHECK-DAG: odd-types.c:[[@LINE+1]]:3: remark: {{offloaded|loop is not an idiom}}
  for (double *p = a; p != end; ++p)
    *p = 1.0;
}

void shift_by_pointer(double *a, double *end) {
  // CHECK-DAG: odd-types.c:[[@LINE+1]]:3: remark: {{offloaded|loop is not an idiom}}
  for (double *p = a + 1; p < end; ++p)
    p[0] = p[-1] * 0.5;
}

long count_chars(const char *s) {
  long n = 0;
  // CHECK-DAG: odd-types.c:[[@LINE+1]]:3: remark: loop is not an idiom
  for (const char *p = s; *p; ++p)
    n += *p == 'x';
  return n;
}

double sum_list(double **rows, int n) {
  double s = 0;
  // A loop over an array of pointers, each dereferenced.
  // CHECK-DAG: odd-types.c:[[@LINE+1]]:3: remark: loop is not an idiom
  for (int i = 0; i < n; i++)
    s += *rows[i];
  return s;
}

void huge_stride(double *a, int n) {
  // (i << 60) elements of 8 bytes: byte strides that wrap around i64 (the
  // program is undefined for n > 2; it must still compile).
  // CHECK-DAG: odd-types.c:[[@LINE+1]]:3: remark: {{offloaded|loop is not an idiom}}
  for (long i = 0; i < n; i++)
    a[i << 60] = 1.0;
}

double huge_stride_sum(const double *a, int n) {
  double s = 0;
  // CHECK-DAG: odd-types.c:[[@LINE+1]]:3: remark: {{offloaded|loop is not an idiom}}
  for (long i = 0; i < n; i++)
    s += a[i * 0x7fffffffffffffffL];
  return s;
}

void wrap_trip(float *a) {
  // i runs over all 2^32 values of an unsigned int: the trip count is 2^32.
  // CHECK-DAG: odd-types.c:[[@LINE+1]]:3: remark: offloaded map (map)
  for (unsigned i = 1; i != 0; i++)
    a[i] = 2.0f;
}
