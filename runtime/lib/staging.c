/*===- staging.c - Host-device copies through pinned staging memory ------===*
 *
 * A copy from pageable host memory runs at a fraction of the link's speed
 * (7-9 GB/s against 47-53 GB/s from pinned memory on the lent H200, issue
 * 12). Pinned memory is what an OpenCL buffer created with
 * CL_MEM_ALLOC_HOST_PTR and mapped once gives (NVIDIA OpenCL best practices:
 * pass the mapped pointer to clEnqueueWrite/ReadBuffer). Two such slots of
 * IDIOM_STAGING_CHUNK bytes are kept for the process; a copy of n bytes goes
 * chunk by chunk, the host memcpy of one chunk overlapping the DMA of the
 * other.
 *
 * Both directions are synchronous: a staged write has completed (or failed,
 * returned as an error) when idiomrt_stage_write returns, so a failure can
 * never leave a kernel reading a half-written buffer unnoticed, and the
 * program's memory is not read after the call returns.
 *
 * IDIOM_STAGING=auto (default): GPU devices, copies of at least 1 MiB (on a
 * CPU device the extra memcpy is pure cost); on: every device and size
 * (tests); off: never. The slots are shared by all threads behind a mutex
 * taken with trylock: a thread that finds them busy copies directly.
 *
 * A staged write of two chunks or more (the memcpy of one overlapping the
 * DMA of the other) is timed, and its rate goes to the cost model's floor
 * for copies that this file stages (idiomrt_calib_stage_sample).
 *
 * The slots are made once per process: by the runtime thread right after
 * the builds that calls wait for (idiomrt_stage_prepare, startup.c), else
 * by the first staged copy. Made at the first copy they cost it 21 ms on
 * the H200 (a warm Jacobi 4096^2's first 128 MiB fill: 25.7 ms against
 * 4.6 ms for the second).
 *
 *===----------------------------------------------------------------------===*/
#include "rt_internal.h"

#include <stdlib.h>
#include <string.h>

#define STAGE_SLOTS 2
#define STAGE_AUTO_MIN ((size_t)1 << 20)
#define STAGE_DEFAULT_CHUNK ((size_t)16 << 20)

static pthread_mutex_t g_lock = PTHREAD_MUTEX_INITIALIZER;
static struct {
  cl_mem mem;
  void *ptr;
} g_slot[STAGE_SLOTS];
static int g_ready;          /* 0: not tried, 1: slots mapped, -1: failed */
static int g_mode = -1;      /* 0 off, 1 on, 2 auto; -1 not read yet */
static size_t g_chunk;

static void read_env(void) {
  const char *m = getenv("IDIOM_STAGING");
  int mode = 2;
  if (m && (!strcmp(m, "off") || !strcmp(m, "0")))
    mode = 0;
  else if (m && (!strcmp(m, "on") || !strcmp(m, "1")))
    mode = 1;
  const char *c = getenv("IDIOM_STAGING_CHUNK");
  size_t chunk = STAGE_DEFAULT_CHUNK;
  if (c && *c) {
    char *end = NULL;
    unsigned long long v = strtoull(c, &end, 10);
    if (end && !*end && v >= 64 && v <= ((unsigned long long)1 << 30))
      chunk = (size_t)v;
  }
  g_chunk = chunk;
  __atomic_store_n(&g_mode, mode, __ATOMIC_RELEASE);
}

/* With g_lock held. */
static int setup(const idiomrt_device *dev) {
  if (g_ready)
    return g_ready > 0;
  const idiomrt_cl *cl = dev->cl;
  g_ready = -1;
  for (int s = 0; s < STAGE_SLOTS; ++s) {
    cl_int err = CL_SUCCESS;
    g_slot[s].mem = cl->clCreateBuffer(
        dev->ctx, CL_MEM_ALLOC_HOST_PTR | CL_MEM_READ_WRITE, g_chunk, NULL,
        &err);
    if (!g_slot[s].mem || err != CL_SUCCESS)
      return 0;
    g_slot[s].ptr = cl->clEnqueueMapBuffer(
        dev->queue, g_slot[s].mem, CL_TRUE, CL_MAP_READ | CL_MAP_WRITE, 0,
        g_chunk, 0, NULL, NULL, &err);
    if (!g_slot[s].ptr || err != CL_SUCCESS)
      return 0;
  }
  idiomrt_debug("staging: %d pinned slots of %zu bytes", STAGE_SLOTS,
                g_chunk);
  g_ready = 1;
  return 1;
}

/* The mode (IDIOM_STAGING), read once. */
static int mode_now(void) {
  if (__atomic_load_n(&g_mode, __ATOMIC_ACQUIRE) < 0) {
    pthread_mutex_lock(&g_lock);
    if (g_mode < 0)
      read_env();
    pthread_mutex_unlock(&g_lock);
  }
  return __atomic_load_n(&g_mode, __ATOMIC_ACQUIRE);
}

void idiomrt_stage_prepare(const idiomrt_device *dev) {
  int mode = mode_now();
  if (mode == 0 || (mode == 2 && !(dev->type & CL_DEVICE_TYPE_GPU)))
    return;
  if (pthread_mutex_trylock(&g_lock) != 0)
    return; /* a copy (or its set-up) holds the slots */
  setup(dev);
  pthread_mutex_unlock(&g_lock);
}

int idiomrt_stage_ready(void) {
  pthread_mutex_lock(&g_lock);
  int r = g_ready > 0;
  pthread_mutex_unlock(&g_lock);
  return r;
}

int idiomrt_stage_applies(const idiomrt_device *dev, uint64_t n) {
  int mode = mode_now();
  if (mode == 1)
    return n > 0;
  return mode == 2 && n >= STAGE_AUTO_MIN &&
         (!dev || (dev->type & CL_DEVICE_TYPE_GPU));
}

/* 1 with g_lock held when this copy goes through the slots. */
static int take(const idiomrt_device *dev, size_t n) {
  if (!dev || !idiomrt_stage_applies(dev, n)) /* the cost floor's rule too */
    return 0;
  if (pthread_mutex_trylock(&g_lock) != 0)
    return 0;
  if (!setup(dev)) {
    pthread_mutex_unlock(&g_lock);
    return 0;
  }
  return 1;
}

/* Waits for ev (when set), releases it; its failure as an error code. */
static cl_int finish(const idiomrt_cl *cl, cl_event *ev) {
  if (!*ev)
    return CL_SUCCESS;
  cl_int err = cl->clWaitForEvents(1, ev);
  cl_int st = CL_COMPLETE;
  if (err == CL_SUCCESS)
    err = cl->clGetEventInfo(*ev, CL_EVENT_COMMAND_EXECUTION_STATUS,
                             sizeof st, &st, NULL);
  if (err == CL_SUCCESS && st != CL_COMPLETE)
    err = st < 0 ? st : CL_INVALID_EVENT;
  cl->clReleaseEvent(*ev);
  *ev = NULL;
  return err;
}

/* Waits for every slot's pending copy, releases the slots and returns the
   first error: err, else the first failed wait. */
static cl_int drain_and_release(const idiomrt_cl *cl, cl_event *ev,
                                cl_int err) {
  for (int s = 0; s < STAGE_SLOTS; ++s) {
    cl_int e2 = finish(cl, &ev[s]);
    if (err == CL_SUCCESS)
      err = e2;
  }
  pthread_mutex_unlock(&g_lock);
  return err;
}

cl_int idiomrt_stage_write(const idiomrt_device *dev, cl_mem dst, size_t off,
                           const void *src, size_t n, int *staged) {
  *staged = 0;
  if (!take(dev, n))
    return CL_SUCCESS;
  *staged = 1;
  const idiomrt_cl *cl = dev->cl;
  cl_event ev[STAGE_SLOTS] = {NULL};
  cl_int err = CL_SUCCESS;
  size_t k = 0;
  uint64_t t0 = n >= 2 * g_chunk ? idiomrt_now_ns() : 0;
  for (size_t pos = 0; pos < n && err == CL_SUCCESS; pos += g_chunk, ++k) {
    size_t len = n - pos < g_chunk ? n - pos : g_chunk;
    int s = (int)(k % STAGE_SLOTS);
    if ((err = finish(cl, &ev[s])) != CL_SUCCESS)
      break;
    idiomrt_parallel_memcpy(g_slot[s].ptr, (const char *)src + pos, len);
    err = cl->clEnqueueWriteBuffer(dev->queue, dst, CL_FALSE, off + pos, len,
                                   g_slot[s].ptr, 0, NULL, &ev[s]);
    if (err == CL_SUCCESS)
      err = cl->clFlush(dev->queue);
  }
  err = drain_and_release(cl, ev, err);
  if (t0 && err == CL_SUCCESS)
    idiomrt_calib_stage_sample(n, idiomrt_now_ns() - t0);
  return err;
}

cl_int idiomrt_stage_read(const idiomrt_device *dev, cl_mem src, size_t off,
                          size_t n,
                          void (*consume)(void *arg, size_t pos,
                                          const void *chunk, size_t len),
                          void *arg, int *staged) {
  *staged = 0;
  if (!take(dev, n))
    return CL_SUCCESS;
  *staged = 1;
  const idiomrt_cl *cl = dev->cl;
  cl_event ev[STAGE_SLOTS] = {NULL};
  size_t at[STAGE_SLOTS] = {0}, len[STAGE_SLOTS] = {0};
  cl_int err = CL_SUCCESS;
  size_t nchunks = (n + g_chunk - 1) / g_chunk;
  /* Chunk k is read into slot k % 2 while chunk k - 1 is consumed. */
  for (size_t k = 0; k <= nchunks && err == CL_SUCCESS; ++k) {
    if (k < nchunks) {
      int s = (int)(k % STAGE_SLOTS);
      at[s] = k * g_chunk;
      len[s] = n - at[s] < g_chunk ? n - at[s] : g_chunk;
      err = cl->clEnqueueReadBuffer(dev->queue, src, CL_FALSE, off + at[s],
                                    len[s], g_slot[s].ptr, 0, NULL, &ev[s]);
      if (err == CL_SUCCESS)
        err = cl->clFlush(dev->queue);
      if (err != CL_SUCCESS)
        break;
    }
    if (k > 0) {
      int p = (int)((k - 1) % STAGE_SLOTS);
      if ((err = finish(cl, &ev[p])) != CL_SUCCESS)
        break;
      consume(arg, at[p], g_slot[p].ptr, len[p]);
    }
  }
  return drain_and_release(cl, ev, err);
}
