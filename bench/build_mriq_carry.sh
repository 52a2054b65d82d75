#!/bin/sh
# Builds nas-parboil/mriq.c (Parboil mri-q, issue 13) into OUTDIR for
# bench/mriq_gpu.sh on a machine without LLVM: the sequential build
# (mriq.seq), the plugin's (mriq.idiom: ComputeQ as one outer-loop
# accumulation, cosf/sinf behind the errno check), the same with
# -fno-math-errno (mriq.noerrno: no check), and the plugin's with the map
# spec alone and -fno-math-errno (mriq.perk: the inner loop of ComputeQ as a
# map launched once per k, the behaviour before issue 13; with errno-setting
# calls the loads of kx[k] stay in the inner loop and it is not a map at
# all); the plugin builds with -idiom-approx-libm as run.sh builds mriq.
#   bench/build_mriq_carry.sh BUILD_DIR OUTDIR
set -eu
build=$1; out=$2
cc=${CLANG:-clang-19}
here=$(dirname "$0")
src="$here/../nas-parboil/mriq.c"
plug="$build/lib/libIdiom.so"
mkdir -p "$out"
$cc -O2 "$src" -lm -o "$out/mriq.seq"
$cc -O2 -g -fpass-plugin="$plug" -fplugin="$plug" -mllvm -idiom-approx-libm \
  "$src" -L"$build/lib" -lidiomrt -lm -o "$out/mriq.idiom"
$cc -O2 -g -fno-math-errno -fpass-plugin="$plug" -fplugin="$plug" \
  -mllvm -idiom-approx-libm "$src" -L"$build/lib" -lidiomrt -lm \
  -o "$out/mriq.noerrno"
$cc -O2 -g -fno-math-errno -fpass-plugin="$plug" -fplugin="$plug" \
  -mllvm -idiom-approx-libm -mllvm -idiom-builtin-specs=false \
  -mllvm -idiom-spec="$here/../constraints/specs/map.idl" \
  "$src" -L"$build/lib" -lidiomrt -lm -o "$out/mriq.perk"
cp "$here/mriq_gpu.sh" "$here/timing.sh" "$out/"
