#!/bin/sh
# Builds nas-parboil/adi.c (NAS SP/BT compute_rhs on u[k][j][i][5], issue
# 13) sequential and with the plugin, at the sizes bench/adi_gpu.sh runs,
# into OUTDIR, for a machine without LLVM:
#   bench/build_adi_carry.sh BUILD_DIR OUTDIR [SIZES] [STEPS]
# SIZES: grid points per dimension, space-separated (default "64 128").
set -eu
build=$1; out=$2; sizes=${3:-"64 128"}; steps=${4:-50}
cc=${CLANG:-clang-19}
here=$(dirname "$0")
mkdir -p "$out"
for n in $sizes; do
  $cc -O2 -DN="$n" -DSTEPS="$steps" "$here/../nas-parboil/adi.c" -lm -o "$out/adi$n.seq"
  $cc -O2 -g -DN="$n" -DSTEPS="$steps" -fpass-plugin="$build/lib/libIdiom.so" \
    "$here/../nas-parboil/adi.c" -L"$build/lib" -lidiomrt -lm -o "$out/adi$n.idiom"
done
echo "$sizes" > "$out/adi.sizes"
cp "$here/adi_gpu.sh" "$here/timing.sh" "$here/../nas-parboil/compare.py" "$out/"
