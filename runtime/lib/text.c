/*===- text.c - Numbers and paths of the runtime's small files -------------===*
 *
 * rt_text.h: the field readers of the profile and the start-up record, and
 * their paths, without stdio's formatted input and output (pages of libc
 * code and symbol bindings at every program start).
 *
 *===----------------------------------------------------------------------===*/
#include "rt_internal.h"

#include <stdlib.h>
#include <string.h>

static const char *skip_blanks(const char *s) {
  while (*s == ' ' || *s == '\t')
    ++s;
  return s;
}

int idiomrt_scan_word(const char **p, const char *w) {
  const char *s = skip_blanks(*p);
  while (*w && *s == *w)
    ++s, ++w;
  if (*w)
    return 0;
  *p = s;
  return 1;
}

int idiomrt_scan_u64(const char **p, uint64_t *out) {
  const char *s = skip_blanks(*p);
  uint64_t v = 0;
  int n = 0;
  for (; *s >= '0' && *s <= '9'; ++s, ++n) {
    unsigned d = (unsigned)(*s - '0');
    if (v > (UINT64_MAX - d) / 10)
      return 0;
    v = v * 10 + d;
  }
  if (!n)
    return 0;
  *out = v;
  *p = s;
  return 1;
}

static int hex_digit(char c) {
  if (c >= '0' && c <= '9')
    return c - '0';
  if (c >= 'a' && c <= 'f')
    return c - 'a' + 10;
  if (c >= 'A' && c <= 'F')
    return c - 'A' + 10;
  return -1;
}

int idiomrt_scan_hex(const char **p, uint64_t *out) {
  const char *s = skip_blanks(*p);
  uint64_t v = 0;
  int n = 0, d;
  for (; (d = hex_digit(*s)) >= 0; ++s, ++n) {
    if (n == 16)
      return 0;
    v = v << 4 | (uint64_t)d;
  }
  if (!n)
    return 0;
  *out = v;
  *p = s;
  return 1;
}

int idiomrt_scan_int(const char **p, int *out) {
  const char *s = skip_blanks(*p);
  int neg = *s == '-';
  uint64_t v;
  s += neg;
  if (*s < '0' || *s > '9' || !idiomrt_scan_u64(&s, &v) ||
      v > (neg ? (uint64_t)INT32_MAX + 1 : (uint64_t)INT32_MAX))
    return 0;
  *out = neg ? (int)(-(int64_t)v) : (int)v;
  *p = s;
  return 1;
}

/* 10^k, exact in a double for k <= 22. */
static const double k_pow10[23] = {1e0,  1e1,  1e2,  1e3,  1e4,  1e5,
                                   1e6,  1e7,  1e8,  1e9,  1e10, 1e11,
                                   1e12, 1e13, 1e14, 1e15, 1e16, 1e17,
                                   1e18, 1e19, 1e20, 1e21, 1e22};

int idiomrt_scan_double(const char **p, double *out) {
  const char *s = skip_blanks(*p), *start = s;
  int neg = *s == '-';
  s += neg;
  uint64_t m = 0;
  int digits = 0, after = 0, point = 0, seen = 0, fast = 1;
  for (;; ++s) {
    if (*s >= '0' && *s <= '9') {
      seen = 1;
      if (m || *s != '0') {
        if (++digits > 15) {
          fast = 0; /* m might not be exact: strtod */
          break;
        }
        m = m * 10 + (uint64_t)(*s - '0');
      }
      after += point;
    } else if (*s == '.' && !point) {
      point = 1;
    } else {
      break;
    }
  }
  int e = 0;
  if (fast && seen && (*s == 'e' || *s == 'E')) {
    const char *x = s + 1;
    int eneg = *x == '-';
    x += eneg || *x == '+';
    uint64_t ev;
    if (*x >= '0' && *x <= '9' && idiomrt_scan_u64(&x, &ev) && ev < 400) {
      e = eneg ? -(int)ev : (int)ev;
      s = x;
    } else {
      fast = 0;
    }
  }
  int exp10 = e - after;
  double v;
  if (fast && seen && exp10 >= -22 && exp10 <= 22) {
    /* Clinger's fast path: m (< 2^53) and 10^|exp10| are exact doubles,
       so one division or product rounds correctly, as strtod does */
    v = exp10 < 0 ? (double)m / k_pow10[-exp10] : (double)m * k_pow10[exp10];
    if (neg)
      v = -v;
  } else {
    char *end = NULL;
    v = strtod(start, &end);
    if (!end || end == start)
      return 0;
    s = end;
  }
  *out = v;
  *p = s;
  return 1;
}

char *idiomrt_put_hex16(char *dst, uint64_t v) {
  static const char digits[] = "0123456789abcdef";
  for (int i = 15; i >= 0; --i, v >>= 4)
    dst[i] = digits[v & 15];
  return dst + 16;
}

char *idiomrt_str_cat(size_t max, const char *a, const char *b,
                      const char *c) {
  size_t na = strlen(a), nb = strlen(b), nc = c ? strlen(c) : 0;
  if (na + nb + nc >= max)
    return NULL;
  char *s = malloc(na + nb + nc + 1);
  if (!s)
    return NULL;
  memcpy(s, a, na);
  memcpy(s + na, b, nb);
  memcpy(s + na + nb, c ? c : "", nc + 1);
  return s;
}

int idiomrt_line_value(const char *buf, const char *word, char *out,
                       size_t n) {
  char key[32];
  size_t w = strlen(word);
  if (w + 3 > sizeof key)
    return 0;
  key[0] = '\n';
  memcpy(key + 1, word, w);
  key[w + 1] = ' ';
  key[w + 2] = '\0';
  const char *p = strstr(buf, key);
  if (!p)
    return 0;
  p += w + 2;
  size_t len = strcspn(p, "\n");
  if (!len || len >= n)
    return 0;
  memcpy(out, p, len);
  out[len] = '\0';
  return 1;
}
