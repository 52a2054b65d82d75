#!/bin/sh
# Where heat3d's plugin build spends its extra wall time: builds
# nas-parboil/heat3d.c with CLOCK_MONOTONIC timers around its phases
# (init: the LCG fill; heat: the time loop; sum: the total heat), printed
# on stderr as "init MS heat MS sum MS", sequential and plugin builds, into
# OUTDIR/np/h.seq and h.idiom, with bench/phases_ab.py to run them:
#   bench/heat3d_phases.sh BUILD_DIR OUTDIR && python3 OUTDIR/phases_ab.py OUTDIR 41
set -eu
build=$1; out=$2
cc=${CLANG:-clang-19}
here=$(dirname "$0")
mkdir -p "$out/np"
python3 - "$here/../nas-parboil/heat3d.c" "$out/np/heat3d_phases.c" <<'PY'
import sys
s = open(sys.argv[1]).read()
def sub(a, b):
    global s
    assert a in s, a
    s = s.replace(a, b)
sub('#include <stdio.h>', '#include <stdio.h>\n#include <time.h>\n'
    'static double now_ms(void) { struct timespec t; '
    'clock_gettime(CLOCK_MONOTONIC, &t); return t.tv_sec * 1e3 + t.tv_nsec * 1e-6; }')
sub('int main(void)\n{\n  int q;', 'int main(void)\n{\n  int q;\n  double t0 = now_ms();')
sub('  double *u = heat(', '  double t1 = now_ms();\n  double *u = heat(')
sub('  printf("n %d\\n"', '  double t3 = now_ms();\n'
    '  fprintf(stderr, "init %.3f heat %.3f sum %.3f\\n", t1 - t0, t2 - t1, t3 - t2);\n'
    '  printf("n %d\\n"')
sub('STEPS, 0.125, u0, u1);', 'STEPS, 0.125, u0, u1);\n  double t2 = now_ms();')
open(sys.argv[2], 'w').write(s)
PY
$cc -O2 -g "$out/np/heat3d_phases.c" -o "$out/np/h.seq"
$cc -O2 -g -fpass-plugin="$build/lib/libIdiom.so" "$out/np/heat3d_phases.c" \
  -L"$build/lib" -lidiomrt -lm -o "$out/np/h.idiom"
cp "$here/phases_ab.py" "$out/"
