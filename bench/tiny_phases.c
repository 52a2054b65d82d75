/* Phases of a process of bench/tiny_phases_prog.c (helper "tinymain",
   docs/Benchmarks.md), for several builds in the same rounds:

     tiny_phases ROUNDS [NAME=]BINARY ...

   Each round runs every binary once, in an order rotated from round to
   round, fork to wait4 (the child's stdout to /dev/null, its stderr read
   back: the program's clock readings). Printed per binary, medians in us:
   exec (fork to the first constructor: exec, the dynamic linker, libc's
   start), ctors (the constructors before main: the runtime's), init (the
   first loop, with the first site's first call), loop (3000 outer
   iterations), printf, exit (printf's end to wait4's return: exit handlers
   and the kernel's teardown), wall, and CPU (user + system, wait4). A
   binary runs with the environment as given (IDIOM_CACHE_DIR: set one and
   run each plugin build twice before, as np_ratio_ci.py warms its cache);
   NAME=BINARY labels it. */
#define _GNU_SOURCE
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

enum { EXEC, CTORS, INIT, LOOP, PRINTF, EXIT, WALL, CPU, NPHASES };
static const char *const k_names[NPHASES] = {
    "exec", "ctors", "init", "loop", "printf", "exit", "wall", "cpu"};

static long now_ns(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return t.tv_sec * 1000000000L + t.tv_nsec;
}

static int cmp_long(const void *a, const void *b) {
  long x = *(const long *)a, y = *(const long *)b;
  return x < y ? -1 : x > y;
}

/* One run of path: the phases into v; 0 when its readings are missing. */
static int run_once(const char *path, long *v) {
  int p[2];
  if (pipe(p) != 0)
    return 0;
  long t_fork = now_ns();
  pid_t c = fork();
  if (c == 0) {
    int dn = open("/dev/null", O_WRONLY);
    dup2(dn, 1);
    dup2(p[1], 2);
    close(p[0]);
    execl(path, path, (char *)NULL);
    _exit(127);
  }
  close(p[1]);
  struct rusage ru;
  int st;
  wait4(c, &st, 0, &ru);
  long t_wait = now_ns();
  char buf[512] = {0};
  ssize_t n = read(p[0], buf, sizeof buf - 1);
  close(p[0]);
  long t[5];
  if (n <= 0 || sscanf(buf, "%ld %ld %ld %ld %ld", &t[0], &t[1], &t[2], &t[3],
                       &t[4]) != 5)
    return 0;
  v[EXEC] = t[0] - t_fork;
  v[CTORS] = t[1] - t[0];
  v[INIT] = t[2] - t[1];
  v[LOOP] = t[3] - t[2];
  v[PRINTF] = t[4] - t[3];
  v[EXIT] = t_wait - t[4];
  v[WALL] = t_wait - t_fork;
  v[CPU] = (ru.ru_utime.tv_sec + ru.ru_stime.tv_sec) * 1000000000L +
           (ru.ru_utime.tv_usec + ru.ru_stime.tv_usec) * 1000L;
  return 1;
}

int main(int argc, char **argv) {
  if (argc < 3) {
    fprintf(stderr, "usage: tiny_phases ROUNDS [NAME=]BINARY ...\n");
    return 2;
  }
  int rounds = atoi(argv[1]), nb = argc - 2;
  const char **name = calloc(nb, sizeof *name), **path = calloc(nb, sizeof *path);
  long *v = calloc((size_t)nb * rounds * NPHASES, sizeof *v);
  for (int b = 0; b < nb; ++b) {
    char *eq = strchr(argv[2 + b], '=');
    name[b] = argv[2 + b];
    path[b] = eq ? eq + 1 : argv[2 + b];
    if (eq)
      *eq = '\0';
  }
  for (int r = 0; r < rounds; ++r)
    for (int k = 0; k < nb; ++k) {
      int b = (k + r) % nb;
      if (!run_once(path[b], &v[((size_t)b * rounds + r) * NPHASES])) {
        fprintf(stderr, "%s: no clock readings\n", path[b]);
        return 1;
      }
    }
  printf("%-12s", "us, medians");
  for (int j = 0; j < NPHASES; ++j)
    printf(" %8s", k_names[j]);
  printf("\n");
  long *col = calloc(rounds, sizeof *col);
  for (int b = 0; b < nb; ++b) {
    printf("%-12s", name[b]);
    for (int j = 0; j < NPHASES; ++j) {
      for (int r = 0; r < rounds; ++r)
        col[r] = v[((size_t)b * rounds + r) * NPHASES + j];
      qsort(col, rounds, sizeof *col, cmp_long);
      printf(" %8.1f", col[rounds / 2] / 1e3);
    }
    printf("\n");
  }
  return 0;
}
