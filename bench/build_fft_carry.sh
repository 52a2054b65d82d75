#!/bin/sh
# Builds bench/fft.c (sequential, and with the plugin) into OUTDIR for
# bench/fft_gpu.sh on a machine without LLVM:
#   bench/build_fft_carry.sh BUILD_DIR OUTDIR
set -eu
build=$1; out=$2
cc=${CLANG:-clang-19}
here=$(dirname "$0")
mkdir -p "$out"
$cc -O2 "$here/fft.c" -lm -o "$out/fft.seq"
$cc -O2 -g -fpass-plugin="$build/lib/libIdiom.so" "$here/fft.c" -L"$build/lib" -lidiomrt -lm -o "$out/fft.idiom"
cp "$here/fft_gpu.sh" "$here/timing.sh" "$out/"
