// Found building NLopt 2.7.1 (newuoa.c, newuob inlined into newuoa, whose
// arrays are slices of one work array; tools/realworld/nlopt.sh): an outer
// loop whose first inner loop computes a sum that is stored (vlag[j]) and
// used by the second inner loop, which writes into the same work array.
// Loop distribution (passes/LoopDistribution.cpp, sinkable) asks whether
// the second loop's stores stay clear of vlag[j]; the range of those
// stores over an inner loop of unknown trip count is a umin/umax of two
// pointers, whose pointer base is the min/max itself, so the distance
// getMinusSCEV(vlag + j, umax(...)) had no value (SCEVCouldNotCompute) and
// its getType() crashed clang (segfault in llvm::SCEV::getType). The
// distances are now taken between integer addresses (ptrtoint), and a
// distance that still has no value means "not proven apart". It must
// compile, with valid IR, with the loop's remarks, and the program must
// print what the plain build prints, every call forced onto the device.
// RUN: %clang-idiom -O2 -fverify-intermediate-code -c %s -o /dev/null -Rpass=idiom-offload -Rpass-missed=idiom-offload -Rpass-analysis=idiom-offload 2>&1 | FileCheck %s
// RUN: %clang -O2 -DMAIN %s -o %t.seq
// RUN: %clang-idiom -O2 -fverify-intermediate-code -DMAIN %s -lidiomrt -o %t.idiom
// RUN: %t.seq > %t.expected
// RUN: env IDIOM_MIN_TRIP=0 %t.idiom > %t.out
// RUN: diff %t.expected %t.out

// CHECK: distribution-minmax-range.c:[[@LINE+5]]:3: remark: loop not distributed into its parts: its iterations are not proven independent
void update(double *w, const double *x, const double *z, int n, int npt,
            int ld) {
  double *vlag = w + 1;
  double *bmat = w + npt + n + 2;
  for (int j = 1; j <= n; j++) {
    double sum = 0.0;
    for (int i = 1; i <= npt; i++)
      sum += x[i + j * ld];
    vlag[j] = sum;
    for (int i = 1; i <= npt; i++)
      bmat[i + j * ld] += sum * z[i];
  }
}

#ifdef MAIN
#include <stdio.h>

int main(void) {
  enum { N = 40, NPT = 300, LD = NPT + 1 };
  static double w[2 + N + NPT + (N + 1) * LD + 8], x[(N + 1) * LD + 8],
      z[NPT + 1];
  for (int i = 0; i < (N + 1) * LD + 8; i++)
    x[i] = (i % 17) * 0.25 - 1.0;
  for (int i = 0; i <= NPT; i++)
    z[i] = (i % 5) * 0.5;
  for (int rep = 0; rep < 3; rep++)
    update(w, x, z, N, NPT, LD);
  double s = 0.0;
  for (unsigned i = 0; i < sizeof w / sizeof w[0]; i++)
    s += w[i] * (double)(i % 7 + 1);
  printf("%.17g %.17g %.17g\n", s, w[1 + N], w[2 + N + NPT + LD + 3]);
  return 0;
}
#endif
