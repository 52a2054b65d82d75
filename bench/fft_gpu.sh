#!/bin/sh
# Issue 13: complex FFTs over struct arrays (bench/fft.c): per step a
# forward DIF transform, an element-wise complex product and an inverse DIT
# transform, each stage a 2-D map launch, the stage loops residency regions.
# Whole-process wall time of the sequential build against the plugin's
# (defaults after two warm-up runs; IDIOM_DEVICE=gpu), median of RUNS
# (default 3); outputs compared (maps are per element as in the loop, so
# the same up to contraction: compare the printed digits); then the stage
# kernels' time per launch from IDIOM_STATS and the bandwidth it implies
# (a stage reads and writes the n complex doubles once, plus n/2 twiddles).
# Binaries from bench/build_fft_carry.sh:
#   fft_gpu.sh DIR [RUNS] [LOGN] [STEPS]
set -eu
dir=$1; runs=${2:-3}; logn=${3:-22}; steps=${4:-20}
. "$dir/timing.sh"
cache=$(mktemp -d)
echo "== fft logn=$logn steps=$steps"
"$dir/fft.seq" "$logn" "$steps" > "$dir/fft.out.seq"
series "seq" "$dir/fft.seq" "$logn" "$steps"; s=$last
for i in 1 2; do IDIOM_CACHE_DIR="$cache" "$dir/fft.idiom" "$logn" "$steps" > "$dir/fft.out.idiom"; done
series "defaults" env IDIOM_CACHE_DIR="$cache" "$dir/fft.idiom" "$logn" "$steps"; d=$last
series "forced gpu" env IDIOM_CACHE_DIR="$cache" IDIOM_DEVICE=gpu "$dir/fft.idiom" "$logn" "$steps"; f=$last
awk -v s="$s" -v d="$d" -v f="$f" 'BEGIN{printf "speed-up: defaults %.2fx, forced gpu %.2fx\n", s/d, s/f}'
echo "seq:   $(tr '\n' ' ' < "$dir/fft.out.seq")"
echo "idiom: $(tr '\n' ' ' < "$dir/fft.out.idiom")"
env IDIOM_CACHE_DIR="$cache" IDIOM_DEVICE=gpu IDIOM_STATS=1 "$dir/fft.idiom" "$logn" "$steps" 2>&1 >/dev/null |
  grep "idiom-stats" | tee "$dir/fft.stats" | cut -c1-300
sed -n 's/.*fft.c:\(25\|42\) map calls=\([0-9]*\) offloaded=\([0-9]*\) .* kernel_ms=\([0-9.]*\) .*/\3 \4/p' "$dir/fft.stats" |
  awk -v logn="$logn" '{ n = 2^logn; per = $2 / $1; bytes = 16 * (2 * n + n / 2);
    printf "stage kernels: %d launches, %.3f ms a launch, %.1f GB/s\n", $1, per, bytes / per / 1e6 }'
