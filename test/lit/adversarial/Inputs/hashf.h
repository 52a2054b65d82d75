// A hash of the bits of \p n floats, so that a test prints one line per
// array and any changed bit changes it (fp-fma.c, fp-contract-fast.c).
#include <stdint.h>
#include <string.h>

static uint32_t hashf(const float *v, int n) {
  uint32_t h = 0;
  for (int i = 0; i < n; i++) {
    uint32_t u;
    memcpy(&u, &v[i], 4);
    h = h * 16777619u ^ u;
  }
  return h;
}
