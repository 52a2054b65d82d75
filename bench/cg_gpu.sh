#!/bin/sh
# Issue 14: a CG solver whose hot loop is a CSR SpMV, every loop of its
# iteration offloaded inside one residency region (bench/cg_csr.c).
# Whole-process wall time on the machine it runs on: the sequential build
# against the plugin's with the defaults (after two warm-up runs that fill
# the program/tuning caches and the per-site profile) and with
# IDIOM_DEVICE=gpu; median of RUNS (default 3), every run printed; then one
# run with IDIOM_STATS=1 and the outputs of both builds side by side (dot
# products are reassociated: the residual norms agree to a relative 1e-6,
# checked here). Binaries from bench/build_cg_carry.sh:
#   cg_gpu.sh DIR [RUNS] [G] [ITERATIONS]
set -eu
dir=$1; runs=${2:-3}; g=${3:-2048}; it=${4:-300}
ms() { a=$(date +%s%N); "$@" > /dev/null 2>&1; b=$(date +%s%N); echo $(( (b - a) / 1000000 )); }
median() { printf '%s\n' "$@" | sort -n | sed -n "$(( ($# + 1) / 2 ))p"; }
series() { # label cmd...
  label=$1; shift; all=""
  for i in $(seq "$runs"); do all="$all $(ms "$@")"; done
  echo "$label ms: $(median $all) ($all )"
  last=$(median $all)
}
cache=$(mktemp -d)
echo "== cg_csr G=$g iterations=$it"
"$dir/cg.seq" "$g" "$it" > "$dir/cg.out.seq"
series "seq" "$dir/cg.seq" "$g" "$it"; seq_ms=$last
for i in 1 2; do env IDIOM_CACHE_DIR="$cache" "$dir/cg.idiom" "$g" "$it" > "$dir/cg.out.idiom"; done
series "defaults" env IDIOM_CACHE_DIR="$cache" "$dir/cg.idiom" "$g" "$it"; def_ms=$last
series "forced gpu" env IDIOM_CACHE_DIR="$cache" IDIOM_DEVICE=gpu "$dir/cg.idiom" "$g" "$it"; gpu_ms=$last
awk -v s="$seq_ms" -v d="$def_ms" -v f="$gpu_ms" 'BEGIN{printf "speed-up: defaults %.2fx, forced gpu %.2fx\n", s/d, s/f}'
env IDIOM_CACHE_DIR="$cache" IDIOM_STATS=1 "$dir/cg.idiom" "$g" "$it" 2>&1 >/dev/null |
  grep -E "spmv|reduction|map|residency|csr-checks|startup|transfers" | cut -c1-260
paste -d'|' "$dir/cg.out.seq" "$dir/cg.out.idiom"
python3 - "$dir/cg.out.seq" "$dir/cg.out.idiom" <<'PY'
import sys
a = [l.split() for l in open(sys.argv[1])]
b = [l.split() for l in open(sys.argv[2])]
worst = 0.0
for x, y in zip(a, b):
    for u, v in zip(x, y):
        try:
            fu, fv = float(u), float(v)
        except ValueError:
            if u != v: worst = float("inf")
            continue
        if fu != fv:
            worst = max(worst, abs(fu - fv) / max(abs(fu), abs(fv)))
print("outputs: %s (largest relative difference %.3g)" % ("agree" if len(a) == len(b) and worst <= 1e-6 else "DIFFER", worst))
PY
