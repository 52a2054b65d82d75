#!/usr/bin/env bash
# Runs on the lent GPU machine from the folder bench/build_reduce_carry.sh
# filled: the sum of 2^28 floats, hand-written float4 OpenCL vs the
# plugin-generated reduction (three processes: tuning, tuning file reused,
# IDIOM_TUNE=off), then torch.sum through ../shared/bench/gpu_baselines.py.
cd "$(dirname "$0")"
export IDIOM_CACHE_DIR=$PWD/cache
rm -rf cache
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.mem --format=csv || true
echo "== 1: first process, variants timed on the first call (IDIOM_DEBUG)"
IDIOM_DEVICE=gpu IDIOM_STATS=1 IDIOM_DEBUG=1 ./reduce_gpu 28 9 2>&1 |
  grep -v 'disk cache\|built program\|loaded program\|device:'
echo "== 2: second process, the tuning file is reused"
IDIOM_DEVICE=gpu IDIOM_STATS=1 ./reduce_gpu 28 9 2>&1
echo "== 3: IDIOM_TUNE=off, variant 0 (the default lowering)"
IDIOM_DEVICE=gpu IDIOM_TUNE=off IDIOM_STATS=1 ./reduce_gpu 28 9 2>&1
echo "== 4: torch.sum (gpu_baselines.py)"
if [ -f gpu_baselines.py ]; then python3 gpu_baselines.py --gemm --reduce-log2 28; fi
