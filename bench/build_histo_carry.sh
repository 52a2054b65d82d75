#!/bin/sh
# Builds the histogram benchmark (issue 14) into OUTDIR for bench/histo_gpu.sh
# on a machine without LLVM: bench/histo_kernel.c sequential (histo.seq) and
# with the plugin (histo.idiom, the runtime linked statically), the
# hand-written OpenCL histogram bench/histo_hand.c (histo_hand, linked with
# the ICD loader -lOpenCL), the kernel variants the plugin embedded
# (variants.txt) and the driver:
#   bench/build_histo_carry.sh BUILD_DIR OUTDIR      (e.g. build carry/histo)
# Then, on the GPU machine: sh OUTDIR/histo_gpu.sh OUTDIR
set -eu
build=$1; out=$2
cc=${CLANG:-clang-19}
here=$(dirname "$0")
mkdir -p "$out"
$cc -O2 "$here/histo_kernel.c" -o "$out/histo.seq"
$cc -O2 -g -fpass-plugin="$build/lib/libIdiom.so" -Rpass=idiom-offload \
  -c "$here/histo_kernel.c" -o "$out/histo.o" 2> "$out/remarks.txt"
# Every histogram loop must have been offloaded.
n=$(grep -c "offloaded histogram" "$out/remarks.txt" || true)
[ "$n" = 4 ] || { cat "$out/remarks.txt" >&2; echo "expected 4 offloaded histograms, got $n" >&2; exit 1; }
$cc "$out/histo.o" -L"$build/lib" -lidiomrt -lm -o "$out/histo.idiom"
rm -f "$out/histo.o"
$cc -O2 -Wall "$here/histo_hand.c" -lOpenCL -o "$out/histo_hand"
# The variant markers of the histogram kernels' OpenCL, as embedded.
grep -a -o '//@idiom-variant [0-9][^"]*atomics[^"]*\|//@idiom-variant [0-9][^"]*local memory[^"]*' \
  "$out/histo.idiom" | sort -u > "$out/variants.txt"
cp "$here/histo_gpu.sh" "$out/"
echo "built $out; on the GPU machine: sh $out/histo_gpu.sh $out"
