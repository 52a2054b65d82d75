#!/usr/bin/env bash
# Runs on the lent GPU machine from the folder bench/build_sgemm_carry.sh
# filled: every default SGEMM variant at 4096^3 (one process each,
# IDIOM_VARIANT=K, IDIOM_TUNE=off, ranked table), with --candidates the
# whole candidate set too (ranked), then cuBLAS through gpu_baselines.py
# (torch) when it is there.
# Usage: bash run_sgemm_gpu.sh [--candidates] [M [N [K [REPS]]]]
cd "$(dirname "$0")"
CAND=0
if [ "${1:-}" = "--candidates" ]; then
  CAND=1
  shift
fi
export IDIOM_CACHE_DIR=$PWD/cache
rm -rf cache
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.mem --format=csv || true
echo "== default variants"
IDIOM_DEVICE=gpu ./sgemm_variants "$@"
if [ "$CAND" = 1 ]; then
  echo "== candidate set"
  IDIOM_DEVICE=gpu ./sgemm_candidates "$@"
fi
echo "== cuBLAS (torch.matmul, gpu_baselines.py)"
if [ -f gpu_baselines.py ]; then python3 gpu_baselines.py --gemm ${1:-4096}; fi
