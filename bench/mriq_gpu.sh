#!/bin/sh
# Issue 13: Parboil mri-q's ComputeQ (k outer, x inner, Qr[x] and Qi[x]
# accumulated with cosf/sinf) as one outer-loop accumulation, against the
# same nest with its inner map launched once per k, and the sequential
# build. Whole-process wall time, median of RUNS (default 3, every run
# printed; two warm-up runs fill the program and tuning caches first):
# seq; the accumulation with the defaults and with IDIOM_DEVICE=gpu, with and
# without its errno check (-fno-math-errno); the per-k maps with
# IDIOM_DEVICE=gpu (-fno-math-errno). Then one IDIOM_STATS=1 run of each
# plugin build (calls=1 for the accumulation, calls=NK for the per-k map)
# and a check of the outputs against the sequential ones: each Q element
# sums NK terms in k's order, the device's cosf/sinf within 4 ulp, so
# |dQ| <= 4 * NK * 2^-24 (times 1.25 of slack); sums over NX points NX times
# that. Binaries from bench/build_mriq_carry.sh:
#   mriq_gpu.sh DIR [RUNS] [NK] [NX]       (defaults: Parboil large, 3072 262144)
set -eu
dir=$1; runs=${2:-3}; nk=${3:-3072}; nx=${4:-262144}
. "$dir/timing.sh"
cache=$(mktemp -d)
echo "== mriq NK=$nk NX=$nx"
"$dir/mriq.seq" "$nk" "$nx" > "$dir/mriq.out.seq"
series "seq" "$dir/mriq.seq" "$nk" "$nx"; seq_ms=$last
for b in idiom noerrno perk; do
  for i in 1 2; do env IDIOM_CACHE_DIR="$cache" "$dir/mriq.$b" "$nk" "$nx" > "$dir/mriq.out.$b"; done
done
series "accumulation defaults" env IDIOM_CACHE_DIR="$cache" "$dir/mriq.idiom" "$nk" "$nx"; def_ms=$last
series "accumulation forced gpu" env IDIOM_CACHE_DIR="$cache" IDIOM_DEVICE=gpu "$dir/mriq.idiom" "$nk" "$nx"; gpu_ms=$last
series "accumulation -fno-math-errno forced gpu" env IDIOM_CACHE_DIR="$cache" IDIOM_DEVICE=gpu "$dir/mriq.noerrno" "$nk" "$nx"; ne_ms=$last
series "per-k maps forced gpu" env IDIOM_CACHE_DIR="$cache" IDIOM_DEVICE=gpu "$dir/mriq.perk" "$nk" "$nx"; perk_ms=$last
awk -v s="$seq_ms" -v d="$def_ms" -v f="$gpu_ms" -v n="$ne_ms" -v p="$perk_ms" 'BEGIN{printf "speed-up over seq: accumulation defaults %.2fx, forced gpu %.2fx, -fno-math-errno forced gpu %.2fx; per-k maps forced gpu %.2fx\n", s/d, s/f, s/n, s/p}'
for b in idiom noerrno perk; do
  echo "-- IDIOM_STATS mriq.$b (forced gpu)"
  env IDIOM_CACHE_DIR="$cache" IDIOM_DEVICE=gpu IDIOM_STATS=1 "$dir/mriq.$b" "$nk" "$nx" 2>&1 > "$dir/mriq.out.$b" |
    grep -E "mriq.c" | cut -c1-300
done
python3 - "$dir/mriq.out.seq" "$nk" "$nx" "$dir/mriq.out.idiom" "$dir/mriq.out.noerrno" "$dir/mriq.out.perk" <<'PY'
import sys
ref, nk, nx = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
elem = 1.25 * 4 * nk * 2.0 ** -24
def rows(p):
    return [l.split() for l in open(p)]
a = rows(ref)
for p in sys.argv[4:]:
    b = rows(p)
    worst, ok = 0.0, len(a) == len(b)
    for x, y in zip(a, b):
        if x[0] != y[0] or len(x) != len(y):
            ok = False
            continue
        tol = 0.0 if x[0] == "n" else elem * nx if x[0].startswith("qsum") else \
              1e-6 * abs(float(x[1])) if x[0].startswith("phisum") else elem
        for u, v in zip(x[1:], y[1:]):
            d = abs(float(u) - float(v))
            worst = max(worst, d / tol if tol else (0 if d == 0 else float("inf")))
            ok = ok and d <= tol
    print("%s: %s (largest difference %.3g of the tolerance)" % (p, "agree" if ok else "DIFFER", worst))
PY
