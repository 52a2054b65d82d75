/*===- fpenv.c - Host floating-point environment and device FP limits -----===*
 *
 * A kernel computes in the device's default environment: round to nearest,
 * subnormals kept (where the device supports them), correctly rounded float
 * division and sqrt (when the device supports it, the program is built with
 * -cl-fp32-correctly-rounded-divide-sqrt). The original loop computes in the
 * calling thread's environment. A descriptor whose kernel source uses
 * floating point is declined when the two could differ:
 *
 *  - the rounding mode is not to nearest, at call time (x86: MXCSR.RC and
 *    the x87 control word's RC; aarch64: FPCR.RMode; elsewhere fegetround);
 *  - the host flushes subnormals: x86 MXCSR FTZ (bit 15) or DAZ (bit 6), as
 *    crtfastmath.o sets them under -ffast-math; aarch64 FPCR.FZ (bit 24);
 *  - the device lacks CL_FP_DENORM in CL_DEVICE_SINGLE_FP_CONFIG and the
 *    source uses float;
 *  - the device lacks CL_FP_CORRECTLY_ROUNDED_DIVIDE_SQRT and the source
 *    uses float and could divide or take a square root (a `/` token or a
 *    sqrt/rsqrt/divide call anywhere outside comments: conservative).
 *
 * "Uses floating point" is decided on the source text, outside comments and
 * strings: an identifier that contains float or double (float4,
 * convert_float, as_double), half or halfN, or a number with a point (a
 * literal with a point counts as float, conservatively). Integer-only
 * kernels are exact in any environment and are never declined here. Double
 * arithmetic is correctly rounded with subnormals on every device that
 * supports cl_khr_fp64, so only the host's environment matters for it.
 *
 *===----------------------------------------------------------------------===*/
#include "rt_internal.h"

#include <fenv.h>
#include <string.h>

static int is_ident(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
         (c >= '0' && c <= '9') || c == '_';
}

/* 1 when identifier [p, p + n) is base optionally followed by digits. */
static int type_word(const char *p, size_t n, const char *base) {
  size_t b = strlen(base);
  if (n < b || strncmp(p, base, b) != 0)
    return 0;
  for (size_t i = b; i < n; ++i)
    if (p[i] < '0' || p[i] > '9')
      return 0;
  return 1;
}

/* 1 when identifier [p, p + n) contains w (convert_float, as_double, ...). */
static int contains(const char *p, size_t n, const char *w) {
  size_t k = strlen(w);
  for (size_t i = 0; i + k <= n; ++i)
    if (strncmp(p + i, w, k) == 0)
      return 1;
  return 0;
}

static int word_is(const char *p, size_t n, const char *w) {
  return strlen(w) == n && strncmp(p, w, n) == 0;
}

unsigned idiomrt_fp_scan(const char *s) {
  unsigned bits = IDIOMRT_FP_SCANNED;
  while (*s) {
    if (s[0] == '/' && s[1] == '/') {
      while (*s && *s != '\n')
        ++s;
      continue;
    }
    if (s[0] == '/' && s[1] == '*') {
      s += 2;
      while (*s && !(s[0] == '*' && s[1] == '/'))
        ++s;
      if (*s)
        s += 2;
      continue;
    }
    if (*s == '"' || *s == '\'') {
      char q = *s++;
      while (*s && *s != q) {
        if (*s == '\\' && s[1])
          ++s;
        ++s;
      }
      if (*s)
        ++s;
      continue;
    }
    if (*s == '/') {
      bits |= IDIOMRT_FP_DIVSQRT;
      ++s;
      continue;
    }
    if (is_ident(*s) && !(*s >= '0' && *s <= '9')) {
      const char *b = s;
      while (is_ident(*s))
        ++s;
      size_t n = (size_t)(s - b);
      if (contains(b, n, "float") || type_word(b, n, "half"))
        bits |= IDIOMRT_FP_FLOAT;
      else if (contains(b, n, "double"))
        bits |= IDIOMRT_FP_DOUBLE;
      else if (word_is(b, n, "sqrt") || word_is(b, n, "rsqrt") ||
               word_is(b, n, "native_sqrt") || word_is(b, n, "half_sqrt") ||
               word_is(b, n, "native_divide") || word_is(b, n, "half_divide") ||
               word_is(b, n, "divide"))
        bits |= IDIOMRT_FP_DIVSQRT;
      continue;
    }
    if ((*s >= '0' && *s <= '9') || (*s == '.' && s[1] >= '0' && s[1] <= '9')) {
      /* a number; one with a point is a floating-point literal */
      while (is_ident(*s) || *s == '.') {
        if (*s == '.')
          bits |= IDIOMRT_FP_FLOAT;
        ++s;
      }
      continue;
    }
    ++s;
  }
  return bits;
}

static const char k_rounding[] =
    "floating-point rounding mode is not round-to-nearest";

/* The control registers are read directly (fegetround is in libm, which a
   program linking only -lidiomrt lacks; on x86 it reads only the x87 control
   word, while float arithmetic uses MXCSR). */
const char *idiomrt_host_fp_check(void) {
#if defined(__x86_64__) || defined(__i386__)
  unsigned csr = 0;
  unsigned short cw = 0;
  __asm__ volatile("stmxcsr %0" : "=m"(csr));
  __asm__ volatile("fnstcw %0" : "=m"(cw));
  if ((csr >> 13) & 3u || (cw >> 10) & 3u) /* RC: 0 is to nearest */
    return k_rounding;
  if (csr & (1u << 15))
    return "host flushes subnormals (MXCSR.FTZ)";
  if (csr & (1u << 6))
    return "host flushes subnormals (MXCSR.DAZ)";
#elif defined(__aarch64__)
  uint64_t fpcr = 0;
  __asm__ volatile("mrs %0, fpcr" : "=r"(fpcr));
  if ((fpcr >> 22) & 3u) /* RMode: 0 is to nearest */
    return k_rounding;
  if (fpcr & (1u << 24))
    return "host flushes subnormals (FPCR.FZ)";
#else
  if (fegetround() != FE_TONEAREST) /* needs -lm on these targets */
    return k_rounding;
#endif
  return NULL;
}

const char *idiomrt_device_fp_check(const idiomrt_device *dev, unsigned bits) {
  if (!(bits & IDIOMRT_FP_FLOAT))
    return NULL;
  if (!dev->fp32_denorm)
    return "device flushes float subnormals (no CL_FP_DENORM)";
  if ((bits & IDIOMRT_FP_DIVSQRT) && !dev->fp32_correct_divsqrt)
    return "device float division or sqrt not correctly rounded";
  return NULL;
}
