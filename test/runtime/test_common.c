/*===- test_common.c - Helpers shared by the runtime tests ----------------===*
 *
 * See test_common.h.
 *
 *===----------------------------------------------------------------------===*/
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include "test_common.h"

#include <sys/resource.h>

#include <limits.h>
#include <spawn.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

extern char **environ;

int g_failures;

const char *reason_or_none(void) {
  const char *r = idiom_last_reason();
  return r ? r : "(none)";
}

int starts_with(const char *s, const char *prefix) {
  return s && strncmp(s, prefix, strlen(prefix)) == 0;
}

idiom_arg buf(uint32_t kind, void *p, uint64_t bytes) {
  idiom_arg a;
  memset(&a, 0, sizeof a);
  a.kind = kind;
  a.ptr = p;
  a.bytes = bytes;
  return a;
}
idiom_arg i32(int32_t v) {
  idiom_arg a;
  memset(&a, 0, sizeof a);
  a.kind = IDIOM_ARG_I32;
  a.value.i32 = v;
  return a;
}
idiom_arg i64(int64_t v) {
  idiom_arg a;
  memset(&a, 0, sizeof a);
  a.kind = IDIOM_ARG_I64;
  a.value.i64 = v;
  return a;
}
idiom_arg f32(float v) {
  idiom_arg a;
  memset(&a, 0, sizeof a);
  a.kind = IDIOM_ARG_F32;
  a.value.f32 = v;
  return a;
}

int close_enough(float got, float want, float rel) {
  float d = got - want;
  if (d < 0)
    d = -d;
  float m = want < 0 ? -want : want;
  return d <= rel * (m > 1.0f ? m : 1.0f);
}

/* Runs this program with `casename`, the current environment plus `env`
   (NULL-terminated "K=V" list, overriding), and captures its stderr.
   Returns the exit status (or -1); *err receives a malloc'd string. */
int spawn_case(const char *casename, const char *const *env,
                      char **err) {
  size_t nenv = 0, nextra = 0;
  while (environ[nenv])
    nenv++;
  while (env && env[nextra])
    nextra++;
  char **envp = calloc(nenv + nextra + 1, sizeof *envp);
  size_t k = 0;
  for (size_t i = 0; i < nenv; ++i) {
    const char *eq = strchr(environ[i], '=');
    size_t klen = eq ? (size_t)(eq - environ[i]) : strlen(environ[i]);
    int overridden = 0;
    for (size_t j = 0; j < nextra; ++j)
      if (strncmp(env[j], environ[i], klen) == 0 && env[j][klen] == '=')
        overridden = 1;
    if (!overridden)
      envp[k++] = environ[i];
  }
  for (size_t j = 0; j < nextra; ++j)
    envp[k++] = (char *)env[j];
  envp[k] = NULL;

  int fds[2];
  if (pipe(fds) != 0) {
    free(envp);
    return -1;
  }
  posix_spawn_file_actions_t fa;
  posix_spawn_file_actions_init(&fa);
  posix_spawn_file_actions_adddup2(&fa, fds[1], 2);
  posix_spawn_file_actions_addclose(&fa, fds[0]);
  posix_spawn_file_actions_addclose(&fa, fds[1]);
  char self[PATH_MAX];
  ssize_t n = readlink("/proc/self/exe", self, sizeof self - 1);
  if (n <= 0) {
    free(envp);
    return -1;
  }
  self[n] = '\0';
  char *argv[] = {self, (char *)casename, NULL};
  pid_t pid;
  int rc = posix_spawn(&pid, self, &fa, NULL, argv, envp);
  posix_spawn_file_actions_destroy(&fa);
  free(envp);
  close(fds[1]);
  size_t cap = 4096, len = 0;
  char *out = malloc(cap);
  if (rc == 0) {
    ssize_t got;
    for (;;) {
      if (len + 1024 > cap)
        out = realloc(out, cap *= 2);
      got = read(fds[0], out + len, cap - len - 1);
      if (got <= 0)
        break;
      len += (size_t)got;
    }
  }
  out[len] = '\0';
  close(fds[0]);
  *err = out;
  if (rc != 0)
    return -1;
  int status = 0;
  if (waitpid(pid, &status, 0) < 0 || !WIFEXITED(status))
    return -1;
  return WEXITSTATUS(status);
}

int count_occurrences(const char *hay, const char *needle) {
  int c = 0;
  for (const char *p = hay; (p = strstr(p, needle)); p += strlen(needle))
    c++;
  return c;
}

int rm_entry(const char *p, const struct stat *s, int f, struct FTW *w) {
  (void)s, (void)f, (void)w;
  return remove(p);
}


/* getenv, counted (the test executable links with -Wl,--wrap=getenv). */
char *__real_getenv(const char *name);
unsigned long g_getenv_calls;

char *__wrap_getenv(const char *name) {
  __atomic_add_fetch(&g_getenv_calls, 1, __ATOMIC_RELAXED);
  return __real_getenv(name);
}

/* read, counted (-Wl,--wrap=read; test_fixedcost.c). */
ssize_t __real_read(int fd, void *buf, size_t n);
unsigned long g_read_calls;

ssize_t __wrap_read(int fd, void *buf, size_t n) {
  __atomic_add_fetch(&g_read_calls, 1, __ATOMIC_RELAXED);
  return __real_read(fd, buf, n);
}

/* getrusage, counted (-Wl,--wrap=getrusage; test_tinypocl.c: the cold-run
   rule's page-fault reads). */
int __real_getrusage(int who, struct rusage *ru);
unsigned long g_getrusage_calls;

int __wrap_getrusage(int who, struct rusage *ru) {
  __atomic_add_fetch(&g_getrusage_calls, 1, __ATOMIC_RELAXED);
  return __real_getrusage(who, ru);
}

char *expect_child_lines(const char *casename, const char *const *env,
                         const char *const *want) {
  char *err = NULL;
  int st = spawn_case(casename, env, &err);
  CHECK_MSG(st == 0, "%s failed (%d):\n%s", casename, st, err);
  for (size_t i = 0; want && want[i]; ++i)
    CHECK_MSG(err && strstr(err, want[i]) != NULL, "%s: no \"%s\" in:\n%s",
              casename, want[i], err);
  return err;
}
