/*===- test_common.h - Helpers shared by the runtime tests ---------------===*
 *
 * The check macros, argument builders and the child-process helper used by
 * test_idiomrt.c (the runtime's ABI) and test_tuning.c (kernel variants and
 * their tuning). Each case runs in its own process (the runtime reads its
 * environment once); a case that must see the runtime's stderr spawns the
 * test program again with another case name.
 *
 *===----------------------------------------------------------------------===*/
#ifndef IDIOMRT_TEST_COMMON_H
#define IDIOMRT_TEST_COMMON_H

#include "idiomrt.h"

#include <ftw.h>
#include <stdint.h>
#include <stdio.h>
#include <sys/stat.h>

/* Failed checks of the current case. */
extern int g_failures;

#define CHECK(cond)                                                            \
  do {                                                                         \
    if (!(cond)) {                                                             \
      fprintf(stderr, "%s:%d: CHECK failed: %s\n", __FILE__, __LINE__, #cond); \
      g_failures++;                                                            \
    }                                                                          \
  } while (0)

#define CHECK_MSG(cond, ...)                                                   \
  do {                                                                         \
    if (!(cond)) {                                                             \
      fprintf(stderr, "%s:%d: CHECK failed: %s: ", __FILE__, __LINE__, #cond); \
      fprintf(stderr, __VA_ARGS__);                                            \
      fputc('\n', stderr);                                                     \
      g_failures++;                                                            \
    }                                                                          \
  } while (0)

/* idiom_last_reason() or "(none)". */
const char *reason_or_none(void);
/* 1 when s (may be NULL) starts with prefix. */
int starts_with(const char *s, const char *prefix);

/* Argument builders. */
idiom_arg buf(uint32_t kind, void *p, uint64_t bytes);
idiom_arg i32(int32_t v);
idiom_arg i64(int64_t v);
idiom_arg f32(float v);

/* |got - want| <= rel * max(|want|, 1). */
int close_enough(float got, float want, float rel);

/* Runs this program with `casename`, the current environment plus `env`
   (NULL-terminated "K=V" list, overriding), and captures its stderr.
   Returns the exit status (or -1); *err receives a malloc'd string. */
int spawn_case(const char *casename, const char *const *env, char **err);

/* spawn_case(casename, env) must exit 0 and print each line of the
   NULL-terminated `want` (NULL: none) on stderr; a failed check counts as
   a failure and names the case. Returns the child's stderr (free it). */
char *expect_child_lines(const char *casename, const char *const *env,
                         const char *const *want);

/* Occurrences of needle in hay. */
int count_occurrences(const char *hay, const char *needle);

/* nftw callback that removes every entry (rm -r). */
struct FTW;
int rm_entry(const char *p, const struct stat *s, int f, struct FTW *w);

/* test_policy.c's helpers: a call site of a y = 2x + y map (its kernel in
   d) as the plugin stitches it, the host loop timed and extra_host_us
   slower; its inputs; y checked after k applications. */
int policy_site(const idiom_kernel_desc *d, float *x, float *y, int n,
                unsigned extra_host_us);
void policy_fill(float *x, float *y, int n);
/* 1 when an OpenCL library is mapped in this process (-1: unknown). */
int policy_opencl_loaded(void);
int policy_check_y(const float *y, int n, int k);
/* The same for y[lo, hi) only. */
int policy_check_range(const float *y, int lo, int hi, int k);

/* test_hint.c's site (a y = 2x + y map) as the plugin stitches it, host
   hint included; with guarded, its fallback's idiom_region_sync and
   idiom_host_end_site are made only while idiom_pending_work is nonzero
   (each counted in *calls, which may be NULL). Returns 1 when the device
   ran it. Its descriptor, hint word and idiom_run calls; its inputs; y
   checked after k applications. */
int hint_site(float *x, float *y, int n, unsigned extra_host_us, int guarded,
              int *calls);
const idiom_kernel_desc *hint_desc(void);
uint64_t *hint_word(void);
int hint_runs(void);
void hint_fill(float *x, float *y, int n);
int hint_check_y(const float *y, int n, int k);
/* 1 when dec (counts per decision, IDIOMRT_NDECISIONS of them) is what the
   cost model guarantees of `calls` tiny calls of the site, runs of which
   reached idiom_run (test_hint.c says what, and why no more). */
int hint_check_decisions(const uint64_t *dec, int runs, int calls);

/* Cases of test_twodev.c (the second device, issue 12 item 4). */
/* Calls site d (policy_site, host_us of extra host loop) up to max_calls
   times within secs seconds, or until one offloads when until_offloaded;
   *calls: the calls made. Returns the calls that offloaded. */
int twodev_site_loop(const idiom_kernel_desc *d, float *x, float *y, int n,
                     unsigned host_us, int max_calls, double secs,
                     int until_offloaded, int *calls);
void case_twodev_choose(void);
void case_lap_steps(void);
void case_lap_host(void);
void case_lap_site(void);
void case_lap_left_alone(void);
void case_lap_run(void);
void case_zcfloor_unified(void);
void case_zcfloor_plain(void);
void case_zcfloor_off(void);
void case_twodev_explore(void);
void case_twodev_fail(void);
void case_twodev_rationed(void);

/* Cases of test_coldstart.c (builds off the critical path, issue 12). */
void case_coldstart_exit(void);
void case_coldstart_exit_child(void);
void case_coldstart_staged(void);
void case_coldstart_whole_cpu(void);
void case_coldstart_warm_exit(void);
void case_coldstart_warm_exit_child(void);
/* test_devwait.c's map y[i] = a * x[i] + y[i] in three variants (kernel
   name "dwv"; args n, a, x IN, y INOUT; variants 1 and 2 with work-groups
   of 64 and 128). */
extern const char test_dwv_src[];
/* Cases of test_restlater.c (a site's other variants after every site's
   variant 0, or left out, issue 12). */
void case_restlater_left_out(void);
void case_restlater_built(void);
/* test_coldstart.c's helpers: runs case child with env (spawn_case) and
   sets *waited to how long its exit took after it printed "CHILD: exit at
   T" (CLOCK_MONOTONIC; -1 when it did not); rm -rf dir. */
int coldstart_spawn_exit_wait(const char *child, const char *const *env,
                              char **err, double *waited);
void coldstart_remove_dir(const char *dir);
void case_twodev_profile(void);
void case_twodev_warm(void);
void case_twodev_profile_write(void);
void case_twodev_profile_read(void);
void case_twodev_resid(void);

/* Cases of test_exitstall.c (exit never waits for a binary, issue 12). */
void case_exitstall_exit(void);
void case_exitstall_exit_pocl(void);
void case_exitstall_child(void);
void case_exitstall_big_child(void);
void case_exitstall_later_child(void);

/* Cases of test_zerocopy.c. */
void case_zc_host(void);
void case_zc_misaligned(void);
void case_zc_mixed(void);
void case_zc_fail(void);
void case_zc_nobackup(void);
void case_zc_fail_gated(void);
void case_zc_fail_abort(void);
void case_zc_off(void);

/* Cases of test_writeback.c. */
void case_writeback_readonly(void);
void case_writeback_dense(void);
void case_writeback_dense_out(void);
void case_writeback_flags(void);
void case_snapshot_copy(void);
void case_detach_kept(void);
void case_detach_negatives(void);
void case_staging_prepare_on(void);
void case_staging_prepare_auto_cpu(void);
void case_csr_extent(void);
void case_csr_extent_scan(void);
void case_csr_row_blocks(void);
void case_csr_seq(void);
void case_csr_decline(void);
void case_jds_decline(void);
void case_jds_bytes_memo(void); /* test_jds.c */
void case_csr_bytes_estimate(void); /* test_csr.c */
void case_hint_tiny(void);      /* test_hint.c */
void case_hint_outlier(void);   /* test_hint.c */
void case_pending_host(void);    /* test_pending.c */
void case_pending_device(void);  /* test_pending.c */
void case_pending_epoch(void);   /* test_pending.c */
void case_pending_threads(void); /* test_pending.c */
void case_hint_region(void);    /* test_hint.c */
void case_hint_region_cancel(void); /* test_hint.c */
void case_hint_grow(void);      /* test_hint.c */
void case_noise_no_hint(void);    /* test_hintnoise.c */
void case_noise_no_flip(void);    /* test_hintnoise.c */
void case_noise_clear_hint(void); /* test_hintnoise.c */
void case_noise_seeded(void);     /* test_hintnoise.c */
/* test_hintnoise.c: one call of site d (trip iterations, no bytes moved)
   as the plugin stitches it: the cost model's decision
   (idiomrt_cost_decide), then, when it declined, the host hint. Returns
   the decision; *word: the site's hint word (0: no hint). */
int cost_site_call(const idiom_kernel_desc *d, uint64_t trip, uint64_t *word);
void case_stale_age(void);        /* test_stale.c */
void case_stale_fresh(void);      /* test_stale.c */
void case_stale_load(void);       /* test_stale.c */
void case_stale_load_busy(void);  /* test_stale.c */
void case_stale_load_repeat(void); /* test_stale.c */
void case_stale_budget(void);     /* test_stale.c */
void case_stale_nosample(void);   /* test_stale.c */
void case_stale_floor(void);      /* test_stale.c */
void case_noise_region(void);     /* test_hintnoise.c */
void case_hold_region(void);      /* test_regionhold.c */
void case_hold_pays(void);        /* test_regionhold.c */
void case_hold_scope(void);       /* test_regionhold.c */
void case_hold_off(void);         /* test_regionhold.c */
void case_hold_off_child(void);   /* test_regionhold.c */
void case_hold_run(void);         /* test_regionhold.c */
void case_policy_nowait(void);    /* test_policy.c */
void case_policy_nowait_child(void); /* test_policy.c */
void case_fruitless_rule(void);   /* test_fruitless.c */
void case_fruitless_saved(void);
void case_cold_host_run(void);   /* test_fruitless.c */
void case_cold_host_warm(void);  /* test_fruitless.c */
void case_fruitless_hint(void);  /* test_fruitless.c */ /* test_fruitless.c */
void case_workgate_count(void);  /* test_workgate.c */
void case_workgate_wide(void);   /* test_workgate.c */
void case_workgate_model(void);  /* test_workgate.c */
void case_workgate_region(void); /* test_workgate.c */
void case_workgate_hint(void);   /* test_workgate.c */
void case_fixedcost_env(void);  /* test_fixedcost.c */
void case_fixedcost_text(void); /* test_fixedcost.c */
void case_fixedcost_read(void); /* test_fixedcost.c */
void case_fixedcost_once(void); /* test_fixedcost.c */
void case_tinypocl_hint_double(void); /* test_tinypocl.c */
void case_tinypocl_few_pages(void);  /* test_tinypocl.c */
void case_tinypocl_many_pages(void); /* test_tinypocl.c */
void case_tinymain_key_stack(void);  /* test_tinymain.c */
void case_gatehint_skip(void);       /* test_gatehint.c */
void case_gatehint_classes(void);    /* test_gatehint.c */
void case_gatehint_straddle(void);   /* test_gatehint.c */
void case_gatehint_cost_off(void);   /* test_gatehint.c */
/* getenv calls so far (test_common.c, -Wl,--wrap=getenv) */
extern unsigned long g_getenv_calls;
/* getrusage calls so far (test_common.c, __wrap_getrusage). */
extern unsigned long g_getrusage_calls;
void case_test_host_prestart(void); /* test_hint.c */
void case_test_host_floor(void); /* test_hint.c */
void case_writeback_bench(void);

/* Cases of test_devwait.c (the first heavy call waits for the device). */
void case_devwait_big(void);
void case_devwait_big_child(void);
void case_devwait_small(void);
void case_devwait_small_child(void);
void case_devwait_fail(void);
void case_devwait_fail_child(void);
void case_devwait_then(void);
void case_devwait_then_child(void);
void case_devwait_untuned(void);
void case_devwait_untuned_child(void);
void case_devwait_forced(void);
void case_devwait_forced_child(void);
void case_devwait_first(void);
void case_devwait_first_child(void);

/* Cases of test_policy.c. */
void case_policy_starting(void);
void case_policy_tiny_host(void);
void case_policy_forced_device(void);
void case_policy_forced_min_trip(void);
void case_policy_untimed(void);
void case_policy_host_api(void);
void case_policy_stats(void);
void case_policy_stats_child(void);
void case_policy_exit(void);
void case_policy_worthy(void);
void case_policy_wait(void);
void case_policy_wait_child(void);
void case_policy_prebuild(void);
void case_policy_prebuild_child(void);
void case_profile_steady(void);
void case_policy_region_small(void);
void case_policy_region_small_child(void);
void case_policy_worthy_child(void);
void case_policy_exit_child(void);
void case_policy_resid_bytes(void);
void case_policy_resid_held(void);
/* Cases of test_residency.c. */
void case_resid_reuse(void);
void case_resid_host(void);
void case_resid_partial(void);
void case_resid_offsets(void);
void case_resid_offsets_stats(void);
void case_resid_decline(void);
void case_resid_sync(void);
void case_resid_sync_epoch(void);
void case_resid_realloc(void);
void case_resid_thread(void);
void case_resid_reduce(void);
void case_resid_overlap(void);
void case_resid_snapshot(void);
/* test_residency.c: y[i] += k over y[0..n) (INOUT, not dense). */
int resid_addk(int *y, int n, int k);
/* test_inplace.c */
void case_inplace(void);
void case_inplace_region(void);
void case_resid_seq(void);
void case_resid_stats(void);
void case_resid_memmove(void);
void case_resid_memmove_grow(void);
void case_resid_sweep(void);
void case_resid_host_access(void);
void case_resid_host_access_elems(void);
void case_resid_evict(void);
void case_resid_evict_stats(void);
void case_sync_args_other(void);
void case_sync_args_input(void);
void case_sync_args_partly(void);
void case_sync_args_decline(void);
void case_sync_args_full(void);
void case_sync_args_cost(void);

/* Cases of test_tuning.c (listed in test_idiomrt.c's table). */
void case_tune_map(void);
void case_tune_sample(void);
void case_tune_sample_shape(void);
void case_variant_lanes(void);
void case_variant_row_blocks(void);
void case_variant_lanes_cpu(void);
void case_variant_sample2d(void);
void case_tune_reduce(void);
void case_tune_cache(void);
void case_tune_corrupt(void);
void case_tune_off(void);
void case_variant_fit(void);
void case_variant_build(void);
void case_variant_all_broken(void);
void case_tune_stats_child(void);
void case_tune_map_child(void);
void case_tune_small(void);
void case_tune_small_child(void);
void case_variant_ept2d(void);
void case_variant_ept3d(void);
void case_variant_forced(void);
void case_variant_forced_missing(void);
void case_variant_forced_stats(void);
void case_variant_junk_child(void);

#endif /* IDIOMRT_TEST_COMMON_H */
