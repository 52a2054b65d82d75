#!/usr/bin/env bash
# Builds bench/lowering_gpu and the OpenCL of three lowerings of the sum of
# floats (bench/lowering_sum.funil) into carry/lowering/ for the lent GPU
# machine: the default two-stage reduction, explored variant 4 (split rows of
# 8 with vector loads, docs/Rewrite.md) and reduce-two-stage-lanes (a float4
# private accumulator). Then, on the GPU machine (device `run` with carry:
# ["carry/lowering"]): bash carry/lowering/run_lowering_gpu.sh
set -euo pipefail
cd "$(dirname "$0")/.."
B=${1:-build}
O=carry/lowering
mkdir -p "$O"
F="$B/bin/idiom-funil"
"$F" bench/lowering_sum.funil --emit=opencl > "$O/default.cl"
"$F" bench/lowering_sum.funil --variant=4 --emit=opencl > "$O/variant4.cl"
"$F" bench/lowering_sum.funil --rules=reduce-two-stage-lanes --emit=opencl > "$O/lanes.cl"
cc -O2 -o "$O/lowering_gpu" bench/lowering_gpu.c -lOpenCL -lm
cp bench/run_lowering_gpu.sh "$O/"
echo "built $O; on the GPU machine: bash $O/run_lowering_gpu.sh"
