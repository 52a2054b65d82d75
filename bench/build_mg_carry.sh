#!/bin/sh
# Builds nas-parboil/mg.c (sequential, and with the plugin) into OUTDIR for
# bench/mg_gpu.sh on a machine without LLVM:
#   bench/build_mg_carry.sh BUILD_DIR OUTDIR
set -eu
build=$1; out=$2
cc=${CLANG:-clang-19}
here=$(dirname "$0")
mkdir -p "$out"
$cc -O2 "$here/../nas-parboil/mg.c" -lm -o "$out/mg.seq"
$cc -O2 -g -fpass-plugin="$build/lib/libIdiom.so" "$here/../nas-parboil/mg.c" \
  -L"$build/lib" -lidiomrt -lm -Wl,-rpath,'$ORIGIN' -o "$out/mg.idiom"
cp "$build"/lib/libidiomrt.so* "$out/" 2>/dev/null || true
cp "$here/mg_gpu.sh" "$here/timing.sh" "$here/../nas-parboil/compare.py" "$out/"
