/*===- test_fixedcost.c - The runtime's fixed costs at program start -------===*
 *
 * Issue 12, helper "fixedcost" (bench/fixed_cost.sh, docs/Benchmarks.md):
 * what every process pays at start and exit when its sites stay on the
 * host.
 *
 *  - fixedcost_env: the configuration is read in one pass over environ,
 *    with no getenv call (it took 18, each a walk of the environment); the
 *    values are the environment's (set, unset, the cache directory, the
 *    IDIOM_* hash of the profile's env line, which leaves out IDIOM_DEBUG,
 *    IDIOM_STATS and IDIOM_EXIT_DETACH);
 *  - fixedcost_text: rt_text.h's readers, which replaced sscanf in the
 *    profile and the start-up record: every "%.6g" the writers print reads
 *    back as strtod reads it (bit for bit), and malformed fields are
 *    refused;
 *  - fixedcost_read: idiomrt_read_small_file reads a file shorter than its
 *    buffer with one read call (it made a second to see the end); a longer
 *    file is read up to the buffer, a file that fills it exactly whole;
 *  - fixedcost_once: idiomrt_once_run (config, profile and start-up record,
 *    without pthread_once's futex wake) runs its function once for
 *    concurrent callers, who return only once it is done, and a child
 *    forked while another thread of its parent ran it runs it itself.
 *
 *===----------------------------------------------------------------------===*/
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include "rt_internal.h"
#include "test_common.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

extern char **environ;

void case_fixedcost_env(void) {
  CHECK(idiomrt_config_peek() == NULL); /* not read before this case */
  setenv("IDIOM_MIN_TRIP", "123", 1);
  setenv("IDIOM_TUNE", "off", 1);
  setenv("IDIOM_PROFILE", "/nonexistent/fixedcost.prof", 1);
  unsetenv("IDIOM_TUNE_MIN");
  unsigned long before = __atomic_load_n(&g_getenv_calls, __ATOMIC_RELAXED);
  const idiomrt_config *c = idiomrt_config_get();
  unsigned long reads =
      __atomic_load_n(&g_getenv_calls, __ATOMIC_RELAXED) - before;
  CHECK_MSG(reads == 0, "%lu getenv calls reading the configuration", reads);
  CHECK(c->min_trip == 123 && c->min_trip_explicit);
  CHECK(c->tune == 0);
  CHECK(c->tune_min == (uint64_t)1 << 20); /* unset: the default */
  CHECK(c->profile && strcmp(c->profile, "/nonexistent/fixedcost.prof") == 0);
  const char *dir = getenv("IDIOM_CACHE_DIR"); /* set by main */
  CHECK(dir && c->cache_dir && strcmp(c->cache_dir, dir) == 0);
  uint64_t h = 0;
  for (char **e = environ; *e; ++e)
    if (strncmp(*e, "IDIOM_", 6) == 0)
      h += idiomrt_fnv1a(IDIOMRT_FNV_OFFSET, *e, strlen(*e));
  CHECK(c->env_hash == h && idiomrt_env_hash() == h);
  setenv("IDIOM_EXTRA", "1", 1); /* any IDIOM_* variable counts */
  CHECK(idiomrt_env_hash() != h);
  /* but those that change no decision: the diagnostics and the exit's
     detach (device.c) */
  uint64_t h2 = idiomrt_env_hash();
  setenv("IDIOM_EXIT_DETACH", "0", 1);
  setenv("IDIOM_STATS", "1", 1);
  setenv("IDIOM_DEBUG", "1", 1);
  CHECK(idiomrt_env_hash() == h2);
  unsetenv("IDIOM_EXIT_DETACH");
  unsetenv("IDIOM_STATS");
  unsetenv("IDIOM_DEBUG");
}

/* *s read by idiomrt_scan_double equals strtod's reading, bit for bit,
   and ends where strtod ends. */
static int reads_as_strtod(const char *s) {
  const char *p = s;
  double got = 0;
  char *end = NULL;
  double want = strtod(s, &end);
  int ok = idiomrt_scan_double(&p, &got);
  if (end == s)
    return !ok && p == s;
  return ok && p == end && memcmp(&got, &want, sizeof got) == 0;
}

void case_fixedcost_text(void) {
  static const char *const fixed[] = {
      "0", "-1", "1", "54.1758", "3.62842", "1e-30", "-2.5e+300", "123456",
      "0.000123456", "9.99999e+22", "1.5e-22", "4.94066e-324", "1e400",
      "12345678901234567890", "0.1", "-0", "7e22", "7e23", "inf", "nan",
      "1e", "3.", ".5", "1.5x"};
  for (unsigned i = 0; i < sizeof fixed / sizeof fixed[0]; ++i)
    CHECK_MSG(reads_as_strtod(fixed[i]), "\"%s\"", fixed[i]);
  /* what the profile's writer prints: %.6g of values over many decades */
  unsigned long long x = 88172645463325252ull;
  for (int i = 0; i < 200000; ++i) {
    x ^= x << 13, x ^= x >> 7, x ^= x << 17;
    double m = (double)(x >> 11) / 9007199254740992.0; /* [0, 1) */
    int e = (int)(x % 80) - 40;
    char s[64];
    snprintf(s, sizeof s, "%.6g", (i & 1 ? -m : m) * pow(10.0, e));
    if (!reads_as_strtod(s)) {
      CHECK_MSG(0, "\"%s\" reads otherwise than strtod", s);
      break;
    }
  }
  const char *p;
  uint64_t u;
  int k;
  p = "18446744073709551615 ";
  CHECK(idiomrt_scan_u64(&p, &u) && u == UINT64_MAX && *p == ' ');
  p = "18446744073709551616";
  CHECK(!idiomrt_scan_u64(&p, &u));
  p = " -3";
  CHECK(!idiomrt_scan_u64(&p, &u));
  p = "ffffffffffffffff";
  CHECK(idiomrt_scan_hex(&p, &u) && u == UINT64_MAX && !*p);
  p = "10000000000000000";
  CHECK(!idiomrt_scan_hex(&p, &u));
  p = "  -2147483648";
  CHECK(idiomrt_scan_int(&p, &k) && k == INT32_MIN);
  p = "2147483648";
  CHECK(!idiomrt_scan_int(&p, &k));
  p = "- 5";
  CHECK(!idiomrt_scan_int(&p, &k));
  p = "site 12";
  CHECK(idiomrt_scan_word(&p, "site") && idiomrt_scan_u64(&p, &u) && u == 12);
  p = "sit";
  CHECK(!idiomrt_scan_word(&p, "site") && strcmp(p, "sit") == 0);
  char hex[17];
  idiomrt_put_hex16(hex, 0x0123456789abcdefull)[0] = '\0';
  CHECK(strcmp(hex, "0123456789abcdef") == 0);
  char *s = idiomrt_str_cat(64, "/a", "/profile", "/x.txt");
  CHECK(s && strcmp(s, "/a/profile/x.txt") == 0);
  free(s);
  CHECK(idiomrt_str_cat(5, "/a", "/profile", NULL) == NULL);
}

/* read calls (test_common.c, -Wl,--wrap=read) */
extern unsigned long g_read_calls;

/* Writes n bytes of 'a'..'z' to a new file; returns its path. */
static char *write_temp(size_t n) {
  char *path = strdup("/tmp/idiomrt-fixedcost-XXXXXX");
  int fd = mkstemp(path);
  CHECK(fd >= 0);
  for (size_t i = 0; i < n; ++i) {
    char c = (char)('a' + i % 26);
    CHECK(write(fd, &c, 1) == 1);
  }
  close(fd);
  return path;
}

/* Reads path into a buffer of cap bytes; the read calls it took, and the
   byte count in *n (the text checked). */
static unsigned long reads_of(const char *path, size_t cap, long *n) {
  char *buf = malloc(cap);
  unsigned long before = __atomic_load_n(&g_read_calls, __ATOMIC_RELAXED);
  *n = idiomrt_read_small_file(path, buf, cap);
  unsigned long r = __atomic_load_n(&g_read_calls, __ATOMIC_RELAXED) - before;
  for (long i = 0; i < *n; ++i)
    if (buf[i] != (char)('a' + i % 26)) {
      CHECK_MSG(0, "%s: byte %ld", path, i);
      break;
    }
  CHECK(*n < 0 || buf[*n] == '\0');
  free(buf);
  return r;
}

void case_fixedcost_read(void) {
  long n;
  char *small = write_temp(219), *big = write_temp(5000),
       *exact = write_temp(1023);
  unsigned long r = reads_of(small, 1024, &n);
  CHECK_MSG(r == 1 && n == 219, "a 219-byte file: %lu reads, %ld bytes", r, n);
  r = reads_of(big, 1024, &n); /* the buffer's worth */
  CHECK_MSG(r == 1 && n == 1023, "a 5000-byte file: %lu reads, %ld bytes", r,
            n);
  r = reads_of(exact, 1024, &n);
  CHECK_MSG(r == 1 && n == 1023, "a 1023-byte file: %lu reads, %ld bytes", r,
            n);
  r = reads_of(big, 8192, &n);
  CHECK_MSG(n == 5000, "a 5000-byte file, 8 KB buffer: %ld bytes", n);
  CHECK(reads_of("/nonexistent/idiomrt-fixedcost", 64, &n) == 0 && n == -1);
  remove(small), remove(big), remove(exact);
  free(small), free(big), free(exact);
}

static int g_ran;            /* runs of count_once */
static int g_release;        /* block_once may return */
static pid_t g_parent;
static void count_once(void) {
  usleep(20000);
  __atomic_add_fetch(&g_ran, 1, __ATOMIC_RELAXED);
}
static idiomrt_once g_o1 = IDIOMRT_ONCE_INIT, g_o2 = IDIOMRT_ONCE_INIT;
static void *call_once(void *arg) {
  (void)arg;
  idiomrt_once_run(&g_o1, count_once);
  return (void *)(intptr_t)__atomic_load_n(&g_ran, __ATOMIC_RELAXED);
}
/* In the parent: blocks until released; in a child: returns at once. */
static void block_once(void) {
  while (getpid() == g_parent && !__atomic_load_n(&g_release, __ATOMIC_ACQUIRE))
    usleep(1000);
  __atomic_add_fetch(&g_ran, 1, __ATOMIC_RELAXED);
}
static void *call_block(void *arg) {
  (void)arg;
  idiomrt_once_run(&g_o2, block_once);
  return NULL;
}

void case_fixedcost_once(void) {
  idiomrt_config_get(); /* the fork handler registered, as in a run */
  pthread_t t[4];
  for (int i = 0; i < 4; ++i)
    CHECK(pthread_create(&t[i], NULL, call_once, NULL) == 0);
  for (int i = 0; i < 4; ++i) {
    void *seen = NULL;
    pthread_join(t[i], &seen);
    CHECK_MSG((intptr_t)seen == 1, "a caller returned before the run");
  }
  CHECK(g_ran == 1);
  idiomrt_once_run(&g_o1, count_once);
  CHECK(g_ran == 1);
  /* a fork while another thread runs g_o2's function */
  g_parent = getpid();
  pthread_t b;
  CHECK(pthread_create(&b, NULL, call_block, NULL) == 0);
  while (__atomic_load_n(&g_o2.state, __ATOMIC_ACQUIRE) == 0)
    usleep(1000);
  pid_t child = fork();
  if (child == 0) {
    idiomrt_once_run(&g_o2, block_once); /* would wait for good */
    _exit(g_ran == 2 ? 0 : 1);
  }
  int st = -1;
  CHECK(child > 0 && waitpid(child, &st, 0) == child);
  CHECK_MSG(WIFEXITED(st) && WEXITSTATUS(st) == 0, "child status %d", st);
  __atomic_store_n(&g_release, 1, __ATOMIC_RELEASE);
  pthread_join(b, NULL);
  CHECK(g_ran == 2);
}
