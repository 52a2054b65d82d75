#!/bin/sh
# Builds bench/syrk_bench.c (sequential, and with the plugin) into OUTDIR for
# bench/syrk_gpu.py on a machine without LLVM:
#   bench/build_syrk_carry.sh BUILD_DIR OUTDIR
set -eu
build=$1; out=$2
cc=${CLANG:-clang-19}
here=$(dirname "$0")
mkdir -p "$out"
$cc -O2 "$here/syrk_bench.c" -o "$out/syrk.seq"
$cc -O2 -g -fpass-plugin="$build/lib/libIdiom.so" "$here/syrk_bench.c" -L"$build/lib" -lidiomrt -lm -o "$out/syrk.idiom"
cp "$here/syrk_gpu.py" "$out/"
