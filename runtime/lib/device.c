/*===- device.c - Platform and device selection ---------------------------===*
 *
 * IDIOM_DEVICE=auto: the first GPU of any platform, else the first CPU.
 *              gpu:  the first CL_DEVICE_TYPE_GPU device of any platform.
 *              cpu:  the first CL_DEVICE_TYPE_CPU device of any platform.
 * Platforms are visited in the loader's order; a device counts only when it
 * is available and has a compiler. The primary device opens the vendor
 * library that an earlier process recorded directly when it can
 * (cl_direct.c: the same choice among that library's platforms, checked
 * against the record's names), else through the loader, which then
 * records it. One context and one in-order, profiling
 * command queue are created for the chosen device and kept for the process.
 *
 * Some ICD loaders (the Khronos loader shipped with CUDA) split
 * OCL_ICD_FILENAMES in place with strtok, which leaves the process with only
 * the first file name: every child process then loses the other platforms.
 * The variables a loader reads are saved before it runs and put back after
 * initialization when they changed.
 *
 * Initialization runs on the runtime's own thread (worker.c: large stack,
 * signals blocked, signal handlers restored afterwards). A caller that finds
 * another thread initializing does not wait: it gets "runtime busy". Under
 * the cost model the start-up thread of startup.c initializes in the
 * background (idiomrt_device_init_here) and callers read the state without
 * a lock (idiomrt_device_state, idiomrt_device_peek).
 *
 * Floating point: CL_DEVICE_SINGLE_FP_CONFIG is recorded. When it has
 * CL_FP_CORRECTLY_ROUNDED_DIVIDE_SQRT, every program is built with
 * -cl-fp32-correctly-rounded-divide-sqrt (float / and sqrt then round as the
 * host's do); fpenv.c declines float kernels the device cannot compute
 * exactly.
 *
 *===----------------------------------------------------------------------===*/
#include "rt_internal.h"

#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* A device slot: 0 the primary device (IDIOM_DEVICE), 1 the second one (a
   CPU device beside a GPU, see below). */
typedef struct dev_slot {
  pthread_mutex_t lock;
  int state; /* 0: not tried, 1: ready, -1: failed */
  const char *reason;
  char reason_buf[IDIOMRT_REASON_LEN];
  idiomrt_device dev;
} dev_slot;
static dev_slot g_slot[2] = {{.lock = PTHREAD_MUTEX_INITIALIZER},
                             {.lock = PTHREAD_MUTEX_INITIALIZER}};

const char idiomrt_busy_reason[] = "runtime busy";

static int usable(const idiomrt_cl *cl, cl_device_id d) {
  cl_bool avail = CL_FALSE, compiler = CL_FALSE;
  if (cl->clGetDeviceInfo(d, CL_DEVICE_AVAILABLE, sizeof avail, &avail,
                          NULL) != CL_SUCCESS)
    return 0;
  if (cl->clGetDeviceInfo(d, CL_DEVICE_COMPILER_AVAILABLE, sizeof compiler,
                          &compiler, NULL) != CL_SUCCESS)
    return 0;
  if (!avail || !compiler) {
    char name[256] = "";
    cl->clGetDeviceInfo(d, CL_DEVICE_NAME, sizeof name - 1, name, NULL);
    idiomrt_debug("skipping device %s: %s", name,
                  !avail ? "not available" : "no compiler");
  }
  return avail && compiler;
}

/* First usable device of `type` over all platforms. */
static int find_device(const idiomrt_cl *cl, const cl_platform_id *plats,
                       cl_uint nplats, cl_device_type type,
                       cl_platform_id *pout, cl_device_id *dout) {
  for (cl_uint p = 0; p < nplats; ++p) {
    cl_uint nd = 0;
    cl_int err = cl->clGetDeviceIDs(plats[p], type, 0, NULL, &nd);
    if (err != CL_SUCCESS || nd == 0) {
      if (err != CL_SUCCESS && err != CL_DEVICE_NOT_FOUND)
        idiomrt_debug("platform %u: clGetDeviceIDs: %d (%s)", (unsigned)p,
                      (int)err, idiomrt_cl_error_name(err));
      continue;
    }
    cl_device_id *devs = calloc(nd, sizeof *devs);
    if (!devs)
      return 0;
    if (cl->clGetDeviceIDs(plats[p], type, nd, devs, NULL) == CL_SUCCESS) {
      for (cl_uint i = 0; i < nd; ++i) {
        if (usable(cl, devs[i])) {
          *pout = plats[p];
          *dout = devs[i];
          free(devs);
          return 1;
        }
      }
    }
    free(devs);
  }
  return 0;
}

static void info_str(const idiomrt_cl *cl, cl_device_id d, cl_device_info what,
                     char *buf, size_t n) {
  buf[0] = '\0';
  if (cl->clGetDeviceInfo(d, what, n - 1, buf, NULL) != CL_SUCCESS)
    buf[0] = '\0';
  buf[n - 1] = '\0';
}

static const char *cl_fail(char *buf, const char *what, cl_int err) {
  snprintf(buf, IDIOMRT_REASON_LEN, "OpenCL error %d (%s) in %s", (int)err,
           idiomrt_cl_error_name(err), what);
  return buf;
}

static const char *const k_loader_env[] = {"OCL_ICD_FILENAMES",
                                           "OCL_ICD_VENDORS"};
#define NLOADER_ENV (sizeof k_loader_env / sizeof k_loader_env[0])

static void save_loader_env(char **saved) {
  for (size_t i = 0; i < NLOADER_ENV; ++i) {
    const char *v = getenv(k_loader_env[i]);
    saved[i] = v ? strdup(v) : NULL;
  }
}

static void restore_loader_env(char **saved) {
  for (size_t i = 0; i < NLOADER_ENV; ++i) {
    if (!saved[i])
      continue;
    const char *v = getenv(k_loader_env[i]);
    if (!v || strcmp(v, saved[i]) != 0) {
      idiomrt_debug("restoring %s=%s, altered by the OpenCL loader",
                    k_loader_env[i], saved[i]);
      setenv(k_loader_env[i], saved[i], 1);
    }
    free(saved[i]);
  }
}

/* The first usable device of preference pref over cl's platforms, into
   the two out-parameters; NULL, or the reason there is none. */
static const char *choose(const idiomrt_cl *cl, int pref, cl_platform_id *pout,
                          cl_device_id *dout) {
  cl_uint nplats = 0;
  cl_int perr = cl->clGetPlatformIDs(0, NULL, &nplats);
  if (perr != CL_SUCCESS || nplats == 0) {
    idiomrt_debug("no OpenCL platform (%d, %s)", (int)perr,
                  idiomrt_cl_error_name(perr));
    return "no matching device";
  }
  cl_platform_id *plats = calloc(nplats, sizeof *plats);
  if (!plats)
    return "out of host memory";
  if (cl->clGetPlatformIDs(nplats, plats, NULL) != CL_SUCCESS) {
    free(plats);
    return "no matching device";
  }

  if (idiomrt_startup_exiting()) {
    free(plats);
    return idiomrt_exiting_reason;
  }
  int found = 0;
  if (pref == IDIOMRT_DEV_AUTO || pref == IDIOMRT_DEV_GPU)
    found = find_device(cl, plats, nplats, CL_DEVICE_TYPE_GPU, pout, dout);
  if (!found && (pref == IDIOMRT_DEV_AUTO || pref == IDIOMRT_DEV_CPU))
    found = find_device(cl, plats, nplats, CL_DEVICE_TYPE_CPU, pout, dout);
  free(plats);
  return found ? NULL : "no matching device";
}

static void platform_str(const idiomrt_cl *cl, cl_platform_id p, char *buf,
                         size_t n) {
  if (cl->clGetPlatformInfo(p, CL_PLATFORM_NAME, n - 1, buf, NULL) !=
      CL_SUCCESS)
    buf[0] = '\0';
  buf[n - 1] = '\0';
}

/* A context and an in-order, profiling command queue on dev, into ctx
   and q; NULL, or the reason (buf holds the OpenCL error's text). */
static const char *create_queue(const idiomrt_cl *cl, cl_platform_id plat,
                                cl_device_id dev, cl_context *ctx,
                                cl_command_queue *q, char *buf) {
  cl_int err = CL_SUCCESS;
  cl_context_properties props[] = {CL_CONTEXT_PLATFORM,
                                   (cl_context_properties)plat, 0};
  *ctx = cl->clCreateContext(props, 1, &dev, NULL, NULL, &err);
  if (!*ctx || err != CL_SUCCESS)
    return cl_fail(buf, "clCreateContext", err);
  *q = cl->clCreateCommandQueue(*ctx, dev, CL_QUEUE_PROFILING_ENABLE, &err);
  if (!*q || err != CL_SUCCESS) {
    cl->clReleaseContext(*ctx);
    return cl_fail(buf, "clCreateCommandQueue", err);
  }
  return NULL;
}

/* The primary device's choice through the vendor library that the record
   names (cl_direct.c): its table, with *plat and *dev, when the platform
   and device are the record's; else NULL with the reason in why (n bytes)
   or *reason set (the process is exiting). */
static const idiomrt_cl *choose_direct(int pref, uint64_t view,
                                       idiomrt_icd_record *rec,
                                       cl_platform_id *plat, cl_device_id *dev,
                                       char *why, size_t n,
                                       const char **reason) {
  const idiomrt_cl *cl = idiomrt_cl_direct_open(pref, view, rec, why, n);
  if (!cl)
    return NULL;
  if (idiomrt_startup_exiting()) {
    *reason = idiomrt_exiting_reason;
    return NULL;
  }
  const char *r = choose(cl, pref, plat, dev);
  if (r == idiomrt_exiting_reason) {
    *reason = r;
    return NULL;
  }
  char pname[sizeof rec->platform], dname[sizeof rec->device];
  if (r) {
    snprintf(why, n, "%s: %s", rec->library, r);
    return NULL;
  }
  platform_str(cl, *plat, pname, sizeof pname);
  info_str(cl, *dev, CL_DEVICE_NAME, dname, sizeof dname);
  if (!idiomrt_cl_direct_same_vendor(*dev))
    snprintf(why, n, "%s: device %s has another dispatch table", rec->library,
             dname);
  else if (strcmp(pname, rec->platform) != 0)
    snprintf(why, n, "%s: platform \"%s\", not the recorded \"%s\"",
             rec->library, pname, rec->platform);
  else if (strcmp(dname, rec->device) != 0)
    snprintf(why, n, "%s: device \"%s\", not the recorded \"%s\"", rec->library,
             dname, rec->device);
  else
    return cl;
  return NULL;
}

/* Opens the primary device (second == 0: by IDIOM_DEVICE) or the second
   one (a CPU device, see idiomrt_device2_get) into *g; NULL on success,
   else the reason (buf holds an OpenCL error's text). The primary device
   opens the vendor library that the record names directly when it can
   (cl_direct.c), else, as the second device always, through the ICD
   loader, and then records the vendor library for the next process. */
static const char *open_device(idiomrt_device *g, int second, char *buf) {
  const idiomrt_config *cfg = idiomrt_config_get();
  int pref = second ? IDIOMRT_DEV_CPU : cfg->device_pref;
  uint64_t t0 = idiomrt_now_ns();
  char why[1536] = "";
  idiomrt_icd_record rec;
  memset(&rec, 0, sizeof rec);
  int may_record = !second && !cfg->opencl_library_explicit && cfg->cache_dir;
  uint64_t view = may_record ? idiomrt_icd_view() : 0;
  cl_platform_id plat = NULL;
  cl_device_id dev = NULL;
  const char *reason = NULL;
  const idiomrt_cl *cl = may_record
                             ? choose_direct(pref, view, &rec, &plat, &dev, why,
                                             sizeof why, &reason)
                             : NULL;
  if (reason)
    return reason;
  int direct = cl != NULL;
  if (!may_record)
    snprintf(why, sizeof why, "%s",
             second                         ? "the second device"
             : cfg->opencl_library_explicit ? "IDIOM_OPENCL_LIBRARY set"
                                            : "IDIOM_CACHE_DIR=off");
  const char *r = NULL;
  cl_context ctx = NULL;
  cl_command_queue q = NULL;
  if (direct) {
    idiomrt_debug("OpenCL: opened %s directly: platform and device in "
                  "%.1f ms",
                  rec.library, (double)(idiomrt_now_ns() - t0) / 1e6);
    r = idiomrt_startup_exiting() ? idiomrt_exiting_reason
                                  : create_queue(cl, plat, dev, &ctx, &q, buf);
    if (r && r != idiomrt_exiting_reason) {
      snprintf(why, sizeof why, "%s: %s", rec.library, r);
      direct = 0;
      t0 = idiomrt_now_ns();
    }
  }
  if (!direct) {
    cl = idiomrt_cl_load();
    if (!cl)
      return "no OpenCL loader";
    if (idiomrt_startup_exiting())
      return idiomrt_exiting_reason;
    r = choose(cl, pref, &plat, &dev);
    if (r)
      return r;
    idiomrt_debug("OpenCL: through the ICD loader (%s): platform and %sdevice "
                  "in %.1f ms",
                  why, second ? "second " : "",
                  (double)(idiomrt_now_ns() - t0) / 1e6);
    r = idiomrt_startup_exiting() ? idiomrt_exiting_reason
                                  : create_queue(cl, plat, dev, &ctx, &q, buf);
  }
  if (r)
    return r;

  g->cl = cl;
  g->platform = plat;
  g->id = dev;
  g->ctx = ctx;
  g->queue = q;
  cl->clGetDeviceInfo(dev, CL_DEVICE_TYPE, sizeof g->type, &g->type,
                      NULL);
  info_str(cl, dev, CL_DEVICE_NAME, g->name, sizeof g->name);
  info_str(cl, dev, CL_DRIVER_VERSION, g->driver, sizeof g->driver);
  info_str(cl, dev, CL_DEVICE_VERSION, g->version, sizeof g->version);
  platform_str(cl, plat, g->platform_name, sizeof g->platform_name);
  if (may_record && !direct)
    idiomrt_cl_direct_save(pref, view, plat, g->platform_name, g->name, cl,
                           rec.library[0] ? &rec : NULL);
  if (!g->name[0])
    snprintf(g->name, sizeof g->name, "unnamed OpenCL device");

  g->max_wg = 1;
  cl->clGetDeviceInfo(dev, CL_DEVICE_MAX_WORK_GROUP_SIZE, sizeof g->max_wg,
                      &g->max_wg, NULL);
  cl_uint dims = 0;
  cl->clGetDeviceInfo(dev, CL_DEVICE_MAX_WORK_ITEM_DIMENSIONS, sizeof dims,
                      &dims, NULL);
  size_t items[16] = {0};
  if (dims >= 3 && dims <= 16 &&
      cl->clGetDeviceInfo(dev, CL_DEVICE_MAX_WORK_ITEM_SIZES,
                          dims * sizeof(size_t), items, NULL) == CL_SUCCESS) {
    for (int i = 0; i < 3; ++i)
      g->max_item[i] = items[i];
  } else {
    for (int i = 0; i < 3; ++i)
      g->max_item[i] = g->max_wg;
  }
  g->compute_units = 1;
  cl->clGetDeviceInfo(dev, CL_DEVICE_MAX_COMPUTE_UNITS,
                      sizeof g->compute_units, &g->compute_units, NULL);
  if (g->compute_units == 0)
    g->compute_units = 1;
  g->local_mem = 16384;
  cl->clGetDeviceInfo(dev, CL_DEVICE_LOCAL_MEM_SIZE, sizeof g->local_mem,
                      &g->local_mem, NULL);
  g->max_alloc = 0;
  cl->clGetDeviceInfo(dev, CL_DEVICE_MAX_MEM_ALLOC_SIZE,
                      sizeof g->max_alloc, &g->max_alloc, NULL);
  if (g->max_wg == 0)
    g->max_wg = 1;
  cl_device_fp_config fp = 0;
  if (cl->clGetDeviceInfo(dev, CL_DEVICE_SINGLE_FP_CONFIG, sizeof fp, &fp,
                          NULL) != CL_SUCCESS)
    fp = 0;
  g->fp32_denorm = (fp & CL_FP_DENORM) != 0;
  g->fp32_correct_divsqrt = (fp & CL_FP_CORRECTLY_ROUNDED_DIVIDE_SQRT) != 0;
  g->build_options =
      g->fp32_correct_divsqrt ? "-cl-fp32-correctly-rounded-divide-sqrt"
                                 : "";
  /* Zero-copy (zerocopy.c) asks the device, never assumes by its type. */
  cl_bool unified = CL_FALSE;
  if (cl->clGetDeviceInfo(dev, CL_DEVICE_HOST_UNIFIED_MEMORY, sizeof unified,
                          &unified, NULL) != CL_SUCCESS)
    unified = CL_FALSE;
  g->host_unified = unified == CL_TRUE;
  cl_uint align_bits = 0;
  if (cl->clGetDeviceInfo(dev, CL_DEVICE_MEM_BASE_ADDR_ALIGN,
                          sizeof align_bits, &align_bits, NULL) != CL_SUCCESS)
    align_bits = 0;
  g->base_align = align_bits / 8;

  idiomrt_debug("%sdevice: %s (%s, platform %s, driver %s), %u compute units, "
                "max work-group %zu, float denormals %s, correctly rounded "
                "float divide/sqrt %s, host-unified memory %s (base "
                "alignment %zu bytes)",
                second ? "second " : "", g->name,
                (g->type & CL_DEVICE_TYPE_GPU)   ? "GPU"
                : (g->type & CL_DEVICE_TYPE_CPU) ? "CPU"
                                                    : "other",
                g->platform_name, g->driver, g->compute_units,
                g->max_wg, g->fp32_denorm ? "yes" : "no",
                g->fp32_correct_divsqrt ? "yes" : "no",
                g->host_unified ? "yes" : "no", g->base_align);
  return NULL;
}

static int is_second(const dev_slot *s) { return s == &g_slot[1]; }

/* atexit: the primary device's files closed by a detached process after
   this one exits (exit_detach.c). */
static void detach_at_exit(void) {
  const char *hold = getenv("IDIOM_TEST_DETACH_HOLD_MS");
  const char *why = NULL;
  int pid = idiomrt_detach_at_exit(hold ? (unsigned)atoi(hold) : 0, &why);
  if (pid > 0)
    idiomrt_debug("exit: the device's files stay open in process %d, which "
                  "closes them once this process has exited (the driver's "
                  "teardown after the exit; IDIOM_EXIT_DETACH=0: before it)",
                  pid);
  else if (pid < 0)
    idiomrt_debug("exit: the device's files closed here: %s failed", why);
}

/* IDIOM_EXIT_DETACH: "0" or "off" never, "1" or "on" any device (tests
   on PoCL), else (unset) a GPU's: a CPU device's teardown is the process's
   own memory. */
static int detach_wanted(const idiomrt_device *d) {
  const char *v = getenv("IDIOM_EXIT_DETACH");
  if (v && (!strcmp(v, "0") || !strcmp(v, "off")))
    return 0;
  if (v && (!strcmp(v, "1") || !strcmp(v, "on")))
    return 1;
  return (d->type & CL_DEVICE_TYPE_GPU) != 0;
}

static void init_job(void *p) {
  dev_slot *s = p;
  if (is_second(s) && idiomrt_device2_knob() == IDIOMRT_SECOND_FAIL) {
    s->reason = "IDIOM_TEST_SECOND_CPU=fail";
    return;
  }
  char *saved[NLOADER_ENV];
  save_loader_env(saved);
  if (!is_second(s))
    idiomrt_detach_before_open();
  s->reason = open_device(&s->dev, is_second(s), s->reason_buf);
  restore_loader_env(saved);
  if (!is_second(s) && !s->reason && detach_wanted(&s->dev)) {
    /* test knob: a character device opened as a GPU driver opens its own
       (PoCL opens none), left open for the process */
    const char *stand_in = getenv("IDIOM_TEST_DETACH_OPEN");
    if (stand_in && *stand_in)
      (void)open(stand_in, O_RDONLY | O_CLOEXEC);
    unsigned n = idiomrt_detach_after_open();
    idiomrt_debug("device: %u character-device file%s opened by the driver%s",
                  n, n == 1 ? "" : "s",
                  n ? ": kept open past the exit by a detached process" : "");
    if (n)
      atexit(detach_at_exit);
  }
}

/* With s->lock held: the state after an initialization attempt. */
static void set_state(dev_slot *s, int ran) {
  if (ran == 0)
    s->reason = "cannot create the runtime thread";
  if (s->reason)
    idiomrt_debug("no %sdevice: %s", is_second(s) ? "second " : "",
                  s->reason);
  /* s->dev and s->reason are complete before the state says so */
  __atomic_store_n(&s->state, s->reason ? -1 : 1, __ATOMIC_RELEASE);
}

static const idiomrt_device *slot_get(dev_slot *s, const char **reason) {
  if (pthread_mutex_trylock(&s->lock) != 0) {
    if (reason)
      *reason = idiomrt_busy_reason;
    return NULL;
  }
  if (s->state == 0) {
    idiomrt_note_opencl_started();
    int ran = idiomrt_worker_run(init_job, s);
    if (ran < 0) {
      pthread_mutex_unlock(&s->lock);
      if (reason)
        *reason = idiomrt_busy_reason;
      return NULL;
    }
    set_state(s, ran);
  }
  const idiomrt_device *d = s->state == 1 ? &s->dev : NULL;
  if (!d && reason)
    *reason = s->reason;
  pthread_mutex_unlock(&s->lock);
  return d;
}

static void slot_init_here(dev_slot *s) {
  pthread_mutex_lock(&s->lock);
  if (s->state == 0) {
    idiomrt_note_opencl_started();
    init_job(s);
    set_state(s, 1);
  }
  pthread_mutex_unlock(&s->lock);
}

static const idiomrt_device *slot_peek(dev_slot *s) {
  return __atomic_load_n(&s->state, __ATOMIC_ACQUIRE) == 1 ? &s->dev : NULL;
}

const idiomrt_device *idiomrt_device_get(const char **reason) {
  return slot_get(&g_slot[0], reason);
}

void idiomrt_device_init_here(void) { slot_init_here(&g_slot[0]); }

int idiomrt_device_state(const char **reason) {
  int st = __atomic_load_n(&g_slot[0].state, __ATOMIC_ACQUIRE);
  if (st < 0 && reason)
    *reason = g_slot[0].reason;
  return st;
}

const idiomrt_device *idiomrt_device_peek(void) { return slot_peek(&g_slot[0]); }

void idiomrt_device_after_fork(void) {
  pthread_mutex_init(&g_slot[0].lock, NULL);
  pthread_mutex_init(&g_slot[1].lock, NULL);
}

/*--- The second device: a CPU OpenCL device beside a GPU ------------------*
 *
 * Under IDIOM_DEVICE=auto with the cost model on and a GPU as the primary
 * device, the cost model may try a CPU OpenCL device too (costmodel.c,
 * "cpu-device"). It gets its own context and queue, opened on the runtime
 * thread when the model first wants it (startup.c), never before the
 * primary device is up. With a CPU device only (the primary is then that
 * device) there is no second one. The test knob IDIOM_TEST_SECOND_CPU
 * opens the first CPU device a second time as the second device whatever
 * the primary is, so that every path runs on a machine with PoCL only.
 */

static pthread_once_t g_knob_once = PTHREAD_ONCE_INIT;
static int g_knob;

static void read_knob(void) {
  const char *v = getenv("IDIOM_TEST_SECOND_CPU");
  if (!v || !*v || strcmp(v, "0") == 0)
    g_knob = IDIOMRT_SECOND_OFF;
  else if (strcmp(v, "alternate") == 0)
    g_knob = IDIOMRT_SECOND_ALTERNATE;
  else if (strcmp(v, "fail") == 0)
    g_knob = IDIOMRT_SECOND_FAIL;
  else if (strcmp(v, "regions") == 0)
    g_knob = IDIOMRT_SECOND_REGIONS;
  else
    g_knob = IDIOMRT_SECOND_ON;
}

int idiomrt_device2_knob(void) {
  pthread_once(&g_knob_once, read_knob);
  return g_knob;
}

int idiomrt_device2_wanted(void) {
  const idiomrt_config *cfg = idiomrt_config_get();
  const idiomrt_device *d = idiomrt_device_peek();
  if (!d || cfg->device_pref == IDIOMRT_DEV_SEQ)
    return 0;
  if (idiomrt_device2_knob() != IDIOMRT_SECOND_OFF)
    return cfg->device_pref == IDIOMRT_DEV_AUTO ||
           cfg->device_pref == IDIOMRT_DEV_CPU;
  /* IDIOM_DEVICE=gpu|cpu forces one device */
  return cfg->device_pref == IDIOMRT_DEV_AUTO && cfg->cost &&
         (d->type & CL_DEVICE_TYPE_GPU) != 0;
}

const idiomrt_device *idiomrt_device2_get(const char **reason) {
  if (slot_peek(&g_slot[1]))
    return &g_slot[1].dev;
  if (!idiomrt_device2_wanted()) {
    if (reason)
      *reason = "no second device";
    return NULL;
  }
  return slot_get(&g_slot[1], reason);
}

void idiomrt_device2_init_here(void) {
  if (idiomrt_device2_wanted())
    slot_init_here(&g_slot[1]);
}

int idiomrt_device2_state(void) {
  return __atomic_load_n(&g_slot[1].state, __ATOMIC_ACQUIRE);
}

const idiomrt_device *idiomrt_device2_peek(void) {
  return slot_peek(&g_slot[1]);
}
