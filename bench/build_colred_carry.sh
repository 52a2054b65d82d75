#!/bin/sh
# Builds bench/colred.c (column reductions, issue 13) into OUTDIR for
# bench/colred_gpu.sh on a machine without LLVM: the sequential build
# (colred.seq), the plugin's (colred.idiom: both nests column reductions,
# sqrt behind the errno check), the same with -fno-math-errno
# (colred.noerrno) and with -idiom-fp-reassoc=false (colred.exact: no
# row-lanes variants, each column summed in i's order).
#   bench/build_colred_carry.sh BUILD_DIR OUTDIR
set -eu
build=$1; out=$2
cc=${CLANG:-clang-19}
here=$(dirname "$0")
plug="$build/lib/libIdiom.so"
mkdir -p "$out"
$cc -O2 "$here/colred.c" -lm -o "$out/colred.seq"
$cc -O2 -g -fpass-plugin="$plug" "$here/colred.c" -L"$build/lib" -lidiomrt \
  -lm -o "$out/colred.idiom"
$cc -O2 -g -fno-math-errno -fpass-plugin="$plug" "$here/colred.c" \
  -L"$build/lib" -lidiomrt -lm -o "$out/colred.noerrno"
$cc -O2 -g -fpass-plugin="$plug" -fplugin="$plug" -mllvm -idiom-fp-reassoc=false \
  "$here/colred.c" -L"$build/lib" -lidiomrt -lm -o "$out/colred.exact"
cp "$here/colred_gpu.sh" "$here/timing.sh" "$out/"
