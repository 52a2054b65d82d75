/*===- profile.c - Per-site cost samples kept across runs; early start-up --===*
 *
 * A process learns the cost model's per-site, per-size-class host and
 * device times (costmodel.c) from scratch: its first calls of a class run
 * the original loop to time it, then the loop runs until a start-up's
 * worth of host time (ski rental), then the start-up itself (0.3-0.5 s on a
 * GPU) overlaps more host runs. A program run again and again (a solver in
 * production, a benchmark) pays that every time. The profile keeps what the
 * last process learnt:
 *
 *  - at exit, IDIOM_CACHE_DIR/profile/<key>.txt (or the file IDIOM_PROFILE
 *    names, a value with a '/') gets, for every descriptor and size class
 *    with host samples, the medians in ns per iteration (the device's, or
 *    -1 when it has none) and the device runs of the class, unless the
 *    file already says that within 25% (or 20 us of loop time, a quarter
 *    of a start-up of worthy time; a factor of 2 for the host time of a
 *    class that never ran on a device);
 *  - at a descriptor's first run, its classes start from those medians (one
 *    sample of each side, replaced by this process's own as they come);
 *  - at program start (a constructor of this file, which is linked with
 *    idiom_run through registry.c), when the profile says the last process
 *    saved more host time on the device than one start-up costs, and the
 *    IDIOM_* environment is the one the last process ended with, the
 *    background start-up (startup.c) begins at once, so that the device is
 *    ready when the first hot loop comes, unless the last process ended
 *    sooner than a build of its kernels takes (the wall line, startup.c's
 *    too_late). (The runtime reads IDIOM_* once;
 *    a program that sets them in main, as the runtime's tests do, ends with
 *    another environment than it starts with: no early start for it.)
 *
 * key = FNV-1a 64 of (format tag, the executable's GNU build ID, or its
 * path, size, mtime and inode when it has none, the host name, the
 * IDIOM_DEVICE preference): a program rebuilt into other code, another
 * machine sharing the cache directory or another device choice starts
 * without a profile. A site is the FNV-1a 64 of its descriptor's
 * location, kernel name, idiom and shape. File format:
 *
 *   idiom-profile 3
 *   env HEX            (the IDIOM_* environment at exit)
 *   worthy NS          (host time of runs worth the device, costmodel.c)
 *   wall NS BUILD_NS   (optional: the process's time from start to exit, and
 *                      its longest single program build from source, 0
 *                      when the disk cache served it, else half the last
 *                      one's when it had none;
 *                      startup.c's rule for builds near the end)
 *   fruitless STARTS HELD (optional, absent for 0 0: the runs in a row that
 *                      started the device and ran nothing on it, and the
 *                      runs held since; fruitless.c)
 *   site HEX CLASS HOST_PI DEV_PI DEVICE_RUNS CPU_PI CPU_RUNS AGE LOSSES LOAD LOC
 *   ...
 *   check HEX          (FNV-1a 64 of the lines above)
 *
 * CPU_PI and CPU_RUNS: the second (CPU) device's median (-1: none) and its
 * runs of the class ("Two devices", costmodel.c), so that a later process
 * does not explore it again. AGE, LOSSES, LOAD: how old the device's
 * median is in runs, the measuring runs in a row in which it lost, and the
 * contention (%, -1 unknown) of the run that measured it (stale.c: when
 * a losing device is measured again). Formats 1 (no CPU fields) and 2 (no
 * AGE LOSSES LOAD: read as 0, 1 when the device lost, -1) are still read.
 *
 * A malformed or corrupt file is ignored. Like calibration.c's numbers,
 * the profile only steers speed decisions: every later run is measured and
 * replaces the seeds, and results never depend on it. The profile is used
 * only with the cost model on, and with the disk cache on unless
 * IDIOM_PROFILE names the file; IDIOM_PROFILE=off turns it off.
 *
 *===----------------------------------------------------------------------===*/
#include "rt_internal.h"

#include <elf.h>
#include <errno.h>
#include <limits.h>
#include <link.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#define PROFILE_MAX_SITES 256 /* lines kept: sites x classes */
#define PROFILE_MARGIN 1.1    /* as costmodel.c's DEVICE_MARGIN */
#define PROFILE_SLACK 1.25    /* numbers that moved less are not rewritten, */
#define PROFILE_LOOP_TOL_NS 20000.0 /* nor loop times that moved less */
#define PROFILE_HOST_SLACK 2.0 /* host times of classes never on a device */
#define PROFILE_LOAD_TOL 10   /* contention points (stale.c) not rewritten */

typedef struct profile_line {
  uint64_t site;
  unsigned cls;
  double host_pi, dev_pi;
  uint64_t dev_runs;
  double cpu_pi;     /* the second device's; -1: none */
  uint64_t cpu_runs;
  unsigned age, losses; /* the device's median (stale.c) */
  int load;
  char loc[96];
} profile_line;

IDIOMRT_START_DATA static idiomrt_once g_once = IDIOMRT_ONCE_INIT;
IDIOMRT_START_DATA static int g_have_key;                       /* the file's path is known */
/* The profile's directory and file (make_path), on the heap at their
   lengths: as PATH_MAX buffers of zero-initialised data, they and the two
   below were four pages that every start touched (bench/tiny_host.sh). */
IDIOMRT_START_DATA static char *g_dir, *g_path;
/* The file's lines (heap, g_nlines of them: the buffers of the profile
   are allocated as needed, not 130 KB of zero-initialised data whose
   first pages a start touched apart, bench/tiny_host.sh). */
IDIOMRT_START_DATA static profile_line *g_lines;
IDIOMRT_START_DATA static unsigned g_nlines;                    /* read from the file */
IDIOMRT_START_DATA static uint64_t g_file_env;                  /* its env line */
static int64_t g_file_worthy = -1;           /* its worthy line, or -1 */
static int64_t g_file_wall = -1, g_file_build = -1; /* its wall line */
IDIOMRT_START_DATA static uint64_t g_file_starts, g_file_held;  /* its fruitless line, or 0 0 */
IDIOMRT_START_DATA static uint64_t g_t0_ns;                     /* constructor time */

/* No worthy, wall or fruitless line read (no file, or a malformed one). */
static void forget_file_header(void) {
  g_file_worthy = g_file_wall = g_file_build = -1;
  g_file_starts = g_file_held = 0;
}

uint64_t idiomrt_profile_t0_ns(void) { return g_t0_ns; }

static uint64_t fnv_str(uint64_t h, const char *s) {
  return idiomrt_fnv1a(h, s ? s : "", s ? strlen(s) + 1 : 1);
}

/* A site within one executable (the profile's file is the executable's):
   its location, kernel name, idiom and shape. Not its source: a GEMM's
   source with its variants is half a megabyte, and hashing (or merely
   scanning) five of them at each start and exit took 6 ms, a third of a
   20 ms program. */
static uint64_t site_key(const idiom_kernel_desc *d) {
  uint64_t h = fnv_str(IDIOMRT_FNV_OFFSET, d->loc);
  h = fnv_str(h, d->name);
  h = fnv_str(h, d->idiom);
  uint32_t shape[4] = {d->kind, d->ndims, d->nresults, d->nvariants};
  return idiomrt_fnv1a(h, shape, sizeof shape);
}

/* The main program's GNU build ID (dl_iterate_phdr's first object). */
typedef struct build_id {
  unsigned char bytes[64];
  size_t len; /* 0: none */
} build_id;

static int find_build_id(struct dl_phdr_info *info, size_t size, void *arg) {
  (void)size;
  build_id *b = arg;
  for (unsigned i = 0; i < info->dlpi_phnum; ++i) {
    const ElfW(Phdr) *ph = &info->dlpi_phdr[i];
    if (ph->p_type != PT_NOTE)
      continue;
    size_t align = ph->p_align == 8 ? 8 : 4;
    const char *p = (const char *)(info->dlpi_addr + ph->p_vaddr);
    const char *end = p + ph->p_memsz;
    while ((size_t)(end - p) >= sizeof(ElfW(Nhdr))) {
      const ElfW(Nhdr) *nh = (const ElfW(Nhdr) *)(const void *)p;
      size_t name = (nh->n_namesz + align - 1) & ~(align - 1);
      size_t desc = (nh->n_descsz + align - 1) & ~(align - 1);
      const char *d = p + sizeof *nh + name;
      if (name > (size_t)(end - p) || desc > (size_t)(end - d))
        break;
      if (nh->n_type == NT_GNU_BUILD_ID && nh->n_namesz == 4 &&
          memcmp(p + sizeof *nh, "GNU", 4) == 0 && nh->n_descsz > 0 &&
          nh->n_descsz <= sizeof b->bytes) {
        memcpy(b->bytes, d, nh->n_descsz);
        b->len = nh->n_descsz;
        return 1;
      }
      p = d + desc;
    }
  }
  return 1; /* the first object is the program: stop */
}

/* x with the host's name hashed in (the key of the profile is per host). */
static uint64_t with_host(uint64_t x) {
  char host[256] = "";
  gethostname(host, sizeof host - 1);
  return fnv_str(x, host);
}

/* The identity of a program linked without a build ID: its path, size,
   modification time and inode, hashed with the host's name; 0 when
   /proc/self/exe cannot be read. Out of line: its PATH_MAX buffer made
   exe_identity's frame 4.6 KB deep, and the constructor's first calls
   into libc under it (dl_iterate_phdr, gethostname: lazy binding saves
   the vector registers below the frame) touched a stack page that no
   sequential build touches, a page fault at every start (helper
   "tinymain", docs/Benchmarks.md). */
static __attribute__((noinline)) int exe_path_identity(uint64_t *h) {
  char exe[PATH_MAX];
  ssize_t n = readlink("/proc/self/exe", exe, sizeof exe - 1);
  struct stat st;
  if (n <= 0 || stat("/proc/self/exe", &st) != 0)
    return 0;
  exe[n] = '\0';
  uint64_t x = fnv_str(IDIOMRT_FNV_OFFSET, "idiom-profile-v1");
  x = fnv_str(x, exe);
  uint64_t id[4] = {(uint64_t)st.st_size, (uint64_t)st.st_mtim.tv_sec,
                    (uint64_t)st.st_mtim.tv_nsec, (uint64_t)st.st_ino};
  *h = with_host(idiomrt_fnv1a(x, id, sizeof id));
  return 1;
}

/* The hash of the executable's identity and of the host's name, into *h;
   0 when it has none. The identity is the program's GNU build ID (a hash
   of its contents that the linker writes, read from memory: no system
   call), or, for a program linked without one, its path, size,
   modification time and inode (a readlink and a stat of /proc/self/exe,
   8 us here, bench/tiny_host.sh). Computed once per process, by the
   constructor (or by the first run when the constructor had no reason
   to): the key is the running program's, and make_path's two callers each
   paid for it. */
static int exe_identity(uint64_t *h) {
  static int known = -1; /* -1 not yet, 0 unreadable, 1 in g_exe_hash */
  IDIOMRT_START_DATA static uint64_t g_exe_hash;
  build_id id = {{0}, 0};
  if (known < 0)
    dl_iterate_phdr(find_build_id, &id);
  if (known < 0 && id.len) {
    uint64_t x = fnv_str(IDIOMRT_FNV_OFFSET, "idiom-profile-build-id");
    g_exe_hash = with_host(idiomrt_fnv1a(x, id.bytes, id.len));
    known = 1;
  }
  if (known < 0)
    known = exe_path_identity(&g_exe_hash);
  *h = g_exe_hash;
  return known;
}

/* *slot = s, the old string freed. */
static void set_str(char **slot, char *s) {
  free(*slot);
  *slot = s;
}

/* The file's path for configuration cfg, from the executable's identity,
   into g_dir and g_path; 0 when there is none (cache or cost model off,
   a directory of PATH_MAX characters or more), which leaves them as they
   were. */
static int make_path(const idiomrt_config *cfg) {
  if (!cfg->cost)
    return 0;
  char *dir = NULL, *path = NULL;
  const char *given = cfg->profile;
  if (given && strchr(given, '/')) { /* IDIOM_PROFILE=PATH */
    path = idiomrt_str_cat(PATH_MAX + 32, given, "", NULL);
    dir = path ? idiomrt_str_cat(PATH_MAX + 32, given, "", NULL) : NULL;
    if (dir) {
      char *slash = strrchr(dir, '/');
      if (slash == dir)
        slash[1] = '\0';
      else
        *slash = '\0';
    }
  } else {
    uint64_t h;
    if (!cfg->cache_dir || !exe_identity(&h))
      return 0;
    int pref = cfg->device_pref;
    h = idiomrt_fnv1a(h, &pref, sizeof pref);
    /* (without snprintf: bench/fixed_cost.sh) */
    char name[16 + 5 + 1];
    memcpy(idiomrt_put_hex16(name, h), ".txt", 5);
    dir = idiomrt_str_cat(PATH_MAX, cfg->cache_dir, "/profile", NULL);
    path = dir ? idiomrt_str_cat(PATH_MAX + 32, dir, "/", name) : NULL;
  }
  if (!dir || !path) {
    free(dir);
    free(path);
    return 0;
  }
  set_str(&g_dir, dir);
  set_str(&g_path, path);
  return 1;
}

/* The file read last, and what reading it found, for IDIOM_DEBUG: printed
   at once when the configuration is read, else (program start: reading it
   would fix it before main could set IDIOM_*) kept for load(). Kept as a
   kind, formatted only when printed (vsnprintf at every start touched
   pages of libc code, bench/fixed_cost.sh). */
IDIOMRT_START_DATA static char *g_read_path;
enum { NOTE_NONE, NOTE_CORRUPT, NOTE_BAD_LINE, NOTE_READ };
IDIOMRT_START_DATA static int g_read_note;

static void print_note(void) {
  const char *path = g_read_path ? g_read_path : "?";
  if (g_read_note == NOTE_CORRUPT)
    idiomrt_debug("profile: ignoring %s: malformed or corrupt", path);
  else if (g_read_note == NOTE_BAD_LINE)
    idiomrt_debug("profile: ignoring %s: malformed line", path);
  else if (g_read_note == NOTE_READ)
    idiomrt_debug("profile: %s: %u site classes", path, g_nlines);
  g_read_note = NOTE_NONE;
}

static void note(int kind) {
  g_read_note = kind;
  if (idiomrt_config_peek())
    print_note();
}

/* One site line after "site" (format 3, 2 or 1: v3, v2) into *p; 0 when
   it is malformed. */
static int parse_site(const char *l, int v3, int v2, profile_line *p) {
  uint64_t site, cls, runs, cruns = 0, age = 0, losses = 0;
  p->cpu_pi = -1;
  p->load = -1;
  if (!idiomrt_scan_hex(&l, &site) || !idiomrt_scan_u64(&l, &cls) ||
      !idiomrt_scan_double(&l, &p->host_pi) ||
      !idiomrt_scan_double(&l, &p->dev_pi) || !idiomrt_scan_u64(&l, &runs) ||
      (v2 && (!idiomrt_scan_double(&l, &p->cpu_pi) ||
              !idiomrt_scan_u64(&l, &cruns))) ||
      (v3 && (!idiomrt_scan_u64(&l, &age) || !idiomrt_scan_u64(&l, &losses) ||
              !idiomrt_scan_int(&l, &p->load))) ||
      cls >= IDIOMRT_SIZE_CLASSES || age > UINT32_MAX || losses > UINT32_MAX)
    return 0;
  while (*l == ' ' || *l == '\t')
    ++l;
  p->site = site;
  p->cls = (unsigned)cls;
  p->dev_runs = runs;
  p->cpu_runs = cruns;
  p->age = (unsigned)age;
  p->losses = (unsigned)losses;
  size_t n = strlen(l);
  n = n < sizeof p->loc - 1 ? n : sizeof p->loc - 1;
  memcpy(p->loc, l, n);
  p->loc[n] = '\0';
  return p->host_pi > 0 && (p->dev_pi >= 0 || p->dev_pi == -1) &&
         (p->cpu_pi >= 0 || p->cpu_pi == -1) && p->load >= -1 &&
         p->load <= 100;
}

/* Parses the text buf of file path into g_lines (none when it is
   malformed), with rt_text.h's readers (sscanf touched four pages of libc
   code at every start, bench/fixed_cost.sh). */
static void parse_profile(char *buf) {
  char *check = strstr(buf, "\ncheck ");
  uint64_t sum = 0, env = 0;
  int v3 = strncmp(buf, "idiom-profile 3\nenv ", 20) == 0;
  int v2 = v3 || strncmp(buf, "idiom-profile 2\nenv ", 20) == 0;
  const char *c = check ? check + 1 : NULL, *e = buf + 16;
  if ((!v2 && strncmp(buf, "idiom-profile 1\nenv ", 20) != 0) || !check ||
      !idiomrt_scan_word(&c, "check") || !idiomrt_scan_hex(&c, &sum) ||
      !idiomrt_scan_word(&e, "env") || !idiomrt_scan_hex(&e, &env) ||
      idiomrt_fnv1a(IDIOMRT_FNV_OFFSET, buf, (size_t)(check + 1 - buf)) !=
          sum) {
    note(NOTE_CORRUPT);
    return;
  }
  check[1] = '\0';
  g_file_env = env;
  unsigned most = 0; /* lines, so many at most */
  for (const char *x = buf; *x; ++x)
    most += *x == '\n';
  most = most < PROFILE_MAX_SITES ? most : PROFILE_MAX_SITES;
  profile_line *lines = realloc(g_lines, (most ? most : 1) * sizeof *lines);
  if (!lines)
    return;
  g_lines = lines;
  unsigned m = 0;
  char *next = strchr(buf + 16, '\n');
  while (next && m < most) {
    char *l = next + 1, *end = strchr(l, '\n');
    next = end;
    if (end)
      *end = '\0';
    if (!*l)
      continue; /* (empty lines are skipped) */
    const char *q = l;
    uint64_t a, b;
    if (idiomrt_scan_word(&q, "worthy ")) {
      if (idiomrt_scan_u64(&q, &a) && a <= INT64_MAX)
        g_file_worthy = (int64_t)a;
      continue;
    }
    if (idiomrt_scan_word(&q, "wall ")) {
      if (idiomrt_scan_u64(&q, &a) && idiomrt_scan_u64(&q, &b) &&
          a <= INT64_MAX && b <= INT64_MAX) {
        g_file_wall = (int64_t)a;
        g_file_build = (int64_t)b;
      }
      continue;
    }
    if (idiomrt_scan_word(&q, "fruitless ")) {
      if (idiomrt_scan_u64(&q, &a) && idiomrt_scan_u64(&q, &b)) {
        g_file_starts = a;
        g_file_held = b;
      }
      continue;
    }
    profile_line *p = &g_lines[m];
    if (!idiomrt_scan_word(&q, "site ") || !parse_site(q, v3, v2, p)) {
      note(NOTE_BAD_LINE);
      m = 0;
      forget_file_header();
      break;
    }
    /* an older format's device median: measured by the last run; lost
       once when it lost */
    if (!v3 && p->dev_pi >= 0 && !(p->dev_pi * PROFILE_MARGIN < p->host_pi))
      p->losses = 1;
    ++m;
  }
  g_nlines = m;
  note(NOTE_READ);
}

/* fruitless.c's hold from the file just read (none without a file), for
   a process whose IDIOM_* environment hashes to env. */
static void read_fruitless(uint64_t env) {
  idiomrt_fruitless_read(g_file_starts, g_file_held,
                         g_nlines && g_file_env == env);
}

/* Reads path into g_lines (none when it is missing or malformed), for a
   process whose IDIOM_* environment hashes to env. */
static void read_profile(const char *path, uint64_t env) {
  g_nlines = 0;
  forget_file_header();
  g_read_note = NOTE_NONE;
  set_str(&g_read_path, strdup(path));
  size_t cap = PROFILE_MAX_SITES * 224 + 64;
  char *buf = malloc(cap); /* only the file's pages are touched */
  if (buf && idiomrt_read_small_file(path, buf, cap) >= 0)
    parse_profile(buf);
  free(buf);
  read_fruitless(env);
}

static void write_profile(void);

/* At the first descriptor's run, with the configuration in effect: the
   file of this configuration (the one the constructor read, unless main
   changed IDIOM_*). */
static void load(void) {
  const idiomrt_config *cfg = idiomrt_config_get();
  g_have_key = make_path(cfg);
  if (!g_have_key) {
    g_nlines = 0;
    forget_file_header();
    read_fruitless(cfg->env_hash);
    return;
  }
  if (!g_read_path || strcmp(g_path, g_read_path) != 0)
    read_profile(g_path, cfg->env_hash); /* main changed IDIOM_* */
  else if (g_read_note)
    print_note();
  atexit(write_profile);
}

/* IDIOM_PROFILE=off, read at the first call after program start (the
   runtime reads IDIOM_* once): the cost model asks at every decision for
   the device while it is not started, and getenv scanned the environment
   each time (tpacf: 170,000 instructions, bench/host_overhead.sh); the
   configuration's copy, kept once. */
static int profile_off(void) {
  static int off = -1; /* atomic: -1 not read yet, else 0 or 1 */
  int v = __atomic_load_n(&off, __ATOMIC_RELAXED);
  if (v < 0) {
    const char *env = idiomrt_config_get()->profile;
    v = env && strcmp(env, "off") == 0;
    __atomic_store_n(&off, v, __ATOMIC_RELAXED);
  }
  return v;
}

int64_t idiomrt_profile_last_worthy_ns(void) {
  if (profile_off())
    return -1;
  idiomrt_once_run(&g_once, load);
  return g_file_worthy;
}

int64_t idiomrt_profile_last_wall_ns(int64_t *build_ns) {
  if (profile_off())
    return -1;
  idiomrt_once_run(&g_once, load);
  if (build_ns)
    *build_ns = g_file_build;
  return g_file_wall;
}

/* This process's wall line: from the constructor to the start of exit
   (before exit waits for the runtime thread, startup.c), and its longest
   single program build from source (one clBuildProgram: what exit may wait
   for; a GPU builds each variant as a program of its own, so not the
   variants of a site together: on the H200 those take 1-1.6 s, more than
   a warm Jacobi run, and kept the next runs from starting early). When it
   built nothing from source: 0 if the disk cache served its programs (the
   next run loads them too), else (its builds left out, or none asked for)
   half the file's: a run that left its builds out does not make the next
   expect them to be short at once, and one slow build (a loaded machine:
   nas-parboil/mg.c's 7.4 s at load 13 here, against 0.3-0.4 s a program
   quiet) holds the device back for a few runs, not for good. */
static void wall_line(uint64_t *wall, uint64_t *build) {
  uint64_t end = idiomrt_startup_exit_ns();
  if (!end)
    end = idiomrt_now_ns();
  *wall = end > g_t0_ns ? end - g_t0_ns : 0;
  *build = idiomrt_startup_longest_build_ns();
  /* a build still running at exit took at least as long as it ran (0
     would tell the next run that its programs load from the disk cache,
     startup.c's expected_ready_ns) */
  if (!*build)
    *build = idiomrt_startup_build_running_ns();
  if (!*build && g_file_build > 0 && !idiomrt_startup_loaded_from_disk())
    *build = (uint64_t)g_file_build / 2;
}

/* Host time saved on the devices by the runs of lines l[0..n), in ns (at
   their medians). */
static double lines_saved_ns(const profile_line *l, unsigned n) {
  double s = 0;
  for (unsigned i = 0; i < n; ++i) {
    const profile_line *p = &l[i];
    double trip = (double)((uint64_t)1 << p->cls);
    if (p->dev_pi >= 0 && p->dev_pi * PROFILE_MARGIN < p->host_pi)
      s += (p->host_pi - p->dev_pi) * trip * (double)p->dev_runs;
    if (p->cpu_pi >= 0 && p->cpu_pi * PROFILE_MARGIN < p->host_pi)
      s += (p->host_pi - p->cpu_pi) * trip * (double)p->cpu_runs;
  }
  return s;
}

/* Program start: read the profile; start the device now when the last
   process saved more than one start-up with it and ended with the
   environment this one starts with. */
__attribute__((constructor)) static void profile_at_start(void) {
  g_t0_ns = idiomrt_now_ns();
  int saved_errno = errno;
  idiomrt_config cfg;
  idiomrt_config_preview(&cfg); /* one pass over the environment */
  if (cfg.profile && strcmp(cfg.profile, "off") == 0) {
    errno = saved_errno;
    return;
  }
  if (make_path(&cfg)) {
    read_profile(g_path, cfg.env_hash);
    double s = lines_saved_ns(g_lines, g_nlines); /* the last process's */
    double w = g_file_worthy > 0 ? (double)g_file_worthy : 0;
    /* Nothing saved and nothing worthy: no start-up, whatever one costs
       (a start-up's worth is never 0), so neither the calibration file nor
       the address-space limit is read for it here. Then the environment:
       the calibration file's reader fixes the configuration. */
    /* Nor when the last run saved less than the least start-up and had
       less than two of worthy host time: no start-up record can make
       those enough (the record is read by the first call when it needs
       it; the limit's getrlimit is left out, bench/fixed_cost.sh). */
    if (g_nlines && (s > (double)IDIOMRT_MIN_START_NS ||
                     w >= 2 * (double)IDIOMRT_MIN_START_NS) &&
        g_file_env == cfg.env_hash &&
        cfg.device_pref != IDIOMRT_DEV_SEQ &&
        !idiomrt_address_space_too_small()) {
      double start = (double)idiomrt_calib_start_after_ns();
      /* Saved more than a start-up on the device; or, never run there (a
         program with one long call runs it on the host while the device
         starts), at least two start-ups of host time in runs the cost
         model wanted on the device (costmodel.c's worthy total). */
      /* (never under the test knob IDIOM_TEST_HOST: no device start) */
      /* (nor when the last run ended sooner than a build of its
         kernels takes: no build would be begun, startup.c's too_late) */
      double build = g_file_build > start ? (double)g_file_build : start;
      if (g_file_wall > 0 && (double)g_file_wall < build)
        idiomrt_debug("profile: the last run took %.1f ms, less than a "
                      "build (%.1f ms): the device is not started early",
                      (double)g_file_wall / 1e6, build / 1e6);
      else if ((s > start || w >= 2 * start) &&
               !idiomrt_config_get()->test_host && !idiomrt_fruitless_hold()) {
        if (s > start)
          idiomrt_debug("profile: the last run saved %.1f ms on the device: "
                        "starting it at program start",
                        s / 1e6);
        else
          idiomrt_debug("profile: the last run had %.1f ms of host time "
                        "worth the device: starting it at program start",
                        w / 1e6);
        idiomrt_startup_kick();
      }
    }
  }
  errno = saved_errno;
}

void idiomrt_profile_seed(idiomrt_entry *e) {
  if (profile_off())
    return;
  idiomrt_once_run(&g_once, load);
  if (!g_nlines)
    return;
  uint64_t key = site_key(e->desc);
  for (unsigned i = 0; i < g_nlines; ++i) {
    const profile_line *p = &g_lines[i];
    if (p->site != key)
      continue;
    /* e is not published yet: no lock */
    idiomrt_cost_class *c = idiomrt_cost_class_get(&e->cost, p->cls);
    if (!c)
      continue;
    c->host_pi[0] = c->host_est = p->host_pi;
    c->hn = 1;
    if (p->dev_pi >= 0) {
      c->dev_pi[0] = c->dev_est = p->dev_pi;
      c->dn = 1;
      idiomrt_stale_seed(c, p->age, p->losses, p->load);
    }
    if (p->cpu_pi >= 0) { /* the second device: not explored again */
      c->cpu_pi[0] = c->cpu_est = p->cpu_pi;
      c->cn = 1;
      c->cpu_runs = 1; /* its kernels are warm in the tuning and disk
                          caches: the next run is a sample */
    }
  }
}

static int fmt_line(char *buf, size_t n, const profile_line *p,
                    const char *loc) {
  return snprintf(buf, n,
                  "site %016llx %u %.6g %.6g %llu %.6g %llu %u %u %d %s\n",
                  (unsigned long long)p->site, p->cls, p->host_pi, p->dev_pi,
                  (unsigned long long)p->dev_runs, p->cpu_pi,
                  (unsigned long long)p->cpu_runs, p->age, p->losses,
                  p->load, loc ? loc : "?");
}

/* 1 when a and b (ns per iteration, run counts, ns; -1: none) are both
   absent, within PROFILE_SLACK of each other, or at most abs_tol apart. */
static int close_enough(double a, double b, double abs_tol) {
  if (a < 0 || b < 0)
    return a < 0 && b < 0;
  double lo = a < b ? a : b, hi = a < b ? b : a;
  return hi <= lo * PROFILE_SLACK || hi - lo <= abs_tol;
}

/* The lines above the site lines that this process writes: the wall line
   and fruitless.c's counts, from the nfresh lines measured here. */
typedef struct {
  uint64_t wall, build, starts, held;
} profile_head;

static void make_head(profile_head *h, const profile_line *fresh,
                      unsigned nfresh) {
  wall_line(&h->wall, &h->build);
  idiomrt_fruitless_next(lines_saved_ns(fresh, nfresh), &h->starts, &h->held);
}

/* 1 when the file read at start already says what this process would
   write, up to PROFILE_SLACK: its environment, worthy total (or a quarter
   of a start-up), head h and every line (or 20 us of the class's loop
   time; nfresh measured here, the others copied from the file; nlines in
   all). */
static int file_current(const profile_line *fresh, unsigned nfresh,
                        unsigned nlines, uint64_t worthy,
                        const profile_head *h, uint64_t env) {
  /* worthy only matters against one or two start-ups; a class's times
     only against a launch's latency or more; the wall line against a
     start-up or a build */
  double start = (double)idiomrt_calib_start_after_ns();
  if (nlines != g_nlines || g_file_env != env || g_file_worthy < 0 ||
      h->starts != g_file_starts || h->held != g_file_held ||
      !close_enough((double)g_file_worthy, (double)worthy, start / 4) ||
      g_file_wall < 0 ||
      !close_enough((double)g_file_wall, (double)h->wall, start) ||
      !close_enough((double)g_file_build, (double)h->build, start))
    return 0;
  for (unsigned i = 0; i < nfresh; ++i) {
    const profile_line *f = &fresh[i], *o = NULL;
    for (unsigned j = 0; j < g_nlines && !o; ++j)
      if (g_lines[j].site == f->site && g_lines[j].cls == f->cls)
        o = &g_lines[j];
    double tol = PROFILE_LOOP_TOL_NS / (double)((uint64_t)1 << f->cls);
    /* A class that never ran on a device (no device time in the file nor
       here) steers one choice with its host time: whether the device's
       floor exceeds it. Its seed is replaced by this process's first
       sample anyway, and a loaded machine moves loop times by more than
       PROFILE_SLACK from run to run: within PROFILE_HOST_SLACK, the file
       is kept (each rewrite costs a rename's flush). */
    int host_only = o && o->dev_pi < 0 && f->dev_pi < 0 && !o->dev_runs &&
                    !f->dev_runs && o->cpu_pi < 0 && f->cpu_pi < 0;
    if (host_only && o->host_pi > 0 && f->host_pi > 0 &&
        f->host_pi <= o->host_pi * PROFILE_HOST_SLACK &&
        o->host_pi <= f->host_pi * PROFILE_HOST_SLACK)
      continue;
    if (!o || !close_enough(o->host_pi, f->host_pi, tol) ||
        !close_enough(o->dev_pi, f->dev_pi, tol) ||
        !close_enough(o->cpu_pi, f->cpu_pi, tol) ||
        !close_enough((double)o->cpu_runs, (double)f->cpu_runs, 0) ||
        !close_enough((double)o->dev_runs, (double)f->dev_runs, 0) ||
        o->age != f->age || o->losses != f->losses ||
        (o->load < 0) != (f->load < 0) ||
        (o->load - f->load > PROFILE_LOAD_TOL ||
         f->load - o->load > PROFILE_LOAD_TOL))
      return 0;
  }
  return 1;
}

/* Longest text of fmt_line for a location of n characters: "site ", the
   key, the class (< 64), three %.6g (13 characters at most), two counts
   (20), the separators, the newline. */
#define PROFILE_LINE_MAX(n) (112 + (n))

/* At exit: this process's classes with both samples, and the file's lines
   of sites this process did not measure. Not written when the file says
   the same up to PROFILE_SLACK: a program run again and again does not
   rewrite it every time (a rename on ext4 flushes the file: 0.3 ms of a
   4 ms program's CPU time here). Whether it says the same is decided
   before any line is formatted (formatting took 30,000 instructions at
   every exit of a program with two sites, bench/tiny_host.sh) whenever the
   lines surely fit the buffer; the text, when written, is the same. */
static void write_profile(void) {
  if (!g_have_key || idiomrt_forked_child())
    return;
  int saved_errno = errno;
  size_t cap = PROFILE_MAX_SITES * 224 + 64, len = 0;
  uint64_t worthy = idiomrt_cost_worthy_total_ns();
  /* the fresh lines and their locations: a few on the stack, else on the
     heap (at most PROFILE_MAX_SITES) */
  profile_line fl_few[16], *fl = fl_few;
  const char *floc_few[16], **floc = floc_few;
  unsigned lines = 0, fresh = 0, room = 16;
  for (idiomrt_entry *e = idiomrt_entry_first(); e && fresh < PROFILE_MAX_SITES;
       e = idiomrt_entry_next(e)) {
    if (pthread_mutex_trylock(&e->stats_lock) != 0)
      continue;
    uint64_t key = site_key(e->desc);
    for (unsigned c = 0; c < IDIOMRT_SIZE_CLASSES && fresh < PROFILE_MAX_SITES;
         ++c) {
      const idiomrt_cost_class *k = idiomrt_cost_class_find(&e->cost, c);
      if (!k || !k->hn)
        continue;
      if (fresh == room) {
        room = PROFILE_MAX_SITES;
        fl = malloc(room * sizeof *fl);
        floc = malloc(room * sizeof *floc);
        if (!fl || !floc) {
          pthread_mutex_unlock(&e->stats_lock);
          goto out;
        }
        memcpy(fl, fl_few, sizeof fl_few);
        memcpy(floc, floc_few, sizeof floc_few);
      }
      fl[fresh] = (profile_line){key,
                                 c,
                                 k->host_est,
                                 k->dn ? k->dev_est : -1.0,
                                 k->dev_runs,
                                 k->cn ? k->cpu_est : -1.0,
                                 k->cpu_runs,
                                 0,
                                 0,
                                 -1,
                                 ""};
      idiomrt_stale_line(k, &fl[fresh].age, &fl[fresh].losses,
                         &fl[fresh].load);
      floc[fresh++] = e->desc->loc;
    }
    pthread_mutex_unlock(&e->stats_lock);
  }
  if (!fresh)
    goto out;
  /* The file's lines of sites not measured here, after the fresh ones. */
  size_t most = 64; /* the header */
  for (unsigned i = 0; i < fresh; ++i)
    most += PROFILE_LINE_MAX(strlen(floc[i] ? floc[i] : "?"));
  unsigned kept[PROFILE_MAX_SITES], nkept = 0;
  for (unsigned i = 0; i < g_nlines && fresh + nkept < PROFILE_MAX_SITES; ++i) {
    int dup = 0;
    for (unsigned j = 0; j < fresh && !dup; ++j)
      dup = fl[j].site == g_lines[i].site;
    if (!dup) {
      kept[nkept++] = i;
      most += PROFILE_LINE_MAX(strlen(g_lines[i].loc));
    }
  }
  lines = fresh + nkept;
  profile_head head;
  make_head(&head, fl, fresh);
  uint64_t env = idiomrt_env_hash(); /* the environment at exit */
  if (most < cap - 40 && file_current(fl, fresh, lines, worthy, &head, env)) {
    idiomrt_debug("profile: %s says the same (within %.0f%%): not rewritten",
                  g_path, (PROFILE_SLACK - 1) * 100);
    goto out;
  }
  char *buf = malloc(cap);
  if (!buf)
    goto out;
  len = (size_t)snprintf(buf, cap, "idiom-profile 3\nenv %016llx\n"
                         "worthy %llu\nwall %llu %llu\n",
                         (unsigned long long)env,
                         (unsigned long long)worthy,
                         (unsigned long long)head.wall,
                         (unsigned long long)head.build);
  /* only when not 0 0: the file of a program that never started the
     device reads as before */
  if (head.starts || head.held)
    len += (size_t)snprintf(buf + len, cap - len, "fruitless %llu %llu\n",
                            (unsigned long long)head.starts,
                            (unsigned long long)head.held);
  /* as many lines as the buffer takes: the fresh ones first */
  unsigned nfresh = fresh;
  lines = fresh = 0;
  for (; fresh < nfresh; ++fresh, ++lines) {
    int w = fmt_line(buf + len, cap - len, &fl[fresh], floc[fresh]);
    if (w <= 0 || (size_t)w >= cap - len - 40)
      break;
    len += (size_t)w;
  }
  for (unsigned i = 0; fresh == nfresh && i < nkept; ++i) {
    const profile_line *p = &g_lines[kept[i]];
    int w = fmt_line(buf + len, cap - len, p, p->loc);
    if (w <= 0 || (size_t)w >= cap - len - 40)
      break;
    len += (size_t)w;
    ++lines;
  }
  if (fresh && file_current(fl, fresh, lines, worthy, &head, env)) {
    idiomrt_debug("profile: %s says the same (within %.0f%%): not rewritten",
                  g_path, (PROFILE_SLACK - 1) * 100);
  } else if (fresh) {
    uint64_t sum = idiomrt_fnv1a(IDIOMRT_FNV_OFFSET, buf, len);
    len += (size_t)snprintf(buf + len, cap - len, "check %016llx\n",
                            (unsigned long long)sum);
    if (!idiomrt_write_file(g_dir, g_path, buf, len))
      idiomrt_debug("profile: cannot write %s", g_path);
    else
      idiomrt_debug("profile: wrote %u site classes to %s", lines, g_path);
  }
  free(buf);
out:
  if (fl != fl_few) {
    free(fl);
    free(floc);
  }
  errno = saved_errno;
}
