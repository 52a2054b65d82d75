#!/bin/sh
# Builds bench/residency_axpby.c and bench/jacobi2d.c into OUTDIR for
# bench/zerocopy_cpu.sh on a machine without LLVM (the GPU machine, which
# has PoCL's CPU device besides the GPU): NAME.seq (clang -O2) and
# NAME.idiom (plugin, defaults), the runtime linked statically; and
# pocl_fixed_sum (bench/pocl_fixed_sum.c, dynamic libOpenCL.so.1).
#   bench/build_zerocopy_carry.sh BUILD_DIR OUTDIR
set -eu
build=$1; out=$2
cc=${CLANG:-clang-19}
here=$(dirname "$0")
plugin="$build/lib/libIdiom.so"
mkdir -p "$out"
for p in residency_axpby jacobi2d; do
  $cc -O2 "$here/$p.c" -o "$out/$p.seq"
  $cc -O2 -fpass-plugin="$plugin" "$here/$p.c" -L"$build/lib" -lidiomrt -lm \
    -o "$out/$p.idiom"
done
# the fixed-order sum's shapes (docs/Benchmarks.md, helper zcback): run
# there as OUTDIR/pocl_fixed_sum [log2 N] [reps]
$cc -O2 "$here/pocl_fixed_sum.c" -lOpenCL -lm -o "$out/pocl_fixed_sum"
cp "$here/zerocopy_cpu.sh" "$out/"
