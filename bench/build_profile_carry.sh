#!/bin/sh
# Builds the programs of bench/profile_gpu.sh and bench/iter_gpu.sh into
# OUTDIR for a machine without LLVM (sequential and plugin builds, the
# runtime linked statically; the nas-parboil programs into OUTDIR/np):
#   bench/build_profile_carry.sh BUILD_DIR OUTDIR
set -eu
build=$1; out=$2
cc=${CLANG:-clang-19}
here=$(dirname "$0")
plugin="$build/lib/libIdiom.so"
mkdir -p "$out"
for p in jacobi:jacobi2d axpby:residency_axpby cg:cg_csr; do
  name=${p%%:*}; src=$here/${p#*:}.c
  $cc -O2 "$src" -lm -o "$out/$name.seq"
  $cc -O2 -g -fpass-plugin="$plugin" "$src" -L"$build/lib" -lidiomrt -lm -o "$out/$name.idiom"
done
mkdir -p "$out/np"
for src in "$here"/../nas-parboil/*.c; do
  p=$(basename "$src" .c)
  $cc -O2 -g "$src" -lm -o "$out/np/$p.seq"
  $cc -O2 -g -fpass-plugin="$plugin" "$src" -L"$build/lib" -lidiomrt -lm -o "$out/np/$p.idiom"
  cp "$src" "$out/np/"
done
# A one-shot program beside them (bench/policy_tiny.c: tiny calls only).
# Both builds link as the sequential one does: without -lm, which neither
# the program nor the runtime needs (the plugin build loaded libm until
# 2026-11-28, about 10 page faults and 5 system calls more per process).
$cc -O2 -g "$here/policy_tiny.c" -o "$out/np/policy_tiny.seq"
$cc -O2 -g -fpass-plugin="$plugin" "$here/policy_tiny.c" -L"$build/lib" -lidiomrt \
  -o "$out/np/policy_tiny.idiom"
cp "$here/policy_tiny.c" "$out/np/"
cp "$here/../nas-parboil/compare.py" "$out/np/"
cp "$here/profile_gpu.sh" "$here/np_gpu.sh" "$here/np_ratio_ci.py" "$here/host_overhead_gpu.sh" "$here/timeline.sh" "$here/iter_gpu.sh" "$here/timing.sh" "$out/"
# The OpenCL driver's own start-up and exit (bench/cl_startup.c).
$cc -O2 "$here/cl_startup.c" -o "$out/cl_startup" -ldl
cp "$here/cl_startup.sh" "$out/"
