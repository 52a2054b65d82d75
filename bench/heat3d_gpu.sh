#!/bin/sh
# Issue 13: the 3-D 7-point heat time loop (bench/heat3d.c), a 2-D map per
# plane inside a residency region. Whole-process wall time of the
# sequential build against the plugin's (defaults after two warm-up runs;
# IDIOM_DEVICE=gpu), median of RUNS (default 3); then the kernels' time per
# sweep from IDIOM_STATS and the bandwidth it implies (each sweep reads the
# n^3 doubles of a and writes the (n-2)^3 interior points of b), against
# the device-to-device copy bandwidth that gpu_baselines.py measures in the
# same call (when PyTorch is there). Binaries from bench/build_heat3d_carry.sh:
#   heat3d_gpu.sh DIR [RUNS] [N] [STEPS]
set -eu
dir=$1; runs=${2:-3}; n=${3:-256}; steps=${4:-300}
. "$dir/timing.sh"
cache=$(mktemp -d)
echo "== heat3d n=$n steps=$steps"
"$dir/heat3d.seq" "$n" "$steps" > "$dir/heat.out.seq"
series "seq" "$dir/heat3d.seq" "$n" "$steps"; s=$last
for i in 1 2; do IDIOM_CACHE_DIR="$cache" "$dir/heat3d.idiom" "$n" "$steps" > "$dir/heat.out.idiom"; done
series "defaults" env IDIOM_CACHE_DIR="$cache" "$dir/heat3d.idiom" "$n" "$steps"; d=$last
series "forced gpu" env IDIOM_CACHE_DIR="$cache" IDIOM_DEVICE=gpu "$dir/heat3d.idiom" "$n" "$steps"; f=$last
awk -v s="$s" -v d="$d" -v f="$f" 'BEGIN{printf "speed-up: defaults %.2fx, forced gpu %.2fx\n", s/d, s/f}'
if cmp -s "$dir/heat.out.seq" "$dir/heat.out.idiom"; then echo "outputs same"; else echo "outputs DIFFER"; fi
env IDIOM_CACHE_DIR="$cache" IDIOM_DEVICE=gpu IDIOM_STATS=1 "$dir/heat3d.idiom" "$n" "$steps" 2>&1 >/dev/null |
  grep "heat3d.c:1[0-9] " | tee "$dir/heat.stats" | cut -c1-300
km=$(sed -n 's/.* calls=\([0-9]*\) offloaded=\([0-9]*\) .* kernel_ms=\([0-9.]*\) .*/\2 \3/p' "$dir/heat.stats")
echo "$km" | awk -v n="$n" '{ per = $2 / ($1 / (n - 2)); bytes = 8 * (n^3 + (n-2)^3);
  printf "kernels: %d plane launches, %.3f ms a sweep, %.1f GB/s (read a, write b)\n", $1, per, bytes / per / 1e6 }'
if [ -f "$dir/gpu_baselines.py" ]; then python3 "$dir/gpu_baselines.py" --gemm 1024 2>/dev/null || true; fi
