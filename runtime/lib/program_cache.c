/*===- program_cache.c - Programs built once, binaries kept on disk -------===*
 *
 * In memory: each descriptor's cl_program and kernels are built on its first
 * run and kept for the process (a failed build is remembered too, so a broken
 * kernel costs one compile, not one per call). A source with variants
 * (desc->nvariants >= 2) is built as a whole; when that fails, each variant's
 * section (the text before the first `//@idiom-variant` line, then the
 * variant's own lines) is built alone, so one variant that a driver rejects
 * does not take the others with it.
 *
 * On disk: after a build from source the device binary is written to
 *   <cache dir>/<key>.clbin, key = FNV-1a 64 of (format tag, platform name,
 *   device name, driver version, device version, build options, source).
 *   Build options: -cl-fp32-correctly-rounded-divide-sqrt on devices that
 *   support it (device.c), else none.
 * File layout (host byte order):
 *   char magic[8] = "IDIOMCL1"; uint64 key; uint64 size; uint64 fnv(payload);
 *   payload[size]   (what CL_PROGRAM_BINARIES returned)
 * A file that is short, has a wrong magic, key or checksum, or that the
 * driver refuses (clCreateProgramWithBinary / clBuildProgram fail), is
 * ignored and the program is built from source, which rewrites the file.
 * Files are written to a temporary name and renamed, so concurrent processes
 * never see a partial file.
 *
 *===----------------------------------------------------------------------===*/
#include "rt_internal.h"

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#define CACHE_MAGIC "IDIOMCL1"
#define CACHE_HEADER 32
#define CACHE_MAX_PAYLOAD ((uint64_t)1 << 30)

uint64_t idiomrt_fnv1a(uint64_t h, const void *p, size_t n) {
  const unsigned char *c = p;
  for (size_t i = 0; i < n; ++i) {
    h ^= c[i];
    h *= 0x100000001b3ULL;
  }
  return h;
}

static uint64_t fnv_str(uint64_t h, const char *s) {
  return idiomrt_fnv1a(h, s, strlen(s) + 1); /* with the NUL as separator */
}

static uint64_t cache_key(const idiomrt_device *dev, const char *source) {
  uint64_t h = IDIOMRT_FNV_OFFSET;
  h = fnv_str(h, "idiom-program-cache-v1");
  h = fnv_str(h, dev->platform_name);
  h = fnv_str(h, dev->name);
  h = fnv_str(h, dev->driver);
  h = fnv_str(h, dev->version);
  h = fnv_str(h, dev->build_options);
  h = fnv_str(h, source);
  return h;
}

static int cache_path(char *buf, size_t n, const char *dir, uint64_t key) {
  int k = snprintf(buf, n, "%s/%016llx.clbin", dir, (unsigned long long)key);
  return k > 0 && (size_t)k < n;
}

int idiomrt_make_dirs(const char *dir) {
  char tmp[PATH_MAX];
  size_t len = strlen(dir);
  if (len == 0 || len >= sizeof tmp)
    return 0;
  memcpy(tmp, dir, len + 1);
  for (char *p = tmp + 1; *p; ++p) {
    if (*p != '/')
      continue;
    *p = '\0';
    if (mkdir(tmp, 0755) != 0 && errno != EEXIST)
      return 0;
    *p = '/';
  }
  if (mkdir(tmp, 0755) != 0 && errno != EEXIST)
    return 0;
  struct stat st;
  return stat(tmp, &st) == 0 && S_ISDIR(st.st_mode);
}

/* Reads and validates a cache file; returns the malloc'd payload or NULL. */
static unsigned char *cache_read(const char *path, uint64_t key,
                                 size_t *size_out) {
  FILE *f = fopen(path, "rb");
  if (!f)
    return NULL;
  unsigned char hdr[CACHE_HEADER];
  unsigned char *payload = NULL;
  uint64_t fkey, size, sum;
  if (fread(hdr, 1, sizeof hdr, f) != sizeof hdr ||
      memcmp(hdr, CACHE_MAGIC, 8) != 0) {
    idiomrt_debug("disk cache: %s: bad header, ignored", path);
    goto fail;
  }
  memcpy(&fkey, hdr + 8, 8);
  memcpy(&size, hdr + 16, 8);
  memcpy(&sum, hdr + 24, 8);
  if (fkey != key || size == 0 || size > CACHE_MAX_PAYLOAD) {
    idiomrt_debug("disk cache: %s: stale key or bad size, ignored", path);
    goto fail;
  }
  payload = malloc((size_t)size);
  if (!payload)
    goto fail;
  if (fread(payload, 1, (size_t)size, f) != (size_t)size || fgetc(f) != EOF ||
      idiomrt_fnv1a(IDIOMRT_FNV_OFFSET, payload, (size_t)size) != sum) {
    idiomrt_debug("disk cache: %s: truncated or corrupt, ignored", path);
    goto fail;
  }
  fclose(f);
  *size_out = (size_t)size;
  return payload;
fail:
  free(payload);
  fclose(f);
  return NULL;
}

int idiomrt_write_file(const char *dir, const char *path, const void *data,
                       size_t size) {
  static unsigned counter;
  if (!idiomrt_make_dirs(dir)) {
    idiomrt_debug("cannot create %s: %s", dir, strerror(errno));
    return 0;
  }
  char tmp[PATH_MAX];
  int k = snprintf(tmp, sizeof tmp, "%s/.tmp-%ld-%u", dir, (long)getpid(),
                   __atomic_fetch_add(&counter, 1, __ATOMIC_RELAXED));
  if (k <= 0 || (size_t)k >= sizeof tmp)
    return 0;
  FILE *f = fopen(tmp, "wb");
  if (!f) {
    idiomrt_debug("cannot write %s: %s", tmp, strerror(errno));
    return 0;
  }
  int ok = fwrite(data, 1, size, f) == size;
  ok = (fclose(f) == 0) && ok;
  if (!ok || rename(tmp, path) != 0) {
    idiomrt_debug("cannot write %s", path);
    unlink(tmp);
    return 0;
  }
  return 1;
}

static void cache_write(const char *dir, const char *path, uint64_t key,
                        const unsigned char *payload, size_t size) {
  unsigned char *buf = malloc(CACHE_HEADER + size);
  if (!buf)
    return;
  uint64_t size64 = size;
  uint64_t sum = idiomrt_fnv1a(IDIOMRT_FNV_OFFSET, payload, size);
  memcpy(buf, CACHE_MAGIC, 8);
  memcpy(buf + 8, &key, 8);
  memcpy(buf + 16, &size64, 8);
  memcpy(buf + 24, &sum, 8);
  memcpy(buf + CACHE_HEADER, payload, size);
  if (idiomrt_write_file(dir, path, buf, CACHE_HEADER + size))
    idiomrt_debug("disk cache: wrote %s (%zu bytes)", path, size);
  free(buf);
}

/* The device binary of a built program, malloc'd; NULL when unavailable. */
static unsigned char *program_binary(const idiomrt_device *dev, cl_program p,
                                     size_t *size_out) {
  const idiomrt_cl *cl = dev->cl;
  size_t size = 0;
  if (cl->clGetProgramInfo(p, CL_PROGRAM_BINARY_SIZES, sizeof size, &size,
                           NULL) != CL_SUCCESS ||
      size == 0)
    return NULL;
  unsigned char *bin = malloc(size);
  if (!bin)
    return NULL;
  unsigned char *bins[1] = {bin};
  if (cl->clGetProgramInfo(p, CL_PROGRAM_BINARIES, sizeof bins, bins, NULL) !=
      CL_SUCCESS) {
    free(bin);
    return NULL;
  }
  *size_out = size;
  return bin;
}

static char *build_log(const idiomrt_device *dev, cl_program p) {
  const idiomrt_cl *cl = dev->cl;
  size_t n = 0;
  if (cl->clGetProgramBuildInfo(p, dev->id, CL_PROGRAM_BUILD_LOG, 0, NULL,
                                &n) != CL_SUCCESS)
    return NULL;
  char *log = malloc(n + 1);
  if (!log)
    return NULL;
  if (cl->clGetProgramBuildInfo(p, dev->id, CL_PROGRAM_BUILD_LOG, n, log,
                                NULL) != CL_SUCCESS) {
    free(log);
    return NULL;
  }
  log[n] = '\0';
  return log;
}

static void release_variant(idiomrt_variant *v, const idiomrt_cl *cl) {
  for (int i = 0; i < 2; ++i) {
    if (v->kernel[i])
      cl->clReleaseKernel(v->kernel[i]);
    v->kernel[i] = NULL;
  }
  v->ready = 0;
}

/* Creates variant k of d's kernels from program p into v and queries their
   limits. Returns 1, or 0 with the reason in v->why. */
static int make_kernels_into(const idiom_kernel_desc *d,
                             const idiomrt_device *dev, unsigned k,
                             cl_program p, idiomrt_variant *v) {
  const idiomrt_cl *cl = dev->cl;
  int nk = d->kind == IDIOM_REDUCE ? 2 : 1;
  char suffix[16] = "";
  if (k > 0)
    snprintf(suffix, sizeof suffix, "_v%u", k);
  for (int i = 0; i < nk; ++i) {
    char name[256];
    int n = snprintf(name, sizeof name, "%s%s%s", d->name, suffix,
                     nk == 1 ? "" : (i == 0 ? "_partial" : "_final"));
    if (n <= 0 || (size_t)n >= sizeof name) {
      snprintf(v->why, sizeof v->why, "kernel name too long");
      release_variant(v, cl);
      return 0;
    }
    cl_int err = CL_SUCCESS;
    v->kernel[i] = cl->clCreateKernel(p, name, &err);
    if (!v->kernel[i] || err != CL_SUCCESS) {
      if (err == CL_SUCCESS)
        err = CL_INVALID_KERNEL;
      snprintf(v->why, sizeof v->why,
               "OpenCL error %d (%s) in clCreateKernel(%.64s)", (int)err,
               idiomrt_cl_error_name(err), name);
      v->kernel[i] = NULL;
      release_variant(v, cl);
      return 0;
    }
    v->kernel_nargs[i] = 0;
    cl->clGetKernelInfo(v->kernel[i], CL_KERNEL_NUM_ARGS,
                        sizeof v->kernel_nargs[i], &v->kernel_nargs[i], NULL);
    v->kernel_wg[i] = 1;
    cl->clGetKernelWorkGroupInfo(v->kernel[i], dev->id,
                                 CL_KERNEL_WORK_GROUP_SIZE,
                                 sizeof v->kernel_wg[i], &v->kernel_wg[i],
                                 NULL);
    if (v->kernel_wg[i] == 0)
      v->kernel_wg[i] = 1;
    memset(v->kernel_reqd[i], 0, sizeof v->kernel_reqd[i]);
    cl->clGetKernelWorkGroupInfo(v->kernel[i], dev->id,
                                 CL_KERNEL_COMPILE_WORK_GROUP_SIZE,
                                 sizeof v->kernel_reqd[i], v->kernel_reqd[i],
                                 NULL);
    v->kernel_local[i] = 0;
    cl->clGetKernelWorkGroupInfo(v->kernel[i], dev->id,
                                 CL_KERNEL_LOCAL_MEM_SIZE,
                                 sizeof v->kernel_local[i],
                                 &v->kernel_local[i], NULL);
  }
  v->ready = 1;
  v->why[0] = '\0';
  return 1;
}

/* make_kernels_into e's variant k. */
static int make_kernels(idiomrt_entry *e, const idiomrt_device *dev,
                        unsigned k, cl_program p) {
  return make_kernels_into(e->desc, dev, k, p, &e->var[k]);
}

/* Tries the on-disk binary of src; the program, or NULL. */
static cl_program load_from_disk(const idiomrt_device *dev, const char *path,
                                 uint64_t key, const char *loc) {
  const idiomrt_cl *cl = dev->cl;
  uint64_t t0 = idiomrt_now_ns();
  size_t size = 0;
  unsigned char *bin = cache_read(path, key, &size);
  if (!bin)
    return NULL;
  const unsigned char *bins[1] = {bin};
  cl_int status = CL_SUCCESS, err = CL_SUCCESS;
  cl_program p = cl->clCreateProgramWithBinary(dev->ctx, 1, &dev->id, &size,
                                               bins, &status, &err);
  free(bin);
  if (!p || err != CL_SUCCESS || status != CL_SUCCESS) {
    idiomrt_debug("disk cache: %s: driver refused the binary (%d/%d), ignored",
                  path, (int)err, (int)status);
    if (p)
      cl->clReleaseProgram(p);
    return NULL;
  }
  err = cl->clBuildProgram(p, 1, &dev->id, dev->build_options, NULL,
                           NULL);
  if (err != CL_SUCCESS) {
    idiomrt_debug("disk cache: %s: build from binary failed (%d), ignored",
                  path, (int)err);
    cl->clReleaseProgram(p);
    return NULL;
  }
  idiomrt_debug("%s: loaded program from disk cache %s (%.1f ms)", loc, path,
                (double)(idiomrt_now_ns() - t0) / 1e6);
  idiomrt_startup_note_load(); /* the cache serves this program */
  return p;
}

/* Test knob IDIOM_TEST_SLOW_BUILD_MS=N (rt_internal.h): a build from
   source takes N ms more per variant in its source (one without markers
   counts one), the
   way a GPU compiler's time grows with the kernels of a program (NVIDIA:
   about 5 s for the 8 variants of nas-parboil/mg.c:156's program), so
   that tests show that exit and calls do not wait on a slow build. */
static long slow_build_ms(void) {
  const char *v = getenv("IDIOM_TEST_SLOW_BUILD_MS");
  long ms = v ? strtol(v, NULL, 10) : 0;
  return ms > 0 ? ms : 0;
}

void idiomrt_test_slow_build(unsigned units) {
  long ms = slow_build_ms();
  if (ms <= 0)
    return;
  long total = ms * (long)(units ? units : 1);
  struct timespec ts = {total / 1000, (total % 1000) * 1000000L};
  while (nanosleep(&ts, &ts) != 0)
    ;
}

static void test_slow_build(const char *src) {
  unsigned nv = 0;
  for (const char *p = src; (p = strstr(p, "//@idiom-variant ")); ++p)
    ++nv;
  idiomrt_test_slow_build(nv);
}

/* 1 when a program built from source on dev is written to the disk cache:
   always for a build a call waits for (bg 0), where the call pays for it
   as before; for a build of the runtime thread (bg 1, startup.c) only on
   a device that is not a CPU device. A CPU device such as PoCL's
   generates code at each kernel's first launch, not at clBuildProgram, so
   CL_PROGRAM_BINARIES compiles every kernel of every variant there: 6-29 s
   for one of nas-parboil/syrk.c's programs on this 2-core machine, one
   uninterruptible call that an exit waited for (syrk.c 7-15 s against
   0.16 s sequential, helper exitstall in docs/Benchmarks.md), and a core
   taken from the program meanwhile. PoCL keeps its own kernel cache
   (POCL_CACHE_DIR): a later process's build from source took 90 ms a
   program here (a load from this cache 30-50 ms). A GPU's binary exists
   once built (a copy), and a build the next process need not repeat is
   worth those milliseconds, even while exit waits for this step. */
static int save_binary(const idiomrt_device *dev, int bg) {
  return !bg || !(dev->type & CL_DEVICE_TYPE_CPU);
}

/* Builds src (through the disk cache unless skip_disk); the program, or
   NULL with the reason in why. *from_disk tells where it came from. bg:
   built on the runtime thread (save_binary). */
static cl_program build_program(const idiomrt_entry *e,
                                const idiomrt_device *dev, const char *src,
                                int skip_disk, int bg, char *why, size_t n,
                                int *from_disk) {
  const idiomrt_cl *cl = dev->cl;
  const idiom_kernel_desc *d = e->desc;
  const idiomrt_config *cfg = idiomrt_config_get();
  uint64_t key = cache_key(dev, src);
  char path[PATH_MAX];
  int use_disk =
      cfg->cache_dir && cache_path(path, sizeof path, cfg->cache_dir, key);
  *from_disk = 0;
  if (use_disk && !skip_disk) {
    cl_program p = load_from_disk(dev, path, key, d->loc);
    if (p) {
      *from_disk = 1;
      return p;
    }
  }
  cl_int err = CL_SUCCESS;
  uint64_t t_build = idiomrt_now_ns();
  cl_program p = cl->clCreateProgramWithSource(dev->ctx, 1, &src, NULL, &err);
  if (!p || err != CL_SUCCESS) {
    snprintf(why, n, "OpenCL error %d (%s) in clCreateProgramWithSource",
             (int)err, idiomrt_cl_error_name(err));
    return NULL;
  }
  idiomrt_startup_note_build_begin();
  test_slow_build(src);
  err = cl->clBuildProgram(p, 1, &dev->id, dev->build_options, NULL,
                           NULL);
  if (err != CL_SUCCESS) {
    idiomrt_startup_note_build(0); /* no longer running */
    snprintf(why, n, "program build failure (OpenCL error %d, %s)", (int)err,
             idiomrt_cl_error_name(err));
    if (cfg->stats || cfg->debug) {
      char *log = build_log(dev, p);
      fprintf(stderr,
              "idiom: %s: build of kernel %s failed on %s; build log:\n%s\n"
              "idiom: end of build log\n",
              d->loc, d->name, dev->name, log ? log : "(unavailable)");
      free(log);
    }
    cl->clReleaseProgram(p);
    return NULL;
  }
  idiomrt_debug("%s: built program from source on %s", d->loc, dev->name);
  /* one driver build: what exit may wait for, and how long until a
     device-wait's variant 0 is ready (startup.c's too_late) */
  idiomrt_startup_note_build(idiomrt_now_ns() - t_build);
  if (use_disk && !save_binary(dev, bg))
    idiomrt_debug("%s: binary not saved: a CPU device compiles every kernel "
                  "to give it (built on the runtime thread)",
                  d->loc);
  else if (use_disk) {
    size_t size = 0;
    unsigned char *bin = program_binary(dev, p, &size);
    if (bin)
      cache_write(cfg->cache_dir, path, key, bin, size);
    free(bin);
  }
  return p;
}

#define MARKER "//@idiom-variant "
#define OFFSETS_MARKER "//@idiom-offsets"

const char *idiomrt_source_offsets(const idiom_kernel_desc *d) {
  if (d->kind != IDIOM_MAP)
    return NULL;
  for (const char *p = d->source; p && *p;
       p = strchr(p, '\n') ? strchr(p, '\n') + 1 : NULL) {
    if (strncmp(p, MARKER, strlen(MARKER)) == 0)
      return NULL; /* the variants begin: not in the shared part */
    if (strncmp(p, OFFSETS_MARKER, strlen(OFFSETS_MARKER)) == 0)
      return p + strlen(OFFSETS_MARKER);
  }
  return NULL;
}

uint32_t idiomrt_offsets_next(const char **p) {
  if (!*p)
    return 0;
  while (**p == ' ')
    ++*p;
  uint32_t b = 0;
  const char *q = *p;
  while (*q >= '0' && *q <= '9' && b < 1000)
    b = b * 10 + (uint32_t)(*q++ - '0');
  while (*q >= '0' && *q <= '9') /* (a long number: not an element size) */
    ++q;
  *p = q;
  return b == 1 || b == 2 || b == 4 || b == 8 || b == 16 ? b : 0;
}

/* Start of each variant's marker line in src (NULL when absent), and each
   variant's ept. Returns the start of the first marker, or NULL. */
static const char *parse_markers(const char *src, unsigned nv,
                                 const char **start, idiomrt_variant *var) {
  const char *first = NULL;
  for (unsigned k = 0; k < nv; ++k) {
    start[k] = NULL;
    var[k].ept = var[k].ept1 = var[k].ept2 = var[k].lanes = 1;
    var[k].row_blocks = 0;
    var[k].row_walk = 0;
    var[k].wg[0] = var[k].wg[1] = 0;
  }
  for (const char *p = src; p && *p; p = strchr(p, '\n') ? strchr(p, '\n') + 1 : NULL) {
    if (strncmp(p, MARKER, strlen(MARKER)) != 0)
      continue;
    char *end = NULL;
    unsigned long k = strtoul(p + strlen(MARKER), &end, 10);
    if (end == p + strlen(MARKER) || k >= nv)
      continue;
    start[k] = p;
    if (!first)
      first = p;
    const char *eol = strchr(p, '\n');
    /* ept=E, ept=E0xE1, ept=E0xE1xE2, ept=1/W, ept=blocks/G or ept=*xR
       (whole rows: a row walk); wg=X or
       wg=XxY (before
       the description) */
    const char *ept = strstr(p, " ept=");
    if (ept && (!eol || ept < eol) && strncmp(ept + 5, "blocks/", 7) == 0) {
      unsigned long g = strtoul(ept + 12, NULL, 10);
      if (g >= 1 && g <= 4096)
        var[k].row_blocks = (uint32_t)g;
    } else if (ept && (!eol || ept < eol) && strncmp(ept + 5, "*x", 2) == 0) {
      unsigned long rows = strtoul(ept + 7, NULL, 10);
      if (rows >= 1 && rows <= 4096)
        var[k].row_walk = var[k].ept1 = (uint32_t)rows;
    } else if (ept && (!eol || ept < eol)) {
      char *x = NULL;
      unsigned long v = strtoul(ept + 5, &x, 10);
      if (v >= 1 && v <= 4096)
        var[k].ept = (uint32_t)v;
      if (*x == 'x') {
        char *y = NULL;
        unsigned long v1 = strtoul(x + 1, &y, 10);
        if (v1 >= 1 && v1 <= 4096)
          var[k].ept1 = (uint32_t)v1;
        if (*y == 'x') {
          unsigned long v2 = strtoul(y + 1, NULL, 10);
          if (v2 >= 1 && v2 <= 4096)
            var[k].ept2 = (uint32_t)v2;
        }
      } else if (*x == '/' && v == 1) {
        unsigned long w = strtoul(x + 1, NULL, 10);
        if (w >= 1 && w <= 4096)
          var[k].lanes = (uint32_t)w;
      }
    }
    const char *wg = strstr(p, " wg=");
    if (wg && (!eol || wg < eol)) {
      char *x = NULL;
      unsigned long w0 = strtoul(wg + 4, &x, 10), w1 = 1;
      if (*x == 'x')
        w1 = strtoul(x + 1, NULL, 10);
      if (w0 >= 1 && w0 <= 4096 && w1 >= 1 && w1 <= 4096) {
        var[k].wg[0] = (uint32_t)w0;
        var[k].wg[1] = (uint32_t)w1;
      }
    }
  }
  return first;
}

/* The text of variant k alone: the shared prologue, then its section. */
static char *variant_source(const char *src, const char *first,
                            const char *const *start, unsigned nv, unsigned k) {
  if (!start[k])
    return NULL;
  const char *end = NULL;
  for (unsigned j = 0; j < nv; ++j)
    if (start[j] && start[j] > start[k] && (!end || start[j] < end))
      end = start[j];
  if (!end)
    end = src + strlen(src);
  size_t pro = (size_t)(first - src), sec = (size_t)(end - start[k]);
  char *out = malloc(pro + sec + 1);
  if (!out)
    return NULL;
  memcpy(out, src, pro);
  memcpy(out + pro, start[k], sec);
  out[pro + sec] = '\0';
  return out;
}

static int fail(idiomrt_entry *e, char *reason, size_t n) {
  e->build_state = -1;
  snprintf(reason, n, "%s", e->build_reason);
  return 0;
}

/* Kernels of every variant from the whole program; the number ready. */
static unsigned make_all_kernels(idiomrt_entry *e, const idiomrt_device *dev) {
  unsigned ready = 0;
  for (unsigned k = 0; k < e->nvariants; ++k)
    ready += (unsigned)make_kernels(e, dev, k, e->program);
  return ready;
}

/* Releases the kernels and own programs of e's first nv variants. */
static void release_alone(idiomrt_entry *e, const idiomrt_cl *cl,
                          unsigned nv) {
  for (unsigned k = 0; k < nv; ++k) {
    release_variant(&e->var[k], cl);
    if (e->var[k].own_program)
      cl->clReleaseProgram(e->var[k].own_program);
    e->var[k].own_program = NULL;
  }
}

/* Builds variant k of nv alone into v, from the shared prologue and its
   section (through the disk cache), and creates its kernels; 1 when ready.
   *from_disk: where its binary came from. bg: on the runtime thread. */
static int build_one(const idiomrt_entry *e, const idiomrt_device *dev,
                     const char *first, const char *const *start, unsigned nv,
                     unsigned k, int bg, idiomrt_variant *v, int *from_disk) {
  *from_disk = 0;
  char *src = variant_source(e->desc->source, first, start, nv, k);
  if (!src) {
    snprintf(v->why, sizeof v->why, "no section for variant %u", k);
    return 0;
  }
  v->own_program =
      build_program(e, dev, src, 0, bg, v->why, sizeof v->why, from_disk);
  free(src);
  if (v->own_program &&
      make_kernels_into(e->desc, dev, k, v->own_program, v))
    return 1;
  if (v->own_program)
    dev->cl->clReleaseProgram(v->own_program);
  v->own_program = NULL;
  return 0;
}

/* Builds variants [from, to) of nv alone (build_one); the number ready.
   With stop, asks stop() before each variant: when it says so, every
   variant built so far is released again and 0 is returned. bg: on the
   runtime thread. */
static unsigned build_alone(idiomrt_entry *e, const idiomrt_device *dev,
                            const char *first, const char *const *start,
                            unsigned nv, unsigned from, unsigned to,
                            int (*stop)(void), int bg,
                            unsigned *from_source) {
  unsigned ready = 0;
  for (unsigned k = from; k < to; ++k) {
    if (stop && stop()) {
      release_alone(e, dev->cl, k);
      return 0;
    }
    int from_disk = 0;
    ready += (unsigned)build_one(e, dev, first, start, nv, k, bg,
                                 &e->var[k], &from_disk);
    if (from_source && e->var[k].own_program && !from_disk)
      ++*from_source;
  }
  return ready;
}

/* 1 when builds for dev go one variant per step: a device whose compiler
   generates code at clBuildProgram (a GPU's: 5 s for nas-parboil/mg.c:156's
   8 variants on an H100), or any under the slow-build knob, which models
   one. PoCL's CPU devices build only the front end there (0.15 s a program
   here, however many variants; they compile each kernel at its first
   launch, startup_warm.c): one build per variant cost six times as much,
   and on this loaded 2-core machine a 6-variant reduction took 18 s
   instead of 0.3 s, the device unusable meanwhile. */
#define STAGE_WHOLE_NS 5e8 /* a whole build this short is one step */

int idiomrt_program_stage_rest(uint64_t first_ns, unsigned nv) {
  return (double)first_ns * nv > STAGE_WHOLE_NS;
}

static int staged_builds(const idiomrt_device *dev) {
  return !(dev->type & CL_DEVICE_TYPE_CPU) || slow_build_ms() > 0;
}

/* 1 when the disk cache holds a binary of src for dev. */
static int on_disk(const idiomrt_device *dev, const char *src) {
  const idiomrt_config *cfg = idiomrt_config_get();
  char path[PATH_MAX];
  return cfg->cache_dir &&
         cache_path(path, sizeof path, cfg->cache_dir, cache_key(dev, src)) &&
         access(path, R_OK) == 0;
}

/* idiomrt_program_ensure, and with stop its staged form (rt_internal.h);
   first_only (idiomrt_program_ensure_first): 1, variant 0 alone whenever
   it is built alone (a device-wait run waits for it); 2, when the rest
   would also go one per step (the staged rule, or variant 0 loaded from
   the disk cache). */
static int ensure(idiomrt_entry *e, const idiomrt_device *dev, char *reason,
                  size_t n, int (*stop)(void), int first_only) {
  if (e->build_state == 1)
    return 1;
  if (e->build_state == -1) {
    snprintf(reason, n, "%s", e->build_reason);
    return 0;
  }
  const idiomrt_cl *cl = dev->cl;
  const idiom_kernel_desc *d = e->desc;
  unsigned nv = d->nvariants <= 1 ? 1 : d->nvariants;
  if (nv > IDIOMRT_MAX_VARIANTS)
    nv = IDIOMRT_MAX_VARIANTS;
  /* the variants exist from the first build on (rt_registry.h); a build
     interrupted by exit (below) keeps them for the next try */
  if (!e->var && !(e->var = calloc(nv, sizeof *e->var))) {
    snprintf(e->build_reason, sizeof e->build_reason,
             "out of host memory for the kernel variants");
    return fail(e, reason, n);
  }
  e->nvariants = nv;
  for (unsigned c = 0; c < IDIOMRT_SIZE_CLASSES; ++c)
    e->chosen[c] = -1;
  const char *start[IDIOMRT_MAX_VARIANTS];
  const char *first = parse_markers(d->source, nv, start, e->var);
  /* (e->offsets: set when the entry was made, idiomrt_source_offsets) */

  if (stop && nv > 1 && first && staged_builds(dev) &&
      !on_disk(dev, d->source)) {
    /* Staged: one variant per step, so that exit waits for one variant's
       build at most (startup.c); unless the first variant's build says
       the whole program builds in less than STAGE_WHOLE_NS, which then
       takes one step (every build has a fixed cost: built per variant, a
       program of small kernels would take nv times as long). */
    /* A fixed-order reduction (tuning.c) runs one variant on this device:
       that one is built first and alone, the others only when it cannot
       be. (All of them were built, one per step, before its first run: a
       CG's checksum, called once at the end, began one more build from
       source in each process on the H200, 150-270 ms that exit waited
       for, until all eight were on disk.) */
    int fixed = idiomrt_fixed_order_variant(d->source, dev);
    unsigned v0 = fixed > 0 && (unsigned)fixed < nv ? (unsigned)fixed : 0;
    uint64_t t0 = idiomrt_now_ns();
    unsigned built = 0; /* from source, not the disk cache */
    unsigned ready =
        build_alone(e, dev, first, start, nv, v0, v0 + 1, stop, 1, &built);
    uint64_t first_ns = idiomrt_now_ns() - t0;
    if (fixed >= 0 && ready && !stop()) {
      for (unsigned k = 0; k < nv; ++k)
        if (k != v0)
          snprintf(e->var[k].why, sizeof e->var[k].why,
                   "not built: the fixed-order variant %u runs", v0);
      e->build_state = 1;
      idiomrt_debug("%s: variant %u of %u %s alone on %s (fixed order)",
                    d->loc, v0, nv, built ? "built" : "loaded", dev->name);
      return 1;
    }
    int staged = !built || /* loaded: the others may be on disk too */
                 idiomrt_program_stage_rest(first_ns, nv);
    if (first_only && (first_only == 1 || staged) && ready && !stop() &&
        !strstr(d->source, IDIOMRT_FIXED_ORDER_MARKER)) {
      /* runs wait for variant 0 alone: the others after it, one per step
         of the runtime thread's rest queue (startup.c) */
      for (unsigned k = 1; k < nv; ++k)
        snprintf(e->var[k].why, sizeof e->var[k].why, "building");
      e->rest_pending = 1;
      e->rest_next = 1;
      e->rest_ready = 1;
      e->rest_ns = built ? first_ns : 0;
      e->build_state = 1;
      idiomrt_debug("%s: variant 0 of %u %s first on %s", d->loc, nv,
                    built ? "built" : "loaded", dev->name);
      return 1;
    }
    if (staged && v0 > 0) /* the fixed-order variant could not be built */
      ready += build_alone(e, dev, first, start, nv, 0, v0, stop, 1, NULL);
    if (staged)
      ready += build_alone(e, dev, first, start, nv, v0 + 1, nv, stop, 1,
                           NULL);
    if (stop()) {
      release_alone(e, cl, nv);
      snprintf(reason, n, "%s", idiomrt_exiting_reason);
      return 0; /* build_state stays 0: nothing is kept */
    }
    if (staged) {
      idiomrt_debug("%s: %u of %u variants built one by one on %s", d->loc,
                    ready, nv, dev->name);
      if (ready > 0) {
        e->build_state = 1;
        return 1;
      }
    }
    /* cheap enough as a whole (or none built alone: the whole source, for
       its reason) */
    release_alone(e, cl, nv);
  }
  int from_disk = 0;
  e->program = build_program(e, dev, d->source, 0, stop != NULL,
                             e->build_reason,
                             sizeof e->build_reason, &from_disk);
  if (e->program) {
    unsigned ready = make_all_kernels(e, dev);
    if (ready == 0 && from_disk) {
      /* a stale binary: build from source once more */
      idiomrt_debug("disk cache: %s: %s, ignored", d->loc, e->var[0].why);
      cl->clReleaseProgram(e->program);
      e->program = build_program(e, dev, d->source, 1, stop != NULL,
                                 e->build_reason,
                                 sizeof e->build_reason, &from_disk);
      ready = e->program ? make_all_kernels(e, dev) : 0;
    }
    if (ready == 0) {
      if (e->program)
        snprintf(e->build_reason, sizeof e->build_reason, "%s",
                 e->var[0].why);
      if (e->program)
        cl->clReleaseProgram(e->program);
      e->program = NULL;
      return fail(e, reason, n);
    }
    e->build_state = 1;
    return 1;
  }
  /* The whole did not build: each variant alone, when there are several. */
  unsigned ready = 0;
  if (nv > 1 && first) {
    ready = build_alone(e, dev, first, start, nv, 0, nv, NULL, stop != NULL,
                        NULL);
    idiomrt_debug("%s: whole source did not build; %u of %u variants built "
                  "alone",
                  d->loc, ready, nv);
  }
  if (ready == 0)
    return fail(e, reason, n);
  e->build_state = 1;
  return 1;
}

int idiomrt_program_ensure(idiomrt_entry *e, const idiomrt_device *dev,
                           char *reason, size_t n) {
  return ensure(e, dev, reason, n, NULL, 0);
}

int idiomrt_program_ensure_first(idiomrt_entry *e, const idiomrt_device *dev,
                                 char *reason, size_t n, int (*stop)(void),
                                 int waited) {
  return ensure(e, dev, reason, n, stop, waited ? 1 : 2);
}

/* How many of variants [from, to) of d (nv in all) have no binary in the
   disk cache for dev: each a build from source. -1 when d's source has no
   variant markers, -2 when out of memory. */
static int variants_off_disk(const idiom_kernel_desc *d,
                             const idiomrt_device *dev, unsigned nv,
                             unsigned from, unsigned to) {
  const char *start[IDIOMRT_MAX_VARIANTS];
  /* on the heap: neither on the runtime thread's small stack nor in the
     static TLS block that every thread's start clears (5 KB each) */
  idiomrt_variant *loc = calloc(IDIOMRT_MAX_VARIANTS, sizeof *loc);
  if (!loc)
    return -2;
  const char *first = parse_markers(d->source, nv, start, loc);
  int off = first ? 0 : -1;
  for (unsigned k = from; first && k < to; ++k) {
    char *src = variant_source(d->source, first, start, nv, k);
    off += !src || !on_disk(dev, src);
    free(src);
  }
  free(loc);
  return off;
}

int idiomrt_program_first_on_disk(const idiomrt_entry *e,
                                  const idiomrt_device *dev) {
  const idiom_kernel_desc *d = e->desc;
  if (!d->source)
    return 0;
  if (on_disk(dev, d->source))
    return 1;
  unsigned nv = d->nvariants <= 1 ? 1 : d->nvariants;
  if (nv > IDIOMRT_MAX_VARIANTS)
    nv = IDIOMRT_MAX_VARIANTS;
  /* the variant built first (ensure): a fixed-order reduction's own */
  int fixed = idiomrt_fixed_order_variant(d->source, dev);
  unsigned v0 = fixed > 0 && (unsigned)fixed < nv ? (unsigned)fixed : 0;
  return nv >= 2 && variants_off_disk(d, dev, nv, v0, v0 + 1) == 0;
}

unsigned idiomrt_program_rest_to_build(const idiomrt_entry *e,
                                       const idiomrt_device *dev) {
  unsigned nv = e->nvariants, from = e->rest_next;
  int off = variants_off_disk(e->desc, dev, nv, from, nv);
  if (off == -2)
    return nv > from ? nv - from : 0;
  return off < 0 ? 0 : (unsigned)off;
}

unsigned idiomrt_program_build_rest_one(idiomrt_entry *e,
                                        const idiomrt_device *dev) {
  /* (this thread set both, before the entry's runs could start) */
  if (!e->rest_pending)
    return 0;
  const idiom_kernel_desc *d = e->desc;
  unsigned nv = e->nvariants, k = e->rest_next;
  /* the markers again, into a private copy: e's are read by runs */
  const char *start[IDIOMRT_MAX_VARIANTS];
  /* on the heap, as in variants_off_disk */
  idiomrt_variant *loc = calloc(IDIOMRT_MAX_VARIANTS, sizeof *loc);
  if (!loc) {
    idiomrt_program_leave_rest(e, "out of memory");
    return 0;
  }
  const char *first = parse_markers(d->source, nv, start, loc);
  int from_disk = 0, ok = 0;
  uint64_t t0 = idiomrt_now_ns();
  if (k < nv)
    ok = build_one(e, dev, first, start, nv, k, 1, &loc[k], &from_disk);
  uint64_t took = idiomrt_now_ns() - t0;
  /* published at once: a run that finds the lock taken declines (launch.c
     takes it with trylock), so it is held for a copy only; runs keep to
     the default variant while rest_pending is set (tuning.c) */
  pthread_mutex_lock(&e->lock);
  if (k < nv)
    e->var[k] = loc[k];
  if (k < nv && !from_disk)
    e->rest_ns = took;
  e->rest_ready += (unsigned)ok;
  e->rest_next = k + 1;
  unsigned left = k + 1 < nv ? nv - (k + 1) : 0;
  if (!left)
    e->rest_pending = 0;
  unsigned ready = e->rest_ready;
  pthread_mutex_unlock(&e->lock);
  free(loc);
  if (!left)
    idiomrt_debug("%s: %u of %u variants built one by one on %s (variant 0 "
                  "first)",
                  d->loc, ready, nv, dev->name);
  return left;
}

void idiomrt_program_leave_rest(idiomrt_entry *e, const char *why) {
  pthread_mutex_lock(&e->lock);
  if (e->rest_pending) {
    for (unsigned k = e->rest_next; k < e->nvariants; ++k)
      snprintf(e->var[k].why, sizeof e->var[k].why, "%s", why);
    e->rest_left = e->rest_next < e->nvariants ? e->nvariants - e->rest_next
                                               : 0;
    e->rest_why = why;
    e->rest_pending = 0; /* tuning: the variants ready are the candidates */
  }
  pthread_mutex_unlock(&e->lock);
}

int idiomrt_program_ensure_staged(idiomrt_entry *e, const idiomrt_device *dev,
                                  char *reason, size_t n, int (*stop)(void)) {
  return ensure(e, dev, reason, n, stop, 0);
}
