#!/usr/bin/env bash
# Builds bench/reduce_gpu (hand-written vs plugin-generated OpenCL sum) into
# carry/reduce/ for the lent GPU machine, which has no LLVM, and copies what
# the run there needs (bench/run_reduce_gpu.sh, ../shared/bench/gpu_baselines.py).
# Usage: bash bench/build_reduce_carry.sh [BUILD_DIR]
# Then, on the GPU machine (device `run` with carry: ["carry/reduce"]):
#   bash carry/reduce/run_reduce_gpu.sh
set -euo pipefail
cd "$(dirname "$0")/.."
B=${1:-build}
O=carry/reduce
mkdir -p "$O"
clang-19 -O2 -g -fpass-plugin="$B/lib/libIdiom.so" -c bench/reduce_gpu_sum.c -o "$O/sum.o"
clang-19 -O2 -g -Iruntime/include -c bench/reduce_gpu.c -o "$O/main.o"
clang-19 "$O/main.o" "$O/sum.o" -L"$B/lib" -lidiomrt -lOpenCL -lm -o "$O/reduce_gpu"
# The loop must have been offloaded: the object calls idiom_run.
nm "$O/sum.o" | grep -q ' U idiom_run' || { echo "sum loop was not offloaded" >&2; exit 1; }
cp bench/run_reduce_gpu.sh "$O/"
if [ -f ../shared/bench/gpu_baselines.py ]; then
  cp ../shared/bench/gpu_baselines.py "$O/"
fi
echo "built $O/reduce_gpu; on the GPU machine: bash $O/run_reduce_gpu.sh"
