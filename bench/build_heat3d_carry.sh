#!/bin/sh
# Builds bench/heat3d.c (sequential, and with the plugin) into OUTDIR for
# bench/heat3d_gpu.sh on a machine without LLVM (the script measures the
# device's copy bandwidth itself, with PyTorch; the vendor baselines script
# comes along for the other baselines):
#   bench/build_heat3d_carry.sh BUILD_DIR OUTDIR
set -eu
build=$1; out=$2
cc=${CLANG:-clang-19}
here=$(dirname "$0")
mkdir -p "$out"
$cc -O2 "$here/heat3d.c" -o "$out/heat3d.seq"
$cc -O2 -g -fpass-plugin="$build/lib/libIdiom.so" "$here/heat3d.c" -L"$build/lib" -lidiomrt -lm -o "$out/heat3d.idiom"
cp "$here/heat3d_gpu.sh" "$here/timing.sh" "$out/"
base="$here/../../shared/bench/gpu_baselines.py"
[ -f "$base" ] && cp "$base" "$out/" || true
