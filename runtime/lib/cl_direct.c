/*===- cl_direct.c - The recorded OpenCL vendor library, no loader -------===*
 *
 * Issue 12: the ICD loader (libOpenCL.so.1) loads and initialises every
 * registered vendor library at clGetPlatformIDs, PoCL and its LLVM among
 * them on the GPU machine: 134-150 ms there against 106-114 ms for the
 * vendor's library opened alone (bench/cl_startup.c). When the primary
 * device was opened through the loader, device.c records here which vendor
 * library provides its platform; a later process opens that library
 * directly:
 *
 *  - dlopen of the recorded path, its clIcdGetPlatformIDsKHR (dlsym, else
 *    its clGetExtensionFunctionAddress), the platforms;
 *  - a table of entry points (idiomrt_cl) filled from the ICD dispatch
 *    table that starts every object of the vendor (cl_icd.h; its members
 *    are named as the functions): a NULL member, or platforms of the
 *    library with different tables, mean "not this way";
 *  - device.c then makes the same device choice and compares the platform
 *    and device names with the record's.
 *
 * Any failure or mismatch sends device.c to the loader, within the same
 * start-up. The loader does not wrap objects (each is the vendor's own), so
 * the device's table is all that differs from a loader start.
 *
 * The record, IDIOM_CACHE_DIR/icd-<auto|gpu|cpu>.txt (beside calibration.c's
 * start-up record, per IDIOM_DEVICE preference):
 *
 *   idiom-icd 1
 *   view HEX          (idiomrt_icd_view: what the loader would see)
 *   library PATH      (the vendor library, as dladdr names it)
 *   platform NAME     (CL_PLATFORM_NAME)
 *   device NAME       (CL_DEVICE_NAME)
 *   check HEX         (FNV-1a 64 of the lines above)
 *
 * The view is the FNV-1a 64 of the host's name, the loader's environment
 * variables (OCL_ICD_FILENAMES, OCL_ICD_VENDORS, OCL_ICD_PLATFORM_SORT,
 * OCL_ICD_DEFAULT_PLATFORM, OPENCL_LAYERS) and the state of the vendors
 * directories (/etc/OpenCL/vendors and a directory OCL_ICD_VENDORS names:
 * their mtime, and each entry's name, size and mtime). A record whose view
 * differs is not used: a vendor installed, removed or edited, or another
 * loader setting, goes through the loader again, which records anew.
 *
 *===----------------------------------------------------------------------===*/
#include "rt_internal.h"

#include <CL/cl_ext.h>
#include <CL/cl_icd.h>

#include <dirent.h>
#include <dlfcn.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define RECORD_MAX 2048 /* bytes of a record at most */

static const char *const k_view_env[] = {
    "OCL_ICD_FILENAMES", "OCL_ICD_VENDORS", "OCL_ICD_PLATFORM_SORT",
    "OCL_ICD_DEFAULT_PLATFORM", "OPENCL_LAYERS"};

static uint64_t hash_str(uint64_t h, const char *s) {
  return idiomrt_fnv1a(h, s, strlen(s) + 1);
}

static uint64_t hash_stat(uint64_t h, const struct stat *st) {
  uint64_t v[4] = {(uint64_t)st->st_size, (uint64_t)st->st_mtim.tv_sec,
                   (uint64_t)st->st_mtim.tv_nsec, (uint64_t)st->st_ino};
  return idiomrt_fnv1a(h, v, sizeof v);
}

/* dir's mtime and its entries (name, size, mtime), in any order (the sum
   of one hash per entry); a missing dir hashes as such. */
static uint64_t hash_dir(uint64_t h, const char *dir) {
  struct stat st;
  h = hash_str(h, dir);
  if (stat(dir, &st) != 0)
    return hash_str(h, "\1missing");
  h = hash_stat(h, &st);
  if (!S_ISDIR(st.st_mode))
    return h;
  DIR *d = opendir(dir);
  if (!d)
    return hash_str(h, "\1unreadable");
  uint64_t sum = 0;
  char path[PATH_MAX];
  for (struct dirent *e; (e = readdir(d));) {
    if (e->d_name[0] == '.')
      continue;
    uint64_t x = hash_str(IDIOMRT_FNV_OFFSET, e->d_name);
    int n = snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
    if (n > 0 && (size_t)n < sizeof path && stat(path, &st) == 0)
      x = hash_stat(x, &st);
    sum += x;
  }
  closedir(d);
  return idiomrt_fnv1a(h, &sum, sizeof sum);
}

uint64_t idiomrt_icd_view(void) {
  uint64_t h = hash_str(IDIOMRT_FNV_OFFSET, "idiom-icd-view 1");
  char host[256] = "";
  gethostname(host, sizeof host - 1);
  h = hash_str(h, host);
  for (size_t i = 0; i < sizeof k_view_env / sizeof k_view_env[0]; ++i) {
    const char *v = getenv(k_view_env[i]);
    h = hash_str(h, k_view_env[i]);
    h = v ? hash_str(h, v) : hash_str(h, "\1unset");
  }
  h = hash_dir(h, "/etc/OpenCL/vendors");
  const char *vendors = getenv("OCL_ICD_VENDORS");
  if (vendors && *vendors)
    h = hash_dir(h, vendors);
  return h;
}

/* The record's path for preference pref, on the heap; NULL without a
   cache directory. */
static char *record_path(int pref) {
  const char *dir = idiomrt_config_get()->cache_dir;
  const char *name = pref == IDIOMRT_DEV_GPU   ? "/icd-gpu.txt"
                     : pref == IDIOMRT_DEV_CPU ? "/icd-cpu.txt"
                                               : "/icd-auto.txt";
  return dir ? idiomrt_str_cat(PATH_MAX + 32, dir, name, NULL) : NULL;
}

/* Reads the record of pref into *rec; NULL, or the reason it is not used
   (why holds its text). */
static const char *read_record(int pref, uint64_t view, idiomrt_icd_record *rec,
                               char *why, size_t n) {
  char *path = record_path(pref);
  char buf[RECORD_MAX];
  long len = path ? idiomrt_read_small_file(path, buf, sizeof buf) : -1;
  free(path);
  if (len < 0)
    return "no record";
  const char *check = strstr(buf, "\ncheck ");
  const char *c = check ? check + 1 : NULL, *v = strstr(buf, "\nview ");
  uint64_t sum = 0, file_view = 0;
  if (strncmp(buf, "idiom-icd 1\n", 12) != 0 || !c || !v ||
      !idiomrt_scan_word(&c, "check") || !idiomrt_scan_hex(&c, &sum) ||
      idiomrt_fnv1a(IDIOMRT_FNV_OFFSET, buf, (size_t)(check + 1 - buf)) !=
          sum ||
      (++v, !idiomrt_scan_word(&v, "view")) ||
      !idiomrt_scan_hex(&v, &file_view) ||
      !idiomrt_line_value(buf, "library", rec->library, sizeof rec->library) ||
      !idiomrt_line_value(buf, "platform", rec->platform, sizeof rec->platform) ||
      !idiomrt_line_value(buf, "device", rec->device, sizeof rec->device))
    return "the record is malformed or corrupt";
  rec->view = file_view;
  if (file_view != view) {
    snprintf(why, n,
             "what the loader sees changed since the record "
             "(OpenCL environment or vendors directory)");
    return why;
  }
  return NULL;
}

/* The entry points of dispatch table d into *t (clGetPlatformIDs: get);
   NULL, or the name of a function the table lacks. */
static const char *fill_table(idiomrt_cl *t, const cl_icd_dispatch *d,
                              clIcdGetPlatformIDsKHR_fn get) {
#define IDIOMRT_CL_FROM_DISPATCH(f)                                            \
  t->f = (__typeof__(&f))d->f;                                                 \
  if (!t->f)                                                                   \
    return #f;
  IDIOMRT_CL_FUNCS(IDIOMRT_CL_FROM_DISPATCH)
#undef IDIOMRT_CL_FROM_DISPATCH
  t->clGetPlatformIDs = (__typeof__(&clGetPlatformIDs))get;
  return NULL;
}

static const cl_icd_dispatch *dispatch_of(const void *object) {
  return *(const cl_icd_dispatch *const *)object;
}

/* The dispatch table that the direct table was filled from. */
static const cl_icd_dispatch *g_dispatch;

const idiomrt_cl *idiomrt_cl_direct_open(int pref, uint64_t view,
                                         idiomrt_icd_record *rec, char *why,
                                         size_t n) {
  static idiomrt_cl table; /* the primary device's, opened once */
  const char *r = read_record(pref, view, rec, why, n);
  if (r) {
    if (r != why)
      snprintf(why, n, "%s", r);
    return NULL;
  }
  void *h = dlopen(rec->library, RTLD_NOW | RTLD_LOCAL);
  if (!h) {
    const char *e = dlerror();
    snprintf(why, n, "cannot load the recorded %s: %s", rec->library,
             e ? e : "unknown error");
    return NULL;
  }
  clIcdGetPlatformIDsKHR_fn get =
      (clIcdGetPlatformIDsKHR_fn)dlsym(h, "clIcdGetPlatformIDsKHR");
  if (!get) {
    /* (clGetExtensionFunctionAddress, deprecated since OpenCL 1.1) */
    typedef void *(CL_API_CALL * gefa_fn)(const char *);
    gefa_fn gefa = (gefa_fn)dlsym(h, "clGetExtensionFunctionAddress");
    get =
        gefa ? (clIcdGetPlatformIDsKHR_fn)gefa("clIcdGetPlatformIDsKHR") : NULL;
  }
  if (!get) {
    snprintf(why, n, "%s has no clIcdGetPlatformIDsKHR", rec->library);
    dlclose(h);
    return NULL;
  }
  /* From here on the vendor has run: its library stays loaded (the
     loader, if it comes to that, opens the same one again). */
  idiomrt_pending_device();
  cl_platform_id plats[16];
  cl_uint np = 0;
  cl_int err = get(16, plats, &np);
  if (err != CL_SUCCESS || np == 0) {
    snprintf(why, n, "%s: clIcdGetPlatformIDsKHR: %d (%s), %u platforms",
             rec->library, (int)err, idiomrt_cl_error_name(err), (unsigned)np);
    return NULL;
  }
  np = np < 16 ? np : 16;
  const cl_icd_dispatch *d = dispatch_of(plats[0]);
  for (cl_uint i = 1; i < np; ++i) {
    if (dispatch_of(plats[i]) != d) {
      snprintf(why, n, "%s: its platforms have different dispatch tables",
               rec->library);
      return NULL;
    }
  }
  const char *lacks = d ? fill_table(&table, d, get) : "a dispatch table";
  if (lacks) {
    snprintf(why, n, "%s: its dispatch table lacks %s", rec->library, lacks);
    return NULL;
  }
  table.handle = h;
  g_dispatch = d;
  return &table;
}

int idiomrt_cl_direct_same_vendor(const void *object) {
  return g_dispatch && dispatch_of(object) == g_dispatch;
}

void idiomrt_cl_direct_save(int pref, uint64_t view, cl_platform_id plat,
                            const char *platform_name, const char *device_name,
                            const idiomrt_cl *loader,
                            const idiomrt_icd_record *old) {
  Dl_info vendor, own;
  const cl_icd_dispatch *d = dispatch_of(plat);
  if (!d || !d->clGetDeviceIDs || !dladdr((void *)d->clGetDeviceIDs, &vendor) ||
      !vendor.dli_fname || !vendor.dli_fname[0]) {
    idiomrt_debug("OpenCL: no vendor library found for platform %s: not "
                  "recorded",
                  platform_name);
    return;
  }
  /* a loader that wraps objects (its own functions in the table) is not
     bypassed */
  if (dladdr((void *)loader->clGetPlatformIDs, &own) && own.dli_fname &&
      strcmp(own.dli_fname, vendor.dli_fname) == 0) {
    idiomrt_debug("OpenCL: platform %s dispatches to the loader itself: not "
                  "recorded",
                  platform_name);
    return;
  }
  if (old && old->view == view && strcmp(old->library, vendor.dli_fname) == 0 &&
      strcmp(old->platform, platform_name) == 0 &&
      strcmp(old->device, device_name) == 0)
    return; /* says so already */
  char buf[RECORD_MAX];
  int len = snprintf(buf, sizeof buf,
                     "idiom-icd 1\nview %016llx\nlibrary %s\nplatform %s\n"
                     "device %s\n",
                     (unsigned long long)view, vendor.dli_fname, platform_name,
                     device_name);
  if (len <= 0 || (size_t)len >= sizeof buf - 32 ||
      strlen(vendor.dli_fname) >= sizeof old->library ||
      strlen(platform_name) >= sizeof old->platform ||
      strlen(device_name) >= sizeof old->device ||
      strchr(vendor.dli_fname, '\n') || strchr(platform_name, '\n') ||
      strchr(device_name, '\n') || !platform_name[0] || !device_name[0])
    return;
  uint64_t sum = idiomrt_fnv1a(IDIOMRT_FNV_OFFSET, buf, (size_t)len);
  len += snprintf(buf + len, sizeof buf - (size_t)len, "check %016llx\n",
                  (unsigned long long)sum);
  char *path = record_path(pref);
  if (path && idiomrt_write_file(idiomrt_config_get()->cache_dir, path, buf,
                                 (size_t)len))
    idiomrt_debug("OpenCL: recorded %s (platform %s) in %s", vendor.dli_fname,
                  platform_name, path);
  else
    idiomrt_debug("OpenCL: cannot record the vendor library in %s",
                  path ? path : "the cache directory");
  free(path);
}
