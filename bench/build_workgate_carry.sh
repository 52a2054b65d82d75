#!/bin/sh
# Builds the programs of bench/workgate_gpu.sh (issue 12: the IDIOM_MIN_TRIP
# gate counts work, runtime/lib/workgate.c) into OUTDIR for a machine
# without LLVM: Gram-Schmidt 1000 x 1200 (as bench/build_gs_carry.sh),
# bench/policy_tiny.c and every nas-parboil program, each sequential, with
# the plugin and this runtime (OUTDIR/gs, OUTDIR/tiny, OUTDIR/np), and the
# same plugin builds linked to BASE_BUILD_DIR's runtime, the one before the
# work gate (OUTDIR/before/...). Programs with an `idiom-cflags:` line get
# those plugin options, as nas-parboil/run.sh gives them.
#   bench/build_workgate_carry.sh BUILD_DIR BASE_BUILD_DIR OUTDIR
# BASE_BUILD_DIR: the runtime before the gate, for example
#   git worktree add /tmp/wg-base 3be008d &&
#   cmake -S /tmp/wg-base -B /tmp/wg-base/build -DCMAKE_BUILD_TYPE=Release &&
#   cmake --build /tmp/wg-base/build --target idiomrt
# Then on the GPU machine: sh carry/wg/workgate_gpu.sh carry/wg 3 [PARTS]
set -eu
build=$1; base=$2; out=$3
cc=${CLANG:-clang-19}
here=$(cd "$(dirname "$0")" && pwd)
np=$here/../nas-parboil
plugin="$build/lib/libIdiom.so"
[ -f "$base/lib/libidiomrt.a" ] || { echo "no $base/lib/libidiomrt.a" >&2; exit 2; }
# plugin_build SRC OUT [FLAGS...]: OUT.o once, linked to both runtimes.
plugin_build() {
  src=$1; o=$2; shift 2
  pf=$(sed -n 's/^ *\* *idiom-cflags: *//p' "$src" | head -n 1)
  [ -n "$pf" ] && pf="-fplugin=$plugin $pf"
  # shellcheck disable=SC2086
  $cc -O2 -g "$@" $pf -fpass-plugin="$plugin" -c "$src" -o "$o.o"
  $cc "$o.o" -L"$build/lib" -lidiomrt -lm -o "$o.idiom"
  d=$(dirname "$o"); mkdir -p "$out/before/${d#"$out"/}"
  $cc "$o.o" -L"$base/lib" -lidiomrt -lm -o "$out/before/${d#"$out"/}/$(basename "$o").idiom"
  rm -f "$o.o"
}
mkdir -p "$out/gs" "$out/tiny" "$out/np"
gs="-DM=1000 -DN=1200 -DNC=2 -DNL=2"
# shellcheck disable=SC2086
$cc -O2 $gs "$np/gramschmidt.c" -lm -o "$out/gs/gs.seq"
# shellcheck disable=SC2086
plugin_build "$np/gramschmidt.c" "$out/gs/gs" $gs
cp "$out/gs/gs.seq" "$out/before/gs/"
$cc -O2 "$here/policy_tiny.c" -o "$out/tiny/tiny.seq"
plugin_build "$here/policy_tiny.c" "$out/tiny/tiny"
cp "$out/tiny/tiny.seq" "$out/before/tiny/"
for src in "$np"/*.c; do
  p=$(basename "$src" .c)
  $cc -O2 -g "$src" -lm -o "$out/np/$p.seq"
  plugin_build "$src" "$out/np/$p"
  cp "$out/np/$p.seq" "$src" "$out/before/np/"
  cp "$src" "$out/np/"
done
for d in "$out" "$out/before"; do
  cp "$np/compare.py" "$d/np/"
  cp "$np/compare.py" "$d/gs/"
done
cp "$here/gs_gpu.sh" "$here/np_gpu.sh" "$here/timing.sh" \
   "$here/workgate_gpu.sh" "$here/workgate_decisions.sh" "$out/"
cp "$here/gs_gpu.sh" "$here/timing.sh" "$out/before/"
