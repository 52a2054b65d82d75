#!/usr/bin/env bash
# opencl_gen_time.sh - how much of the plugin's compile time is OpenCL
# generation, and how much of that is kernel variants.
#
# Usage: opencl_gen_time.sh [BUILD_DIR]
#
# For each nas-parboil/PROG.c: takes the lifted FunIL of every offloaded idiom
# from opt's print<idiom> output, then times rewrite::generateOpenCL on those
# programs with one variant and with the default (bench/opencl_gen_time.cpp,
# linked against BUILD_DIR's librewrite.a and libfunil.a). Thread CPU time.
set -euo pipefail
B=$(cd "${1:-build}" && pwd)
ROOT=$(cd "$(dirname "$0")/.." && pwd)
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
"${CXX:-g++}" -O2 -std=c++17 -I"$ROOT/funil/include" -I"$ROOT/rewrite/include" \
  "$ROOT/bench/opencl_gen_time.cpp" "$B/lib/librewrite.a" "$B/lib/libfunil.a" \
  -o "$TMP/gen"
for src in "$ROOT"/nas-parboil/*.c; do
  p=$(basename "$src" .c)
  # Vectorised or unrolled loops would differ from what the plugin sees.
  clang-19 -O2 -g -fno-vectorize -fno-unroll-loops -S -emit-llvm "$src" -o "$TMP/$p.ll"
  IDIOM_CACHE_DIR=off opt-19 -load-pass-plugin="$B/lib/libIdiom.so" \
    -passes='loop-simplify,lcssa,print<idiom>' -disable-output "$TMP/$p.ll" |
    awk -v out="$TMP/$p" '/^FunIL:$/ { n++; f = out "_" n ".funil"; on = 1; next }
         /^(Lowered FunIL:|not offloaded)/ { on = 0 }
         on { print > f }'
  if ls "$TMP/$p"_*.funil >/dev/null 2>&1; then
    echo -n "$p: "
    "$TMP/gen" "$TMP/$p"_*.funil
  fi
done
