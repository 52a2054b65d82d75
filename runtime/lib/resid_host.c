/*===- resid_host.c - Host code on the memory of a residency region -------===*
 *
 * What the plugin routes through the runtime when host code inside a
 * region touches buffers that may have device copies (residency.c):
 * idiom_region_memmove / idiom_region_memset done on the device where the
 * ranges are resident (else the entries are copied back or dropped first),
 * idiomrt_resid_host_read before a host pass over a range (csr.c, jds.c),
 * and idiom_region_load / idiom_region_store of single elements or strided
 * rows, copied between the host and an entry's buffer.
 *
 *===----------------------------------------------------------------------===*/
#include "rt_internal.h"

#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* Entry x is about to have [a0, a1) written on the device: it becomes
   dirty. A clean entry (device and host agree) that is written only in part
   first gets a snapshot of its host bytes, so that its copy-back stores only
   the bytes that change (as for a run's partial output). 0 on no memory. */
static int make_dirty(idiomrt_resid_entry *x, uintptr_t a0, uintptr_t a1) {
  if (!x->dirty && !x->snap && !(x->lo == a0 && x->hi == a1)) {
    size_t n = (size_t)(x->hi - x->lo);
    if (!(x->snap = idiomrt_snapshot_copy((const void *)x->lo, n)))
      return 0;
  }
  x->dirty = 1;
  return 1;
}

/* The host is about to read [s0, s1) and write [d0, d1): entries holding
   bytes of the first are copied back, entries holding bytes of the second
   also dropped (their device bytes become stale). */
static void to_host(uintptr_t s0, uintptr_t s1, uintptr_t d0, uintptr_t d1) {
  idiomrt_resid_table *t = &idiomrt_resid_tab;
  for (unsigned k = 0; k < t->n;) {
    idiomrt_resid_entry *x = &t->e[k];
    if (idiomrt_ranges_overlap(d0, d1, x->lo, x->hi)) {
      idiomrt_resid_drop_entry(t, k);
      continue;
    }
    if (idiomrt_ranges_overlap(s0, s1, x->lo, x->hi))
      idiomrt_resid_flush_entry(x->dev, x);
    ++k;
  }
}

void idiomrt_resid_host_read(const void *p, uint64_t n) {
  uintptr_t a0 = (uintptr_t)p;
  if (idiomrt_resid_tab.n && n && n <= UINTPTR_MAX - a0)
    to_host(a0, a0 + n, 0, 0);
}

void idiom_region_memmove(void *dst, const void *src, uint64_t n) {
  if (!n)
    return;
  idiomrt_resid_table *t = &idiomrt_resid_tab;
  if (!t->depth && n <= SIZE_MAX) { /* no region of this thread: no memo */
    memmove(dst, src, (size_t)n);
    return;
  }
  uintptr_t s0 = (uintptr_t)src, d0 = (uintptr_t)dst;
  int saved_errno = errno; /* memmove writes no errno: neither do we */
  idiomrt_csr_forget(dst, n);
  if (t->depth && t->n && !idiomrt_in_runtime() && n <= SIZE_MAX &&
      !idiomrt_forked_child()) {
    int s = idiomrt_resid_hold_range(t, s0, s0 + n),
        d = s >= 0 ? idiomrt_resid_hold_range(t, d0, d0 + n) : -1;
    if (d >= 0) /* growing d's entry may have merged s's into it */
      s = idiomrt_resid_holding(t, s0, s0 + n);
    if (s >= 0 && d >= 0 && t->e[s].dev == t->e[d].dev &&
        (s != d || !idiomrt_ranges_overlap(s0, s0 + n, d0, d0 + n))) {
      idiomrt_resid_entry *xs = &t->e[s], *xd = &t->e[d];
      const idiomrt_device *dev = xd->dev;
      if (make_dirty(xd, d0, d0 + n) &&
          dev->cl->clEnqueueCopyBuffer(
              dev->queue, xs->buf, xd->buf, (size_t)(s0 - xs->lo),
              (size_t)(d0 - xd->lo), (size_t)n, 0, NULL, NULL) == CL_SUCCESS) {
        xs->last_use = xd->last_use = ++t->clock;
        __atomic_add_fetch(&idiomrt_resid_n.dev_copies, 1, __ATOMIC_RELAXED);
        errno = saved_errno;
        return;
      }
      /* Not enqueued: the entry is dirty (or unchanged), its bytes valid;
         the host path below copies it back first. */
    }
    to_host(s0, s0 + n, d0, d0 + n);
  }
  memmove(dst, src, (size_t)n);
  errno = saved_errno;
}

void idiom_region_memset(void *dst, int c, uint64_t n) {
  if (!n)
    return;
  idiomrt_resid_table *t = &idiomrt_resid_tab;
  if (!t->depth && n <= SIZE_MAX) { /* no region of this thread: no memo */
    memset(dst, c, (size_t)n);
    return;
  }
  uintptr_t d0 = (uintptr_t)dst;
  int saved_errno = errno; /* memset writes no errno: neither do we */
  idiomrt_csr_forget(dst, n);
  if (t->depth && t->n && !idiomrt_in_runtime() && n <= SIZE_MAX &&
      !idiomrt_forked_child()) {
    int d = idiomrt_resid_hold_range(t, d0, d0 + n);
    if (d >= 0) {
      idiomrt_resid_entry *xd = &t->e[d];
      const idiomrt_device *dev = xd->dev;
      unsigned char byte = (unsigned char)c;
      if (make_dirty(xd, d0, d0 + n) &&
          dev->cl->clEnqueueFillBuffer(dev->queue, xd->buf, &byte, 1,
                                       (size_t)(d0 - xd->lo), (size_t)n, 0,
                                       NULL, NULL) == CL_SUCCESS) {
        xd->last_use = ++t->clock;
        __atomic_add_fetch(&idiomrt_resid_n.dev_copies, 1, __ATOMIC_RELAXED);
        errno = saved_errno;
        return;
      }
    }
    to_host(0, 0, d0, d0 + n);
  }
  memset(dst, c, (size_t)n);
  errno = saved_errno;
}

/*--- host loads and stores of single elements inside a region ------------*/

/* The elements [b + i * s, b + i * s + size), i < count, of a routed host
   access (idiom_region_load/store), with s >= size; (lo, hi) an entry's
   range that the access's bounding range overlaps. Sets [*i0, *i1] to the
   elements that overlap it; 0 when none does. */
static int elems_in(uintptr_t b, uint64_t size, uint64_t s, uint64_t count,
                    uintptr_t lo, uintptr_t hi, uint64_t *i0, uint64_t *i1) {
  uint64_t first = b + size > lo ? 0 : (lo - (b + size)) / s + 1;
  if (hi <= b)
    return 0;
  uint64_t last = (hi - 1 - b) / s;
  if (last >= count)
    last = count - 1;
  *i0 = first;
  *i1 = last;
  return first <= last;
}

/* Host bytes h of entry x were made equal to the device's d (n bytes). In
   diff mode the snapshot must then hold them too: a later copy-back that
   compared the device with the older snapshot would skip bytes a kernel set
   back to their old value, leaving the host's newer one. */
static void synced_snap(idiomrt_resid_entry *x, void *h, const void *d,
                        size_t n) {
  if (!x->snap) {
    memcpy(h, d, n);
    return;
  }
  unsigned char *sn = x->snap + ((uintptr_t)h - x->lo);
  idiomrt_write_changed(h, d, sn, n);
  memcpy(sn, d, n);
}

/* Makes the host bytes of element i of the access current (to_dev 0:
   copied from entry x's device bytes when x is dirty) or the device's
   current (to_dev 1: the host bytes written into x's buffer), clipped to
   x's range. 0 on an OpenCL error. */
static int elem_copy(idiomrt_resid_entry *x, uintptr_t e0, uint64_t size,
                     int to_dev, unsigned char *tmp) {
  uintptr_t a0 = e0 > x->lo ? e0 : x->lo;
  uintptr_t a1 = e0 + size < x->hi ? e0 + size : x->hi;
  size_t n = (size_t)(a1 - a0), off = (size_t)(a0 - x->lo);
  const idiomrt_cl *cl = x->dev->cl;
  if (to_dev) {
    if (cl->clEnqueueWriteBuffer(x->dev->queue, x->buf, CL_TRUE, off, n,
                                 (const void *)a0, 0, NULL, NULL) != CL_SUCCESS)
      return 0;
    if (x->snap) /* see synced_snap */
      memcpy(x->snap + off, (const void *)a0, n);
    return 1;
  }
  if (cl->clEnqueueReadBuffer(x->dev->queue, x->buf, CL_TRUE, off, n, tmp, 0,
                              NULL, NULL) != CL_SUCCESS)
    return 0;
  synced_snap(x, (void *)a0, tmp, n);
  return 1;
}

/* The elements [i0, i1] of the access, each inside x, as one rectangle
   (rows of `size` bytes, `s` apart): read into tmp (packed) and stored to
   the host (to_dev 0), or written from the host (to_dev 1). */
static int rect_copy(idiomrt_resid_entry *x, uintptr_t b, uint64_t size,
                     uint64_t s, uint64_t i0, uint64_t i1, int to_dev,
                     unsigned char *tmp) {
  /* Test knob (runtime.resid_host_access_elems): every rectangle refused,
     as NVIDIA's driver refused some, so the element-by-element path runs. */
  static int refuse = -1;
  if (refuse < 0)
    refuse = getenv("IDIOM_TEST_REFUSE_RECT") != NULL;
  if (refuse)
    return 0;
  const idiomrt_cl *cl = x->dev->cl;
  uintptr_t e0 = b + i0 * s;
  size_t origin[3] = {(size_t)(e0 - x->lo), 0, 0}, zero[3] = {0, 0, 0};
  size_t region[3] = {(size_t)size, (size_t)(i1 - i0 + 1), 1};
  if (to_dev) {
    if (cl->clEnqueueWriteBufferRect(
            x->dev->queue, x->buf, CL_TRUE, origin, zero, region, (size_t)s, 0,
            (size_t)s, 0, (const void *)e0, 0, NULL, NULL) != CL_SUCCESS)
      return 0;
    for (uint64_t i = i0; x->snap && i <= i1; ++i) /* see synced_snap */
      memcpy(x->snap + (b + i * s - x->lo), (const void *)(b + i * s),
             (size_t)size);
    return 1;
  }
  if (cl->clEnqueueReadBufferRect(x->dev->queue, x->buf, CL_TRUE, origin, zero,
                                  region, (size_t)s, 0, (size_t)size, 0, tmp, 0,
                                  NULL, NULL) != CL_SUCCESS)
    return 0;
  for (uint64_t i = i0; i <= i1; ++i)
    synced_snap(x, (void *)(b + i * s), tmp + (i - i0) * size, (size_t)size);
  return 1;
}

/* idiom_region_load (to_dev 0) and idiom_region_store (to_dev 1). An
   entry whose copy fails is copied back whole and dropped (a read) or
   dropped after a copy back of its other bytes would be wrong, so the
   process stops as a failed copy-back does (a write). */
/* noinline: idiom_region_load/store's test of the table stays a leaf
   without a frame (bench/tiny_host.sh). */
__attribute__((noinline)) static void
host_access(const void *p, uint64_t size, int64_t stride, uint64_t count,
            int to_dev) {
  idiomrt_resid_table *t = &idiomrt_resid_tab;
  if (!t->depth || !t->n || !size || !count || idiomrt_in_runtime() ||
      idiomrt_forked_child())
    return;
  uintptr_t b = (uintptr_t)p;
  uint64_t s = stride < 0 ? (uint64_t)(-(stride + 1)) + 1 : (uint64_t)stride;
  if (count > 1 && s && (UINT64_MAX - size) / s < count - 1)
    return; /* no such range in memory: the access would be undefined */
  if (stride < 0 && count > 1)
    b -= (uintptr_t)(s * (count - 1));
  if (count == 1 || s < size) { /* one contiguous range */
    size = count == 1 || !s ? size : s * (count - 1) + size;
    s = size;
    count = 1;
  }
  uint64_t span = s * (count - 1) + size;
  if (span > UINTPTR_MAX - b)
    return;
  int saved_errno = errno;
  if (to_dev)
    idiomrt_csr_forget(p, span);
  __atomic_add_fetch(to_dev ? &idiomrt_resid_n.host_stores
                            : &idiomrt_resid_n.host_loads,
                     1, __ATOMIC_RELAXED);
  for (unsigned k = 0; k < t->n; ++k) {
    idiomrt_resid_entry *x = &t->e[k];
    uint64_t i0, i1;
    if ((!to_dev && !x->dirty) ||
        !idiomrt_ranges_overlap(b, b + span, x->lo, x->hi) ||
        !elems_in(b, size, s, count, x->lo, x->hi, &i0, &i1))
      continue;
    /* The elements that straddle the entry's ends one by one, the rest as
       one rectangle. */
    unsigned char stack[64], *tmp = stack;
    uint64_t need = to_dev ? 0 : (i1 - i0 + 1) * size;
    if (need > sizeof stack && !(tmp = malloc((size_t)need)))
      idiomrt_resid_fatal("out of host memory", CL_OUT_OF_HOST_MEMORY);
    int ok = 1;
    uint64_t r0 = i0, r1 = i1;
    if (b + r0 * s < x->lo)
      ok &= elem_copy(x, b + r0++ * s, size, to_dev, tmp);
    if (r0 <= r1 && b + r1 * s + size > x->hi)
      ok &= elem_copy(x, b + r1-- * s, size, to_dev, tmp);
    /* The last element apart: NVIDIA's driver refuses (on an H200, gs.c)
       a rectangle whose last row's pitch runs past the buffer's end
       although its bytes do not. A rectangle the driver refuses all the
       same is copied element by element. */
    if (ok && r0 < r1 && !rect_copy(x, b, size, s, r0, r1 - 1, to_dev, tmp))
      for (uint64_t i = r0; ok && i < r1; ++i)
        ok = elem_copy(x, b + i * s, size, to_dev, tmp + (i - r0) * size);
    if (ok && r0 <= r1)
      ok = elem_copy(x, b + r1 * s, size, to_dev, tmp + (r1 - r0) * size);
    if (tmp != stack)
      free(tmp);
    if (!ok)
      idiomrt_resid_fatal(to_dev ? "writing a host store through to the device"
                                 : "reading an element back for a host load",
                          CL_INVALID_OPERATION);
    idiomrt_count_transfer(to_dev ? need : 0, to_dev ? 0 : need);
  }
  errno = saved_errno;
}

/* Both return at once with nothing on the device (a region whose sites
   stay on the host calls them once per iteration: bench/tiny_host.sh);
   host_access checks the same first, but behind its frame's set-up. */
void idiom_region_load(const void *p, uint64_t size, int64_t stride,
                       uint64_t count) {
  if (idiomrt_resid_tab.n)
    host_access(p, size, stride, count, 0);
}

void idiom_region_store(const void *p, uint64_t size, int64_t stride,
                        uint64_t count) {
  if (idiomrt_resid_tab.n)
    host_access(p, size, stride, count, 1);
}
