#!/bin/sh
# Builds bench/heat3d.c (sequential, and with the plugin) into OUTDIR for
# bench/heat3d_gpu.sh on a machine without LLVM, with the descriptions of
# the heat kernel's variants (heat3d.variants) and the vendor baselines
# script (the device's copy bandwidth):
#   bench/build_heat3d_carry.sh BUILD_DIR OUTDIR
set -eu
build=$1; out=$2
cc=${CLANG:-clang-19}
here=$(dirname "$0")
mkdir -p "$out"
$cc -O2 "$here/heat3d.c" -o "$out/heat3d.seq"
$cc -O2 -g -fpass-plugin="$build/lib/libIdiom.so" "$here/heat3d.c" -L"$build/lib" -lidiomrt -lm -o "$out/heat3d.idiom"
# The heat nest's variants (its kernel's //@idiom-variant lines), for the
# script's rows: "K: description".
$cc -O2 -fpass-plugin="$build/lib/libIdiom.so" -S -emit-llvm "$here/heat3d.c" -o "$out/heat3d.ll"
python3 - "$out/heat3d.ll" > "$out/heat3d.variants" <<'PY'
import re, sys
for m in re.finditer(r'c"((?:[^"\\]|\\.)*)"', open(sys.argv[1]).read()):
    t = re.sub(r'\\([0-9A-Fa-f]{2})', lambda x: chr(int(x.group(1), 16)), m.group(1))
    if "idiom_heat" in t and "//@idiom-variant" in t:
        for v in re.findall(r"^//@idiom-variant (\d+ wg=\S+ ept=\S+): (.*)$", t, re.M):
            k, rest = v[0].split(" ", 1)
            print("%s: %s, %s" % (k, rest, v[1]))
        break
PY
rm -f "$out/heat3d.ll"
cp "$here/heat3d_gpu.sh" "$here/timing.sh" "$out/"
base="$here/../../shared/bench/gpu_baselines.py"
[ -f "$base" ] && cp "$base" "$out/" || true
