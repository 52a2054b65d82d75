#!/bin/sh
# Builds nas-parboil/gramschmidt.c with Gram-Schmidt only at PolyBench's
# LARGE size, M 1000 x N 1200 (Cholesky and LU shrunk to 2 x 2, so that the
# time is Gram-Schmidt's: about 2.3 s sequential on x86-64), sequential and
# with the plugin, into OUTDIR for bench/gs_gpu.sh on a machine without LLVM.
# The plugin distributes the j loop (passes/LoopDistribution.h): per k, a
# GEMV^T (R[k][k+1..] = Q[:,k]^T A[:,k+1..]) then the rank-1 update as a 2-D
# map, 1199 launches of each.
#   bench/build_gs_carry.sh BUILD_DIR OUTDIR
set -eu
build=$1; out=$2
cc=${CLANG:-clang-19}
here=$(dirname "$0")
np=$here/../nas-parboil
mkdir -p "$out"
gs="-DM=1000 -DN=1200 -DNC=2 -DNL=2"
$cc -O2 $gs "$np/gramschmidt.c" -lm -o "$out/gs.seq"
$cc -O2 -g $gs -fpass-plugin="$build/lib/libIdiom.so" "$np/gramschmidt.c" \
  -L"$build/lib" -lidiomrt -lm -o "$out/gs.idiom"
# The same without residency regions (each call copies its buffers: the
# k loop's region, with the host's column reads and writes routed through
# idiom_region_load/store, is what the plugin build adds).
$cc -O2 -g $gs -fpass-plugin="$build/lib/libIdiom.so" \
  -fplugin="$build/lib/libIdiom.so" -mllvm -idiom-residency=false \
  "$np/gramschmidt.c" -L"$build/lib" -lidiomrt -lm -o "$out/gs.noregion"
cp "$np/compare.py" "$here/gs_gpu.sh" "$here/timing.sh" "$out/"
