/*===- tuning.c - Which variant runs, remembered per size class -----------===*
 *
 * A descriptor with several kernel variants (desc->nvariants >= 2, see
 * idiomrt.h) runs the variant chosen for its size class, floor(log2) of the
 * iteration count. The choice is made once per (device, descriptor, size
 * class): tune_race.c times every usable variant on the first call's real
 * input and reports the fastest here (DESIGN.md section 5, exploration: the
 * final choice is left to measurement on the device). Size classes below
 * that of IDIOM_TUNE_MIN (default 2^20 iterations) run variant 0 untimed:
 * on them, building and timing every variant (about half a second per
 * kernel on PoCL) costs more than the best variant can save; a call whose
 * idiom_work_hint says its innermost body runs IDIOM_TUNE_MIN times or more
 * is timed whatever its class (a 1024 x 1024 TRMM's 1,047,552 elements,
 * each a reduction of up to 1024 steps).
 *
 * In memory: e->chosen[cls] for the life of the process.
 * A reduction whose source has the line IDIOMRT_FIXED_ORDER_MARKER before
 * its first variant (the generator writes it for floating-point
 * accumulators) is never timed: it runs the variant the line names for the
 * device's type (`cpu=C gpu=G`; variant 0 for other types, or when that
 * one is not usable; else the first usable one), because its variants
 * combine the elements in different orders and timing noise must not
 * choose the rounding of the result.
 *
 * On disk: <cache dir>/tuning/<key>.txt, key = FNV-1a 64 of (format tag,
 * platform name, device name, driver version, FNV-1a 64 of the source, size
 * class); a text file
 *
 *   idiom-tuning 1
 *   key <16 hex digits>
 *   nvariants <n>
 *   variant <k>
 *   ms <t0> <t1> ...          (median kernel ms per variant, -1: skipped)
 *   check <16 hex digits>     (FNV-1a 64 of every line above, with '\n')
 *
 * A file that is missing, malformed, has another key or variant count, a
 * wrong checksum, or names a variant that is not usable here is ignored and
 * the variants are timed again (which rewrites it).
 *
 *===----------------------------------------------------------------------===*/
#include "rt_internal.h"

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define TUNE_MAGIC "idiom-tuning 1\n"
#define TUNE_MAX_FILE 4096

unsigned idiomrt_size_class(uint64_t trip) {
  /* floor(log2(trip)), 0 for 0 and 1: one instruction, not a loop of up
     to 63 steps at every decision and sample (bench/tiny_host.sh) */
  return trip > 1 ? 63u - (unsigned)__builtin_clzll(trip) : 0u;
}

const char *idiomrt_tuned_name(int how) {
  switch (how) {
  case IDIOMRT_TUNED_SINGLE:
    return "single";
  case IDIOMRT_TUNED_OFF:
    return "off";
  case IDIOMRT_TUNED_TIMED:
    return "timed";
  case IDIOMRT_TUNED_CACHE:
    return "cache";
  case IDIOMRT_TUNED_SMALL:
    return "small";
  case IDIOMRT_TUNED_FORCED:
    return "forced";
  case IDIOMRT_TUNED_FIXED:
    return "fixed";
  default:
    return "none";
  }
}

static uint64_t fnv_str(uint64_t h, const char *s) {
  return idiomrt_fnv1a(h, s, strlen(s) + 1);
}

static uint64_t tuning_key(const idiomrt_entry *e, const idiomrt_device *dev,
                           unsigned cls) {
  const char *src = e->desc->source;
  uint64_t src_hash = idiomrt_fnv1a(IDIOMRT_FNV_OFFSET, src, strlen(src));
  uint64_t h = IDIOMRT_FNV_OFFSET;
  h = fnv_str(h, "idiom-tuning-v1");
  h = fnv_str(h, dev->platform_name);
  h = fnv_str(h, dev->name);
  h = fnv_str(h, dev->driver);
  h = idiomrt_fnv1a(h, &src_hash, sizeof src_hash);
  uint32_t c = cls;
  return idiomrt_fnv1a(h, &c, sizeof c);
}

static int tuning_paths(char *dir, size_t ndir, char *path, size_t npath,
                        uint64_t key) {
  const char *base = idiomrt_config_get()->cache_dir;
  if (!base)
    return 0;
  int k = snprintf(dir, ndir, "%s/tuning", base);
  if (k <= 0 || (size_t)k >= ndir)
    return 0;
  k = snprintf(path, npath, "%s/%016llx.txt", dir, (unsigned long long)key);
  return k > 0 && (size_t)k < npath;
}

/* When the source says that the result depends on the variant's order of
   combination (a floating-point reduction), the variant its marker line
   names for this device's type (cpu=C gpu=G; 0 when absent or for other
   types), else -1. Such a descriptor is not timed, so that every run on one
   device computes the same value. */
int idiomrt_fixed_order_variant(const char *src, const idiomrt_device *dev) {
  if (!src)
    return -1;
  const char *m = strstr(src, IDIOMRT_FIXED_ORDER_MARKER);
  const char *v = strstr(src, "//@idiom-variant");
  if (!m || (m != src && m[-1] != '\n') || (v && m > v))
    return -1;
  const char *key = (dev->type & CL_DEVICE_TYPE_GPU)   ? " gpu="
                    : (dev->type & CL_DEVICE_TYPE_CPU) ? " cpu="
                                                       : NULL;
  const char *eol = strchr(m, '\n');
  const char *k = key ? strstr(m, key) : NULL;
  unsigned idx = 0;
  if (k && (!eol || k < eol) && sscanf(k + strlen(key), "%u", &idx) != 1)
    idx = 0;
  return (int)(idx < IDIOMRT_MAX_VARIANTS ? idx : 0);
}

static int fixed_order(const idiomrt_entry *e, const idiomrt_device *dev) {
  return idiomrt_fixed_order_variant(e->desc->source, dev);
}

static int usable(const idiomrt_entry *e, int k) {
  return k >= 0 && (unsigned)k < e->nvariants && e->var[k].ready;
}

/* The variant named by a valid tuning file, or -1. */
static int read_tuning(const idiomrt_entry *e, const char *path, uint64_t key) {
  FILE *f = fopen(path, "rb");
  if (!f)
    return -1;
  char buf[TUNE_MAX_FILE + 1];
  size_t n = fread(buf, 1, TUNE_MAX_FILE, f);
  int more = fgetc(f) != EOF;
  fclose(f);
  buf[n] = '\0';
  const char *check = strstr(buf, "check ");
  unsigned long long fkey = 0, sum = 0;
  unsigned nv = 0;
  int k = -1;
  if (more || n < strlen(TUNE_MAGIC) ||
      memcmp(buf, TUNE_MAGIC, strlen(TUNE_MAGIC)) != 0 || !check ||
      (check != buf && check[-1] != '\n') ||
      sscanf(check, "check %16llx", &sum) != 1 ||
      sum != idiomrt_fnv1a(IDIOMRT_FNV_OFFSET, buf, (size_t)(check - buf)) ||
      sscanf(buf + strlen(TUNE_MAGIC), "key %16llx\nnvariants %u\nvariant %d\n",
             &fkey, &nv, &k) != 3) {
    idiomrt_debug("tuning: %s: malformed or corrupt, ignored", path);
    return -1;
  }
  if (fkey != key || nv != e->nvariants || !usable(e, k)) {
    idiomrt_debug("tuning: %s: stale (key, variant count or variant), ignored",
                  path);
    return -1;
  }
  return k;
}

int idiomrt_tune_lookup(idiomrt_entry *e, const idiomrt_device *dev,
                        unsigned cls, uint64_t work_iters) {
  if (cls >= IDIOMRT_SIZE_CLASSES)
    cls = IDIOMRT_SIZE_CLASSES - 1;
  if (e->rest_pending) /* variants still building (devwait.c): the default,
                          nothing recorded; the class tunes once all are */
    return idiomrt_tune_default(e);
  int forced = idiomrt_config_get()->variant;
  if (forced >= 0) {
    if (!usable(e, forced))
      return -2;
    e->chosen[cls] = (signed char)forced;
    e->tuned[cls] = IDIOMRT_TUNED_FORCED;
    return forced;
  }
  if (usable(e, e->chosen[cls]))
    return e->chosen[cls];
  int first = -1, count = 0;
  for (unsigned k = 0; k < e->nvariants; ++k)
    if (e->var[k].ready) {
      if (first < 0)
        first = (int)k;
      count++;
    }
  int k = -1, how = IDIOMRT_TUNED_NONE;
  int fixed = fixed_order(e, dev);
  if (count <= 1 && (fixed < 0 || count == 0)) {
    k = first;
    how = IDIOMRT_TUNED_SINGLE;
  } else if (fixed >= 0) {
    /* the marker's variant for this device type, else 0, else the first
       usable one: the same on every run on this device */
    k = usable(e, fixed) ? fixed : usable(e, 0) ? 0 : first;
    how = IDIOMRT_TUNED_FIXED;
  } else if (!idiomrt_config_get()->tune) {
    k = usable(e, 0) ? 0 : first; /* variant 0 is the default lowering */
    how = IDIOMRT_TUNED_OFF;
  } else if (cls < idiomrt_size_class(idiomrt_config_get()->tune_min) &&
             work_iters < idiomrt_config_get()->tune_min) {
    /* compiling and timing every variant costs more than it can save,
       unless the nest's innermost body runs IDIOM_TUNE_MIN times (its
       idiom_work_hint: a map of inner reductions, as TRMM's band) */
    k = usable(e, 0) ? 0 : first;
    how = IDIOMRT_TUNED_SMALL;
  } else {
    char dir[PATH_MAX], path[PATH_MAX];
    uint64_t key = tuning_key(e, dev, cls);
    if (tuning_paths(dir, sizeof dir, path, sizeof path, key)) {
      k = read_tuning(e, path, key);
      if (k >= 0) {
        how = IDIOMRT_TUNED_CACHE;
        idiomrt_debug("%s: size class %u: variant %d from %s", e->desc->loc,
                      cls, k, path);
      }
    }
  }
  if (k >= 0) {
    e->chosen[cls] = (signed char)k;
    e->tuned[cls] = (unsigned char)how;
  }
  return k;
}

int idiomrt_tune_default(const idiomrt_entry *e) {
  if (usable(e, 0))
    return 0;
  for (unsigned k = 1; k < e->nvariants; ++k)
    if (e->var[k].ready)
      return (int)k;
  return -1;
}

void idiomrt_tune_record(idiomrt_entry *e, const idiomrt_device *dev,
                         unsigned cls, int k, const double *ms) {
  if (cls >= IDIOMRT_SIZE_CLASSES)
    cls = IDIOMRT_SIZE_CLASSES - 1;
  e->chosen[cls] = (signed char)k;
  e->tuned[cls] = IDIOMRT_TUNED_TIMED;
  char dir[PATH_MAX], path[PATH_MAX];
  uint64_t key = tuning_key(e, dev, cls);
  if (!tuning_paths(dir, sizeof dir, path, sizeof path, key))
    return;
  char buf[TUNE_MAX_FILE];
  size_t len = 0;
#define APPEND(...)                                                            \
  do {                                                                         \
    if (len < sizeof buf) {                                                    \
      int k_ = snprintf(buf + len, sizeof buf - len, __VA_ARGS__);             \
      if (k_ > 0)                                                              \
        len += (size_t)k_;                                                     \
    }                                                                          \
  } while (0)
  APPEND("%skey %016llx\nnvariants %u\nvariant %d\nms", TUNE_MAGIC,
         (unsigned long long)key, e->nvariants, k);
  for (unsigned v = 0; v < e->nvariants; ++v)
    APPEND(" %.4f", ms[v] >= 0 ? ms[v] : -1.0);
  APPEND("\n");
  if (len + 32 >= sizeof buf)
    return;
  uint64_t sum = idiomrt_fnv1a(IDIOMRT_FNV_OFFSET, buf, len);
  APPEND("check %016llx\n", (unsigned long long)sum);
#undef APPEND
  if (idiomrt_write_file(dir, path, buf, len))
    idiomrt_debug("tuning: wrote %s (variant %d)", path, k);
}

static uint64_t ceil_div(uint64_t a, uint64_t b) { return a / b + (a % b != 0); }

/* Work-groups shape s launches over dimensions 0 .. nd-2 (all but the
   outermost), the sizes outermost first. */
static uint64_t inner_groups(const uint64_t *sizes, unsigned nd,
                             const idiomrt_sample_shape *s) {
  uint64_t g = 1;
  for (unsigned i = 0; i + 1 < nd; ++i) {
    uint64_t items = ceil_div(sizes[nd - 1 - i], s->ept[i] ? s->ept[i] : 1);
    if (i == 0 && s->lanes > 1)
      items *= s->lanes;
    g *= ceil_div(items, s->local[i] ? s->local[i] : 1);
    if (g > ((uint64_t)1 << 40))
      return (uint64_t)1 << 40;
  }
  return g;
}

uint64_t idiomrt_tune_sample(const uint64_t *sizes, unsigned nd, uint64_t cap,
                             const idiomrt_sample_shape *shapes, unsigned n,
                             uint64_t fill_groups) {
  if (nd < 1 || nd > 3 || !cap)
    return 0;
  uint64_t inner = 1, trip;
  for (unsigned d = 1; d < nd; ++d) {
    if (!sizes[d])
      return 0;
    inner = inner > UINT64_MAX / sizes[d] ? UINT64_MAX : inner * sizes[d];
  }
  trip = sizes[0] > UINT64_MAX / inner ? UINT64_MAX : sizes[0] * inner;
  if (trip <= cap)
    return 0;
  /* whole walks: a multiple of every outer ept (their lcm, bounded) */
  uint64_t walk = 1;
  for (unsigned k = 0; k < n; ++k) {
    uint64_t e = shapes[k].ept[nd - 1] ? shapes[k].ept[nd - 1] : 1, a = walk, b = e;
    while (b) {
      uint64_t t = a % b;
      a = b;
      b = t;
    }
    walk = walk / a * e;
    if (walk >= sizes[0])
      return 0;
  }
  uint64_t rows = cap / inner;
  rows = rows < walk ? walk : rows / walk * walk;
  for (unsigned k = 0; k < n; ++k) {
    /* the outer rows that give shape k fill_groups work-groups */
    const idiomrt_sample_shape *s = &shapes[k];
    unsigned o = nd - 1;
    uint64_t per = s->local[o] ? s->local[o] : 1;
    uint64_t ept = s->ept[o] ? s->ept[o] : 1;
    uint64_t groups = ceil_div(fill_groups, inner_groups(sizes, nd, s));
    uint64_t need;
    if (groups > sizes[0])
      return 0;
    if (nd == 1 && s->lanes > 1)
      need = ceil_div(groups * per, s->lanes) * ept;
    else
      need = groups * per * ept;
    need = ceil_div(need, walk) * walk;
    if (need > rows)
      rows = need;
    if (rows >= sizes[0])
      return 0;
  }
  return rows * inner;
}
