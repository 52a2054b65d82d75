/*===- rt_text.h - Numbers and paths of the runtime's small files ----------===*
 *
 * Private to runtime/lib (rt_internal.h includes it).
 *
 * The profile and the start-up record (profile.c, calibration.c) are read
 * at program start, in every process. Reading them with sscanf and building
 * their paths with snprintf touched eight pages of libc code (vfscanf,
 * vfprintf, their tables), bound a dozen libc symbols and ran about 60,000
 * instructions at every start of a program whose sites all stay on the host
 * (bench/fixed_cost.sh, docs/Benchmarks.md, helper "fixedcost"). These
 * readers accept what the runtime writes ("%llu", "%llx", "%d", "%.6g" and
 * "%s" fields separated by single spaces): numbers without sign or "0x"
 * prefixes where the writer prints none.
 *
 * Each idiomrt_scan_* reads one field at *p, skipping spaces and tabs
 * before it, advances *p past it and returns 1; on a malformed field it
 * returns 0 and leaves *p as it was.
 *
 *===----------------------------------------------------------------------===*/
#ifndef IDIOMRT_TEXT_H
#define IDIOMRT_TEXT_H

#include <stddef.h>
#include <stdint.h>

/* The literal word w (after spaces). */
int idiomrt_scan_word(const char **p, const char *w);
/* A decimal number of at most 20 digits that fits 64 bits. */
int idiomrt_scan_u64(const char **p, uint64_t *out);
/* A hexadecimal number (digits 0-9, a-f, A-F) of at most 16 digits. */
int idiomrt_scan_hex(const char **p, uint64_t *out);
/* A decimal int with an optional '-' (as "%d"). */
int idiomrt_scan_int(const char **p, int *out);
/* A floating-point number as "%g" prints it: an optional '-', digits with
   an optional '.', an optional exponent; correctly rounded (six
   significant digits and exponents within +-22 exactly, others through
   strtod), as "%lf" reads it. "inf" and "nan" go to strtod too. */
int idiomrt_scan_double(const char **p, double *out);
/* The rest of the line after "\nWORD " in buf (NUL-terminated) into out (n
   bytes, NUL-terminated); 0 when absent, empty or n bytes or longer. */
int idiomrt_line_value(const char *buf, const char *word, char *out,
                       size_t n);

/* Writes v as 16 lower-case hexadecimal digits at dst (no NUL) and
   returns dst + 16. */
char *idiomrt_put_hex16(char *dst, uint64_t v);
/* a, b and c (c may be NULL) concatenated, on the heap; NULL when the
   result has max characters or more, or on no memory. */
char *idiomrt_str_cat(size_t max, const char *a, const char *b, const char *c);

#endif /* IDIOMRT_TEXT_H */
