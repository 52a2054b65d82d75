// The addresses of global arrays are cut in front of a function's first
// stitched sites (passes/SiteAddresses.h): the code before them names the
// globals that the sites and the code after them also use through an
// internal alias (`@px.idiom.presite`), so MachineCSE does not keep the
// address that the back end hoisted in front of a host loop there live
// through the sites and the loops after them. main is
// nas-parboil/gridding.c reduced: a set-up loop (an LCG recurrence, not an
// idiom, the same IR in every build) that writes seven global arrays, two
// histogram sites that read three of them, a host loop after them that
// reads four others. With -idiom-site-addresses=false the plugin build's
// set-up loop has 89 instructions against the sequential build's 83 (llc
// 19, x86-64, PIE: a rotation of address registers in every iteration);
// with the aliases, as many as the sequential build's.
// docs/ARCHITECTURE.md, "Site addresses".
//
// The set-up loop's instructions, in each build:
// RUN: %clang -O2 -S %s -o %t.seq.s
// RUN: %clang-idiom -fplugin=%plugin -S %s -o %t.on.s
// RUN: %clang-idiom -fplugin=%plugin -mllvm -idiom-site-addresses=false -S %s -o %t.off.s
// RUN: awk '/^main:/{m=1} m&&/^\.LBB0_1:/{l=1} l{print} l&&/^[ \t]*j(ne|b|l)[ \t]/{exit}' %t.seq.s | grep -c '^[[:space:]][a-z]' > %t.seq.n
// RUN: awk '/^main:/{m=1} m&&/^\.LBB0_1:/{l=1} l{print} l&&/^[ \t]*j(ne|b|l)[ \t]/{exit}' %t.on.s | grep -c '^[[:space:]][a-z]' > %t.on.n
// RUN: awk '/^main:/{m=1} m&&/^\.LBB0_1:/{l=1} l{print} l&&/^[ \t]*j(ne|b|l)[ \t]/{exit}' %t.off.s | grep -c '^[[:space:]][a-z]' > %t.off.n
// RUN: FileCheck %s --check-prefix=COUNT < %t.seq.n
// RUN: diff %t.seq.n %t.on.n
// RUN: not diff %t.seq.n %t.off.n
// COUNT: {{^}}8{{[0-9]$}}
//
// The IR: the aliases, and who uses them.
// RUN: %clang-idiom -fplugin=%plugin -fno-discard-value-names -S -emit-llvm %s -o %t.ll
// RUN: FileCheck %s < %t.ll
// RUN: %opt -passes=verify -disable-output %t.ll
// RUN: %clang-idiom -fplugin=%plugin -mllvm -idiom-site-addresses=false -S -emit-llvm %s -o - | FileCheck %s --check-prefix=OFF
// OFF-NOT: idiom.presite
// With -fPIC every global of external linkage may be interposed (none is
// dso_local): no alias of those (the static lcg_state still has one).
// RUN: %clang-idiom -fplugin=%plugin -fPIC -S -emit-llvm %s -o - | FileCheck %s --check-prefix=PIC
// PIC: @lcg_state.idiom.presite = internal alias
// PIC-NOT: {{@(px|py|pz|pq|sx|sw|scls|own)\.idiom\.presite}}
// PIC: call i32 @idiom_run(
// PIC-NOT: {{@(px|py|pz|pq|sx|sw|scls|own)\.idiom\.presite}}
//
// The program links and prints what the sequential build prints.
// RUN: %clang -O2 -DWITH_EXT %s -o %t.seq
// RUN: %t.seq > %t.expected
// RUN: %clang-idiom -fplugin=%plugin -DWITH_EXT %s -lidiomrt -lm -o %t.idiom
// RUN: env IDIOM_DEVICE=seq %t.idiom > %t.out
// RUN: diff %t.expected %t.out
#include <stdint.h>
#include <stdio.h>

#define NP 50000
#define NL 4096

float px[NP], py[NP], pz[NP], pq[NP], sx[NP], sw[NP];
int scls[NP];
float line[NL];
int hits[NL];

static uint64_t lcg_state = 271828183ULL;

static double randlc(void) {
  lcg_state = (1220703125ULL * lcg_state) & ((1ULL << 46) - 1);
  return (double)lcg_state * (1.0 / 70368744177664.0);
}

float shared(void);
float timeloop(int steps);

// The set-up loop names the aliases; the sites, and the loops after them,
// the globals.
// CHECK-DAG: @px.idiom.presite = internal alias [50000 x float], ptr @px
// CHECK-DAG: @sx.idiom.presite = internal alias [50000 x float], ptr @sx
// CHECK-DAG: @scls.idiom.presite = internal alias [50000 x i32], ptr @scls
// CHECK-DAG: @own.idiom.presite = internal alias [100000 x float], ptr @own
// CHECK-LABEL: define {{.*}} @main(
// CHECK: getelementptr {{.*}}@px.idiom.presite,
// CHECK: getelementptr {{.*}}@sx.idiom.presite,
// CHECK: getelementptr {{.*}}@scls.idiom.presite,
// CHECK: getelementptr {{.*}}@sx,
// CHECK: getelementptr {{.*}}@scls,
// CHECK: getelementptr {{.*}}@px,
int main(void) {
  int i, d;
  for (i = 0; i < NP; i++) {
    px[i] = (float)(2.0 + 19 * randlc());
    py[i] = (float)(2.0 + 19 * randlc());
    pz[i] = (float)(2.0 + 19 * randlc());
    pq[i] = (float)(randlc() - 0.5);
    sx[i] = (float)(2.0 + (NL - 5) * randlc() * randlc());
    sw[i] = (float)randlc();
    scls[i] = (int)(4.0 * randlc()) + 1;
  }
  for (i = 0; i < NP; i++) {
    float xi = sx[i], wi = sw[i];
    int c = (int)xi;
    for (d = -2; d <= 2; d++) {
      float e = (float)(c + d) - xi;
      float r2 = e * e;
      if (r2 >= 2.25f)
        continue;
      line[c + d] += wi * (1.0f - r2 * (1.0f / 2.25f));
    }
  }
  for (i = 0; i < NP; i++) {
    float xi = sx[i];
    int c = (int)xi, k = scls[i];
    for (d = -2; d <= 2; d++) {
      float e = (float)(c + d) - xi;
      if (e * e >= 2.25f)
        continue;
      hits[c + d] += k;
    }
  }
  double t = 0.0;
  for (i = 0; i < NP / 10; i++)
    t += px[i] * py[i] - pz[i] * pq[i];
  double tl = 0.0;
  long th = 0;
  for (i = 0; i < NL; i++) {
    tl += line[i];
    th += hits[i];
  }
  printf("%.6e %.6e %ld\n", t, tl, th);
  printf("%.6e %.6e\n", shared(), timeloop(3));
  return 0;
}

#define N 100000
#ifdef WITH_EXT
float ext[N];
#else
extern float ext[N];
#endif
float own[N], after_only[N], pre_only[N], tl[N];

// Negatives. ext is only declared here (another module defines it, and may
// interpose it): never aliased; after_only is not used before a site, and
// pre_only not after one: never aliased; own is.
// CHECK-LABEL: define {{.*}} @shared(
// CHECK: getelementptr {{.*}}@ext,
// CHECK: getelementptr {{.*}}@own.idiom.presite,
// CHECK: getelementptr {{.*}}@pre_only,
// CHECK: call i32 @idiom_run(
// CHECK-NOT: idiom.presite
// CHECK: ret float
// CHECK-LABEL: define {{.*}} @timeloop(
__attribute__((noinline)) float shared(void) {
  int i;
  uint64_t x = 12345;
  for (i = 0; i < N; i++) {
    x = (1220703125ULL * x) & ((1ULL << 46) - 1);
    ext[i] = (float)(x % 7);
    own[i] = (float)(x % 5);
    pre_only[i] = (float)(x % 3);
  }
  float s = 0.0f;
  for (i = 0; i < N; i++)
    s += ext[i] * own[i];
  for (i = 0; i < N; i++)
    after_only[i] = own[i] + ext[i];
  return s + after_only[N / 2];
}

// A site inside a time loop, after a host loop in the same iteration: no
// alias (both names would stay live across the time loop).
// CHECK-NOT: idiom.presite
// CHECK: call i32 @idiom_run(
// CHECK-NOT: idiom.presite
// CHECK: ret float
__attribute__((noinline)) float timeloop(int steps) {
  float s = 0.0f;
  int t, i;
  for (t = 0; t < steps; t++) {
    for (i = 1; i < N; i++) /* a recurrence: on the host */
      tl[i] = tl[i - 1] * 0.5f + (float)t;
    for (i = 0; i < N; i++)
      s += tl[i];
  }
  return s;
}
