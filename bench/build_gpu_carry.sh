#!/usr/bin/env bash
# Builds the nas-parboil programs (sequential and with the plugin) into
# carry/gpu/ for bench/run_gpu.py on the lent GPU machine, which has no LLVM.
# Usage: bash bench/build_gpu_carry.sh [BUILD_DIR]
set -euo pipefail
cd "$(dirname "$0")/.."
B=${1:-build}
mkdir -p carry/gpu
for p in cg ep histo image is saxpy sgemm stats; do
  clang-19 -O2 -g "nas-parboil/$p.c" -lm -o "carry/gpu/$p.seq"
  clang-19 -O2 -g -fpass-plugin="$B/lib/libIdiom.so" "nas-parboil/$p.c" -L"$B/lib" -lidiomrt -lm -o "carry/gpu/$p.idiom"
done
cp nas-parboil/compare.py nas-parboil/*.c bench/run_gpu.py carry/gpu/
echo "now run on the GPU machine: python3 carry/gpu/run_gpu.py"
