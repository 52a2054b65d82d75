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
 *===----------------------------------------------------------------------===*/
#include "rt_internal.h"

#include <errno.h>
#include <signal.h>
#include <string.h>

static pthread_mutex_t g_job_lock = PTHREAD_MUTEX_INITIALIZER;

#ifndef NSIG
#define NSIG 65
#endif

typedef struct job {
  void (*fn)(void *);
  void *arg;
} job;

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
    if (sigaction(s, &saved[s], NULL) == 0)
      restored++;
  }
  if (restored)
    idiomrt_debug("restored %u signal handler(s) replaced by the OpenCL "
                  "implementation",
                  restored);
  return NULL;
}

int idiomrt_worker_run(void (*fn)(void *), void *arg) {
  if (pthread_mutex_trylock(&g_job_lock) != 0)
    return -1;
  job j = {fn, arg};
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

void idiomrt_worker_after_fork(void) {
  pthread_mutex_init(&g_job_lock, NULL);
}
