#!/bin/sh
# Builds the upper-triangle histogram benchmark (issue 14, tpacf's DD) into
# OUTDIR for bench/tpacf_gpu.sh on a machine without LLVM: bench/tpacf_dd.c
# sequential (tpacf.seq) and with the plugin (tpacf.idiom, the runtime
# linked statically), and the driver:
#   bench/build_tpacf_carry.sh BUILD_DIR OUTDIR      (e.g. build carry/tpacf)
# Then, on the GPU machine: sh OUTDIR/tpacf_gpu.sh OUTDIR
set -eu
build=$1; out=$2
cc=${CLANG:-clang-19}
here=$(dirname "$0")
mkdir -p "$out"
$cc -O2 "$here/tpacf_dd.c" -lm -o "$out/tpacf.seq"
$cc -O2 -g -fpass-plugin="$build/lib/libIdiom.so" -Rpass=idiom-offload \
  -c "$here/tpacf_dd.c" -o "$out/tpacf.o" 2> "$out/remarks.txt"
grep -q "offloaded histogram (histogram-triangle)" "$out/remarks.txt" ||
  { cat "$out/remarks.txt" >&2; echo "the triangle was not offloaded" >&2; exit 1; }
$cc "$out/tpacf.o" -L"$build/lib" -lidiomrt -lm -o "$out/tpacf.idiom"
rm -f "$out/tpacf.o"
cp "$here/tpacf_gpu.sh" "$out/"
echo "built $out; on the GPU machine: sh $out/tpacf_gpu.sh $out"
