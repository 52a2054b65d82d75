#!/usr/bin/env bash
# Runs on the lent GPU machine from the folder bench/build_sgemm_carry.sh
# filled: every generated SGEMM variant at 4096^3 (one process each,
# IDIOM_VARIANT=K, IDIOM_TUNE=off), then the tuned choice, then cuBLAS
# through gpu_baselines.py (torch) when it is there.
# Usage: bash run_sgemm_gpu.sh [M [N [K [REPS]]]]
cd "$(dirname "$0")"
export IDIOM_CACHE_DIR=$PWD/cache
rm -rf cache
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.mem --format=csv || true
echo "== every variant"
IDIOM_DEVICE=gpu ./sgemm_variants "$@"
echo "== cuBLAS (torch.matmul, gpu_baselines.py)"
if [ -f gpu_baselines.py ]; then python3 gpu_baselines.py --gemm ${1:-4096}; fi
