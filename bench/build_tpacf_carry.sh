#!/bin/sh
# Builds the upper-triangle histogram benchmark (issue 14, tpacf's DD) and
# the scatter-add program nas-parboil/gridding.c into OUTDIR for
# bench/tpacf_gpu.sh on a machine without LLVM: each sequential (.seq) and
# with the plugin (.idiom, the runtime linked statically), compare.py, and
# the driver:
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
$cc -O2 "$here/../nas-parboil/gridding.c" -o "$out/gridding.seq"
$cc -O2 -g -fpass-plugin="$build/lib/libIdiom.so" -Rpass=idiom-offload \
  -c "$here/../nas-parboil/gridding.c" -o "$out/gridding.o" 2>> "$out/remarks.txt"
[ "$(grep -c 'gridding.c.*offloaded histogram' "$out/remarks.txt")" -ge 2 ] ||
  { echo "the gridding scatter-adds were not offloaded" >&2; exit 1; }
$cc "$out/gridding.o" -L"$build/lib" -lidiomrt -lm -o "$out/gridding.idiom"
rm -f "$out/gridding.o"
cp "$here/../nas-parboil/compare.py" "$here/../nas-parboil/gridding.c" "$out/"
cp "$here/tpacf_gpu.sh" "$out/"
echo "built $out; on the GPU machine: sh $out/tpacf_gpu.sh $out"
