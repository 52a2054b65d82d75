#!/bin/sh
# Builds bench/trmm_bench.c (sequential, and with the plugin) into OUTDIR
# with bench/trmm_pocl.sh, for a machine without LLVM (the lent GPU): there
#   PREBUILT=OUTDIR IDIOM_DEVICE=gpu VARIANTS="0 6 7 auto" SEQ_REPS=2 \
#     bash OUTDIR/trmm_pocl.sh - 1024 1024 5 3
# times the band program's default lowering (variant 0), its tiled variants
# (6: 128x128x16 tiles, 8x8 per work-item; 7: 32x32x16, 4x4) and the
# runtime's tuned choice against the sequential build (docs/Benchmarks.md,
# helper "trmmtile"); FORM=lower for the lower form.
#   bench/build_trmm_carry.sh BUILD_DIR OUTDIR
set -eu
build=$1; out=$2
cc=${CLANG:-clang-19}
here=$(dirname "$0")
mkdir -p "$out"
$cc -O2 "$here/trmm_bench.c" -o "$out/trmm.seq"
$cc -O2 -fpass-plugin="$build/lib/libIdiom.so" "$here/trmm_bench.c" -L"$build/lib" -lidiomrt -lm -o "$out/trmm.idiom"
cp "$here/trmm_pocl.sh" "$out/"
