#!/bin/sh
# Issue #13 on the GPU: PolyBench doitgen (each (r, q) nest one GEMM over the
# flattened rows through an expanded temporary: passes/RowProducts.h; the
# chain a GEMV per row) and gramschmidt.c (Gram-Schmidt and Cholesky
# sequential, LU's rows of U one GEMV launch per row). Whole-process wall
# time of the sequential build against the plugin's with the defaults
# (after two warm-up runs that fill the program/tuning caches and the
# per-site profile) and with IDIOM_DEVICE=gpu, without and with
# IDIOM_MIN_TRIP=0; median of RUNS (default 3), every run printed; then the
# IDIOM_STATS lines of one run with every call forced and compare.py on both
# outputs. bench/doit_gpu.py measures doitgen at EXTRALARGE and the batched
# GEMM's kernel against cuBLAS.
# Binaries from bench/build_doit_carry.sh:
#   doit_gpu.sh DIR [RUNS]
set -eu
dir=$1; runs=${2:-3}
. "$dir/timing.sh"
cache=$(mktemp -d)
for p in doitgen gramschmidt; do
  echo "== $p"
  "$dir/$p.seq" > "$dir/$p.out.seq"
  series "seq" "$dir/$p.seq"; seq_ms=$last
  for i in 1 2; do env IDIOM_CACHE_DIR="$cache" "$dir/$p.idiom" > /dev/null 2>&1; done
  series "defaults" env IDIOM_CACHE_DIR="$cache" "$dir/$p.idiom"; def_ms=$last
  series "forced gpu" env IDIOM_CACHE_DIR="$cache" IDIOM_DEVICE=gpu "$dir/$p.idiom"; gpu_ms=$last
  # The remaining GEMVs have fewer outputs (160, at most 1500) than the
  # default IDIOM_MIN_TRIP (4096): every call, also the small ones.
  series "forced gpu, IDIOM_MIN_TRIP=0" env IDIOM_CACHE_DIR="$cache" IDIOM_DEVICE=gpu IDIOM_MIN_TRIP=0 "$dir/$p.idiom"; all_ms=$last
  awk -v s="$seq_ms" -v d="$def_ms" -v f="$gpu_ms" -v a="$all_ms" 'BEGIN{printf "speed-up: defaults %.2fx, forced gpu %.2fx, every call %.2fx\n", s/d, s/f, s/a}'
  env IDIOM_CACHE_DIR="$cache" IDIOM_DEVICE=gpu IDIOM_MIN_TRIP=0 IDIOM_STATS=1 "$dir/$p.idiom" \
    > "$dir/$p.out.gpu" 2> "$dir/$p.stats.gpu"
  grep -E "idiom-stats: " "$dir/$p.stats.gpu" | cut -c1-260 || true
  python3 "$dir/compare.py" "$dir/$p.out.seq" "$dir/$p.out.gpu" -q &&
    echo "outputs: agree (compare.py)" || echo "outputs: DIFFER (compare.py)"
done
