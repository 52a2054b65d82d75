// The C++ twin of scale.c for idiom-c++.
#include <cstdio>
#include <vector>

__attribute__((noinline)) static void scale(float *__restrict o,
                                            const float *__restrict x, float a,
                                            int n) {
  for (int i = 0; i < n; i++)
    o[i] = a * x[i];
}

int main() {
  const int N = 1 << 16;
  std::vector<float> x(N), o(N);
  for (int i = 0; i < N; i++)
    x[i] = static_cast<float>(i % 7);
  scale(o.data(), x.data(), 3.0f, N);
  long bad = 0;
  for (int i = 0; i < N; i++)
    bad += o[i] != 3.0f * static_cast<float>(i % 7);
  std::printf("scale: %ld wrong\n", bad);
  return bad != 0;
}
