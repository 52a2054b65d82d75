#!/bin/sh
# Builds bench/gemv_bench.c (sequential, and with the plugin) into OUTDIR for
# bench/gemv_gpu.py on a machine without LLVM:
#   bench/build_gemv_carry.sh BUILD_DIR OUTDIR
set -eu
build=$1; out=$2
cc=${CLANG:-clang-19}
here=$(dirname "$0")
mkdir -p "$out"
$cc -O2 "$here/gemv_bench.c" -o "$out/gemv.seq"
$cc -O2 -g -fpass-plugin="$build/lib/libIdiom.so" "$here/gemv_bench.c" -L"$build/lib" -lidiomrt -lm -o "$out/gemv.idiom"
cp "$here/gemv_gpu.py" "$out/"
