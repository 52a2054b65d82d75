#!/usr/bin/env bash
# Builds the run-time policy benchmarks (issue 12 items 3-4) into
# carry/policy/ for the lent GPU machine, which has no LLVM: bench/policy_*.c,
# test/lit/run/cost-model.c and the nas-parboil programs, each sequential
# (clang-19 -O2) and with the plugin, plus bench/run_policy_gpu.sh.
# Usage: bash bench/build_policy_carry.sh [BUILD_DIR]
# Then, on the GPU machine (device `run` with carry: ["carry/policy"]):
#   bash carry/policy/run_policy_gpu.sh
set -euo pipefail
cd "$(dirname "$0")/.."
B=${1:-build}
O=carry/policy
mkdir -p "$O/np"
idiom() { clang-19 -O2 -fpass-plugin="$B/lib/libIdiom.so" "$1" -L"$B/lib" -lidiomrt -lm -o "$2"; }
for p in iter tiny; do
  clang-19 -O2 "bench/policy_$p.c" -o "$O/$p.seq"
  idiom "bench/policy_$p.c" "$O/$p.idiom"
done
clang-19 -O2 test/lit/run/cost-model.c -o "$O/costmodel.seq"
idiom test/lit/run/cost-model.c "$O/costmodel.idiom"
clang-19 -O2 -Iruntime/include bench/policy_exitrace.c -L"$B/lib" -lidiomrt -lm \
  -o "$O/exitrace"
for p in cg ep histo image is saxpy sgemm stats; do
  clang-19 -O2 "nas-parboil/$p.c" -lm -o "$O/np/$p.seq"
  idiom "nas-parboil/$p.c" "$O/np/$p.idiom"
done
cp bench/run_policy_gpu.sh "$O/"
echo "built $O; on the GPU machine: bash $O/run_policy_gpu.sh"
