#!/bin/sh
# Builds bench/spmv_csr.c (sequential, and with the plugin) into OUTDIR for
# bench/spmv_gpu.py on a machine without LLVM:
#   bench/build_spmv_carry.sh BUILD_DIR OUTDIR
set -eu
build=$1; out=$2
cc=${CLANG:-clang-19}
here=$(dirname "$0")
mkdir -p "$out"
$cc -O2 "$here/spmv_csr.c" -o "$out/spmv.seq"
$cc -O2 -g -fpass-plugin="$build/lib/libIdiom.so" "$here/spmv_csr.c" -L"$build/lib" -lidiomrt -lm -o "$out/spmv.idiom"
cp "$here/spmv_gpu.py" "$out/"
