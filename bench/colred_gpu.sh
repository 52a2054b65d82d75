#!/bin/sh
# Issue 13: column reductions (PolyBench correlation's mean and standard
# deviation, j outer) as maps over the columns of a sequential reduction
# over the rows, against the sequential build. Whole-process wall time,
# median of RUNS (default 3, every run printed; two warm-up runs fill the
# program and tuning caches first): seq; the plugin build with the defaults
# and with IDIOM_DEVICE=gpu; -fno-math-errno (no errno check of sqrt) and
# -idiom-fp-reassoc=false (in-order variants only) with IDIOM_DEVICE=gpu.
# Then one IDIOM_STATS=1 run of each and a check of the outputs against the
# sequential ones (the exact build must agree bit for bit; the others within
# N * 2^-53 * 4 relative, a reassociated column sum). Binaries from
# bench/build_colred_carry.sh:
#   colred_gpu.sh DIR [RUNS] [N] [M]       (defaults 8192 8192: 512 MiB)
set -eu
dir=$1; runs=${2:-3}; n=${3:-8192}; m=${4:-8192}
. "$dir/timing.sh"
cache=$(mktemp -d)
echo "== colred N=$n M=$m"
"$dir/colred.seq" "$n" "$m" > "$dir/colred.out.seq"
series "seq" "$dir/colred.seq" "$n" "$m"; seq_ms=$last
for b in idiom noerrno exact; do
  for i in 1 2; do env IDIOM_CACHE_DIR="$cache" "$dir/colred.$b" "$n" "$m" > "$dir/colred.out.$b"; done
done
series "defaults" env IDIOM_CACHE_DIR="$cache" "$dir/colred.idiom" "$n" "$m"; def_ms=$last
series "forced gpu" env IDIOM_CACHE_DIR="$cache" IDIOM_DEVICE=gpu "$dir/colred.idiom" "$n" "$m"; gpu_ms=$last
series "-fno-math-errno forced gpu" env IDIOM_CACHE_DIR="$cache" IDIOM_DEVICE=gpu "$dir/colred.noerrno" "$n" "$m"; ne_ms=$last
series "in-order forced gpu" env IDIOM_CACHE_DIR="$cache" IDIOM_DEVICE=gpu "$dir/colred.exact" "$n" "$m"; ex_ms=$last
awk -v s="$seq_ms" -v d="$def_ms" -v f="$gpu_ms" -v e="$ne_ms" -v x="$ex_ms" 'BEGIN{printf "speed-up over seq: defaults %.2fx, forced gpu %.2fx, -fno-math-errno %.2fx, in-order %.2fx\n", s/d, s/f, s/e, s/x}'
for b in idiom noerrno exact; do
  echo "-- IDIOM_STATS colred.$b (forced gpu)"
  env IDIOM_CACHE_DIR="$cache" IDIOM_DEVICE=gpu IDIOM_STATS=1 "$dir/colred.$b" "$n" "$m" 2>&1 > "$dir/colred.out.$b" |
    grep -E "colred.c|startup|transfers" | cut -c1-300
done
if cmp -s "$dir/colred.out.seq" "$dir/colred.out.exact"; then
  echo "in-order build: outputs identical to seq"
else
  echo "in-order build: outputs DIFFER from seq"
fi
python3 - "$dir/colred.out.seq" "$n" "$dir/colred.out.idiom" "$dir/colred.out.noerrno" <<'PY'
import sys
ref, n = sys.argv[1], int(sys.argv[2])
tol = n * 2.0 ** -53 * 4
def rows(p):
    return [l.split() for l in open(p)]
a = rows(ref)
for p in sys.argv[3:]:
    b = rows(p)
    worst = 0.0
    ok = len(a) == len(b)
    for x, y in zip(a, b):
        if x[0] != y[0]:
            ok = False
        fu, fv = float(x[1]), float(y[1])
        if fu != fv:
            worst = max(worst, abs(fu - fv) / max(abs(fu), abs(fv)))
    print("%s: %s (largest relative difference %.3g, tolerance %.3g)" %
          (p, "agree" if ok and worst <= tol else "DIFFER", worst, tol))
PY
