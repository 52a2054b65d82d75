/*===- rt_internal.h - Shared declarations of the runtime's parts ---------===*
 *
 * Private to runtime/lib. Every non-static symbol starts with idiomrt_ so
 * that the static archive does not collide with a user program's names.
 * The declarations are split by concern into the headers below, each
 * self-contained; the runtime's .c files include this one.
 *
 *   rt_config.h     environment (config.c), fork and address space (process.c)
 *   rt_device.h     libOpenCL (cl_loader.c), the vendor library without
 *                   the loader (cl_direct.c), the devices (device.c), FP
 *                   limits (fpenv.c)
 *   rt_registry.h   per-descriptor state (registry.c)
 *   rt_program.h    programs (program_cache.c) and tuning (tuning.c)
 *   rt_stats.h      the IDIOM_STATS report (stats.c, json.c)
 *   rt_costmodel.h  the cost model (costmodel.c, calibration.c, profile.c,
 *                   stale.c)
 *   rt_sparse.h     CSR and JDS SpMV (csr.c, jds.c)
 *   rt_threads.h    runtime threads (worker.c, startup.c, parcopy.c)
 *   rt_detach.h     the device's files closed after the exit (exit_detach.c)
 *   rt_launch.h     a run's checks and state (checks.c, workgate.c, launch.c,
 *                   writeback.c)
 *   rt_run.h        one device run (run.c, gate.c, run_buffers.c, enqueue.c,
 *                   tune_race.c)
 *   rt_residency.h  residency regions (residency.c, resid_run.c,
 *                   resid_host.c)
 *   rt_resid_table.h  their range table, private to those three
 *   rt_memory.h     zero-copy buffers (zerocopy.c), staging (staging.c)
 *   rt_pair.h       pairs of idioms (pair.c)
 *
 * Lock order: a registry entry's lock may be held while nothing else is
 * taken; the device lock and the registry lock are leaves (never held while
 * taking another lock).
 *
 *===----------------------------------------------------------------------===*/
#ifndef IDIOMRT_INTERNAL_H
#define IDIOMRT_INTERNAL_H

#include "rt_cl.h"

#include <pthread.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "idiomrt.h"

#include "rt_config.h"
#include "rt_text.h"
#include "rt_device.h"
#include "rt_registry.h"
#include "rt_program.h"
#include "rt_stats.h"
#include "rt_costmodel.h"
#include "rt_sparse.h"
#include "rt_threads.h"
#include "rt_detach.h"
#include "rt_launch.h"
#include "rt_residency.h"
#include "rt_resid_table.h"
#include "rt_memory.h"
#include "rt_pair.h"
#include "rt_run.h"

#endif /* IDIOMRT_INTERNAL_H */
