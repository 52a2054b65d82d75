#!/bin/sh
# Gram-Schmidt's j loop on the GPU after loop distribution (issue #13): the
# whole-process wall time of the sequential build against the plugin's with
# the defaults (after two warm-up runs that fill the program/tuning caches
# and the per-site profile), with IDIOM_DEVICE=gpu, without and with
# IDIOM_MIN_TRIP=0 (also the build without residency regions, gs.noregion:
# the k loop's region keeps A, Q and R on the device, the host's column
# reads and writes routed through idiom_region_load/store), and with
# IDIOM_DEVICE=seq (every call declined: the
# unchanged loop on the host after the runtime's refusal); median of RUNS
# (default 3), every run printed; then the IDIOM_STATS lines of a run with
# every call forced and compare.py on the outputs (the GEMV^T's dot
# products are reassociated). The GEMV^T has at most 1199 outputs, fewer
# than the default IDIOM_MIN_TRIP (4096), so it is declined unless
# IDIOM_MIN_TRIP=0; a decline of that first part runs the unchanged j loop
# (the 2-D map too), so only the IDIOM_MIN_TRIP=0 series offloads the loop.
# Binaries from bench/build_gs_carry.sh:
#   gs_gpu.sh DIR [RUNS]
set -eu
dir=$1; runs=${2:-3}
. "$dir/timing.sh"
cache=$(mktemp -d)
"$dir/gs.seq" > "$dir/gs.out.seq"
series "seq" "$dir/gs.seq"; seq_ms=$last
for i in 1 2; do env IDIOM_CACHE_DIR="$cache" "$dir/gs.idiom" > /dev/null 2>&1; done
series "defaults" env IDIOM_CACHE_DIR="$cache" "$dir/gs.idiom"; def_ms=$last
series "forced gpu" env IDIOM_CACHE_DIR="$cache" IDIOM_DEVICE=gpu "$dir/gs.idiom"; gpu_ms=$last
series "forced gpu, IDIOM_MIN_TRIP=0" env IDIOM_CACHE_DIR="$cache" IDIOM_DEVICE=gpu IDIOM_MIN_TRIP=0 "$dir/gs.idiom"; all_ms=$last
series "forced gpu, IDIOM_MIN_TRIP=0, no region" env IDIOM_CACHE_DIR="$cache" IDIOM_DEVICE=gpu IDIOM_MIN_TRIP=0 "$dir/gs.noregion"; nor_ms=$last
series "declined (host)" env IDIOM_CACHE_DIR="$cache" IDIOM_DEVICE=seq "$dir/gs.idiom"; host_ms=$last
awk -v s="$seq_ms" -v d="$def_ms" -v f="$gpu_ms" -v a="$all_ms" -v n="$nor_ms" -v h="$host_ms" 'BEGIN{printf "speed-up: defaults %.2fx, forced gpu %.2fx, every call %.2fx (without the region %.2fx), declined %.2fx\n", s/d, s/f, s/a, s/n, s/h}'
env IDIOM_CACHE_DIR="$cache" IDIOM_DEVICE=gpu IDIOM_MIN_TRIP=0 IDIOM_STATS=1 "$dir/gs.idiom" \
  > "$dir/gs.out.gpu" 2> "$dir/gs.stats.gpu"
grep -E "idiom-stats: " "$dir/gs.stats.gpu" | cut -c1-260 || true
python3 "$dir/compare.py" "$dir/gs.out.seq" "$dir/gs.out.gpu" -q &&
  echo "outputs: agree (compare.py)" || echo "outputs: DIFFER (compare.py)"
env IDIOM_CACHE_DIR="$cache" IDIOM_DEVICE=gpu IDIOM_MIN_TRIP=0 IDIOM_ZERO_COPY=off "$dir/gs.idiom" > "$dir/gs.out.zc"
python3 "$dir/compare.py" "$dir/gs.out.seq" "$dir/gs.out.zc" -q &&
  echo "outputs (IDIOM_ZERO_COPY=off): agree (compare.py)" || echo "outputs (IDIOM_ZERO_COPY=off): DIFFER (compare.py)"
env IDIOM_CACHE_DIR="$cache" "$dir/gs.idiom" > "$dir/gs.out.def"
python3 "$dir/compare.py" "$dir/gs.out.seq" "$dir/gs.out.def" -q &&
  echo "outputs (defaults): agree (compare.py)" || echo "outputs (defaults): DIFFER (compare.py)"
