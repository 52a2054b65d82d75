#!/bin/sh
# Builds the programs of bench/coldstart_gpu.sh (issue 12: a first run is
# never much slower than the sequential build; the second device and kernel
# builds never stall a program) into OUTDIR for a machine without LLVM:
# nas-parboil/mg.c and bench/jacobi2d.c, each as NAME.seq (clang -O2) and
# NAME.idiom (plugin, defaults), the runtime linked statically; copies
# coldstart_gpu.sh, timing.sh and compare.py beside them.
#   bench/build_coldstart_carry.sh BUILD_DIR OUTDIR
set -eu
build=$1; out=$2
cc=${CLANG:-clang-19}
here=$(dirname "$0")
plugin="$build/lib/libIdiom.so"
mkdir -p "$out"
for p in "mg $here/../nas-parboil/mg.c" "jacobi $here/jacobi2d.c"; do
  set -- $p
  $cc -O2 "$2" -lm -o "$out/$1.seq"
  $cc -O2 -g -fpass-plugin="$plugin" "$2" -L"$build/lib" -lidiomrt -lm \
    -o "$out/$1.idiom"
done
cp "$here/coldstart_gpu.sh" "$here/../nas-parboil/compare.py" "$out/"
