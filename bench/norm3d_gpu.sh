#!/bin/sh
# Issue 13: NAS MG's norm2u3 as one 3-D scalar reduction over the flattened
# grid (one launch a call), against the sequential build. Whole-process wall
# time, median of RUNS (default 3, every run printed; two warm-up runs fill
# the program and tuning caches first): seq, the plugin build with the
# defaults and with IDIOM_DEVICE=gpu. Then one IDIOM_STATS=1 run (kernel
# and transfer ms of the site) and a check of the outputs: rnmu (a max) must
# equal seq's; rnm2 and mean (reassociated sums) within N^3 * 2^-53 * 4
# relative. Binaries from bench/build_norm3d_carry.sh:
#   norm3d_gpu.sh DIR [RUNS] [N] [REPS]     (defaults 3 256 20)
set -eu
dir=$1; runs=${2:-3}; n=${3:-256}; reps=${4:-20}
. "$dir/timing.sh"
cache=$(mktemp -d)
echo "== norm3d N=$n REPS=$reps"
"$dir/norm3d.seq" "$n" "$reps" > "$dir/norm3d.out.seq"
series "seq" "$dir/norm3d.seq" "$n" "$reps"; seq_ms=$last
for i in 1 2; do env IDIOM_CACHE_DIR="$cache" "$dir/norm3d.idiom" "$n" "$reps" > /dev/null; done
series "defaults" env IDIOM_CACHE_DIR="$cache" "$dir/norm3d.idiom" "$n" "$reps"; def_ms=$last
series "forced gpu" env IDIOM_CACHE_DIR="$cache" IDIOM_DEVICE=gpu "$dir/norm3d.idiom" "$n" "$reps"; gpu_ms=$last
awk -v s="$seq_ms" -v d="$def_ms" -v f="$gpu_ms" 'BEGIN{printf "speed-up over seq: defaults %.2fx, forced gpu %.2fx\n", s/d, s/f}'
echo "-- IDIOM_STATS norm3d.idiom (forced gpu)"
env IDIOM_CACHE_DIR="$cache" IDIOM_DEVICE=gpu IDIOM_STATS=1 "$dir/norm3d.idiom" "$n" "$reps" 2>&1 > "$dir/norm3d.out.idiom" |
  grep -E "norm3d.c|startup|transfers" | cut -c1-300
python3 - "$dir/norm3d.out.seq" "$dir/norm3d.out.idiom" "$n" <<'PY'
import sys
a = dict(l.split() for l in open(sys.argv[1]))
b = dict(l.split() for l in open(sys.argv[2]))
tol = int(sys.argv[3]) ** 3 * 2.0 ** -53 * 4
ok = a.keys() == b.keys() and a["rnmu"] == b["rnmu"]
worst = 0.0
for k in ("rnm2", "mean"):
    x, y = float(a[k]), float(b[k])
    if x != y:
        worst = max(worst, abs(x - y) / max(abs(x), abs(y)))
print("outputs %s (rnmu exact; largest relative difference of the sums %.3g, tolerance %.3g)" %
      ("agree" if ok and worst <= tol else "DIFFER", worst, tol))
PY
rm -rf "$cache"
