#!/bin/sh
# Builds bench/norm3d.c (NAS MG's norm2u3 as one 3-D scalar reduction,
# issue 13) into OUTDIR for bench/norm3d_gpu.sh on a machine without LLVM:
# the sequential build (norm3d.seq) and the plugin's (norm3d.idiom).
#   bench/build_norm3d_carry.sh BUILD_DIR OUTDIR
set -eu
build=$1; out=$2
cc=${CLANG:-clang-19}
here=$(dirname "$0")
mkdir -p "$out"
$cc -O2 "$here/norm3d.c" -lm -o "$out/norm3d.seq"
$cc -O2 -g -fpass-plugin="$build/lib/libIdiom.so" "$here/norm3d.c" \
  -L"$build/lib" -lidiomrt -lm -Wl,-rpath,'$ORIGIN' -o "$out/norm3d.idiom"
cp "$build"/lib/libidiomrt.so* "$out/" 2>/dev/null || true
cp "$here/norm3d_gpu.sh" "$here/timing.sh" "$out/"
