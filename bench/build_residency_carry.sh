#!/bin/sh
# Builds bench/residency_axpby.c three ways into OUTDIR for
# bench/residency_gpu.sh on a machine without LLVM: axpby.seq (clang -O2),
# axpby.region (plugin, residency regions on) and axpby.noregion
# (-idiom-residency=false), the runtime linked statically.
#   bench/build_residency_carry.sh BUILD_DIR OUTDIR
set -eu
build=$1; out=$2
cc=${CLANG:-/usr/lib/llvm-19/bin/clang}
src=$(dirname "$0")/residency_axpby.c
plugin="$build/lib/libIdiom.so"
mkdir -p "$out"
$cc -O2 "$src" -o "$out/axpby.seq"
$cc -O2 -fpass-plugin="$plugin" "$src" -L"$build/lib" -lidiomrt -lm -o "$out/axpby.region"
$cc -O2 -fpass-plugin="$plugin" -fplugin="$plugin" -mllvm -idiom-residency=false \
  "$src" -L"$build/lib" -lidiomrt -lm -o "$out/axpby.noregion"
cp "$(dirname "$0")/residency_gpu.sh" "$out/"
