#!/bin/sh
# Builds the programs of bench/hint_gpu.sh into OUTDIR for a machine without
# LLVM (sequential and plugin builds, the runtime linked statically):
# bench/policy_tiny.c and the nas-parboil programs gridding, heat3d, jds
# and mg (with their sources and compare.py, for the output check).
#   bench/build_hint_carry.sh BUILD_DIR OUTDIR
# Then, on the GPU machine (device `run` with carry: ["OUTDIR"]):
#   sh OUTDIR/hint_gpu.sh OUTDIR [RUNS]
set -eu
build=$1; out=$2
cc=${CLANG:-clang-19}
here=$(dirname "$0")
plugin="$build/lib/libIdiom.so"
mkdir -p "$out/np"
idiom() { $cc -O2 -g -fpass-plugin="$plugin" "$1" -L"$build/lib" -lidiomrt -lm -o "$2"; }
$cc -O2 -g "$here/policy_tiny.c" -o "$out/np/policy_tiny.seq"
idiom "$here/policy_tiny.c" "$out/np/policy_tiny.idiom"
cp "$here/policy_tiny.c" "$out/np/"
for p in gridding heat3d jds mg; do
  src=$here/../nas-parboil/$p.c
  $cc -O2 -g "$src" -lm -o "$out/np/$p.seq"
  idiom "$src" "$out/np/$p.idiom"
  cp "$src" "$out/np/"
done
cp "$here/../nas-parboil/compare.py" "$out/np/"
cp "$here/hint_gpu.sh" "$here/np_gpu.sh" "$out/"
echo "built $out; on the GPU machine: sh $out/hint_gpu.sh $out 9"
