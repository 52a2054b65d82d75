// An offloaded reduction whose result feeds a later offloaded idiom of the
// same function (GSL's gsl_ran_dirichlet: norm = sum(theta); theta[i] /= norm).
// Stitching the reduction merges the device and fallback results in a new
// phi; the later idiom's scalar argument, trip count and guard must use that
// phi, not the fallback loop's exit value, which does not dominate the later
// runtime call (the verifier rejects the function; without it the call read
// an undefined register: means of 1e286 or inf in GSL's randist test).
// RUN: %clang-idiom -g -fverify-intermediate-code -fno-discard-value-names -S -emit-llvm %s -o %t.ll
// RUN: FileCheck %s < %t.ll

// CHECK-LABEL: define {{.*}} @normalise(
// CHECK: call i32 @idiom_run(ptr {{.*}}@idiom_normalise_0.desc
// CHECK: idiom.join:
// CHECK-NEXT: %[[NORM:[^ ]+]] = phi double
// The map's scalar argument (the divisor) is the merged result.
// CHECK: store double %[[NORM]], ptr
// CHECK: call i32 @idiom_run(ptr {{.*}}@idiom_normalise_1.desc
void normalise(unsigned long k, double *theta) {
  double norm = 0.0;
  for (unsigned long i = 0; i < k; i++)
    norm += theta[i];
  if (norm < 1e-150)
    return;
  for (unsigned long i = 0; i < k; i++)
    theta[i] /= norm;
}

// A count reduction that is the next loop's trip count (a runtime size).
// CHECK-LABEL: define {{.*}} @count_then_fill(
// CHECK: call i32 @idiom_run(ptr {{.*}}@idiom_count_then_fill_{{[0-9]+}}.desc
// CHECK: idiom.join:
// CHECK-NEXT: %[[CNT:[^ ]+]] = phi i64
// CHECK: store i64 %[[CNT]], ptr %idiom.sizes
// CHECK: call i32 @idiom_run(ptr {{.*}}@idiom_count_then_fill_{{[0-9]+}}.desc
long count_then_fill(const int *m, long n, double *out) {
  long c = 0;
  for (long i = 0; i < n; i++)
    c += m[i] != 0;
  for (long i = 0; i < c; i++)
    out[i] = 2.0 * (double)i;
  return c;
}
