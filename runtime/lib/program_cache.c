/*===- program_cache.c - Programs built once, binaries kept on disk -------===*
 *
 * In memory: each descriptor's cl_program and kernels are built on its first
 * run and kept for the process (a failed build is remembered too, so a broken
 * kernel costs one compile, not one per call).
 *
 * On disk: after a build from source the device binary is written to
 *   <cache dir>/<key>.clbin, key = FNV-1a 64 of (format tag, platform name,
 *   device name, driver version, device version, build options, source).
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
#include <unistd.h>

#define CACHE_MAGIC "IDIOMCL1"
#define CACHE_HEADER 32
#define CACHE_MAX_PAYLOAD ((uint64_t)1 << 30)
#define BUILD_OPTIONS ""

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
  h = fnv_str(h, BUILD_OPTIONS);
  h = fnv_str(h, source);
  return h;
}

static int cache_path(char *buf, size_t n, const char *dir, uint64_t key) {
  int k = snprintf(buf, n, "%s/%016llx.clbin", dir, (unsigned long long)key);
  return k > 0 && (size_t)k < n;
}

/* mkdir -p; returns 1 when dir exists afterwards. */
static int make_dirs(const char *dir) {
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

static void cache_write(const char *dir, const char *path, uint64_t key,
                        const unsigned char *payload, size_t size) {
  static unsigned counter;
  if (!make_dirs(dir)) {
    idiomrt_debug("disk cache: cannot create %s: %s", dir, strerror(errno));
    return;
  }
  char tmp[PATH_MAX];
  int k = snprintf(tmp, sizeof tmp, "%s/.tmp-%016llx-%ld-%u", dir,
                   (unsigned long long)key, (long)getpid(),
                   __atomic_fetch_add(&counter, 1, __ATOMIC_RELAXED));
  if (k <= 0 || (size_t)k >= sizeof tmp)
    return;
  FILE *f = fopen(tmp, "wb");
  if (!f) {
    idiomrt_debug("disk cache: cannot write %s: %s", tmp, strerror(errno));
    return;
  }
  unsigned char hdr[CACHE_HEADER];
  uint64_t size64 = size;
  uint64_t sum = idiomrt_fnv1a(IDIOMRT_FNV_OFFSET, payload, size);
  memcpy(hdr, CACHE_MAGIC, 8);
  memcpy(hdr + 8, &key, 8);
  memcpy(hdr + 16, &size64, 8);
  memcpy(hdr + 24, &sum, 8);
  int ok = fwrite(hdr, 1, sizeof hdr, f) == sizeof hdr &&
           fwrite(payload, 1, size, f) == size;
  ok = (fclose(f) == 0) && ok;
  if (!ok || rename(tmp, path) != 0) {
    idiomrt_debug("disk cache: cannot write %s", path);
    unlink(tmp);
    return;
  }
  idiomrt_debug("disk cache: wrote %s (%zu bytes)", path, size);
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

static void release_kernels(idiomrt_entry *e, const idiomrt_cl *cl) {
  for (int i = 0; i < 2; ++i) {
    if (e->kernel[i])
      cl->clReleaseKernel(e->kernel[i]);
    e->kernel[i] = NULL;
  }
}

/* Creates e->kernel[] from e->program and queries their limits. */
static cl_int make_kernels(idiomrt_entry *e, const idiomrt_device *dev,
                           char *reason, size_t n) {
  const idiomrt_cl *cl = dev->cl;
  const idiom_kernel_desc *d = e->desc;
  int nk = d->kind == IDIOM_REDUCE ? 2 : 1;
  for (int i = 0; i < nk; ++i) {
    char name[256];
    int k = snprintf(name, sizeof name, "%s%s", d->name,
                     nk == 1 ? "" : (i == 0 ? "_partial" : "_final"));
    if (k <= 0 || (size_t)k >= sizeof name) {
      snprintf(reason, n, "kernel name too long");
      release_kernels(e, cl);
      return CL_INVALID_KERNEL_NAME;
    }
    cl_int err = CL_SUCCESS;
    e->kernel[i] = cl->clCreateKernel(e->program, name, &err);
    if (!e->kernel[i] || err != CL_SUCCESS) {
      snprintf(reason, n, "OpenCL error %d (%s) in clCreateKernel(%.64s)",
               (int)err, idiomrt_cl_error_name(err), name);
      e->kernel[i] = NULL;
      release_kernels(e, cl);
      return err ? err : CL_INVALID_KERNEL;
    }
    e->kernel_nargs[i] = 0;
    cl->clGetKernelInfo(e->kernel[i], CL_KERNEL_NUM_ARGS,
                        sizeof e->kernel_nargs[i], &e->kernel_nargs[i], NULL);
    e->kernel_wg[i] = 1;
    cl->clGetKernelWorkGroupInfo(e->kernel[i], dev->id,
                                 CL_KERNEL_WORK_GROUP_SIZE,
                                 sizeof e->kernel_wg[i], &e->kernel_wg[i],
                                 NULL);
    if (e->kernel_wg[i] == 0)
      e->kernel_wg[i] = 1;
    memset(e->kernel_reqd[i], 0, sizeof e->kernel_reqd[i]);
    cl->clGetKernelWorkGroupInfo(e->kernel[i], dev->id,
                                 CL_KERNEL_COMPILE_WORK_GROUP_SIZE,
                                 sizeof e->kernel_reqd[i], e->kernel_reqd[i],
                                 NULL);
    e->kernel_local[i] = 0;
    cl->clGetKernelWorkGroupInfo(e->kernel[i], dev->id,
                                 CL_KERNEL_LOCAL_MEM_SIZE,
                                 sizeof e->kernel_local[i],
                                 &e->kernel_local[i], NULL);
  }
  return CL_SUCCESS;
}

/* Tries the on-disk binary; on success e->program and kernels are ready. */
static int load_from_disk(idiomrt_entry *e, const idiomrt_device *dev,
                          const char *path, uint64_t key) {
  const idiomrt_cl *cl = dev->cl;
  size_t size = 0;
  unsigned char *bin = cache_read(path, key, &size);
  if (!bin)
    return 0;
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
    return 0;
  }
  err = cl->clBuildProgram(p, 1, &dev->id, BUILD_OPTIONS, NULL, NULL);
  if (err != CL_SUCCESS) {
    idiomrt_debug("disk cache: %s: build from binary failed (%d), ignored",
                  path, (int)err);
    cl->clReleaseProgram(p);
    return 0;
  }
  e->program = p;
  char reason[IDIOMRT_REASON_LEN];
  if (make_kernels(e, dev, reason, sizeof reason) != CL_SUCCESS) {
    idiomrt_debug("disk cache: %s: %s, ignored", path, reason);
    cl->clReleaseProgram(p);
    e->program = NULL;
    return 0;
  }
  idiomrt_debug("%s: loaded program from disk cache %s", e->desc->loc, path);
  return 1;
}

static int fail(idiomrt_entry *e, char *reason, size_t n) {
  e->build_state = -1;
  snprintf(reason, n, "%s", e->build_reason);
  return 0;
}

int idiomrt_program_ensure(idiomrt_entry *e, const idiomrt_device *dev,
                           char *reason, size_t n) {
  if (e->build_state == 1)
    return 1;
  if (e->build_state == -1) {
    snprintf(reason, n, "%s", e->build_reason);
    return 0;
  }
  const idiomrt_cl *cl = dev->cl;
  const idiom_kernel_desc *d = e->desc;
  const idiomrt_config *cfg = idiomrt_config_get();

  uint64_t key = cache_key(dev, d->source);
  char path[PATH_MAX];
  int use_disk =
      cfg->cache_dir && cache_path(path, sizeof path, cfg->cache_dir, key);
  if (use_disk && load_from_disk(e, dev, path, key)) {
    e->build_state = 1;
    return 1;
  }

  cl_int err = CL_SUCCESS;
  const char *src = d->source;
  cl_program p = cl->clCreateProgramWithSource(dev->ctx, 1, &src, NULL, &err);
  if (!p || err != CL_SUCCESS) {
    snprintf(e->build_reason, sizeof e->build_reason,
             "OpenCL error %d (%s) in clCreateProgramWithSource", (int)err,
             idiomrt_cl_error_name(err));
    return fail(e, reason, n);
  }
  err = cl->clBuildProgram(p, 1, &dev->id, BUILD_OPTIONS, NULL, NULL);
  if (err != CL_SUCCESS) {
    snprintf(e->build_reason, sizeof e->build_reason,
             "program build failure (OpenCL error %d, %s)", (int)err,
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
    return fail(e, reason, n);
  }
  e->program = p;
  if (make_kernels(e, dev, e->build_reason, sizeof e->build_reason) !=
      CL_SUCCESS) {
    cl->clReleaseProgram(p);
    e->program = NULL;
    return fail(e, reason, n);
  }
  idiomrt_debug("%s: built program from source on %s", d->loc, dev->name);
  if (use_disk) {
    size_t size = 0;
    unsigned char *bin = program_binary(dev, p, &size);
    if (bin)
      cache_write(cfg->cache_dir, path, key, bin, size);
    free(bin);
  }
  e->build_state = 1;
  return 1;
}
