/*===- json.c - A small JSON writer for the IDIOM_STATS=json report -------===*
 *
 * Writes one JSON value to a FILE, two spaces of indentation per level.
 * Strings are escaped as RFC 8259 asks (quote, backslash, control
 * characters); bytes that are not valid UTF-8 become U+FFFD, so the output
 * is always valid UTF-8 whatever a file name holds. Non-finite numbers
 * become null (JSON has no NaN or infinity).
 *
 *===----------------------------------------------------------------------===*/
#include "rt_internal.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

void idiomrt_json_init(idiomrt_json *j, FILE *f) {
  memset(j, 0, sizeof *j);
  j->f = f;
}

static void newline(idiomrt_json *j) {
  fputc('\n', j->f);
  for (int i = 0; i < j->depth; ++i)
    fputs("  ", j->f);
}

/* Before a value: the comma after the previous element and the line break,
   unless the value follows its key. */
static void before_value(idiomrt_json *j) {
  if (j->after_key) {
    j->after_key = 0;
    return;
  }
  if (j->depth > 0) {
    if (j->count[j->depth])
      fputc(',', j->f);
    newline(j);
  }
  if (j->depth < IDIOMRT_JSON_MAX_DEPTH)
    j->count[j->depth]++;
}

static void open_(idiomrt_json *j, char c) {
  before_value(j);
  fputc(c, j->f);
  if (j->depth + 1 < IDIOMRT_JSON_MAX_DEPTH) {
    j->depth++;
    j->count[j->depth] = 0;
  }
}

static void close_(idiomrt_json *j, char c) {
  int empty = j->count[j->depth] == 0;
  if (j->depth > 0)
    j->depth--;
  if (!empty)
    newline(j);
  fputc(c, j->f);
  if (j->depth == 0)
    fputc('\n', j->f);
}

void idiomrt_json_begin_object(idiomrt_json *j) { open_(j, '{'); }
void idiomrt_json_end_object(idiomrt_json *j) { close_(j, '}'); }
void idiomrt_json_begin_array(idiomrt_json *j) { open_(j, '['); }
void idiomrt_json_end_array(idiomrt_json *j) { close_(j, ']'); }

/* Length of the valid UTF-8 sequence at s (1-4), or 0 when invalid. */
static int utf8_len(const unsigned char *s) {
  unsigned char c = s[0];
  int n;
  unsigned min;
  unsigned cp;
  if (c < 0x80)
    return 1;
  if ((c & 0xE0) == 0xC0) {
    n = 2;
    cp = c & 0x1F;
    min = 0x80;
  } else if ((c & 0xF0) == 0xE0) {
    n = 3;
    cp = c & 0x0F;
    min = 0x800;
  } else if ((c & 0xF8) == 0xF0) {
    n = 4;
    cp = c & 0x07;
    min = 0x10000;
  } else {
    return 0;
  }
  for (int i = 1; i < n; ++i) {
    if ((s[i] & 0xC0) != 0x80)
      return 0;
    cp = (cp << 6) | (s[i] & 0x3F);
  }
  if (cp < min || cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF))
    return 0;
  return n;
}

static void write_string(FILE *f, const char *str) {
  const unsigned char *s = (const unsigned char *)str;
  fputc('"', f);
  while (*s) {
    unsigned char c = *s;
    switch (c) {
    case '"':
      fputs("\\\"", f);
      break;
    case '\\':
      fputs("\\\\", f);
      break;
    case '\b':
      fputs("\\b", f);
      break;
    case '\f':
      fputs("\\f", f);
      break;
    case '\n':
      fputs("\\n", f);
      break;
    case '\r':
      fputs("\\r", f);
      break;
    case '\t':
      fputs("\\t", f);
      break;
    default:
      if (c < 0x20 || c == 0x7F) {
        fprintf(f, "\\u%04x", c);
      } else if (c >= 0x80) {
        int n = utf8_len(s);
        if (n == 0) {
          fputs("\\ufffd", f);
        } else {
          fwrite(s, 1, (size_t)n, f);
          s += n;
          continue;
        }
      } else {
        fputc(c, f);
      }
    }
    ++s;
  }
  fputc('"', f);
}

void idiomrt_json_key(idiomrt_json *j, const char *key) {
  before_value(j);
  write_string(j->f, key);
  fputs(": ", j->f);
  j->after_key = 1;
}

void idiomrt_json_string(idiomrt_json *j, const char *s) {
  if (!s) {
    idiomrt_json_null(j);
    return;
  }
  before_value(j);
  write_string(j->f, s);
}

void idiomrt_json_uint(idiomrt_json *j, uint64_t v) {
  before_value(j);
  fprintf(j->f, "%llu", (unsigned long long)v);
}

/* printf's number in the C locale's form whatever LC_NUMERIC the program
   set (a decimal comma is not JSON). */
static void write_number(FILE *f, const char *fmt, double v) {
  char buf[64];
  snprintf(buf, sizeof buf, fmt, v);
  for (char *p = buf; *p; ++p)
    if (*p == ',')
      *p = '.';
  fputs(buf, f);
}

void idiomrt_json_double(idiomrt_json *j, double v) {
  if (!isfinite(v)) {
    idiomrt_json_null(j);
    return;
  }
  before_value(j);
  write_number(j->f, "%.6g", v);
}

void idiomrt_json_ms(idiomrt_json *j, uint64_t ns) {
  before_value(j);
  write_number(j->f, "%.3f", (double)ns / 1e6);
}

void idiomrt_json_bool(idiomrt_json *j, int v) {
  before_value(j);
  fputs(v ? "true" : "false", j->f);
}

void idiomrt_json_null(idiomrt_json *j) {
  before_value(j);
  fputs("null", j->f);
}
