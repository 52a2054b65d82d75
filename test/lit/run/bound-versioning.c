// Loop bounds read from memory in every iteration (BoundVersioning.h): a
// global the loop's int stores may write, a bound behind a pointer, a struct
// field under char stores, the two bounds of a 2-D nest that GVN carries in
// phis. Each loop gets a copy with its bounds read once behind a run-time
// check (no store of the nest writes them) and is offloaded; when the check
// fails, because the loop writes its own bound, the unchanged loop runs (the
// runs below where the bound changes half-way). Outputs equal the
// sequential build's, offloaded (IDIOM_COST=off) and on the host
// (IDIOM_DEVICE=seq); IDIOM_STATS counts one device call per loop: the
// aliased calls never reach the runtime.
// RUN: %clang -O2 %s -o %t.seq
// RUN: %clang-idiom -g %s -lidiomrt -Rpass=idiom-offload -Rpass-missed=idiom-offload -o %t.idiom 2> %t.remarks
// RUN: FileCheck %s --check-prefix=REMARK < %t.remarks
// RUN: %t.seq > %t.expected
// RUN: env IDIOM_COST=off IDIOM_MIN_TRIP=0 IDIOM_STATS=1 IDIOM_CACHE_DIR=off %t.idiom > %t.out 2> %t.stats
// RUN: diff %t.expected %t.out
// RUN: FileCheck %s --check-prefix=STATS < %t.stats
// RUN: env IDIOM_DEVICE=seq %t.idiom > %t.seqout
// RUN: diff %t.expected %t.seqout
#include <stdio.h>
#include <stdlib.h>
int cfg[4] = {0, 3000, 0, 0};
struct image { int w, h; unsigned char *px; };
struct grid { int rows, cols; };

// REMARK-DAG: bound-versioning.c:[[@LINE+3]]:3: remark: offloaded map (map) to OpenCL
// STATS-DAG: idiom-stats: bound-versioning.c:[[@LINE+2]] map calls=1 offloaded=1
__attribute__((noinline)) static void fill_global(int *out) {
  for (int i = 0; i < cfg[1]; i++)
    out[i] = 3 * i + 1;
}
// REMARK-DAG: bound-versioning.c:[[@LINE+3]]:3: remark: offloaded map (map) to OpenCL
// STATS-DAG: idiom-stats: bound-versioning.c:[[@LINE+2]] map calls=1 offloaded=1
__attribute__((noinline)) static void add_ptr(int *a, const int *b, const int *np) {
  for (int i = 0; i < *np; i++)
    a[i] = b[i] + 1;
}
// REMARK-DAG: bound-versioning.c:[[@LINE+3]]:3: remark: offloaded map (map) to OpenCL
// STATS-DAG: idiom-stats: bound-versioning.c:[[@LINE+2]] map calls=1 offloaded=1
__attribute__((noinline)) static void invert(struct image *img) {
  for (int i = 0; i < img->w * img->h; i++)
    img->px[i] = (unsigned char)(255 - img->px[i]);
}
// REMARK-DAG: bound-versioning.c:[[@LINE+3]]:3: remark: offloaded 2-D map (map) to OpenCL
// STATS-DAG: idiom-stats: bound-versioning.c:[[@LINE+2]] map calls=1 offloaded=1
__attribute__((noinline)) static void fill2d(int *out, const struct grid *g) {
  for (int i = 0; i < g->rows; i++)
    for (int j = 0; j < g->cols; j++)
      out[i * g->cols + j] = i - 2 * j;
}
int main(void) {
  static int a[8192], b[8192];
  for (int i = 0; i < 8192; i++) b[i] = i * 7 % 101;
  fill_global(a);
  long s = 0;
  for (int i = 0; i < 8192; i++) s += a[i];
  printf("global %ld\n", s);
  /* the bound is inside the written array: out[1] becomes 4 in the second
     iteration, so the loop runs 4 times, not cfg[1]'s 3000 */
  fill_global(cfg);
  printf("aliased %d %d %d %d\n", cfg[0], cfg[1], cfg[2], cfg[3]);
  int n = 5000;
  add_ptr(a, b, &n);
  s = 0;
  for (int i = 0; i < 8192; i++) s += a[i];
  printf("ptr %ld\n", s);
  /* the bound a[4000] = b[4000] + 1 is written in iteration 4000 */
  a[4000] = 6000;
  add_ptr(a, b, &a[4000]);
  s = 0;
  for (int i = 0; i < 8192; i++) s += a[i];
  printf("ptr aliased %ld %d\n", s, a[4000]);
  struct image img = {64, 100, malloc(6400)};
  for (int i = 0; i < 6400; i++) img.px[i] = (unsigned char)(i * 13);
  invert(&img);
  s = 0;
  for (int i = 0; i < 6400; i++) s += img.px[i] * (i % 7);
  printf("image %ld\n", s);
  /* the struct lies in the pixels: w is overwritten in iteration 4096
     (w = -65: the loop ends there; px, after w and h, is never reached) */
  unsigned char *raw = malloc(8192 + 64);
  for (int i = 0; i < 8192 + 64; i++) raw[i] = (unsigned char)i;
  struct image *in = (struct image *)(raw + 4096);
  in->w = 64; in->h = 100; in->px = raw;
  invert(in);
  s = 0;
  for (int i = 0; i < 4104; i++) s += raw[i] * (i % 5); /* not px */
  printf("image aliased %ld\n", s);
  struct grid g = {40, 100};
  fill2d(a, &g);
  s = 0;
  for (int i = 0; i < 8192; i++) s += a[i] * (i % 3);
  printf("grid %ld\n", s);
  return 0;
}
