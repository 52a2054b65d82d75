#!/bin/sh
# Builds bench/jacobi2d.c into OUTDIR for bench/jacobi_gpu.sh on a machine
# without LLVM: jacobi.seq (clang -O2), jacobi.idiom (plugin, defaults) and
# jacobi.noregion (-idiom-residency=false), the runtime linked statically;
# and cl_startup (bench/cl_startup.c: the OpenCL driver's own start-up and
# exit, the floor under the plugin build's time; run with cl_startup.sh).
#   bench/build_jacobi_carry.sh BUILD_DIR OUTDIR
set -eu
build=$1; out=$2
cc=${CLANG:-clang-19}
src=$(dirname "$0")/jacobi2d.c
plugin="$build/lib/libIdiom.so"
mkdir -p "$out"
$cc -O2 "$src" -o "$out/jacobi.seq"
$cc -O2 -fpass-plugin="$plugin" "$src" -L"$build/lib" -lidiomrt -lm -o "$out/jacobi.idiom"
$cc -O2 -fpass-plugin="$plugin" -fplugin="$plugin" -mllvm -idiom-residency=false \
  "$src" -L"$build/lib" -lidiomrt -lm -o "$out/jacobi.noregion"
$cc -O2 "$(dirname "$0")/cl_startup.c" -o "$out/cl_startup" -ldl
cp "$(dirname "$0")/cl_startup.sh" "$(dirname "$0")/jacobi_gpu.sh" "$(dirname "$0")/jacobi_knobs.sh" "$(dirname "$0")/timeline.sh" "$out/"
