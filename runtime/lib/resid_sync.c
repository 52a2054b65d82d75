/*===- resid_sync.c - A host run's own sync inside a residency region -----===*
 *
 * A stitched idiom's original loop that runs on the host inside a region (a
 * decline, a host-hinted call, the redo of a reduction) accesses only its
 * own buffer arguments' ranges: the lifter proved that the loop's accesses
 * are the idiom's, and the plugin checks that every load and store of the
 * fallback nest is based on one of the site's buffer pointers
 * (passes/PartialSync.cpp, nestTouchesOnlyArgs), or passes the loop's own
 * ranges, computed in front of it (emitSyncOwnRanges). Before such a loop,
 * idiom_region_sync_args copies back and releases only what that loop may
 * touch (docs/ARCHITECTURE.md, "Residency", partial syncs):
 *   - an entry that overlaps an OUT / INOUT range: its device-newer bytes
 *     are copied back and it is released (the loop writes host bytes that
 *     its device copy would then lack);
 *   - an entry that overlaps only IN ranges: its device-newer bytes are
 *     copied back and it stays, clean (the loop only reads them);
 *   - every other entry stays as it is.
 * IDIOM_PARTIAL_SYNC=off (config.c) makes every one of them the full sync,
 * as before this file (an A/B knob for benchmarks).
 * Any argument whose range is not known (a NULL pointer: a run-time extent
 * not filled in on this path; a range past the end of the address space;
 * an unknown kind) makes it the full sync of idiom_region_sync.
 *
 * A declined idiom_run does the same partial sync only for a descriptor
 * whose caller has called idiom_region_sync_args (the entry's sync_args
 * flag): such a caller syncs at its fallback's preheader on every path
 * into the loop. Objects built before this call existed (and hand-written
 * callers) get the full sync on a decline, as before.
 *
 *===----------------------------------------------------------------------===*/
#include "rt_internal.h"

#include <errno.h>
#include <stdint.h>

/* 1 when every argument's range is known: the buffers' ranges are the
   loop's accesses. */
static int args_known(const idiom_arg *args, uint32_t nargs) {
  if (!args && nargs)
    return 0;
  for (uint32_t i = 0; i < nargs; ++i) {
    const idiom_arg *a = &args[i];
    if (a->kind > IDIOM_ARG_F64)
      return 0;
    if (!idiomrt_arg_is_buffer(a->kind))
      continue;
    uintptr_t p = (uintptr_t)a->ptr;
    if (!p || a->bytes > UINTPTR_MAX - p)
      return 0;
  }
  return 1;
}

/* 1 when [lo, hi) overlaps a buffer argument's range; outputs only when
   out_only. */
static int overlaps_args(const idiom_arg *args, uint32_t nargs, uintptr_t lo,
                         uintptr_t hi, int out_only) {
  for (uint32_t i = 0; i < nargs; ++i) {
    const idiom_arg *a = &args[i];
    if (!idiomrt_arg_is_buffer(a->kind) || !a->bytes ||
        (out_only && !idiomrt_arg_is_output(a->kind)))
      continue;
    uintptr_t p = (uintptr_t)a->ptr;
    if (idiomrt_ranges_overlap(p, p + a->bytes, lo, hi))
      return 1;
  }
  return 0;
}

uint64_t idiomrt_resid_sync_args_bytes(const idiom_arg *args, uint32_t nargs,
                                       uint64_t *refill) {
  const idiomrt_resid_table *t = &idiomrt_resid_tab;
  uint64_t back = 0;
  *refill = 0;
  if (!t->depth || !args_known(args, nargs)) {
    uint64_t held = idiomrt_resid_bytes();
    *refill = held;
    return held;
  }
  for (unsigned k = 0; k < t->n; ++k) {
    const idiomrt_resid_entry *x = &t->e[k];
    uint64_t n = x->hi - x->lo;
    if (overlaps_args(args, nargs, x->lo, x->hi, 1)) {
      back += x->dirty ? n : 0;
      *refill += n;
    } else if (x->dirty && overlaps_args(args, nargs, x->lo, x->hi, 0)) {
      back += n;
    }
  }
  return back;
}

void idiomrt_resid_sync_partial(const idiom_arg *args, uint32_t nargs) {
  idiomrt_resid_table *t = &idiomrt_resid_tab;
  if (!args_known(args, nargs) || idiomrt_forked_child()) {
    idiomrt_resid_sync();
    return;
  }
  /* The loop may write its output ranges: a new epoch (csr.c's memo), as
     after a full sync. */
  if (t->n == 0 && !t->epoch_read)
    return;
  idiomrt_resid_new_epoch();
  if (t->n == 0)
    return;
  int touched = 0;
  for (unsigned k = 0; k < t->n;) {
    idiomrt_resid_entry *x = &t->e[k];
    if (overlaps_args(args, nargs, x->lo, x->hi, 1)) {
      idiomrt_resid_drop_entry(t, k); /* copied back when dirty */
      __atomic_add_fetch(&idiomrt_resid_n.sync_released, 1, __ATOMIC_RELAXED);
      touched = 1;
      continue;
    }
    if (x->dirty && overlaps_args(args, nargs, x->lo, x->hi, 0)) {
      idiomrt_resid_flush_entry(x->dev, x); /* kept, now clean */
      touched = 1;
    }
    ++k;
  }
  /* counted when it moved or released something (the fallback's own call
     after a declined run's finds nothing left) */
  if (touched)
    __atomic_add_fetch(&idiomrt_resid_n.partial_syncs, 1, __ATOMIC_RELAXED);
}

/* The descriptor whose sync_args flag this thread set last: the registry's
   lock is taken once per site, not once per host run. */
static _Thread_local const idiom_kernel_desc *t_seen;

static void mark_seen(const idiom_kernel_desc *desc) {
  if (!desc || desc == t_seen)
    return;
  idiomrt_entry *e = idiomrt_entry_get(desc);
  if (e)
    __atomic_store_n(&e->sync_args, 1, __ATOMIC_RELAXED);
  t_seen = desc;
}

int idiomrt_resid_syncs_args(const idiom_kernel_desc *desc,
                             const idiomrt_entry *e) {
  if (!desc || !idiomrt_config_get()->partial_sync)
    return 0;
  if (desc == t_seen)
    return 1;
  if (!e || e->desc != desc)
    e = idiomrt_entry_try(desc);
  return e && __atomic_load_n(&e->sync_args, __ATOMIC_RELAXED);
}

void idiomrt_resid_decline_sync(const idiom_kernel_desc *desc,
                                const idiomrt_entry *e, const idiom_arg *args,
                                uint32_t nargs) {
  if (idiomrt_resid_tab.depth && idiomrt_resid_syncs_args(desc, e))
    idiomrt_resid_sync_partial(args, nargs);
  else
    idiomrt_resid_sync();
}

__attribute__((noinline)) static void
sync_args_slow(const idiom_kernel_desc *desc, const idiom_arg *args,
               uint32_t nargs) {
  if (idiomrt_in_runtime())
    return;
  int saved_errno = errno;
  if (idiomrt_resid_tab.depth)
    mark_seen(desc);
  if (!args || !idiomrt_config_get()->partial_sync)
    idiomrt_resid_sync();
  else if (idiomrt_resid_tab.n != 0 || idiomrt_resid_tab.epoch_read)
    idiomrt_resid_sync_partial(args, nargs);
  errno = saved_errno;
}

void idiom_region_sync_args(const idiom_kernel_desc *desc,
                            const idiom_arg *args, uint32_t nargs) {
  /* Fast path as idiom_region_sync's, and once per site and thread inside
     a region: the site's flag (mark_seen). */
  const idiomrt_resid_table *t = &idiomrt_resid_tab;
  if (t->n != 0 || t->epoch_read || (t->depth && desc && desc != t_seen))
    sync_args_slow(desc, args, nargs);
}
