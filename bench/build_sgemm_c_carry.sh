#!/usr/bin/env bash
# Builds bench/sgemm_c (the naive C SGEMM loop, offloaded as a GEMM by the
# plugin) into carry/sgemm_c/ for the lent GPU machine, which has no LLVM:
# sgemm_c, whose loop of calls is a residency region (the matrices are copied
# to the device once and C back once, docs/ARCHITECTURE.md "Residency"), and
# sgemm_c_noregion, built with -mllvm -idiom-residency=false (every call
# copies its buffers both ways), plus the run script sgemm_c_gpu.sh.
# The build fails unless the loop was offloaded (remark and idiom_run call)
# and the calling loop became a region.
# Usage: bash bench/build_sgemm_c_carry.sh [BUILD_DIR]
# Then, on the GPU machine (device `run` with carry: ["carry/sgemm_c"]):
#   bash carry/sgemm_c/sgemm_c_gpu.sh 4096 10
# or one binary: IDIOM_DEVICE=gpu carry/sgemm_c/sgemm_c 4096 3
# (IDIOM_STATS=1 adds the runtime's per-idiom report on stderr.)
set -euo pipefail
cd "$(dirname "$0")/.."
B=${1:-build}
O=carry/sgemm_c
mkdir -p "$O"
clang-19 -O2 -g -fpass-plugin="$B/lib/libIdiom.so" -Iruntime/include \
  -c bench/sgemm_c.c -o "$O/sgemm_c.o" -Rpass=idiom-offload 2> "$O/remarks.txt"
grep -q 'remark: offloaded GEMM (gemm)' "$O/remarks.txt" ||
  { cat "$O/remarks.txt" >&2; echo "the SGEMM loop was not offloaded" >&2; exit 1; }
grep -q 'remark: residency region' "$O/remarks.txt" ||
  { cat "$O/remarks.txt" >&2; echo "the loop of calls is no residency region" >&2; exit 1; }
nm "$O/sgemm_c.o" | grep -q ' U idiom_run' ||
  { echo "sgemm_c.o does not call idiom_run" >&2; exit 1; }
clang-19 "$O/sgemm_c.o" -L"$B/lib" -lidiomrt -lm -o "$O/sgemm_c"
clang-19 -O2 -g -fpass-plugin="$B/lib/libIdiom.so" -fplugin="$B/lib/libIdiom.so" \
  -mllvm -idiom-residency=false -Iruntime/include bench/sgemm_c.c \
  -L"$B/lib" -lidiomrt -lm -o "$O/sgemm_c_noregion"
cp bench/sgemm_c_gpu.sh "$O/"
if [ -f ../shared/bench/gpu_baselines.py ]; then
  cp ../shared/bench/gpu_baselines.py "$O/"
fi
echo "built $O; on the GPU machine: bash $O/sgemm_c_gpu.sh 4096 10"
