/*===- writeback.c - Write back only the bytes a kernel changed -----------===*
 *
 * An OUT or INOUT range is the span of the elements the loop may write; it
 * can hold bytes that the loop never writes (the other fields of an array of
 * structs, the elements a conditional store skips) and that other threads
 * may write while the kernel runs. Copying the whole range back would revert
 * those writes. Unless the argument carries IDIOM_ARG_DENSE (the kernel
 * writes every byte of the range), the runtime keeps a snapshot of the bytes
 * it copied in (the device buffer is filled from the snapshot, not from the
 * live host memory), and after the kernels writes to the host only the bytes
 * whose device value differs from the snapshot. A byte the loop does not
 * write keeps its snapshot value on the device and is never stored to; a
 * byte the loop writes with the value it already had needs no store. Stores
 * are byte stores, or whole 8-byte words when every byte of the word
 * changed, so no byte outside the changed ones is ever written.
 *
 *===----------------------------------------------------------------------===*/
#include "rt_internal.h"

#include <string.h>

void idiomrt_write_changed(void *host, const void *dev, const void *snap,
                           size_t n) {
  unsigned char *h = host;
  const unsigned char *d = dev, *s = snap;
  size_t i = 0;
  for (; i + 8 <= n; i += 8) {
    uint64_t dw, sw;
    memcpy(&dw, d + i, 8);
    memcpy(&sw, s + i, 8);
    uint64_t x = dw ^ sw;
    if (x == 0)
      continue;
    /* every byte differs: one 8-byte store covers only changed bytes */
    if (((x - 0x0101010101010101ull) & ~x & 0x8080808080808080ull) == 0) {
      memcpy(h + i, &dw, 8);
      continue;
    }
    for (size_t k = 0; k < 8; ++k)
      if (d[i + k] != s[i + k])
        h[i + k] = d[i + k];
  }
  for (; i < n; ++i)
    if (d[i] != s[i])
      h[i] = d[i];
}
