#!/bin/sh
# Builds bench/cg_csr.c into OUTDIR for a machine without LLVM: the
# sequential build and the plugin's, the runtime linked as in
# bench/build_profile_carry.sh; copies bench/cg_gpu.sh beside them.
#   bench/build_cg_carry.sh BUILD_DIR OUTDIR
set -eu
build=$1; out=$2
cc=${CLANG:-clang-19}
here=$(dirname "$0")
mkdir -p "$out"
$cc -O2 "$here/cg_csr.c" -lm -o "$out/cg.seq"
$cc -O2 -g -fpass-plugin="$build/lib/libIdiom.so" "$here/cg_csr.c" \
  -L"$build/lib" -lidiomrt -lm -o "$out/cg.idiom"
cp "$here/cg_gpu.sh" "$out/"
