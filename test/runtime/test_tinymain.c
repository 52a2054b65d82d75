/*===- test_tinymain.c - The stack a site's first call takes --------------===*
 *
 * Issue 12, helper "tinymain" (docs/Benchmarks.md): bench/policy_tiny.c's
 * plugin build took one page fault more on the stack than its sequential
 * build. The profile's key (profile.c, exe_identity: the program's build ID
 * and the host's name) was computed in a frame of 4.6 KB, most of it the
 * PATH_MAX buffer of the fallback for a program without a build ID, and the
 * constructor's first calls into libc under that frame (lazy binding saves
 * the vector registers below it) reached a page no sequential start
 * touches.
 *
 *  - tinymain_key_stack: the stack that a site's first call takes to
 *    compute the profile's key and read the profile, beyond what the libc
 *    calls it makes take by themselves, is below KEY_STACK_MAX (measured
 *    on a painted stack of a thread, in a child run with LD_BIND_NOW=1 so
 *    that the depth is the runtime's frames and not the CPU's vector
 *    state saved by lazy binding: 4896 bytes before, 544 now).
 *
 *===----------------------------------------------------------------------===*/
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include "rt_internal.h"
#include "test_common.h"

#include <elf.h>
#include <link.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

enum { STACK_BYTES = 256 * 1024, KEY_STACK_MAX = 3072, PAINT = 0xa5 };

static int stop_at_first(struct dl_phdr_info *info, size_t size, void *arg) {
  (void)info, (void)size, (void)arg;
  return 1;
}

/* 1 when the program (dl_iterate_phdr's first object) has a GNU build ID
   note, which the key is computed from (without one, the fallback's
   PATH_MAX buffer is the key's path and this case does not apply). */
static int has_build_id(struct dl_phdr_info *info, size_t size, void *arg) {
  (void)size;
  for (int i = 0; i < info->dlpi_phnum; ++i) {
    const ElfW(Phdr) *ph = &info->dlpi_phdr[i];
    if (ph->p_type != PT_NOTE)
      continue;
    const char *p = (const char *)(info->dlpi_addr + ph->p_vaddr);
    const char *end = p + ph->p_memsz;
    while (p + sizeof(ElfW(Nhdr)) <= end) {
      const ElfW(Nhdr) *nh = (const ElfW(Nhdr) *)p;
      size_t name = (nh->n_namesz + 3) & ~3u, desc = (nh->n_descsz + 3) & ~3u;
      if (nh->n_type == NT_GNU_BUILD_ID)
        *(int *)arg = 1;
      p += sizeof *nh + name + desc;
    }
  }
  return 1;
}

/* What the runtime's path calls in libc, by itself (the baseline). */
static void *libc_calls(void *arg) {
  (void)arg;
  char host[256];
  gethostname(host, sizeof host);
  dl_iterate_phdr(stop_at_first, NULL);
  free(malloc(sizeof(idiomrt_entry)));
  free(strdup("/tmp/x"));
  return NULL;
}

/* A site's first call as far as its registry entry: the configuration,
   the profile's key and the profile's read (registry.c, profile.c). */
static void *first_entry(void *arg) {
  libc_calls(NULL);
  *(idiomrt_entry **)arg = idiomrt_entry_get(hint_desc());
  return NULL;
}

/* The bytes of stack fn took on a fresh thread whose stack was painted. */
static size_t stack_used(void *(*fn)(void *), void *arg) {
  unsigned char *stk = mmap(NULL, STACK_BYTES, PROT_READ | PROT_WRITE,
                            MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  CHECK(stk != MAP_FAILED);
  memset(stk, PAINT, STACK_BYTES);
  pthread_attr_t a;
  pthread_attr_init(&a);
  CHECK(pthread_attr_setstack(&a, stk, STACK_BYTES) == 0);
  pthread_t t;
  CHECK(pthread_create(&t, &a, fn, arg) == 0);
  pthread_join(t, NULL);
  pthread_attr_destroy(&a);
  size_t low = 0; /* the stack grows down from the top of the block */
  while (low < STACK_BYTES && stk[low] == PAINT)
    ++low;
  munmap(stk, STACK_BYTES);
  return STACK_BYTES - low;
}

void case_tinymain_key_stack(void) {
  const char *now = getenv("LD_BIND_NOW");
  if (!now || !*now) { /* the measurement runs in a child that binds all */
    static const char *const env[] = {"LD_BIND_NOW=1", NULL};
    char *err = NULL;
    int st = spawn_case("tinymain_key_stack", env, &err);
    CHECK_MSG(st == 0, "tinymain_key_stack failed (%d):\n%s", st,
              err ? err : "");
    if (err)
      fputs(err, stderr);
    free(err);
    return;
  }
  int build_id = 0;
  dl_iterate_phdr(has_build_id, &build_id);
  if (!build_id) {
    fprintf(stderr, "tinymain_key_stack: not applicable, the test program "
                    "has no build ID (link with --build-id)\n");
    return;
  }
  setenv("IDIOM_COST", "on", 1); /* the profile needs the cost model */
  unsetenv("IDIOM_PROFILE");     /* ctest sets it off */
  idiomrt_config_get();          /* read before the threads, like main */
  size_t base = stack_used(libc_calls, NULL);
  idiomrt_entry *e = NULL;
  size_t used = stack_used(first_entry, &e);
  CHECK(e != NULL);
  size_t own = used > base ? used - base : 0;
  fprintf(stderr, "tinymain_key_stack: %zu bytes (libc alone %zu)\n", used,
          base);
  CHECK_MSG(own < KEY_STACK_MAX,
            "a site's first call took %zu bytes of stack beyond libc's own",
            own);
}
