/*===- rt_threads.h - Runtime threads --------------------------------------===*
 *
 * Private to runtime/lib (rt_internal.h includes it).
 *
 * The runtime's own threads: the worker (worker.c), the background
 * device start-up and kernel builds (startup.c), and the helpers of
 * host copies (parcopy.c).
 *
 *===----------------------------------------------------------------------===*/
#ifndef IDIOMRT_THREADS_H
#define IDIOMRT_THREADS_H

#include "rt_device.h"
#include "rt_registry.h"
#include <pthread.h>
#include <stddef.h>
#include <stdint.h>

/*--- worker.c: OpenCL initialization and builds on a runtime thread -------*/

/* Stack of the runtime thread. */
#define IDIOMRT_WORKER_STACK ((size_t)16 << 20)
/* Runs fn(arg) on a new runtime thread (IDIOMRT_WORKER_STACK bytes of
   stack, every blockable signal blocked) and waits for it; the process's
   signal dispositions are saved before and restored after. Returns 1 when it
   ran, 0 when the thread could not be created, -1 (without waiting) when
   another job is running. */
int idiomrt_worker_run(void (*fn)(void *), void *arg);
/* Starts fn(arg) on a new runtime thread (same stack and signal mask) that
   waits for any running job, then runs fn; afterwards only the signal
   handlers that point into objects loaded during the job are put back.
   Returns 1 when the thread started (*thread: the caller joins it), 0 when
   it could not be created. */
int idiomrt_worker_start(void (*fn)(void *), void *arg, pthread_t *thread);
void idiomrt_worker_after_fork(void);

/*--- startup.c: device start-up and kernel builds in the background -------*/

/* The decline reasons of startup.c. */
extern const char idiomrt_starting_reason[]; /* "device starting" */
extern const char idiomrt_building_reason[]; /* "kernels building" */
extern const char idiomrt_exiting_reason[];  /* "process exiting" */
/* "kernels not built: the process is expected to end first": neither a
   start-up nor a build is begun when the profile says the process ends
   before a build would (startup.c's too_late); the loop runs, as while the
   device starts. */
extern const char idiomrt_late_reason[];
/* "left out: the process is expected to end before its build": a site's
   variants after variant 0 not built (startup.c's rest_too_late); why[]
   of each such variant and the stats report's reason. */
extern const char idiomrt_rest_late_reason[];
/* 1 when e's kernels were not built on the runtime thread and neither a
   start-up nor a build is to be begun now (the profile says the process
   ends before a build would): the run declines with idiomrt_late_reason
   before any work of its own. */
int idiomrt_startup_late(idiomrt_entry *e);
/* 1 once exit() has begun after a background start: the start-up stops at
   its next step (device.c checks between its steps). */
int idiomrt_startup_exiting(void);
/* 1 while the background thread (start-up, calibration, kernel builds)
   runs: it takes a core, so host loops timed meanwhile run slow. */
int idiomrt_startup_running(void);
/* The device when ready; else NULL and *reason: idiomrt_starting_reason
   while the start-up thread (started by the first call) runs, or why there
   is no device. Never waits. */
const idiomrt_device *idiomrt_startup_poll(const char **reason);
/* 1 once the start-up thread has been started in this process. */
int idiomrt_startup_begun(void);
/* When exit() began (CLOCK_MONOTONIC ns, before it waits for the runtime
   thread), or 0 before that or when no start-up thread was started. */
uint64_t idiomrt_startup_exit_ns(void);
/* The longest single program build from source in this process (one
   clBuildProgram: a GPU's variants build one per program), in ns (0: none
   yet); a build that runs past the process's expected end (the profile's
   wall line) is left out (startup.c). Loads from the disk cache do not
   count. */
uint64_t idiomrt_startup_longest_build_ns(void);
/* Records one program build from source that took ns (program_cache.c). */
void idiomrt_startup_note_build(uint64_t ns);
/* A build from source begins (program_cache.c): until the next
   idiomrt_startup_note_build, idiomrt_startup_build_running_ns says how
   long it has run (0: none running), a lower bound of its time for the
   profile's wall line when the process ends first. */
void idiomrt_startup_note_build_begin(void);
uint64_t idiomrt_startup_build_running_ns(void);
/* Records one program loaded from the disk cache (program_cache.c). */
void idiomrt_startup_note_load(void);
/* 1 once a program was loaded from the disk cache in this process. */
int idiomrt_startup_loaded_from_disk(void);
/* Starts the background start-up if needed and waits for its outcome. */
const idiomrt_device *idiomrt_startup_wait(const char **reason);
/* 1 when e's kernels have been built (or their build has failed, which the
   run then reports); else queues the build on the background thread and
   returns 0. */
int idiomrt_startup_built(idiomrt_entry *e);
void idiomrt_startup_after_fork(void);
/* The device for a run of trip iterations of e with the cost model on:
   when the device and e's kernels are ready, at once; else, when the
   start-up under way is expected to end well before the original loop
   would (remaining start-up, from the calibrated start-up time, at most a
   quarter of the cost model's host estimate host_ns), it polls until both
   are ready or half of host_ns has passed; so a program whose one long call
   comes while the device starts runs it there, and a wait that runs long
   costs at most half the loop again. NULL when the run should decline as
   before (*reason: starting, building, or why there is no device). */
const idiomrt_device *idiomrt_startup_wait_for_run(idiomrt_entry *e,
                                                   uint64_t trip,
                                                   const char **reason);
/* The device for a run that the cost model sent to it before any host
   time of its class was known (IDIOMRT_DEC_DEVICE_WAIT, devwait.c): starts
   the device if needed, queues e's kernels, and polls until both are
   ready, the device fails, or half of host_lb (ns, the loop's lower bound)
   has passed. NULL with *reason as idiomrt_startup_wait_for_run. */
const idiomrt_device *idiomrt_startup_wait_bounded(idiomrt_entry *e,
                                                   double host_lb,
                                                   const char **reason);
/* The device start-up still expected, in ns: the calibrated start-up time
   (idiomrt_calib_start_after_ns) less the time since the start-up began
   (all of it before), at least 0; whether the device is up or not. */
uint64_t idiomrt_startup_remaining_ns(void);
/* Starts the background start-up now unless it was started (profile.c, at
   program start). */
void idiomrt_startup_kick(void);
/* The second device for e (costmodel.c, launch.c): 1 when it is open and
   e's kernels for it are built, -1 when it failed to open or e's kernels
   do not build there, else 0. Takes no lock. */
int idiomrt_startup_second_ready(idiomrt_entry *e);
/* Asks the runtime thread to open the second device (once) and build e's
   kernels for it; never waits. Nothing when no second device is wanted. */
void idiomrt_startup_second_request(idiomrt_entry *e);

/*--- startup_warm.c: the second device's first runs, in the background ----*/

/* A warm-up job: a copy of one call's arguments (startup_warm.c). */
typedef struct idiomrt_warm_job idiomrt_warm_job;
/* Called for a run the model sends to the second device: when the class
   has not run there yet in this process, its first runs (PoCL compiles each
   kernel for its work-group size at the first launch; the variants are
   timed) go to the runtime thread on a private copy of the arguments,
   and the reason to decline this call is returned (the loop runs). NULL:
   the class is warm, run it here. Never blocks on the second device. */
const char *idiomrt_warm_request(idiomrt_entry *e, const idiom_arg *args,
                                 uint32_t nargs, const uint64_t *sizes,
                                 uint64_t trip);
/* On the runtime thread: runs job (build, a tuning run, a timed run, each
   a step that stop() may cut short), gives the cost model its sample,
   and frees it. */
void idiomrt_warm_run(idiomrt_warm_job *job, int (*stop)(void));
/* startup.c: queues job for the runtime thread (which it starts); 0 when
   no thread can run it (the caller frees it). */
int idiomrt_startup_queue_warm(idiomrt_warm_job *job);
/* launch.c: one run of pe (an entry of the second device) on dev with
   args, outside any residency region, without stats or cost samples:
   builds, runs variant `variant` (>= 0; the class's choice is left as it
   was), or else tunes when the class is not tuned, and runs. 1, or 0 with
   the reason. Takes pe->lock. */
int idiomrt_launch_detached(idiomrt_entry *pe, const idiomrt_device *dev,
                            const idiom_arg *args, uint32_t nargs,
                            const uint64_t *sizes, void *results, int variant,
                            char *reason, size_t n);

/*--- parcopy.c: host copies split over helper threads --------------------*/

/* Runs fn(ctx, lo, hi) over parts of [0, n) (cut at 64-byte boundaries) on
   the calling thread and the copy helpers, and returns when every part is
   done; on one thread (fn(ctx, 0, n)) for small n, without helpers, or
   while another thread's copy has them. */
void idiomrt_parallel_range(size_t n,
                            void (*fn)(void *ctx, size_t lo, size_t hi),
                            void *ctx);
/* memcpy through idiomrt_parallel_range. */
void idiomrt_parallel_memcpy(void *dst, const void *src, size_t n);
/* A new heap copy of src[0, n) (free() it), through
   idiomrt_parallel_memcpy, its whole 2 MiB pages advised as huge pages;
   NULL when out of memory. The residency entries' snapshots (diff copies
   back, writeback.c). */
unsigned char *idiomrt_snapshot_copy(const void *src, size_t n);
/* pthread_atfork child handler's part: no helpers in the child. */
void idiomrt_parcopy_after_fork(void);

#endif /* IDIOMRT_THREADS_H */
