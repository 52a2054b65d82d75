// Helpers of the GEMM run tests (gemm.c, gemm-chain.c, gemm-prologue.c):
// deterministic inputs in [-1, 1] and output blocks for tolcompare.py.
#ifndef IDIOM_TEST_GEMM_CHECK_H
#define IDIOM_TEST_GEMM_CHECK_H
#include <stdio.h>

/// Element i of input number salt: a multiple of 1/1000 in [-1, 1].
static float val(int i, int salt) {
  return (float)(((i * 7919 + salt * 104729) % 2001) - 1000) / 1000.0f;
}

/// Prints x[0..n) as the block `name` of tolcompare.py with tolerance tol.
static void print_f(const char *name, const float *x, int n, double tol) {
  printf("tol %s %.3g\n", name, tol);
  for (int i = 0; i < n; i++)
    printf("%s %d %.9g\n", name, i, x[i]);
}
#endif
