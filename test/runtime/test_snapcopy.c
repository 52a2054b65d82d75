/*===- test_snapcopy.c - The residency entries' snapshot copies -----------===*
 *
 * snapshot_copy: idiomrt_snapshot_copy (runtime/lib/parcopy.c) returns an
 * exact copy of its source, small or split over the copy threads, and, on a
 * kernel with transparent huge pages (any mode but "never"), the copy's
 * whole 2 MiB pages carry the huge-page advice: /proc/self/smaps lists the
 * mapping that holds them with the "hg" VmFlag (the advice is what the
 * runtime controls; whether the kernel then finds huge pages is its own
 * affair, so it is not checked). Where the kernel has no transparent huge
 * pages, only the copies are checked.
 *
 *===----------------------------------------------------------------------===*/
#include "rt_internal.h" /* idiomrt_snapshot_copy */
#include "test_common.h"

#include <stdlib.h>
#include <string.h>

/* 1 when the smaps mapping holding address a has flag ("hg") among its
   VmFlags, 0 when not, -1 when smaps cannot be read. */
static int vm_flag(uintptr_t a, const char *flag) {
  FILE *f = fopen("/proc/self/smaps", "r");
  if (!f)
    return -1;
  char line[512];
  int in = 0, found = 0;
  while (fgets(line, sizeof line, f)) {
    unsigned long lo, hi;
    if (sscanf(line, "%lx-%lx ", &lo, &hi) == 2 && strchr(line, '-') &&
        line[0] != 'V') {
      in = a >= lo && a < hi;
      continue;
    }
    if (in && strncmp(line, "VmFlags:", 8) == 0) {
      char want[8];
      snprintf(want, sizeof want, " %s", flag);
      for (char *p = line + 8; (p = strstr(p, want)); p += 3)
        if (p[3] == ' ' || p[3] == '\n' || p[3] == '\0')
          found = 1;
      break;
    }
  }
  fclose(f);
  return found;
}

/* The kernel's transparent huge page mode is not "never" (nor absent). */
static int thp_on(void) {
  FILE *f = fopen("/sys/kernel/mm/transparent_hugepage/enabled", "r");
  if (!f)
    return 0;
  char buf[128] = "";
  int ok = fgets(buf, sizeof buf, f) != NULL && !strstr(buf, "[never]");
  fclose(f);
  return ok;
}

void case_snapshot_copy(void) {
  const size_t sizes[] = {0, 1, 4095, (size_t)9 << 20 | 12345};
  for (unsigned k = 0; k < sizeof sizes / sizeof sizes[0]; ++k) {
    size_t n = sizes[k];
    unsigned char *src = malloc(n ? n : 1);
    CHECK(src);
    if (!src)
      return;
    for (size_t i = 0; i < n; ++i)
      src[i] = (unsigned char)(i * 131 + 7);
    unsigned char *c = idiomrt_snapshot_copy(src, n);
    CHECK_MSG(c && memcmp(c, src, n) == 0, "copy of %zu bytes differs", n);
    if (c && n >= ((size_t)4 << 20) && thp_on()) {
      uintptr_t in = ((uintptr_t)c + ((uintptr_t)2 << 20) - 1) &
                     ~(((uintptr_t)2 << 20) - 1);
      int hg = vm_flag(in, "hg");
      CHECK_MSG(hg == 1, "%zu-byte copy: huge-page advice %d", n, hg);
      /* the source (a plain malloc) has none: the check can tell */
      CHECK(vm_flag(((uintptr_t)src + ((uintptr_t)2 << 20)) &
                        ~(((uintptr_t)2 << 20) - 1),
                    "hg") == 0);
    }
    free(c);
    free(src);
  }
}
