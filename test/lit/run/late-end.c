// A process past the last run's wall time W, but not yet at 1.5 W, is
// taken to be that run a little slower and ending (runtime/lib/startup.c's
// expected_left_ns): a site whose first call comes then begins no build
// from source, which exit would wait for. (A CG on the H200 whose
// checksum loop came at 440 ms against a W of 406 ms began a 150-230 ms
// build there in every run; docs/Benchmarks.md, nineteenth session.)
// The program: a map (A) 20 times, a 2 s sleep, then another map (B)
// once. Run 1 writes the profile; each later run starts from a profile
// that says the device wins every site and the last run wanted a minute
// of host time on the device (the device starts at program start), and
// from a cache without program binaries (every build is from source).
// (a) W = 1.8 s: B's call comes at about 2.0-2.5 s, within 1.5 W: B
// declines "kernels not built: the process is expected to end first" and
// no B build begins. (b) Control, W = 1 s: B's call is past 1.5 W, so the
// process may run as long again, and B's build is begun as before.
// Every output is the sequential build's.
// A wall-clock policy test: not in the hardened suite (test/lit/lit.cfg.py).
// UNSUPPORTED: hardened
// RUN: %clang -O2 %s -o %t.seq
// RUN: %clang-idiom -g %s -lidiomrt -o %t.idiom
// RUN: %t.seq > %t.expected
// RUN: rm -rf %t.cache %t.prof
// RUN: env IDIOM_PROFILE=%t.prof IDIOM_CACHE_DIR=%t.cache %t.idiom > %t.out1
// RUN: diff %t.expected %t.out1
// RUN: python3 %S/Inputs/profile_edit.py fast %t.prof
// RUN: python3 %S/Inputs/profile_edit.py worthy 60000 %t.prof
// RUN: python3 %S/Inputs/profile_edit.py fruitless 0 0 %t.prof
// RUN: cp %t.prof %t.prof.b
// RUN: python3 %S/Inputs/profile_edit.py wall 1800 100 %t.prof
// RUN: rm -f %t.cache/*.clbin
// RUN: env IDIOM_PROFILE=%t.prof IDIOM_CACHE_DIR=%t.cache IDIOM_DEBUG=1 %t.idiom > %t.out2 2> %t.err2
// RUN: diff %t.expected %t.out2
// RUN: grep -q "starting it at program start" %t.err2
// RUN: FileCheck --check-prefix=ENDING %s < %t.err2
// RUN: not grep -q "late-end.c:%(line+27): built program" %t.err2
// RUN: python3 %S/Inputs/profile_edit.py wall 1000 100 %t.prof.b
// RUN: cp %t.prof.b %t.prof
// RUN: rm -f %t.cache/*.clbin
// RUN: env IDIOM_PROFILE=%t.prof IDIOM_CACHE_DIR=%t.cache IDIOM_DEBUG=1 %t.idiom > %t.out3 2> %t.err3
// RUN: diff %t.expected %t.out3
// RUN: grep -q "starting it at program start" %t.err3
// RUN: grep -q "late-end.c:%(line+20): built program" %t.err3
// RUN: not grep -q "late-end.c:%(line+19): declined: kernels not built" %t.err3
// ENDING: late-end.c:[[@LINE+18]]: declined: kernels not built: the process is expected to end first
#include <stdio.h>
#include <unistd.h>

#define N (1 << 22)

static float x[N], y[N], z[N];

int main(void) {
  for (int i = 0; i < N; ++i) {
    x[i] = (float)(i % 17);
    y[i] = (float)(i % 5);
  }
  for (int r = 0; r < 20; ++r)
    for (int i = 0; i < N; ++i) /* A */
      y[i] = 0.5f * x[i] + 0.25f * y[i];
  fflush(stdout);
  usleep(2000 * 1000);
  for (int i = 0; i < N; ++i) /* B */
    z[i] = x[i] * y[i] + 1.0f;
  printf("%.6e %.6e %.6e\n", y[7], z[N / 3], z[N - 1]);
  return 0;
}
