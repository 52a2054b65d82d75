/*===- zerocopy.c - Buffers over the program's memory (host-unified) -------===*
 *
 * A device whose memory is the host's (CL_DEVICE_HOST_UNIFIED_MEMORY: PoCL's
 * CPU device; asked of the device, never assumed from its type) gains
 * nothing from copying: every copy in or out is a memcpy of the host's own
 * bytes. On such a device a run's buffer arguments are created with
 * CL_MEM_USE_HOST_PTR over the program's own bytes (run_buffers.c) and nothing
 * is copied in or out:
 *
 *  - coherence (OpenCL 1.2, 5.2.1 and 5.4.2): a buffer is created for one
 *    run, after every host write before it, and released at the run's end;
 *    the run maps each output's exact range (CL_MAP_READ) after its kernels
 *    and unmaps it before returning, which is what the specification asks
 *    for the host to see the kernels' writes through host_ptr. PoCL returns
 *    host_ptr itself from the map: no byte moves;
 *  - alignment: the generated kernels reach memory through scalar types and
 *    vloadN/vstoreN, which need the element's alignment only. A range is
 *    passed as it is when its start is aligned to IDIOM_ZERO_COPY_ALIGN
 *    bytes (default 16, what malloc guarantees on x86-64: glibc returns
 *    page + 16 for large blocks, so the device's CL_DEVICE_MEM_BASE_ADDR_ALIGN,
 *    128 bytes at least on every full-profile device and since OpenCL 1.2
 *    the rule for sub-buffer offsets, would rule out every heap array). A
 *    map whose kernels take element offsets (//@idiom-offsets) gets a buffer
 *    that starts at the range's start aligned down to the device's
 *    CL_DEVICE_MEM_BASE_ADDR_ALIGN, and the offset; the kernels never touch
 *    the bytes before the range. Any other range is copied as before;
 *  - overlap: OpenCL leaves undefined the commands on several buffers made
 *    over overlapping host memory, so an argument whose covered bytes
 *    overlap another argument's is copied;
 *  - failure: a kernel writes the program's memory while it runs. An OUT
 *    argument's partial results are values the fallback loop writes again
 *    from inputs that no run writes (outputs never overlap other
 *    arguments). An INOUT argument is different: the fallback loop reads
 *    what a partial run wrote (an in-place map applied twice is wrong).
 *    A run that knows its variant (no tuning) therefore decides every
 *    failure of its own before a kernel can start: its kernels wait for a
 *    user event (the gate, gate.c) that it completes only once every
 *    command of the run (kernels, transfers, the outputs' maps) has been
 *    enqueued; a failure before that sets the gate to an error, which
 *    terminates the waiting commands unrun (OpenCL 1.2, 5.9
 *    clSetUserEventStatus), and the program's bytes are untouched. Such a
 *    run copies nothing aside. The one failure left after the gate opens
 *    is the device reporting a command failed (a negative execution
 *    status); with no copy to put back the fallback cannot run, and the
 *    runtime says so and aborts the process rather than let the loop
 *    compute from partly updated data (PoCL's CPU drivers fail a command
 *    before running it, never part way). A run that tunes (its variants
 *    run in place before the real one), and every run under
 *    IDIOM_ZERO_COPY_BACKUP=always, copies its INOUT arguments' bytes
 *    aside before the kernels (idiomrt_zc_backup) and puts them back when
 *    it fails, as before (runtime/README.md, "Zero-copy on host-unified
 *    devices"). The first run of an idiom_run_pair, which must not write
 *    the host before the second succeeds, copies its outputs;
 *  - residency (residency.c): a zero-copy argument holds no entry of the
 *    range table; an entry that overlaps it (a range copied for its
 *    alignment) is copied back when dirty and dropped first, so the kernels
 *    read the current bytes and the table never copies old device bytes
 *    over the host's.
 *
 * IDIOM_ZERO_COPY=off copies on every device (as before); auto (default):
 * zero-copy on host-unified devices. IDIOM_ZERO_COPY_TEST_FAIL is a test
 * knob (launch.c): =1, every run fails once its kernels completed (the
 * tests see a backup of INOUT arguments put back, or the abort without
 * one); =enqueued, every run fails once its commands are enqueued, before
 * its gate opens (the tests see the kernels never ran).
 *
 *===----------------------------------------------------------------------===*/
#include "rt_internal.h"

#include <stdlib.h>
#include <string.h>

#define ZC_DEFAULT_ALIGN 16

static int g_mode = -1;   /* 0 off, 1 auto; -1 not read yet */
static int g_test_fail;   /* IDIOM_ZERO_COPY_TEST_FAIL: 1, or 2 enqueued */
static int g_backup_always; /* IDIOM_ZERO_COPY_BACKUP=always */
static size_t g_align;    /* a power of two */
static pthread_once_t g_once = PTHREAD_ONCE_INIT;
static uint64_t g_args, g_copied, g_backup_bytes;

static void read_env(void) {
  const char *m = getenv("IDIOM_ZERO_COPY");
  int mode = !(m && (!strcmp(m, "off") || !strcmp(m, "0")));
  size_t align = ZC_DEFAULT_ALIGN;
  const char *a = getenv("IDIOM_ZERO_COPY_ALIGN");
  if (a && *a) {
    char *end = NULL;
    unsigned long long v = strtoull(a, &end, 10);
    if (end && !*end && v >= 1 && v <= 4096 && (v & (v - 1)) == 0)
      align = (size_t)v;
    else
      idiomrt_debug("IDIOM_ZERO_COPY_ALIGN=%s ignored: not a power of two "
                    "from 1 to 4096",
                    a);
  }
  g_align = align;
  const char *f = getenv("IDIOM_ZERO_COPY_TEST_FAIL");
  g_test_fail = !f ? 0 : !strcmp(f, "1") ? 1 : !strcmp(f, "enqueued") ? 2 : 0;
  const char *b = getenv("IDIOM_ZERO_COPY_BACKUP");
  g_backup_always = b && !strcmp(b, "always");
  if (b && *b && !g_backup_always && strcmp(b, "auto"))
    idiomrt_debug("IDIOM_ZERO_COPY_BACKUP=%s ignored: auto or always", b);
  __atomic_store_n(&g_mode, mode, __ATOMIC_RELEASE);
}

static int mode(void) {
  pthread_once(&g_once, read_env);
  return __atomic_load_n(&g_mode, __ATOMIC_ACQUIRE);
}

int idiomrt_zc_device(const idiomrt_device *dev) {
  return dev && dev->host_unified && mode() == 1;
}

int idiomrt_zc_expected(void) {
  return mode() == 1 && idiomrt_calib_unified();
}

int idiomrt_zc_test_fail(void) {
  mode();
  return g_test_fail;
}

int idiomrt_zc_backup_always(void) {
  mode();
  return g_backup_always;
}

uint64_t idiomrt_zc_backup_bytes(void) {
  return __atomic_load_n(&g_backup_bytes, __ATOMIC_RELAXED);
}

size_t idiomrt_zc_align(void) {
  mode();
  return g_align;
}

static int is_buf(uint32_t k) { return k <= IDIOM_ARG_BUF_INOUT; }

void idiomrt_zc_plan(const idiomrt_device *dev, const idiom_arg *args,
                     uint32_t nargs, const uint32_t *elem, int no_outputs,
                     unsigned char *zc, size_t *base) {
  size_t align = idiomrt_zc_align();
  size_t down = dev->base_align > align ? dev->base_align : align;
  if ((down & (down - 1)) || down > 4096)
    down = align; /* not a power of two, or past a page: the bytes before
                     the range might not be mapped */
  for (uint32_t i = 0; i < nargs; ++i) {
    const idiom_arg *a = &args[i];
    zc[i] = 0;
    base[i] = 0;
    if (!is_buf(a->kind) || !a->bytes || a->bytes > (uint64_t)SIZE_MAX / 2)
      continue;
    if (no_outputs && a->kind != IDIOM_ARG_BUF_IN)
      continue;
    uintptr_t p = (uintptr_t)a->ptr;
    if (elem && elem[i] && p % elem[i] == 0 && p >= down) {
      base[i] = (size_t)(p % down);
      zc[i] = 1;
    } else if (p % align == 0) {
      zc[i] = 1;
    }
    if (zc[i] && dev->max_alloc && a->bytes + base[i] > dev->max_alloc)
      zc[i] = 0;
  }
  /* Buffers over overlapping host bytes: undefined in OpenCL. */
  for (uint32_t i = 0; i < nargs; ++i) {
    if (!zc[i])
      continue;
    uintptr_t a0 = (uintptr_t)args[i].ptr - base[i],
              a1 = (uintptr_t)args[i].ptr + args[i].bytes;
    for (uint32_t j = i + 1; j < nargs; ++j) {
      if (!zc[j])
        continue;
      uintptr_t b0 = (uintptr_t)args[j].ptr - base[j],
                b1 = (uintptr_t)args[j].ptr + args[j].bytes;
      if (a0 < b1 && b0 < a1)
        zc[i] = zc[j] = 0;
    }
  }
  uint64_t n = 0, copied = 0;
  for (uint32_t i = 0; i < nargs; ++i)
    if (is_buf(args[i].kind) && args[i].bytes)
      ++*(zc[i] ? &n : &copied);
  idiomrt_zc_count(n, copied);
}

cl_mem idiomrt_zc_buffer(const idiomrt_device *dev, cl_mem_flags flags,
                         void *p, size_t base, size_t bytes, cl_int *err) {
  *err = CL_SUCCESS;
  cl_mem m = dev->cl->clCreateBuffer(dev->ctx, flags | CL_MEM_USE_HOST_PTR,
                                     base + bytes, (char *)p - base, err);
  if (!m && *err == CL_SUCCESS)
    *err = CL_MEM_OBJECT_ALLOCATION_FAILURE;
  if (*err != CL_SUCCESS) {
    idiomrt_debug("zero-copy buffer of %zu bytes at %p refused (%d, %s): "
                  "copied",
                  base + bytes, (void *)((char *)p - base), (int)*err,
                  idiomrt_cl_error_name(*err));
    if (m)
      dev->cl->clReleaseMemObject(m);
    return NULL;
  }
  return m;
}

/* The calling thread's backup area, kept from run to run (a time loop
   backs up the same range every iteration: no allocation per run), freed
   when the thread exits (g_backup_key's destructor). */
static _Thread_local unsigned char *t_backup;
static _Thread_local size_t t_backup_cap;
static pthread_key_t g_backup_key;
static pthread_once_t g_key_once = PTHREAD_ONCE_INIT;
static int g_key_ok;

static void make_key(void) {
  g_key_ok = pthread_key_create(&g_backup_key, free) == 0;
}

static int zc_backup(const void *p, size_t n, size_t at) {
  if (at + n > t_backup_cap) {
    pthread_once(&g_key_once, make_key);
    if (!g_key_ok)
      return 0;
    unsigned char *b = realloc(t_backup, at + n);
    if (!b)
      return 0;
    t_backup = b;
    t_backup_cap = at + n;
    pthread_setspecific(g_backup_key, b);
  }
  idiomrt_parallel_memcpy(t_backup + at, p, n);
  return 1;
}

static void zc_restore(void *p, size_t n, size_t at) {
  idiomrt_parallel_memcpy(p, t_backup + at, n);
}

int idiomrt_zc_inout(const idiom_arg *args, uint32_t nargs,
                     const unsigned char *zc) {
  for (uint32_t i = 0; zc && i < nargs; ++i)
    if (zc[i] == 1 && args[i].kind == IDIOM_ARG_BUF_INOUT)
      return 1;
  return 0;
}

int idiomrt_zc_buffers(const idiomrt_device *dev, const idiom_arg *args,
                       uint32_t nargs, unsigned char *zc, size_t *base,
                       cl_mem *mems, int backup, uint64_t *host_copy_ns) {
  size_t at = 0;
  for (uint32_t i = 0; i < nargs; ++i) {
    const idiom_arg *a = &args[i];
    if (!zc[i])
      continue;
    if (a->kind == IDIOM_ARG_BUF_INOUT && backup) {
      uint64_t t0 = idiomrt_now_ns();
      if (!zc_backup(a->ptr, (size_t)a->bytes, at))
        return 0;
      *host_copy_ns += idiomrt_now_ns() - t0;
      at += (size_t)a->bytes;
      __atomic_add_fetch(&g_backup_bytes, a->bytes, __ATOMIC_RELAXED);
    }
    cl_int err;
    mems[i] = idiomrt_zc_buffer(
        dev, a->kind == IDIOM_ARG_BUF_IN ? CL_MEM_READ_ONLY : CL_MEM_READ_WRITE,
        a->ptr, base[i], (size_t)a->bytes, &err);
    if (!mems[i]) {
      zc[i] = 2; /* copied, and mapped back, as outside a region */
      base[i] = 0;
      idiomrt_zc_count(0, 1);
    }
  }
  return 1;
}

void idiomrt_zc_abort(const idiomrt_device *dev, const idiom_arg *args,
                      uint32_t nargs, const unsigned char *zc, int backed_up,
                      int may_have_written, const char *loc) {
  int any = 0;
  for (uint32_t i = 0; i < nargs && !any; ++i)
    any = zc[i] && args[i].kind == IDIOM_ARG_BUF_INOUT;
  if (!any)
    return;
  dev->cl->clFinish(dev->queue);
  if (!backed_up) {
    /* An INOUT range the driver refused (zc[i] == 2) was copied: the host
       is written only after a run succeeds. */
    if (!may_have_written || !idiomrt_zc_inout(args, nargs, zc))
      return; /* its kernels never ran: the bytes are the program's */
    /* The device failed a command after the gate opened: some elements of
       an in-place range may be updated, and nothing is left to put back. */
    fprintf(stderr,
            "idiom: %s: the device failed after its kernels started writing "
            "an in-place range, and no copy of the range was kept "
            "(IDIOM_ZERO_COPY_BACKUP=auto): the original loop cannot run "
            "from partly updated data; aborting\n",
            loc ? loc : "?");
    abort();
  }
  size_t at = 0;
  for (uint32_t i = 0; i < nargs; ++i)
    if (zc[i] && args[i].kind == IDIOM_ARG_BUF_INOUT) {
      zc_restore(args[i].ptr, (size_t)args[i].bytes, at);
      at += (size_t)args[i].bytes;
    }
}

void idiomrt_zc_count(uint64_t zc_args, uint64_t copied_args) {
  if (zc_args)
    __atomic_add_fetch(&g_args, zc_args, __ATOMIC_RELAXED);
  if (copied_args)
    __atomic_add_fetch(&g_copied, copied_args, __ATOMIC_RELAXED);
}

void idiomrt_zc_report(void) {
  uint64_t n = __atomic_load_n(&g_args, __ATOMIC_RELAXED),
           c = __atomic_load_n(&g_copied, __ATOMIC_RELAXED);
  uint64_t b = idiomrt_zc_backup_bytes();
  if (n || c)
    fprintf(stderr,
            "idiom-stats: zero-copy args=%llu copied_args=%llu "
            "backup_bytes=%llu\n",
            (unsigned long long)n, (unsigned long long)c,
            (unsigned long long)b);
}
