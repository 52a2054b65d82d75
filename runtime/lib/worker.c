/*===- worker.c - OpenCL initialization and builds on a runtime thread ----===*
 *
 * OpenCL initialization (platform enumeration, context and queue creation)
 * and program builds run on a thread the runtime creates for the job and
 * joins afterwards:
 *
 *  - its stack is IDIOMRT_WORKER_STACK bytes, so a program thread with a
 *    small stack (64 KiB) can make the first call: PoCL compiles kernels
 *    with LLVM, which needs far more stack than that;
 *  - it starts with every blockable signal blocked, and the threads that the
 *    OpenCL implementation creates during the job (PoCL's worker threads)
 *    inherit that mask: the program's asynchronous signals (SIGALRM, SIGINT,
 *    ...) are never delivered to a device thread;
 *  - the disposition of every signal is saved before the job and restored
 *    after it: the OpenCL implementation may install handlers (PoCL's LLVM
 *    installs its crash handlers for SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGINT,
 *    SIGTERM, ...) and the program must still see its own with sigaction.
 *    The thread's alternate signal stack is put back as well.
 *
 * Jobs run one at a time (the saved dispositions are process-wide). A caller
 * that finds a job running does not wait: idiomrt_worker_run returns -1 and
 * the run declines with "runtime busy".
 *
 * Background jobs (idiomrt_worker_start, the start-up of startup.c) run on a
 * detached runtime thread while the program goes on, so the program may
 * change a disposition itself meanwhile. After a background job only the
 * handlers that point into a shared object loaded during the job (the
 * OpenCL implementation, its LLVM) are put back; a handler of the program's
 * own code, or SIG_DFL / SIG_IGN set meanwhile, is left as it is. Between
 * the driver installing a handler and the job's end, a signal may reach the
 * driver's handler (LLVM's crash handlers re-raise it with the previous
 * disposition).
 *
 *===----------------------------------------------------------------------===*/
#include "rt_internal.h"

#include <dlfcn.h>
#include <errno.h>
#include <link.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>

static pthread_mutex_t g_job_lock = PTHREAD_MUTEX_INITIALIZER;

#ifndef NSIG
#define NSIG 65
#endif

typedef struct job {
  void (*fn)(void *);
  void *arg;
  int background;    /* restore only handlers of objects loaded meanwhile */
  uintptr_t *bases;  /* background: objects loaded before the job */
  size_t nbases, cap;
} job;

static int add_base(struct dl_phdr_info *info, size_t size, void *p) {
  (void)size;
  job *j = p;
  for (int i = 0; i < info->dlpi_phnum; ++i) {
    if (info->dlpi_phdr[i].p_type != PT_LOAD)
      continue;
    if (j->nbases == j->cap) {
      size_t cap = j->cap ? 2 * j->cap : 64;
      uintptr_t *nb = realloc(j->bases, cap * sizeof *nb);
      if (!nb)
        return 1;
      j->bases = nb;
      j->cap = cap;
    }
    /* the first PT_LOAD's address is what dladdr reports as dli_fbase */
    j->bases[j->nbases++] =
        (uintptr_t)(info->dlpi_addr + info->dlpi_phdr[i].p_vaddr);
    break;
  }
  return 0;
}

/* Background jobs: 1 when handler h lies in an object loaded during the job
   (or in none that dladdr knows, which the program's own code is not). */
static int loaded_during_job(const job *j, const struct sigaction *a) {
  void *h = (a->sa_flags & SA_SIGINFO) ? (void *)a->sa_sigaction
                                       : (void *)a->sa_handler;
  if (a->sa_handler == SIG_DFL || a->sa_handler == SIG_IGN)
    return 0;
  Dl_info info;
  if (!dladdr(h, &info) || !info.dli_fbase)
    return 0;
  for (size_t i = 0; i < j->nbases; ++i)
    if (j->bases[i] == (uintptr_t)info.dli_fbase)
      return 0;
  return 1;
}

static int same_action(const struct sigaction *a, const struct sigaction *b) {
  if (a->sa_flags != b->sa_flags)
    return 0;
  if ((a->sa_flags & SA_SIGINFO) ? a->sa_sigaction != b->sa_sigaction
                                 : a->sa_handler != b->sa_handler)
    return 0;
  for (int s = 1; s < NSIG; ++s)
    if (sigismember(&a->sa_mask, s) != sigismember(&b->sa_mask, s))
      return 0;
  return 1;
}

static void *job_main(void *p) {
  job *j = p;
  if (j->background) {
    pthread_mutex_lock(&g_job_lock);
    j->nbases = 0;
    dl_iterate_phdr(add_base, j);
  }
  static struct sigaction saved[NSIG]; /* guarded by g_job_lock */
  static unsigned char have[NSIG];
  for (int s = 1; s < NSIG; ++s) {
    have[s] = 0;
    if (s == SIGKILL || s == SIGSTOP)
      continue;
    if (sigaction(s, NULL, &saved[s]) == 0)
      have[s] = 1;
  }
  /* LLVM (in PoCL) gives the thread that registers its crash handlers an
     alternate signal stack of its own; the sanitizers unmap the stack they
     find there when the thread exits, so put the thread's own back. */
  stack_t alt;
  int have_alt = sigaltstack(NULL, &alt) == 0;
  j->fn(j->arg);
  if (have_alt)
    sigaltstack(&alt, NULL);
  unsigned restored = 0;
  for (int s = 1; s < NSIG; ++s) {
    struct sigaction now;
    if (!have[s] || sigaction(s, NULL, &now) != 0 ||
        same_action(&now, &saved[s]))
      continue;
    if (j->background && !loaded_during_job(j, &now))
      continue; /* the program's own change, made meanwhile */
    if (sigaction(s, &saved[s], NULL) == 0)
      restored++;
  }
  if (restored)
    idiomrt_debug("restored %u signal handler(s) replaced by the OpenCL "
                  "implementation",
                  restored);
  if (j->background) {
    free(j->bases);
    free(j);
    pthread_mutex_unlock(&g_job_lock);
  }
  return NULL;
}

int idiomrt_worker_run(void (*fn)(void *), void *arg) {
  if (pthread_mutex_trylock(&g_job_lock) != 0)
    return -1;
  job j = {fn, arg, 0, NULL, 0, 0};
  pthread_attr_t attr;
  int ok = pthread_attr_init(&attr) == 0;
  if (ok && pthread_attr_setstacksize(&attr, IDIOMRT_WORKER_STACK) != 0)
    ok = 0;
  sigset_t all, old;
  sigfillset(&all);
  pthread_t th;
  if (ok) {
    /* The new thread inherits the creating thread's mask. */
    pthread_sigmask(SIG_SETMASK, &all, &old);
    ok = pthread_create(&th, &attr, job_main, &j) == 0;
    pthread_sigmask(SIG_SETMASK, &old, NULL);
    pthread_attr_destroy(&attr);
  }
  if (ok)
    pthread_join(th, NULL);
  else
    idiomrt_debug("cannot create the runtime thread");
  pthread_mutex_unlock(&g_job_lock);
  return ok ? 1 : 0;
}

int idiomrt_worker_start(void (*fn)(void *), void *arg, pthread_t *thread) {
  job *j = calloc(1, sizeof *j);
  if (!j)
    return 0;
  j->fn = fn;
  j->arg = arg;
  j->background = 1;
  pthread_attr_t attr;
  int have_attr = pthread_attr_init(&attr) == 0;
  int ok = have_attr &&
           pthread_attr_setstacksize(&attr, IDIOMRT_WORKER_STACK) == 0;
  if (ok) {
    sigset_t all, old;
    sigfillset(&all);
    pthread_sigmask(SIG_SETMASK, &all, &old);
    ok = pthread_create(thread, &attr, job_main, j) == 0;
    pthread_sigmask(SIG_SETMASK, &old, NULL);
  }
  if (have_attr)
    pthread_attr_destroy(&attr);
  if (!ok) {
    free(j);
    idiomrt_debug("cannot create the runtime thread");
  }
  return ok;
}

void idiomrt_worker_after_fork(void) {
  pthread_mutex_init(&g_job_lock, NULL);
}
