#!/bin/sh
# Builds the programs of bench/twodev_gpu.sh (issue 12 item 4: per call
# site, the GPU, the CPU OpenCL device or the original loop) into OUTDIR for
# a machine without LLVM: bench/residency_axpby.c, bench/jacobi2d.c and
# nas-parboil/cg.c, each as NAME.seq (clang -O2) and NAME.idiom (plugin,
# defaults), the runtime linked statically; copies twodev_gpu.sh beside
# them.
#   bench/build_twodev_carry.sh BUILD_DIR OUTDIR
set -eu
build=$1; out=$2
cc=${CLANG:-clang-19}
here=$(dirname "$0")
plugin="$build/lib/libIdiom.so"
mkdir -p "$out"
for p in "axpby $here/residency_axpby.c" "jacobi $here/jacobi2d.c" \
         "cg $here/../nas-parboil/cg.c"; do
  set -- $p
  $cc -O2 "$2" -lm -o "$out/$1.seq"
  $cc -O2 -fpass-plugin="$plugin" "$2" -L"$build/lib" -lidiomrt -lm \
    -o "$out/$1.idiom"
done
cp "$here/twodev_gpu.sh" "$out/"
