/*===- rt_stats.h - Statistics ---------------------------------------------===*
 *
 * Private to runtime/lib (rt_internal.h includes it).
 *
 * The per-site counters and the IDIOM_STATS report (stats.c), and the
 * JSON writer of its json form (json.c).
 *
 *===----------------------------------------------------------------------===*/
#ifndef IDIOMRT_STATS_H
#define IDIOMRT_STATS_H

#include "rt_registry.h"
#include "idiomrt.h"
#include <stdint.h>
#include <stdio.h>

/*--- json.c: a small JSON writer (IDIOM_STATS=json) -----------------------*/

#define IDIOMRT_JSON_MAX_DEPTH 16

/* Writer state: nesting depth and, per level, the elements written. */
typedef struct idiomrt_json {
  FILE *f;
  int depth;
  int after_key; /* the next value follows its key on the same line */
  unsigned count[IDIOMRT_JSON_MAX_DEPTH];
} idiomrt_json;

/* Starts a document on f (one value: an object or an array). */
void idiomrt_json_init(idiomrt_json *j, FILE *f);
void idiomrt_json_begin_object(idiomrt_json *j);
void idiomrt_json_end_object(idiomrt_json *j);
void idiomrt_json_begin_array(idiomrt_json *j);
void idiomrt_json_end_array(idiomrt_json *j);
/* The key of the next member of the current object. */
void idiomrt_json_key(idiomrt_json *j, const char *key);
/* A string, escaped (invalid UTF-8 becomes U+FFFD); NULL writes null. */
void idiomrt_json_string(idiomrt_json *j, const char *s);
void idiomrt_json_uint(idiomrt_json *j, uint64_t v);
/* A number (%.6g); NaN and infinities write null. */
void idiomrt_json_double(idiomrt_json *j, double v);
/* ns as milliseconds with three decimals, like the text report. */
void idiomrt_json_ms(idiomrt_json *j, uint64_t ns);
void idiomrt_json_bool(idiomrt_json *j, int v);
void idiomrt_json_null(idiomrt_json *j);

/*--- stats.c ---------------------------------------------------------------*/

/* Each takes e->stats_lock itself (a leaf lock). */
void idiomrt_stats_success(idiomrt_entry *e, uint64_t kernel_ns,
                           uint64_t transfer_ns, uint64_t run_ns);
void idiomrt_stats_decline(idiomrt_entry *e, const char *reason);
/* The same with e->stats_lock already held (costmodel.c). */
void idiomrt_stats_decline_locked(idiomrt_entry *e, const char *reason);
/* The same for n calls that declined for one reason. */
void idiomrt_stats_declines_locked(idiomrt_entry *e, const char *reason,
                                   uint64_t n);
/* A decline of a re-entered run ("runtime busy"): lock-free, allocates
   nothing; the report adds it to d's line as "runtime busy (re-entered)". */
void idiomrt_stats_busy(const idiom_kernel_desc *d);
void idiomrt_stats_note(idiomrt_entry *e, const char *reason);
/* Bytes a run of e copied to and from the device. */
void idiomrt_stats_bytes(idiomrt_entry *e, uint64_t to_device,
                         uint64_t to_host);
/* atexit handler installed by config.c when IDIOM_STATS is set. */
void idiomrt_stats_report(void);

#endif /* IDIOMRT_STATS_H */
