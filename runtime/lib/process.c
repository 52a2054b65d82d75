/*===- process.c - fork and address-space limits --------------------------===*
 *
 * fork: OpenCL objects (context, queue, programs, the implementation's
 * worker threads) do not survive fork; a child that used its parent's would
 * hang or crash. A pthread_atfork child handler marks the child when the
 * parent had started to initialize OpenCL, and every idiom_run in it
 * declines with "forked child" without touching an OpenCL object. A child of
 * a process that never started OpenCL initializes it normally. The handler
 * also re-initializes the runtime's mutexes, which another thread of the
 * parent may have held at the fork.
 *
 * RLIMIT_AS: loading an OpenCL implementation maps hundreds of MiB (PoCL:
 * LLVM, one thread and malloc arena per core; GPU drivers reserve far more),
 * and PoCL aborts the process when a thread cannot be created. When the soft
 * limit is finite and leaves less than IDIOMRT_MIN_AS_HEADROOM bytes above
 * the process's current address-space size, every run declines with
 * "address-space limit too small", before anything is loaded.
 *
 *===----------------------------------------------------------------------===*/
#include "rt_internal.h"

#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <unistd.h>

#include <stdio.h>
#include <sys/resource.h>
#include <unistd.h>

IDIOMRT_START_DATA static volatile int g_opencl_started; /* OpenCL init began in this process */
/* Forks into a child (atomic; idiomrt_once_run's running states: 2 + this
   count, so that a child tells an initialisation of its parent's). */
IDIOMRT_START_DATA static unsigned g_fork_count;
IDIOMRT_START_DATA static volatile int g_forked;        /* child of a process that began it */

static void child_after_fork(void) {
  __atomic_add_fetch(&g_fork_count, 1, __ATOMIC_RELAXED);
  if (g_opencl_started)
    g_forked = 1;
  idiomrt_registry_after_fork();
  idiomrt_device_after_fork();
  idiomrt_worker_after_fork();
  idiomrt_startup_after_fork();
  idiomrt_parcopy_after_fork();
}

void idiomrt_process_init(void) { pthread_atfork(NULL, NULL, child_after_fork); }

void idiomrt_note_opencl_started(void) { g_opencl_started = 1; }

int idiomrt_forked_child(void) { return g_forked; }

void idiomrt_once_begin(idiomrt_once *o, void (*fn)(void)) {
  for (;;) {
    unsigned s = __atomic_load_n(&o->state, __ATOMIC_ACQUIRE);
    if (s == 1)
      return;
    unsigned mine = 2 + (__atomic_load_n(&g_fork_count, __ATOMIC_RELAXED) &
                         (UINT32_MAX >> 1));
    if (s == 0) {
      if (__atomic_compare_exchange_n(&o->state, &s, mine, 0,
                                      __ATOMIC_ACQUIRE, __ATOMIC_RELAXED)) {
        fn();
        __atomic_store_n(&o->state, 1u, __ATOMIC_RELEASE);
        return;
      }
    } else if (s != mine) {
      /* begun in the parent before a fork: its thread is not here */
      __atomic_compare_exchange_n(&o->state, &s, 0u, 0, __ATOMIC_RELAXED,
                                  __ATOMIC_RELAXED);
    } else {
      sched_yield();
    }
  }
}

long idiomrt_read_small_file(const char *path, char *buf, size_t cap) {
  if (cap == 0)
    return -1;
  int fd = open(path, O_RDONLY | O_CLOEXEC);
  if (fd < 0)
    return -1;
  /* A read that fills less than the buffer is taken as the end of the
     file: the runtime's files are regular files written whole and renamed
     into place, so the second read that confirmed the end (a system call
     per file at every start) is left out. Should a read end short for
     another reason, the file fails its check and is ignored: its numbers
     only steer speed decisions. */
  size_t n = 0;
  while (n < cap - 1) {
    ssize_t k = read(fd, buf + n, cap - 1 - n);
    if (k < 0 && errno == EINTR)
      continue;
    if (k <= 0)
      break;
    n += (size_t)k;
    if (n < cap - 1)
      break;
  }
  close(fd);
  buf[n] = '\0';
  return (long)n;
}

/* Current address-space size in bytes (VmSize), or 0 when unknown. */
static uint64_t vm_size(void) {
  FILE *f = fopen("/proc/self/statm", "r");
  if (!f)
    return 0;
  unsigned long long pages = 0;
  int n = fscanf(f, "%llu", &pages);
  fclose(f);
  long ps = sysconf(_SC_PAGESIZE);
  return n == 1 && ps > 0 ? (uint64_t)pages * (uint64_t)ps : 0;
}

int idiomrt_address_space_too_small(void) {
  struct rlimit rl;
  if (getrlimit(RLIMIT_AS, &rl) != 0 || rl.rlim_cur == RLIM_INFINITY)
    return 0;
  uint64_t lim = (uint64_t)rl.rlim_cur, used = vm_size();
  return lim < used || lim - used < IDIOMRT_MIN_AS_HEADROOM;
}
