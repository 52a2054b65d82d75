/*===- tune_race.c - Timing a descriptor's variants -----------------------===*
 *
 * The first run of a size class without a chosen variant (tuning.c)
 * times every usable variant on its own device buffers, the outputs
 * restored from a device copy before each launch, and records the fastest;
 * the run then launches it for real.
 *
 *===----------------------------------------------------------------------===*/
#include "rt_internal.h"

#include <stdio.h>
#include <stdlib.h>

#define TUNE_REPS 3
#define TUNE_LONG_MS 20.0   /* a variant's run this long is not repeated */
#define TUNE_FILL_GROUPS 16 /* work-groups per compute unit in a sample */

/* Tuning: copies of every OUT / INOUT buffer, so that each timed launch and
   the real one start from the host's contents. */
static int save_outputs(idiomrt_run *r) {
  for (uint32_t i = 0; i < r->nargs; ++i) {
    const idiom_arg *a = &r->args[i];
    if (!idiomrt_arg_is_output(a->kind) || !a->bytes)
      continue;
    if (!r->pristine && !(r->pristine = calloc(r->nargs, sizeof *r->pristine)))
      return idiomrt_run_fail(r, "out of host memory");
    if (!idiomrt_run_make_buffer(r, CL_MEM_READ_WRITE, NULL, a->bytes,
                                 &r->pristine[i]))
      return 0;
    cl_int err = r->cl->clEnqueueCopyBuffer(
        r->dev->queue, r->mems[i], r->pristine[i], idiomrt_run_mem_off(r, i), 0,
        (size_t)a->bytes, 0, NULL, NULL);
    if (err != CL_SUCCESS)
      return idiomrt_run_cl_fail(r, "clEnqueueCopyBuffer", err);
  }
  return 1;
}

static int restore_outputs(idiomrt_run *r) {
  if (!r->pristine)
    return 1;
  for (uint32_t i = 0; i < r->nargs; ++i) {
    if (!r->pristine[i])
      continue;
    cl_int err = r->cl->clEnqueueCopyBuffer(
        r->dev->queue, r->pristine[i], r->mems[i], 0, idiomrt_run_mem_off(r, i),
        (size_t)r->args[i].bytes, 0, NULL, NULL);
    if (err != CL_SUCCESS)
      return idiomrt_run_cl_fail(r, "clEnqueueCopyBuffer", err);
  }
  return 1;
}

/* Waits for evs and returns their summed kernel time in ns, or -1 when one
   of them failed. Releases the events. */
static double finish_timed(idiomrt_run *r, cl_event *evs, unsigned nev) {
  const idiomrt_cl *cl = r->cl;
  double ns = 0;
  cl->clFlush(r->dev->queue);
  if (nev && cl->clWaitForEvents(nev, evs) != CL_SUCCESS)
    ns = -1;
  for (unsigned i = 0; i < nev; ++i) {
    cl_int st = CL_COMPLETE;
    cl_ulong t0 = 0, t1 = 0;
    if (ns >= 0 &&
        (cl->clGetEventInfo(evs[i], CL_EVENT_COMMAND_EXECUTION_STATUS,
                            sizeof st, &st, NULL) != CL_SUCCESS ||
         st != CL_COMPLETE ||
         cl->clGetEventProfilingInfo(evs[i], CL_PROFILING_COMMAND_START,
                                     sizeof t0, &t0, NULL) != CL_SUCCESS ||
         cl->clGetEventProfilingInfo(evs[i], CL_PROFILING_COMMAND_END,
                                     sizeof t1, &t1, NULL) != CL_SUCCESS ||
         t1 < t0))
      ns = -1;
    if (ns >= 0)
      ns += (double)(t1 - t0);
    cl->clReleaseEvent(evs[i]);
  }
  return ns;
}

static int cmp_double(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return x < y ? -1 : x > y;
}

/* Times every usable variant and records the fastest, returning it (-1
   when none ran). The variants are timed in rounds, each round launching
   every variant still in the race once, and each variant's time is the
   median of its rounds: a GPU whose clocks ramp up during the first
   launches of a process, or whose cache still holds the freshly copied
   input, then biases no variant more than another. TUNE_REPS rounds; a
   variant whose first launch is 4x slower than the best first launch
   leaves the race, and one whose launch takes TUNE_LONG_MS or more runs
   once. A map over more than
   IDIOM_TUNE_SAMPLE iterations is timed on its first rows only
   (r->sample), enough of them to fill the device with every variant. */
int idiomrt_tune_variants(idiomrt_run *r, unsigned cls) {
  idiomrt_entry *e = r->e;
  double ms[IDIOMRT_MAX_VARIANTS];
  double t[IDIOMRT_MAX_VARIANTS][TUNE_REPS];
  unsigned nt[IDIOMRT_MAX_VARIANTS];
  int racing[IDIOMRT_MAX_VARIANTS];
  double best = -1;
  int best_k = -1;
  char scratch[IDIOMRT_REASON_LEN];
  char *saved_reason = r->reason;
  size_t saved_len = r->reason_len;
  if (!save_outputs(r))
    return -1;
  r->reason = scratch; /* a variant's failure is not the run's */
  r->reason_len = sizeof scratch;
  uint64_t cap = idiomrt_config_get()->tune_sample;
  uint64_t trip = idiomrt_trip_count(r->d, r->sizes);
  if (r->d->kind == IDIOM_MAP && cap && trip > cap) {
    /* A sample must give every variant the device's full-size shape: at
       least TUNE_FILL_GROUPS work-groups per compute unit, and whole plane
       walks. Otherwise a variant with many elements per work-item (a
       privatised histogram: 64 keys per work-item, local bins cleared and
       merged once per work-group) runs a few under-occupied groups on the
       sample and looks 3x slower than one with 16 keys per work-item, which
       is 1.7x slower at full size (2^26 keys into 4096 bins on an H200); a
       3-D plane walk of 16 planes got 5 walks of a 65-plane sample, a
       quarter of a wave on an H200, and lost to a 69% variant. */
    idiomrt_sample_shape shapes[IDIOMRT_MAX_VARIANTS];
    unsigned ns = 0;
    for (unsigned k = 0; k < e->nvariants; ++k) {
      idiomrt_sample_shape *s = &shapes[ns];
      if (!e->var[k].ready || !idiomrt_map_local(r, &e->var[k], s->local))
        continue;
      s->ept[0] = e->var[k].ept;
      s->ept[1] = e->var[k].ept1;
      s->ept[2] = e->var[k].ept2;
      s->lanes = e->var[k].lanes;
      ns++;
    }
    r->sample =
        idiomrt_tune_sample(r->sizes, r->d->ndims, cap, shapes, ns,
                            (uint64_t)TUNE_FILL_GROUPS * r->dev->compute_units);
    idiomrt_debug("%s: tuning sample %llu of %llu iterations", r->d->loc,
                  (unsigned long long)r->sample, (unsigned long long)trip);
  }
  for (unsigned k = 0; k < e->nvariants; ++k) {
    nt[k] = 0;
    racing[k] = e->var[k].ready;
    if (racing[k] && (e->var[k].lanes > 1 || e->var[k].row_blocks) &&
        (r->dev->type & CL_DEVICE_TYPE_CPU)) {
      /* row lanes (ept=1/W, and row blocks: ept=blocks/G) serve devices
         with SIMT lanes; a CPU runs a work-group's work-items one after
         another, and timing them costs more than it can find (IDIOM_VARIANT
         still forces one) */
      idiomrt_debug("%s: variant %u not timed on a CPU (row lanes)", r->d->loc,
                    k);
      racing[k] = 0;
    }
    if (racing[k] && e->var[k].row_walk &&
        !(r->dev->type & CL_DEVICE_TYPE_CPU)) {
      /* row walks (ept=*xR) serve CPU devices: one work-item per chunk of
         whole rows reads uncoalesced on a GPU */
      idiomrt_debug("%s: variant %u not timed on this device (row walk)",
                    r->d->loc, k);
      racing[k] = 0;
    }
  }
  double best_first = -1;
  for (unsigned rep = 0; rep < TUNE_REPS; ++rep) {
    for (unsigned k = 0; k < e->nvariants; ++k) {
      if (!racing[k])
        continue;
      cl_event evs[2];
      unsigned nev = 0;
      scratch[0] = '\0';
      if (!restore_outputs(r) ||
          !idiomrt_launch_variant(r, k, evs, &nev)) {
        for (unsigned i = 0; i < nev; ++i) {
          r->cl->clWaitForEvents(1, &evs[i]);
          r->cl->clReleaseEvent(evs[i]);
        }
        nt[k] = 0;
        racing[k] = 0;
        idiomrt_debug("%s: variant %u skipped: %s", r->d->loc, k,
                      scratch[0] ? scratch : "failed");
        continue;
      }
      double ns = finish_timed(r, evs, nev);
      if (ns < 0) {
        nt[k] = 0;
        racing[k] = 0;
        idiomrt_debug("%s: variant %u skipped: kernel execution failed",
                      r->d->loc, k);
        continue;
      }
      e->tune_ns += (uint64_t)ns;
      t[k][nt[k]++] = ns / 1e6;
      if (rep == 0 && (best_first < 0 || t[k][0] < best_first))
        best_first = t[k][0];
      if (t[k][nt[k] - 1] >= TUNE_LONG_MS)
        racing[k] = 0; /* one run of a long kernel is median enough */
    }
    /* After the first round: variants 4x slower than the best first
       launch leave the race (kept with their one time). */
    if (rep == 0)
      for (unsigned k = 0; k < e->nvariants; ++k)
        if (racing[k] && nt[k] && t[k][0] > 4 * best_first)
          racing[k] = 0;
  }
  for (unsigned k = 0; k < e->nvariants; ++k) {
    ms[k] = -1;
    if (nt[k] == 0)
      continue;
    char all[16 * TUNE_REPS] = "";
    for (unsigned i = 0, o = 0; i < nt[k] && o < sizeof all; ++i)
      o += (unsigned)snprintf(all + o, sizeof all - o, " %.4f", t[k][i]);
    qsort(t[k], nt[k], sizeof t[k][0], cmp_double);
    ms[k] = t[k][nt[k] / 2];
    idiomrt_debug("%s: size class %u: variant %u: %.4f ms (rounds:%s)",
                  r->d->loc, cls, k, ms[k], all);
    if (best_k < 0 || ms[k] < best) {
      best = ms[k];
      best_k = (int)k;
    }
  }
  r->reason = saved_reason;
  r->reason_len = saved_len;
  r->sample = 0;
  if (best_k < 0) {
    idiomrt_run_fail(r, "no kernel variant ran");
    return -1;
  }
  if (!restore_outputs(r))
    return -1;
  idiomrt_tune_record(e, r->dev, cls, best_k, ms);
  return best_k;
}
