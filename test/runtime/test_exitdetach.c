/*===- test_exitdetach.c - The device's files closed after the exit -------===*
 *
 * runtime/lib/exit_detach.c, in a forked child standing for a program (its
 * exit is what is detached from):
 * detach_kept: a character device opened between idiomrt_detach_before_open
 *   and idiomrt_detach_after_open is kept, a regular file opened then and a
 *   pipe open before are not; at exit a detached process holds the device
 *   file alone (with its own wait pipe), is alive after the program has
 *   exited (held 2.5 s, as by IDIOM_TEST_DETACH_HOLD_MS), the program's
 *   stdout pipe ends when the program exits, not when the detached process
 *   does, and the detached process is gone after its hold.
 * detach_negatives: no character device opened: nothing kept, no process;
 *   the kept descriptor closed and reopened on another device: none.
 * (detach_kept checks that a second call starts no second process.)
 *
 *===----------------------------------------------------------------------===*/
#include "rt_detach.h"
#include "test_common.h"

#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static double now_s(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return t.tv_sec + t.tv_nsec / 1e9;
}

/* 1 while process pid runs (not a zombie, not gone). */
static int alive(int pid) {
  char path[64], buf[512];
  snprintf(path, sizeof path, "/proc/%d/stat", pid);
  FILE *f = fopen(path, "r");
  if (!f)
    return 0;
  size_t n = fread(buf, 1, sizeof buf - 1, f);
  fclose(f);
  buf[n] = 0;
  char *p = strrchr(buf, ')');
  return p && p[1] == ' ' && p[2] != 'Z' && p[2] != 'X';
}

/* How many of pid's descriptors point to target (a path prefix), and how
   many it has in all, in *total. */
static int fds_to(int pid, const char *target, int *total) {
  *total = 0;
  int hits = 0;
  for (int fd = 0; fd < 256; ++fd) {
    char path[64], link[PATH_MAX];
    snprintf(path, sizeof path, "/proc/%d/fd/%d", pid, fd);
    ssize_t n = readlink(path, link, sizeof link - 1);
    if (n < 0)
      continue;
    link[n] = 0;
    ++*total;
    hits += strncmp(link, target, strlen(target)) == 0;
  }
  return hits;
}

void case_detach_kept(void) {
  int out[2], info[2];
  CHECK(pipe(out) == 0 && pipe(info) == 0);
  char tmpl[] = "/tmp/idiom-detach-XXXXXX";
  int tmp = mkstemp(tmpl);
  CHECK(tmp >= 0);
  close(tmp);
  pid_t prog = fork();
  CHECK(prog >= 0);
  if (prog == 0) {
    close(out[0]);
    close(info[0]);
    dup2(out[1], 1);
    close(out[1]);
    idiomrt_detach_before_open();
    int dev = open("/dev/null", O_RDONLY);
    int reg = open(tmpl, O_RDONLY);
    unsigned kept = idiomrt_detach_after_open();
    const char *why = "";
    int pid = idiomrt_detach_at_exit(2500, &why);
    /* at most once: a second call starts nothing (a pid it returned is
       reported negated, which fails the check below) */
    int again = idiomrt_detach_at_exit(0, &why);
    char line[64];
    int len = snprintf(line, sizeof line, "%u %d %d\n", kept,
                       again ? -again : pid, dev >= 0 && reg >= 0);
    if (write(info[1], line, len) != len)
      _exit(3);
    if (write(1, "output\n", 7) != 7)
      _exit(5);
    /* wait(2) sees no child: the detached process sends no SIGCHLD */
    _exit(waitpid(-1, NULL, WNOHANG) == -1 ? 0 : 4);
  }
  close(out[1]);
  close(info[1]);
  char line[64] = "";
  FILE *f = fdopen(info[0], "r");
  CHECK(fgets(line, sizeof line, f) != NULL);
  fclose(f);
  unsigned kept = 0;
  int pid = 0, opened = 0;
  CHECK(sscanf(line, "%u %d %d", &kept, &pid, &opened) == 3);
  CHECK_MSG(opened && kept == 1, "kept %u (want 1: /dev/null alone)", kept);
  CHECK_MSG(pid > 0, "no detached process, or a second one (%d)", pid);
  int status = 0;
  CHECK(waitpid(prog, &status, 0) == prog);
  double exited = now_s();
  CHECK_MSG(WIFEXITED(status) && WEXITSTATUS(status) == 0,
            "the program's status %d (4: wait(2) saw the detached process)",
            status);
  /* the stdout pipe ends with the program, not after the 2.5 s hold */
  char buf[64];
  ssize_t n, got = 0;
  while ((n = read(out[0], buf, sizeof buf)) > 0)
    got += n;
  double eof = now_s() - exited;
  CHECK_MSG(got == 7 && eof < 1.0, "%zd bytes, end of stdout %.3f s after "
            "the program's exit", got, eof);
  CHECK_MSG(alive(pid), "the detached process %d is not running after the "
            "program's exit", pid);
  /* it closes the others in increasing order: stdout's end says it is
     past 1, not that it is done (under load, a while) */
  int total = 0;
  int devs = fds_to(pid, "/dev/null", &total);
  for (double t1 = now_s(); (devs != 1 || total != 2) && now_s() - t1 < 1.0;
       devs = fds_to(pid, "/dev/null", &total))
    usleep(10000);
  CHECK_MSG(devs == 1 && total == 2, "the detached process holds %d of "
            "/dev/null among %d descriptors (want 1 of 2: with its wait "
            "pipe)", devs, total);
  CHECK(fds_to(pid, tmpl, &total) == 0);
  double t0 = now_s();
  while (alive(pid) && now_s() - t0 < 15)
    usleep(20000);
  CHECK_MSG(!alive(pid), "the detached process outlived its hold");
  CHECK_MSG(now_s() - exited > 2.0, "the detached process ended %.3f s "
            "after the program, before its 2.5 s hold", now_s() - exited);
  unlink(tmpl);
  close(out[0]);
}

void case_detach_negatives(void) {
  pid_t prog = fork();
  CHECK(prog >= 0);
  if (prog == 0) {
    char tmpl[] = "/tmp/idiom-detach-XXXXXX";
    idiomrt_detach_before_open();
    int reg = mkstemp(tmpl);
    unlink(tmpl);
    const char *why = "";
    if (reg < 0 || idiomrt_detach_after_open() != 0)
      _exit(10);
    /* a device file, kept, then closed and its number reused */
    idiomrt_detach_before_open();
    int dev = open("/dev/null", O_RDONLY);
    if (idiomrt_detach_after_open() != 1)
      _exit(11);
    close(dev);
    if (open("/dev/zero", O_RDONLY) != dev)
      _exit(12);
    if (idiomrt_detach_at_exit(0, &why) != 0)
      _exit(13);
    _exit(0);
  }
  int status = 0;
  CHECK(waitpid(prog, &status, 0) == prog);
  CHECK_MSG(WIFEXITED(status) && WEXITSTATUS(status) == 0,
            "exit status %d (10: a regular file kept; 11: the device file "
            "not kept; 13: a detached process for a reused number)",
            WIFEXITED(status) ? WEXITSTATUS(status) : -1);
}
