#!/usr/bin/env bash
# Runs on the lent GPU machine from the folder bench/build_sgemm_c_carry.sh
# filled: the naive C SGEMM called REPS times on the same matrices, with the
# calling loop a residency region (sgemm_c) and without (sgemm_c_noregion),
# three processes each (the first process of each also tunes the variants:
# look at the later ones), then cuBLAS through gpu_baselines.py (torch) when
# it is there. Each run prints its per-call times, "all calls: total_ms=..."
# (end to end, the copies included) and the whole process's wall time.
# Usage: bash sgemm_c_gpu.sh [N [REPS]]   (default 4096 10)
cd "$(dirname "$0")"
N=${1:-4096}
REPS=${2:-10}
export IDIOM_CACHE_DIR=$PWD/cache
rm -rf cache
nvidia-smi --query-gpu=name,driver_version --format=csv || true
for bin in sgemm_c sgemm_c_noregion; do
  for i in 1 2 3; do
    echo "== $bin $N $REPS (process $i)"
    s=$(date +%s.%N)
    IDIOM_DEVICE=gpu IDIOM_STATS=1 ./$bin "$N" "$REPS" 2> stats.txt
    e=$(date +%s.%N)
    grep -E 'gemm calls|residency' stats.txt
    awk -v s="$s" -v e="$e" 'BEGIN { printf "process wall_s=%.3f\n", e - s }'
  done
done
echo "== cuBLAS (torch.matmul, gpu_baselines.py)"
if [ -f gpu_baselines.py ]; then python3 gpu_baselines.py --gemm "$N"; fi
