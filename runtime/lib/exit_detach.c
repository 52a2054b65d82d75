/*===- exit_detach.c - The device's files closed after the process exits --===*
 *
 * See rt_detach.h. The detached process is a clone(2) child with CLONE_VM
 * and no exit signal: it shares this process's memory (no copy, so it
 * starts in microseconds and holds the address space, whose teardown
 * includes the driver's mappings), gets a copy of the descriptor table,
 * and is invisible to the program's wait(2) (a child without SIGCHLD is
 * reaped only with __WCLONE; once this process has exited, the kernel
 * reparents it with SIGCHLD). It makes system calls only: it shares the
 * C library's state with a process that is exiting.
 *
 *===----------------------------------------------------------------------===*/
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include "rt_detach.h"

#include <dirent.h>
#include <fcntl.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdint.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#define WORDS (IDIOMRT_DETACH_MAX_FD / 64)
static uint64_t g_before[WORDS]; /* open before the device opened */
static uint64_t g_keep[WORDS];   /* the driver's, kept by the child */
static uint64_t g_open[WORDS];   /* open at exit: the child closes these
                                    but g_keep's (only open ones, so that no
                                    close fails and writes errno, which is
                                    the exiting thread's) */
#define MAX_KEEP 64
static struct stat g_keep_st[MAX_KEEP];
static int g_keep_fd[MAX_KEEP];
static unsigned g_nkeep;
static int g_done; /* idiomrt_detach_at_exit ran */

/* The open descriptors below IDIOMRT_DETACH_MAX_FD into bits; 0 when
   /proc/self/fd cannot be read. */
static int open_fds(uint64_t *bits) {
  DIR *d = opendir("/proc/self/fd");
  if (!d)
    return 0;
  int self = dirfd(d);
  struct dirent *e;
  while ((e = readdir(d))) {
    char *end;
    long fd = strtol(e->d_name, &end, 10);
    if (*end || end == e->d_name || fd < 0 || fd >= IDIOMRT_DETACH_MAX_FD ||
        fd == self)
      continue;
    bits[fd / 64] |= (uint64_t)1 << (fd % 64);
  }
  closedir(d);
  return 1;
}

void idiomrt_detach_before_open(void) {
  /* (again in a forked child that opens the device anew: what the parent
     recorded is forgotten) */
  for (unsigned i = 0; i < WORDS; ++i)
    g_before[i] = g_keep[i] = 0;
  g_nkeep = 0;
  open_fds(g_before);
}

unsigned idiomrt_detach_after_open(void) {
  uint64_t now[WORDS] = {0};
  if (!open_fds(now))
    return 0;
  for (int fd = 0; fd < IDIOMRT_DETACH_MAX_FD && g_nkeep < MAX_KEEP; ++fd) {
    uint64_t bit = (uint64_t)1 << (fd % 64);
    struct stat st;
    if (!(now[fd / 64] & bit) || (g_before[fd / 64] & bit) ||
        fstat(fd, &st) != 0 || !S_ISCHR(st.st_mode))
      continue;
    g_keep[fd / 64] |= bit;
    g_keep_fd[g_nkeep] = fd;
    g_keep_st[g_nkeep++] = st;
  }
  return g_nkeep;
}

typedef struct child_arg {
  int rd, wr;      /* the pipe: this process holds wr until it exits */
  int maxfd;       /* descriptors above it are closed by range */
  unsigned hold_ms;
} child_arg;
static child_arg g_arg;

/* The detached process: system calls only (see the file comment). */
static int child_main(void *p) {
  const child_arg *a = p;
  for (int fd = 0; fd <= a->maxfd && fd < IDIOMRT_DETACH_MAX_FD; ++fd)
    if (fd != a->rd && (g_open[fd / 64] >> (fd % 64) & 1) &&
        !(g_keep[fd / 64] >> (fd % 64) & 1))
      syscall(SYS_close, fd);
  syscall(SYS_close_range, (unsigned)a->maxfd + 1, ~0u, 0);
  /* every signal is blocked (idiomrt_detach_at_exit), so the read ends
     only at the pipe's end: no byte is ever written */
  char c;
  syscall(SYS_read, a->rd, &c, 1);
  if (a->hold_ms) {
    struct timespec t = {a->hold_ms / 1000,
                         (long)(a->hold_ms % 1000) * 1000000L};
    syscall(SYS_nanosleep, &t, NULL);
  }
  syscall(SYS_exit, 0);
  return 0;
}

int idiomrt_detach_at_exit(unsigned hold_ms, const char **why) {
  *why = NULL;
  if (__atomic_exchange_n(&g_done, 1, __ATOMIC_ACQ_REL))
    return 0;
  unsigned still = 0;
  int maxfd = 0;
  for (unsigned i = 0; i < g_nkeep; ++i) {
    struct stat st;
    int fd = g_keep_fd[i];
    if (fstat(fd, &st) == 0 && st.st_rdev == g_keep_st[i].st_rdev &&
        st.st_ino == g_keep_st[i].st_ino && st.st_dev == g_keep_st[i].st_dev)
      ++still;
    else
      g_keep[fd / 64] &= ~((uint64_t)1 << (fd % 64));
  }
  if (!still)
    return 0;
  int p[2];
  if (pipe2(p, O_CLOEXEC) != 0)
    return *why = "pipe2", -1;
  if (!open_fds(g_open)) {
    close(p[0]);
    close(p[1]);
    return *why = "/proc/self/fd not readable", -1;
  }
  for (int fd = 0; fd < IDIOMRT_DETACH_MAX_FD; ++fd)
    if (g_open[fd / 64] >> (fd % 64) & 1)
      maxfd = fd;
  g_arg.rd = p[0];
  g_arg.wr = p[1];
  g_arg.maxfd = maxfd > p[1] ? maxfd : p[1];
  g_arg.hold_ms = hold_ms;
  size_t size = 64 << 10;
  /* never unmapped: the child runs on it after this process is gone */
  char *stack = mmap(NULL, size, PROT_READ | PROT_WRITE,
                     MAP_PRIVATE | MAP_ANONYMOUS | MAP_STACK, -1, 0);
  if (stack == MAP_FAILED) {
    close(p[0]);
    close(p[1]);
    return *why = "mmap", -1;
  }
  /* the child starts with every signal blocked: a handler of the program
     must never run in it */
  sigset_t all, old;
  sigfillset(&all);
  pthread_sigmask(SIG_SETMASK, &all, &old);
  int pid = clone(child_main, stack + size, CLONE_VM, &g_arg);
  pthread_sigmask(SIG_SETMASK, &old, NULL);
  close(p[0]);
  if (pid < 0) {
    close(p[1]);
    return *why = "clone", -1;
  }
  return pid; /* p[1] stays open until this process exits */
}
