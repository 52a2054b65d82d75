// For run-calls.c: calls a function of that translation unit (which runs an
// idiom and is a region's callee there) twice, reading and writing the
// buffer on the host between the calls.
#include <stdio.h>

void bump(int *y, const int *x, int n);

void twice_from_other_tu(int *y, const int *x, int n) {
  bump(y, x, n);
  printf("%d\n", y[1]);
  y[2] = 12345;
  bump(y, x, n);
  printf("%d %d\n", y[2], y[n - 1]);
}
