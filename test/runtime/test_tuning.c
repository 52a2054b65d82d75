/*===- test_tuning.c - Kernel variants and their tuning, on PoCL ----------===*
 *
 * Descriptors with several hand-written variants (idiomrt.h: `_v<k>` names,
 * `//@idiom-variant` lines): the first run per size class times them and
 * the result is right (outputs are restored between timed runs, so an
 * in-place map is applied once); the choice is written under
 * IDIOM_CACHE_DIR/tuning/ and a second process reuses it without timing; a
 * corrupt tuning file is ignored; IDIOM_TUNE=off runs variant 0, and so
 * does an input below IDIOM_TUNE_MIN (the cases lower it to 0); a variant
 * that does not fit the device or does not build is skipped; when none
 * builds the run declines. The row lanes (ept=1/W) and row blocks
 * (ept=blocks/G) launch as their markers say.
 *
 *===----------------------------------------------------------------------===*/
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include "test_common.h"

#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/*--- kernels --------------------------------------------------------------*/

/* y = a * x + y in place, three ways. Variant 1 covers four elements per
   work-item (ept=4) and writes nothing unless it got about n/4 work-items,
   so it is right only when the runtime honours ept. */
#define MSAX_BODY(name, attr, body)                                            \
  "__kernel " attr " void " name "(const int n, const float a,\n"              \
  "    __global const float *x, __global float *y) {\n" body "}\n"
#define MSAX_ONE                                                               \
  "  size_t i = get_global_id(0);\n"                                           \
  "  if (i < (size_t)n) y[i] = a * x[i] + y[i];\n"
#define MSAX_FOUR                                                              \
  "  if (get_global_size(0) * 4 >= (size_t)n + 4 * 64) return;\n"              \
  "  size_t b = get_global_id(0) * 4;\n"                                       \
  "  for (size_t j = b; j < b + 4 && j < (size_t)n; ++j)\n"                    \
  "    y[j] = a * x[j] + y[j];\n"

static const char msax_src[] =
    "// three variants of saxpy\n"
    "//@idiom-variant 0 wg=0 ept=1: one element per work-item\n"
    MSAX_BODY("msax", "", MSAX_ONE)
    "//@idiom-variant 1 wg=64 ept=4: four elements per work-item\n"
    MSAX_BODY("msax_v1", "__attribute__((reqd_work_group_size(64, 1, 1)))",
              MSAX_FOUR)
    "//@idiom-variant 2 wg=128 ept=1: work-group 128\n"
    MSAX_BODY("msax_v2", "__attribute__((reqd_work_group_size(128, 1, 1)))",
              MSAX_ONE);
static const idiom_kernel_desc msax_desc = {
    "msax", "test_tuning.c:msax", "map", msax_src, IDIOM_MAP, 1, 0, 3, NULL};

/* Only variant 1 fits: the others require work-groups larger than any
   device allows (CL_DEVICE_MAX_WORK_GROUP_SIZE is 4096 on PoCL). */
static const char fit_src[] =
    "//@idiom-variant 0 wg=65536 ept=1: too large\n"
    MSAX_BODY("fit", "__attribute__((reqd_work_group_size(65536, 1, 1)))",
              MSAX_ONE)
    "//@idiom-variant 1 wg=64 ept=4: four per work-item\n"
    MSAX_BODY("fit_v1", "__attribute__((reqd_work_group_size(64, 1, 1)))",
              MSAX_FOUR)
    "//@idiom-variant 2 wg=32768 ept=1: too large\n"
    MSAX_BODY("fit_v2", "__attribute__((reqd_work_group_size(32768, 1, 1)))",
              MSAX_ONE);
static const idiom_kernel_desc fit_desc = {
    "fit", "test_tuning.c:fit", "map", fit_src, IDIOM_MAP, 1, 0, 3, NULL};

/* y = a * x + y by eight work-items per element, of which the first
   computes it; nothing unless the runtime launched n * 8 work-items rounded
   up to the work-group of 64 (ept=1/8). */
#define MSAX_LANES8                                                            \
  "  size_t g = get_global_id(0), G = get_global_size(0);\n"                   \
  "  if (G < (size_t)n * 8 || G >= (size_t)n * 8 + 64) return;\n"              \
  "  if (g % 8 == 0 && g / 8 < (size_t)n)\n"                                   \
  "    y[g / 8] = a * x[g / 8] + y[g / 8];\n"

/* Only variant 1 fits, with ept=1/8 (the row lanes of a map of row sums). */
static const char lanes_src[] =
    "//@idiom-variant 0 wg=65536 ept=1: too large\n"
    MSAX_BODY("lanes", "__attribute__((reqd_work_group_size(65536, 1, 1)))",
              MSAX_ONE)
    "//@idiom-variant 1 wg=64 ept=1/8: eight work-items per element\n"
    MSAX_BODY("lanes_v1", "__attribute__((reqd_work_group_size(64, 1, 1)))",
              MSAX_LANES8);
static const idiom_kernel_desc lanes_desc = {
    "lanes", "test_tuning.c:lanes", "map", lanes_src, IDIOM_MAP, 1, 0, 2, NULL};

/* Only variant 1 fits, with ept=blocks/64 (the load-balanced row blocks of
   a map of row sums): a work-group of 64 per block of rows, the blocks the
   kernel's extra last argument. Without CSR row pointers (idiom_run) the
   runtime passes one row per block: the kernel writes nothing unless it got
   exactly n work-groups and block g is row g. */
static const char blocks_src[] =
    "//@idiom-variant 0 wg=65536 ept=1: too large\n"
    MSAX_BODY("blocks", "__attribute__((reqd_work_group_size(65536, 1, 1)))",
              MSAX_ONE)
    "//@idiom-variant 1 wg=64 ept=blocks/64: a work-group per row block\n"
    "__kernel __attribute__((reqd_work_group_size(64, 1, 1))) void "
    "blocks_v1(const int n, const float a,\n"
    "    __global const float *x, __global float *y, __global const long *b) {\n"
    "  size_t g = get_group_id(0);\n"
    "  if (get_num_groups(0) != (size_t)n || b[g] != (long)g ||\n"
    "      b[g + 1] != (long)g + 1)\n"
    "    return;\n"
    "  if (get_local_id(0) == 0) y[g] = a * x[g] + y[g];\n"
    "}\n";
static const idiom_kernel_desc blocks_desc = {
    "blocks", "test_tuning.c:blocks", "map", blocks_src, IDIOM_MAP, 1, 0, 2, NULL};

/* A plain variant 0 and the row-lanes variant 1 above. */
static const char lanes2_src[] =
    "//@idiom-variant 0 wg=0 ept=1: one element per work-item\n"
    MSAX_BODY("lanes2", "", MSAX_ONE)
    "//@idiom-variant 1 wg=64 ept=1/8: eight work-items per element\n"
    MSAX_BODY("lanes2_v1", "__attribute__((reqd_work_group_size(64, 1, 1)))",
              MSAX_LANES8);
static const idiom_kernel_desc lanes2_desc = {
    "lanes2", "test_tuning.c:lanes2", "map", lanes2_src, IDIOM_MAP, 1, 0, 2, NULL};

/* Variant 1 does not compile: the whole source fails, 0 and 2 build alone. */
static const char halfbroken_src[] =
    "#define SCALE 1.0f\n"
    "//@idiom-variant 0 wg=0 ept=1: fine\n"
    MSAX_BODY("hb", "", MSAX_ONE)
    "//@idiom-variant 1 wg=0 ept=1: broken\n"
    MSAX_BODY("hb_v1", "", "  y[0] = SCALE +;\n")
    "//@idiom-variant 2 wg=64 ept=1: fine, uses the shared prologue\n"
    MSAX_BODY("hb_v2", "__attribute__((reqd_work_group_size(64, 1, 1)))",
              "  size_t i = get_global_id(0);\n"
              "  if (i < (size_t)n) y[i] = SCALE * (a * x[i] + y[i]);\n");
static const idiom_kernel_desc halfbroken_desc = {
    "hb", "test_tuning.c:hb", "map", halfbroken_src, IDIOM_MAP, 1, 0, 3, NULL};

static const char allbroken_src[] =
    "//@idiom-variant 0 wg=0 ept=1: broken\n"
    MSAX_BODY("ab", "", "  y[0] = +;\n")
    "//@idiom-variant 1 wg=0 ept=1: broken\n"
    MSAX_BODY("ab_v1", "", "  y[0] = -;\n");
static const idiom_kernel_desc allbroken_desc = {
    "ab", "test_tuning.c:ab", "map", allbroken_src, IDIOM_MAP, 1, 0, 2, NULL};

/* Sum of doubles, two variants: grid-stride by one, and four consecutive
   elements per grid-stride step (ept=4) with a fixed work-group size. */
#define RSUM_TREE                                                              \
  "  size_t l = get_local_id(0), L = get_local_size(0);\n"                     \
  "  s0[l] = acc; barrier(CLK_LOCAL_MEM_FENCE);\n"                             \
  "  for (size_t h = L / 2; h > 0; h >>= 1) {\n"                               \
  "    if (l < h) s0[l] += s0[l + h];\n"                                       \
  "    barrier(CLK_LOCAL_MEM_FENCE);\n"                                        \
  "  }\n"
#define RSUM_FINAL(name, attr)                                                 \
  "__kernel " attr " void " name "(const long m, __global const double *part_0,\n" \
  "    __global double *out_0, __local double *s0) {\n"                        \
  "  double acc = 0.0;\n"                                                      \
  "  for (long i = get_local_id(0); i < m; i += get_local_size(0))\n"          \
  "    acc += part_0[i];\n" RSUM_TREE "  if (l == 0) out_0[0] = s0[0];\n}\n"

static const char rsum_src[] =
    "#pragma OPENCL EXTENSION cl_khr_fp64 : enable\n"
    "//@idiom-variant 0 wg=0 ept=1: grid stride\n"
    "__kernel void rsum_partial(const long n, __global const double *x,\n"
    "    __global double *part_0, __local double *s0) {\n"
    "  double acc = 0.0;\n"
    "  for (long i = get_global_id(0); i < n; i += get_global_size(0))\n"
    "    acc += x[i];\n" RSUM_TREE
    "  if (l == 0) part_0[get_group_id(0)] = s0[0];\n}\n"
    RSUM_FINAL("rsum_final", "")
    "//@idiom-variant 1 wg=64 ept=4: four per step\n"
    "__kernel __attribute__((reqd_work_group_size(64, 1, 1)))\n"
    "void rsum_v1_partial(const long n, __global const double *x,\n"
    "    __global double *part_0, __local double *s0) {\n"
    "  double acc = 0.0;\n"
    "  for (long i = 4 * get_global_id(0); i < n; i += 4 * get_global_size(0))\n"
    "    for (long j = i; j < i + 4 && j < n; ++j) acc += x[j];\n" RSUM_TREE
    "  if (l == 0) part_0[get_group_id(0)] = s0[0];\n}\n"
    RSUM_FINAL("rsum_v1_final",
               "__attribute__((reqd_work_group_size(64, 1, 1)))");
static const uint32_t rsum_bytes[1] = {8};
static const idiom_kernel_desc rsum_desc = {
    "rsum", "test_tuning.c:rsum", "scalar-reduction", rsum_src, IDIOM_REDUCE,
    1,      1,                    2,                  rsum_bytes};

/*--- helpers --------------------------------------------------------------*/

/* Runs map descriptor d (msax conventions) on n elements and checks every
   element; returns idiom_run's answer. */
static int msax_checked(const idiom_kernel_desc *d, int n) {
  float *x = malloc(sizeof(float) * (size_t)n), *y = malloc(sizeof(float) * (size_t)n);
  for (int i = 0; i < n; ++i) {
    x[i] = (float)(i % 1000) * 0.5f;
    y[i] = (float)(i % 77) - 3.0f;
  }
  idiom_arg args[4] = {i32(n), f32(2.5f), buf(IDIOM_ARG_BUF_IN, x, 4ull * (unsigned)n),
                       buf(IDIOM_ARG_BUF_INOUT, y, 4ull * (unsigned)n)};
  uint64_t sizes[1] = {(uint64_t)n};
  int rc = idiom_run(d, args, 4, sizes, NULL);
  if (rc == 1) {
    int bad = 0;
    for (int i = 0; i < n && bad < 5; ++i) {
      float want = 2.5f * ((float)(i % 1000) * 0.5f) + ((float)(i % 77) - 3.0f);
      if (!close_enough(y[i], want, 1e-6f)) {
        fprintf(stderr, "%s: y[%d] = %g, want %g\n", d->name, i, y[i], want);
        bad++;
      }
    }
    CHECK_MSG(bad == 0, "%s, n=%d, variant %d", d->name, n, idiom_last_variant());
    CHECK(idiom_last_kernel_ms() >= 0);
    CHECK(idiom_last_variant() >= 0 && (uint32_t)idiom_last_variant() < d->nvariants);
  } else {
    CHECK(idiom_last_kernel_ms() < 0);
    CHECK(idiom_last_variant() == -1);
  }
  free(x);
  free(y);
  return rc;
}

/* The stats line of loc in a child's stderr, copied into out. */
static int stats_line(const char *err, const char *loc, char *out, size_t n) {
  char tag[128];
  snprintf(tag, sizeof tag, "idiom-stats: %s ", loc);
  const char *line = strstr(err, tag);
  if (!line)
    return 0;
  snprintf(out, n, "%.*s", (int)strcspn(line, "\n"), line);
  return 1;
}

/* The only file under dir/tuning, or 0 when there is not exactly one. */
static int tuning_file(const char *dir, char *out, size_t n) {
  char cmd[PATH_MAX + 64];
  snprintf(cmd, sizeof cmd, "ls %s/tuning/*.txt 2>/dev/null", dir);
  FILE *p = popen(cmd, "r");
  if (!p)
    return 0;
  int count = 0;
  char line[PATH_MAX];
  while (fgets(line, sizeof line, p)) {
    line[strcspn(line, "\n")] = '\0';
    snprintf(out, n, "%s", line);
    count++;
  }
  pclose(p);
  return count == 1;
}

/*--- cases ----------------------------------------------------------------*/

/* The cases time variants on inputs far below the default IDIOM_TUNE_MIN. */
static void tune_small_inputs(void) { setenv("IDIOM_TUNE_MIN", "0", 1); }

void case_tune_map(void) {
  tune_small_inputs();
  /* first size class: timed; an in-place map must still be applied once */
  CHECK_MSG(msax_checked(&msax_desc, 100003) == 1, "declined: %s", reason_or_none());
  int first = idiom_last_variant();
  /* same class again: the remembered variant */
  CHECK_MSG(msax_checked(&msax_desc, 100005) == 1, "declined: %s", reason_or_none());
  CHECK(idiom_last_variant() == first);
  /* another size class */
  CHECK_MSG(msax_checked(&msax_desc, 5001) == 1, "declined: %s", reason_or_none());
}

/* IDIOM_TUNE_SAMPLE: the variants are timed on the first 1000 iterations
   only; the in-place map is still applied exactly once to every element. */
void case_tune_sample(void) {
  tune_small_inputs();
  setenv("IDIOM_TUNE_SAMPLE", "1000", 1);
  setenv("IDIOM_DEBUG", "1", 1);
  CHECK_MSG(msax_checked(&msax_desc, 100003) == 1, "declined: %s", reason_or_none());
  CHECK(idiom_last_variant() >= 0);
  CHECK_MSG(msax_checked(&msax_desc, 5001) == 1, "declined: %s", reason_or_none());
}

/* Internal to the runtime (rt_internal.h); the archive exports it. */
typedef struct {
  size_t local[3];
  uint32_t ept[3];
  uint32_t lanes;
} idiomrt_sample_shape;
uint64_t idiomrt_tune_sample(const uint64_t *sizes, unsigned nd, uint64_t cap,
                             const idiomrt_sample_shape *shapes, unsigned n,
                             uint64_t fill_groups);

/* The tuning sample's size (no device): the 3-D heat of bench/heat3d.c,
   254^3 interior points, with its 8 variants (docs/ARCHITECTURE.md, "3-D
   maps"). On an H200 (132 compute units, 16 work-groups each) the plane
   walks cannot fill the device on fewer than all 254 planes (64 planes of
   64x4: 256 groups a walk), so the whole map is timed, as the full run
   ranks them; on 2 compute units a sample of whole 64-plane walks, near
   IDIOM_TUNE_SAMPLE (65 planes) rounded down; without walks the sample
   is IDIOM_TUNE_SAMPLE's 65 planes. 1-D: the fill of the widest variant,
   row lanes count their W work-items per row. */
void case_tune_sample_shape(void) {
  const uint64_t heat[3] = {254, 254, 254}, plane = 254 * 254, cap = 1u << 22;
  const idiomrt_sample_shape v[8] = {
      {{16, 16, 1}, {1, 1, 1}, 1},  {{32, 8, 1}, {1, 1, 1}, 1},
      {{128, 2, 1}, {1, 1, 1}, 1},  {{256, 1, 1}, {1, 1, 1}, 1},
      {{64, 4, 1}, {1, 1, 16}, 1},  {{128, 2, 1}, {1, 1, 16}, 1},
      {{64, 4, 1}, {1, 1, 64}, 1},  {{128, 2, 1}, {1, 1, 16}, 1}};
  uint64_t s;
  CHECK_MSG((s = idiomrt_tune_sample(heat, 3, cap, v, 8, 16 * 132)) == 0,
            "H200, walks: %llu", (unsigned long long)s);
  CHECK_MSG((s = idiomrt_tune_sample(heat, 3, cap, v, 8, 16 * 2)) == 64 * plane,
            "2 CUs, walks: %llu", (unsigned long long)s);
  CHECK_MSG((s = idiomrt_tune_sample(heat, 3, cap, v, 4, 16 * 132)) == 65 * plane,
            "H200, no walks: %llu", (unsigned long long)s);
  /* the 16-plane walks alone: 9 walks of 2x127 groups fill an H200 */
  CHECK_MSG((s = idiomrt_tune_sample(heat, 3, cap, v + 4, 2, 16 * 132)) == 144 * plane,
            "H200, 16-plane walks: %llu", (unsigned long long)s);
  /* at most IDIOM_TUNE_SAMPLE iterations, or none: the whole map */
  CHECK(idiomrt_tune_sample(heat, 3, 254 * plane, v, 8, 32) == 0);
  CHECK(idiomrt_tune_sample(heat, 3, 0, v, 8, 32) == 0);
  const uint64_t keys[1] = {(uint64_t)1 << 26};
  const idiomrt_sample_shape h[2] = {{{256, 1, 1}, {64, 1, 1}, 1},
                                     {{256, 1, 1}, {1, 1, 1}, 32}};
  CHECK_MSG((s = idiomrt_tune_sample(keys, 1, cap, h, 1, 16 * 132)) ==
                (uint64_t)16 * 132 * 256 * 64,
            "1-D, 64 per work-item: %llu", (unsigned long long)s);
  CHECK_MSG((s = idiomrt_tune_sample(keys, 1, cap, h + 1, 1, 16 * 132)) == cap,
            "1-D, row lanes: %llu", (unsigned long long)s);
  CHECK(idiomrt_tune_sample(keys, 1, cap, h, 1, 16 * 132 * 8) == 0);
}

static void rsum_one(long n) {
  double *x = malloc(sizeof(double) * (size_t)n), ref = 0;
  for (long i = 0; i < n; ++i) {
    x[i] = (double)((i * 37) % 101) - 50.0;
    ref += x[i];
  }
  double res[1] = {0};
  idiom_arg args[2] = {i64(n), buf(IDIOM_ARG_BUF_IN, x, sizeof(double) * (size_t)n)};
  uint64_t sizes[1] = {(uint64_t)n};
  int rc = idiom_run(&rsum_desc, args, 2, sizes, res);
  CHECK_MSG(rc == 1, "n=%ld declined: %s", n, reason_or_none());
  if (rc == 1)
    CHECK_MSG(res[0] == ref, "n=%ld variant %d: %.17g want %.17g", n,
              idiom_last_variant(), res[0], ref);
  free(x);
}

void case_tune_reduce(void) {
  tune_small_inputs();
  rsum_one(300007);
  rsum_one(300001); /* same class, remembered */
  rsum_one(4099);
}

/* Child of the cache, corrupt and off cases: one tuned map, one reduction. */
void case_tune_stats_child(void) {
  CHECK_MSG(msax_checked(&msax_desc, 70001) == 1, "declined: %s", reason_or_none());
  rsum_one(70001);
}

static void make_cache_env(char *dir, char *envdir, size_t n) {
  CHECK(mkdtemp(dir) != NULL);
  snprintf(envdir, n, "IDIOM_CACHE_DIR=%s", dir);
}

void case_tune_cache(void) {
  char dir[] = "/tmp/idiomrt-tune-XXXXXX", envdir[PATH_MAX + 32], line[2048];
  make_cache_env(dir, envdir, sizeof envdir);
  const char *env[] = {envdir, "IDIOM_STATS=1", "IDIOM_TUNE_MIN=0", NULL};
  char *err = NULL;
  int st = spawn_case("tune_stats_child", env, &err);
  CHECK_MSG(st == 0, "first (%d):\n%s", st, err);
  CHECK_MSG(stats_line(err, "test_tuning.c:msax", line, sizeof line), "%s", err);
  CHECK_MSG(strstr(line, "variants=3 ") && strstr(line, "tuned=timed") &&
                !strstr(line, "tune_ms=0.000"),
            "%s", line);
  CHECK_MSG(stats_line(err, "test_tuning.c:rsum", line, sizeof line), "%s", err);
  CHECK_MSG(strstr(line, "variants=2 ") && strstr(line, "class 16: variant ") &&
                strstr(line, "tuned=timed"),
            "%s", line);
  free(err);
  char cmd[PATH_MAX + 64];
  snprintf(cmd, sizeof cmd, "ls %s/tuning/*.txt 2>/dev/null | wc -l", dir);
  FILE *p = popen(cmd, "r");
  int files = 0;
  if (p) {
    CHECK(fscanf(p, "%d", &files) == 1);
    pclose(p);
  }
  CHECK_MSG(files == 2, "%d tuning files in %s/tuning", files, dir);

  /* a second process reads the choices and times nothing */
  st = spawn_case("tune_stats_child", env, &err);
  CHECK_MSG(st == 0, "second (%d):\n%s", st, err);
  CHECK_MSG(stats_line(err, "test_tuning.c:msax", line, sizeof line), "%s", err);
  CHECK_MSG(strstr(line, "tuned=cache") && strstr(line, "tune_ms=0.000"), "%s", line);
  CHECK_MSG(stats_line(err, "test_tuning.c:rsum", line, sizeof line), "%s", err);
  CHECK_MSG(strstr(line, "tuned=cache") && strstr(line, "tune_ms=0.000"), "%s", line);
  free(err);
  nftw(dir, rm_entry, 16, FTW_DEPTH | FTW_PHYS);
}

/* Rewrites file with its "variant K" line changed to variant k, or to the
   next of 3 variants when k < 0. */
static void set_variant(const char *file, int k, int fix_checksum) {
  FILE *f = fopen(file, "rb");
  char buf[4096];
  size_t n = f ? fread(buf, 1, sizeof buf - 1, f) : 0;
  if (f)
    fclose(f);
  buf[n] = '\0';
  char *v = strstr(buf, "\nvariant ");
  CHECK(v != NULL);
  if (!v)
    return;
  v[9] = (char)('0' + (k >= 0 ? k : (v[9] - '0' + 1) % 3));
  if (fix_checksum) {
    char *c = strstr(buf, "check ");
    uint64_t h = 0xcbf29ce484222325ULL;
    for (char *q = buf; q < c; ++q) {
      h ^= (unsigned char)*q;
      h *= 0x100000001b3ULL;
    }
    snprintf(c, sizeof buf - (size_t)(c - buf), "check %016llx\n", (unsigned long long)h);
  }
  f = fopen(file, "wb");
  CHECK(f != NULL);
  if (f) {
    fputs(buf, f);
    fclose(f);
  }
}

void case_tune_corrupt(void) {
  char dir[] = "/tmp/idiomrt-tune-XXXXXX", envdir[PATH_MAX + 32], line[2048];
  char file[PATH_MAX];
  make_cache_env(dir, envdir, sizeof envdir);
  const char *env[] = {envdir, "IDIOM_STATS=1", "IDIOM_DEBUG=1", "IDIOM_TUNE_MIN=0", NULL};
  char *err = NULL;
  /* only the map: one tuning file */
  int st = spawn_case("tune_map_child", env, &err);
  CHECK_MSG(st == 0, "first (%d):\n%s", st, err);
  free(err);
  CHECK_MSG(tuning_file(dir, file, sizeof file), "no single tuning file in %s", dir);

  /* a changed variant without a matching checksum: corrupt, timed again */
  set_variant(file, -1, 0);
  st = spawn_case("tune_map_child", env, &err);
  CHECK_MSG(st == 0, "corrupt (%d):\n%s", st, err);
  CHECK_MSG(strstr(err, "malformed or corrupt, ignored"), "%s", err);
  CHECK_MSG(stats_line(err, "test_tuning.c:msax", line, sizeof line) &&
                strstr(line, "tuned=timed"),
            "%s", err);
  free(err);

  /* a well-formed file naming a variant that does not exist: stale */
  set_variant(file, 7, 1);
  st = spawn_case("tune_map_child", env, &err);
  CHECK_MSG(st == 0, "stale (%d):\n%s", st, err);
  CHECK_MSG(strstr(err, "stale"), "%s", err);
  CHECK_MSG(stats_line(err, "test_tuning.c:msax", line, sizeof line) &&
                strstr(line, "tuned=timed"),
            "%s", err);
  free(err);

  /* the rewritten file is good again */
  st = spawn_case("tune_map_child", env, &err);
  CHECK_MSG(st == 0 && stats_line(err, "test_tuning.c:msax", line, sizeof line) &&
                strstr(line, "tuned=cache"),
            "rewritten (%d):\n%s", st, err);
  free(err);

  /* a truncated file */
  FILE *f = fopen(file, "wb");
  if (f) {
    fputs("idiom-tuning 1\nkey ", f);
    fclose(f);
  }
  st = spawn_case("tune_map_child", env, &err);
  CHECK_MSG(st == 0 && strstr(err, "malformed or corrupt") &&
                stats_line(err, "test_tuning.c:msax", line, sizeof line) &&
                strstr(line, "tuned=timed"),
            "truncated (%d):\n%s", st, err);
  free(err);
  nftw(dir, rm_entry, 16, FTW_DEPTH | FTW_PHYS);
}

void case_tune_map_child(void) {
  CHECK_MSG(msax_checked(&msax_desc, 70001) == 1, "declined: %s", reason_or_none());
}

void case_tune_off(void) {
  const char *env[] = {"IDIOM_TUNE=off", "IDIOM_STATS=1", "IDIOM_TUNE_MIN=0", NULL};
  char *err = NULL, line[2048];
  int st = spawn_case("tune_stats_child", env, &err);
  CHECK_MSG(st == 0, "(%d):\n%s", st, err);
  CHECK_MSG(stats_line(err, "test_tuning.c:msax", line, sizeof line) &&
                strstr(line, "variant 0 tuned=off") && strstr(line, "tune_ms=0.000"),
            "%s", err);
  CHECK_MSG(stats_line(err, "test_tuning.c:rsum", line, sizeof line) &&
                strstr(line, "variant 0 tuned=off"),
            "%s", err);
  free(err);
  /* a value that is neither on nor off: a warning, and tuning stays on */
  const char *env2[] = {"IDIOM_TUNE=sometimes", "IDIOM_STATS=1", "IDIOM_TUNE_MIN=0", NULL};
  st = spawn_case("tune_map_child", env2, &err);
  CHECK_MSG(st == 0 && strstr(err, "IDIOM_TUNE=sometimes is not on or off") &&
                stats_line(err, "test_tuning.c:msax", line, sizeof line) &&
                !strstr(line, "tuned=off"),
            "(%d):\n%s", st, err);
  free(err);
}

void case_tune_small(void) {
  /* Default IDIOM_TUNE_MIN (2^20): smaller inputs run variant 0 untimed; a
     larger one is timed. IDIOM_TUNE_MIN=junk warns and keeps the default. */
  const char *env[] = {"IDIOM_STATS=1", "IDIOM_TUNE_MIN=junk", NULL};
  char *err = NULL, line[2048];
  int st = spawn_case("tune_small_child", env, &err);
  CHECK_MSG(st == 0, "(%d):\n%s", st, err);
  CHECK_MSG(strstr(err, "IDIOM_TUNE_MIN=junk is not a number; using 1048576"), "%s", err);
  CHECK_MSG(stats_line(err, "test_tuning.c:msax", line, sizeof line) &&
                strstr(line, "class 16: variant 0 tuned=small") &&
                strstr(line, "class 20: variant ") && strstr(line, "tuned=timed"),
            "%s", err);
  /* class 17 with a work hint of 2^21 innermost iterations: timed */
  CHECK_MSG(strstr(line, "class 17: variant ") &&
                !strstr(line, "class 17: variant 0 tuned=small"),
            "%s", err);
  char *c17 = strstr(line, "class 17: ");
  CHECK_MSG(c17 && strncmp(strchr(c17, '=') ? strchr(c17, '=') : "", "=timed", 6) == 0,
            "%s", err);
  free(err);
}

void case_tune_small_child(void) {
  CHECK_MSG(msax_checked(&msax_desc, 70001) == 1, "declined: %s", reason_or_none());
  CHECK(idiom_last_variant() == 0);
  CHECK_MSG(msax_checked(&msax_desc, (1 << 20) + 1) == 1, "declined: %s", reason_or_none());
  /* a class below the threshold whose nest's innermost body runs 2^21
     times (idiom_work_hint): timed */
  idiom_work_hint(&msax_desc, (uint64_t)1 << 21, 0);
  CHECK_MSG(msax_checked(&msax_desc, 140001) == 1, "declined: %s", reason_or_none());
}

void case_variant_fit(void) {
  tune_small_inputs();
  /* Only variant 1 fits the device; it needs the runtime to honour ept=4. */
  CHECK_MSG(msax_checked(&fit_desc, 100003) == 1, "declined: %s", reason_or_none());
  CHECK(idiom_last_variant() == 1);
  CHECK_MSG(msax_checked(&fit_desc, 77) == 0, "a run below the threshold");
  CHECK(idiom_last_variant() == -1 && idiom_last_kernel_ms() < 0);
}

void case_variant_lanes(void) {
  /* Only variant 1 fits the device (forced: a CPU does not time row lanes);
     it needs the runtime to honour ept=1/8. */
  setenv("IDIOM_VARIANT", "1", 1);
  CHECK_MSG(msax_checked(&lanes_desc, 100003) == 1, "declined: %s", reason_or_none());
  CHECK(idiom_last_variant() == 1);
  CHECK_MSG(msax_checked(&lanes_desc, 5001) == 1, "declined: %s", reason_or_none());
  CHECK(idiom_last_variant() == 1);
}

void case_variant_row_blocks(void) {
  /* Only variant 1 fits (forced: a CPU does not time row blocks); it needs
     the runtime to honour ept=blocks/64 and pass the blocks. */
  setenv("IDIOM_VARIANT", "1", 1);
  CHECK_MSG(msax_checked(&blocks_desc, 100003) == 1, "declined: %s", reason_or_none());
  CHECK(idiom_last_variant() == 1);
  CHECK_MSG(msax_checked(&blocks_desc, 5001) == 1, "declined: %s", reason_or_none());
  CHECK(idiom_last_variant() == 1);
}

/* On a CPU the tuning does not time the row-lanes variant: the tuning file
   records it as skipped (-1) and variant 0 runs. */
void case_variant_lanes_cpu(void) {
  tune_small_inputs();
  char dir[] = "/tmp/idiomrt-lanes-XXXXXX", file[PATH_MAX], buf[4096];
  CHECK(mkdtemp(dir) != NULL);
  setenv("IDIOM_CACHE_DIR", dir, 1);
  setenv("IDIOM_DEVICE", "cpu", 1);
  CHECK_MSG(msax_checked(&lanes2_desc, 100003) == 1, "declined: %s", reason_or_none());
  CHECK(idiom_last_variant() == 0);
  CHECK_MSG(tuning_file(dir, file, sizeof file), "no tuning file in %s", dir);
  FILE *f = fopen(file, "rb");
  size_t n = f ? fread(buf, 1, sizeof buf - 1, f) : 0;
  if (f)
    fclose(f);
  buf[n] = '\0';
  const char *ms = strstr(buf, "\nms ");
  double t0 = 0, t1 = 0;
  CHECK_MSG(ms && sscanf(ms, "\nms %lf %lf", &t0, &t1) == 2 && t0 >= 0 && t1 == -1.0, "%s",
            buf);
  nftw(dir, rm_entry, 16, FTW_DEPTH | FTW_PHYS);
}

void case_variant_build(void) {
  tune_small_inputs();
  for (int round = 0; round < 2; ++round) {
    CHECK_MSG(msax_checked(&halfbroken_desc, 100003) == 1, "declined: %s",
              reason_or_none());
    CHECK(idiom_last_variant() == 0 || idiom_last_variant() == 2);
  }
}

void case_variant_all_broken(void) {
  CHECK(msax_checked(&allbroken_desc, 100003) == 0);
  CHECK_MSG(starts_with(idiom_last_reason(), "program build failure"), "%s",
            reason_or_none());
  /* the failure is remembered: the same reason, no second build */
  CHECK(msax_checked(&allbroken_desc, 100003) == 0);
  CHECK_MSG(starts_with(idiom_last_reason(), "program build failure"), "%s",
            reason_or_none());
}
