#!/usr/bin/env bash
# Runs on the lent GPU machine from the folder bench/build_sgemm_c_carry.sh
# filled: the naive C SGEMM called REPS times on the same matrices (issue 12:
# at least 70% of cuBLAS FP32 end to end), three processes each (the first
# process of each also tunes the variants: the summary uses the later ones)
# of sgemm_c (the default build: a residency region, the GEMM fused under the
# floating-point licence), sgemm_c_unfused (-idiom-fp-reassoc=false: the
# host's unfused multiply and add) and sgemm_c_noregion (no residency region),
# then cuBLAS through gpu_baselines.py (torch) when it is there. Each run
# prints its per-call times, "all calls: total_ms=..." (end to end, the copies
# included) and the whole process's wall time; the last lines give, per
# build, the best end-to-end and last-call kernel TFLOP/s of processes 2 and 3
# and their share of cuBLAS's TFLOP/s at N.
# Usage: bash sgemm_c_gpu.sh [N [REPS]]   (default 4096 10)
cd "$(dirname "$0")"
N=${1:-4096}
REPS=${2:-10}
export IDIOM_CACHE_DIR=$PWD/cache
rm -rf cache logs
mkdir -p logs
nvidia-smi --query-gpu=name,driver_version --format=csv || true
for bin in sgemm_c sgemm_c_unfused sgemm_c_noregion; do
  [ -x "$bin" ] || { echo "== $bin: not built"; continue; }
  for i in 1 2 3; do
    echo "== $bin $N $REPS (process $i)"
    s=$(date +%s.%N)
    IDIOM_DEVICE=gpu IDIOM_STATS=1 ./$bin "$N" "$REPS" 2> stats.txt | tee "logs/$bin.$i.txt"
    e=$(date +%s.%N)
    grep -E 'gemm calls|residency' stats.txt
    awk -v s="$s" -v e="$e" 'BEGIN { printf "process wall_s=%.3f\n", e - s }'
  done
done
echo "== cuBLAS (torch.matmul, gpu_baselines.py)"
if [ -f gpu_baselines.py ]; then
  python3 gpu_baselines.py --gemm "$N" | tee logs/cublas.json
fi
echo "== summary (processes 2 and 3, best)"
python3 - "$N" <<'PY'
import glob, json, os, re, sys
n = sys.argv[1]
cublas = None
if os.path.exists("logs/cublas.json"):
    try:
        cublas = json.load(open("logs/cublas.json"))["sgemm_tflops"][n]
    except (ValueError, KeyError):
        pass
for b in ("sgemm_c", "sgemm_c_unfused", "sgemm_c_noregion"):
    e2e, ker, checks = [], [], []
    for i in (2, 3):
        p = "logs/%s.%d.txt" % (b, i)
        if not os.path.exists(p):
            continue
        t = open(p).read()
        m = re.search(r"all calls: total_ms=([0-9.]+) TFLOP/s=([0-9.]+)", t)
        k = re.search(r"last call: kernel_ms=([0-9.]+) TFLOP/s=([0-9.]+)", t)
        c = re.search(r"check: .*: (PASS|FAIL)", t)
        if m:
            e2e.append(float(m.group(2)))
        if k:
            ker.append(float(k.group(2)))
        if c:
            checks.append(c.group(1))
    if not e2e:
        print("%s: no result" % b)
        continue
    line = "%s: end to end %.2f TFLOP/s" % (b, max(e2e))
    if cublas:
        line += " = %.1f%% of cuBLAS %.2f" % (100 * max(e2e) / cublas, cublas)
    if ker:
        line += "; last-call kernel %.2f TFLOP/s" % max(ker)
        if cublas:
            line += " = %.1f%%" % (100 * max(ker) / cublas)
    line += "; check %s" % ("/".join(checks) or "?")
    print(line)
PY
