// Functions of another translation unit for run-other-tu.c: a host writer,
// an offloaded reduction and an offloaded map (each a stitched idiom of its
// own), and a residency region of its own.
long other_sum(const int *y, int n) {
  long s = 0;
  for (int i = 0; i < n; i++)
    s += y[i];
  return s;
}

void other_scale(int *y, int n) {
  for (int i = 0; i < n; i++)
    y[i] = (y[i] * 3) & 4095;
}

void other_bump(int *y, int n, int t) {
  y[t % n] += 1000;
  y[n - 1 - t % n] ^= 77;
}

long other_region(int *y, const int *x, int n, int steps) {
  long acc = 0;
  for (int t = 0; t < steps; t++) {
    for (int i = 0; i < n; i++)
      y[i] = (y[i] + x[i]) & 8191;
    long s = 0;
    for (int i = 0; i < n; i++)
      s += y[i];
    acc += s;
  }
  return acc;
}
