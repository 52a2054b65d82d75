#!/usr/bin/env bash
# Builds bench/sgemm_c (the naive C SGEMM loop, offloaded as a GEMM by the
# plugin) into carry/sgemm_c/ for the lent GPU machine, which has no LLVM:
# sgemm_c, the default build: the loop of calls is a residency region (the
# matrices are copied to the device once and C back once, docs/ARCHITECTURE.md
# "Residency") and the GEMM's llvm.fmuladd is fused (fma) under the
# floating-point licence (issue 12; docs/ARCHITECTURE.md "GEMMs under the
# licence: accuracy"); sgemm_c_unfused, built with -mllvm
# -idiom-fp-reassoc=false (the host's unfused multiply and add, the figures
# before the licence); sgemm_c_noregion, built with -mllvm
# -idiom-residency=false (every call copies its buffers both ways); plus the
# run script sgemm_c_gpu.sh.
# The build fails unless the loop was offloaded (remark and idiom_run call),
# the calling loop became a region, the default kernels are fused (remark and
# fma( in the embedded OpenCL) and the unfused ones are not.
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
PLUGIN=(-fpass-plugin="$B/lib/libIdiom.so" -fplugin="$B/lib/libIdiom.so")
REMARKS=(-Rpass=idiom-offload -Rpass-analysis=idiom-offload)
# One object per build: the default (fused), the licence off (unfused).
build_obj() { # NAME EXTRA-FLAGS...
  local name=$1
  shift
  clang-19 -O2 -g "${PLUGIN[@]}" "$@" -Iruntime/include -c bench/sgemm_c.c \
    -o "$O/$name.o" "${REMARKS[@]}" 2> "$O/remarks_$name.txt"
  grep -q 'remark: offloaded GEMM (gemm)' "$O/remarks_$name.txt" ||
    { cat "$O/remarks_$name.txt" >&2; echo "$name: the SGEMM loop was not offloaded" >&2; exit 1; }
  nm "$O/$name.o" | grep -q ' U idiom_run' ||
    { echo "$name.o does not call idiom_run" >&2; exit 1; }
  clang-19 -O2 "${PLUGIN[@]}" "$@" -Iruntime/include -S -emit-llvm bench/sgemm_c.c \
    -o "$O/$name.ll"
}
build_obj sgemm_c
grep -q 'remark: residency region' "$O/remarks_sgemm_c.txt" ||
  { cat "$O/remarks_sgemm_c.txt" >&2; echo "the loop of calls is no residency region" >&2; exit 1; }
grep -q 'of the GEMM are fused (fma) on the device' "$O/remarks_sgemm_c.txt" ||
  { cat "$O/remarks_sgemm_c.txt" >&2; echo "sgemm_c: the GEMM is not fused" >&2; exit 1; }
grep '@idiom_sgemm_naive_[0-9]*\.source' "$O/sgemm_c.ll" | grep -q 'fma(' ||
  { echo "sgemm_c: no fma( in the GEMM's OpenCL" >&2; exit 1; }
build_obj sgemm_c_unfused -mllvm -idiom-fp-reassoc=false
if grep -q 'fused (fma)' "$O/remarks_sgemm_c_unfused.txt" ||
   grep '@idiom_sgemm_naive_[0-9]*\.source' "$O/sgemm_c_unfused.ll" | grep -q 'fma('; then
  echo "sgemm_c_unfused: the GEMM is fused" >&2
  exit 1
fi
rm -f "$O"/*.ll
clang-19 "$O/sgemm_c.o" -L"$B/lib" -lidiomrt -lm -o "$O/sgemm_c"
clang-19 "$O/sgemm_c_unfused.o" -L"$B/lib" -lidiomrt -lm -o "$O/sgemm_c_unfused"
clang-19 -O2 -g "${PLUGIN[@]}" -mllvm -idiom-residency=false -Iruntime/include \
  bench/sgemm_c.c -L"$B/lib" -lidiomrt -lm -o "$O/sgemm_c_noregion"
cp bench/sgemm_c_gpu.sh "$O/"
if [ -f ../shared/bench/gpu_baselines.py ]; then
  cp ../shared/bench/gpu_baselines.py "$O/"
fi
echo "built $O; on the GPU machine: bash $O/sgemm_c_gpu.sh 4096 10"
