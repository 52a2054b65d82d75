#!/bin/sh
# Builds nas-parboil/doitgen.c and nas-parboil/gramschmidt.c at PolyBench's
# LARGE sizes (sequential, and with the plugin) into OUTDIR for
# bench/doit_gpu.sh on a machine without LLVM (issue #13):
#   bench/build_doit_carry.sh BUILD_DIR OUTDIR
# doitgen: NR 150, NQ 140, NP 160 (each kernel one GEMM over the 21000
# flattened (r, q) rows: passes/RowProducts.h), and doitgen_xl at
# EXTRALARGE (NR 250, NQ 220, NP 270) for bench/doit_gpu.py; gramschmidt.c:
# GS 1000 x 1200 (sequential), Cholesky 2000 (sequential), LU 1500 (U's
# rows: one GEMV launch per row).
set -eu
build=$1; out=$2
cc=${CLANG:-clang-19}
here=$(dirname "$0")
np=$here/../nas-parboil
mkdir -p "$out"
dg="-DNR=150 -DNQ=140 -DNP=160"
gs="-DM=1000 -DN=1200 -DNC=2000 -DNL=1500"
$cc -O2 $dg "$np/doitgen.c" -lm -o "$out/doitgen.seq"
$cc -O2 -g $dg -fpass-plugin="$build/lib/libIdiom.so" "$np/doitgen.c" -L"$build/lib" -lidiomrt -lm -o "$out/doitgen.idiom"
xl="-DNR=250 -DNQ=220 -DNP=270"
echo "250 220 270" > "$out/doitgen_xl.sizes"
$cc -O2 $xl "$np/doitgen.c" -lm -o "$out/doitgen_xl.seq"
$cc -O2 -g $xl -fpass-plugin="$build/lib/libIdiom.so" "$np/doitgen.c" -L"$build/lib" -lidiomrt -lm -o "$out/doitgen_xl.idiom"
$cc -O2 $gs "$np/gramschmidt.c" -lm -o "$out/gramschmidt.seq"
$cc -O2 -g $gs -fpass-plugin="$build/lib/libIdiom.so" "$np/gramschmidt.c" -L"$build/lib" -lidiomrt -lm -o "$out/gramschmidt.idiom"
cp "$np/compare.py" "$np/doitgen.c" "$here/doit_gpu.sh" "$here/doit_gpu.py" "$here/timing.sh" "$out/"
