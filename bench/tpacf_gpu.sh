#!/bin/sh
# Issue 14, tpacf's DD: the upper-triangle all-pairs histogram offloaded as
# one masked rectangle. For each N: the sequential build and the plugin
# build print the same bins (exact 64-bit counts); wall time, median of
# RUNS, of the sequential build, the plugin build forced onto $DEV
# (IDIOM_COST=off) and with the defaults (cost model); kernel time per call
# and the variant from IDIOM_STATS of the forced run (a second process, so
# that the first one's tuning is read from the cache).
# Then nas-parboil/gridding.c (scatter-adds over a neighbourhood): outputs
# compared with compare.py (its tolerances), kernel time per site, wall
# times as above.
# Binaries from bench/build_tpacf_carry.sh:
#   tpacf_gpu.sh DIR [RUNS]          (default 3)
# Environment: DEV (default gpu), SIZES (default "4096 16384 32768"),
# REPS (calls per process, default 3).
set -eu
dir=$1; runs=${2:-3}
dev=${DEV:-gpu}
sizes=${SIZES:-"4096 16384 32768"}
reps=${REPS:-3}
tmp=$(mktemp -d)
status=0
ms() { a=$(date +%s%N); "$@" > /dev/null 2>&1; b=$(date +%s%N); echo $(( (b - a) / 1000000 )); }
median() { printf '%s\n' "$@" | sort -n | sed -n "$(( ($# + 1) / 2 ))p"; }
series() {
  all=""
  for i in $(seq "$runs"); do all="$all $(ms "$@")"; done
  echo "$(median $all) ($all )"
}
site() {
  python3 - "$1" <<'PY'
import json, sys
doc = json.load(open(sys.argv[1]))
s = [x for x in doc["sites"] if x["idiom"] == "histogram-triangle"][0]
t = (s.get("tuning_classes") or [{}])[-1]
off = max(s["offloaded"], 1)
print("%.3f ms/call, variant %s (%s), %d/%d offloaded, transfer %.3f ms/call, %s" %
      (s["kernel_ms"] / off, t.get("variant"), t.get("tuned"), s["offloaded"], s["calls"],
       s["transfer_ms"] / off, s["device"]))
PY
}
command -v nvidia-smi > /dev/null &&
  nvidia-smi --query-gpu=name,driver_version --format=csv,noheader || true
echo "DEV=$dev, $reps calls per process, wall ms median of $runs"
for n in $sizes; do
  "$dir/tpacf.seq" "$n" "$reps" > "$tmp/seq.txt"
  export IDIOM_CACHE_DIR="$tmp/cache.$n"
  env IDIOM_DEVICE="$dev" IDIOM_COST=off "$dir/tpacf.idiom" "$n" "$reps" > "$tmp/dev.txt"
  env IDIOM_DEVICE="$dev" IDIOM_COST=off IDIOM_STATS="$tmp/s.json" "$dir/tpacf.idiom" "$n" "$reps" \
    > "$tmp/dev2.txt"
  "$dir/tpacf.idiom" "$n" "$reps" > "$tmp/auto.txt"
  for f in dev dev2 auto; do
    cmp -s "$tmp/seq.txt" "$tmp/$f.txt" || { echo "N=$n: $f output differs" >&2; status=1; }
  done
  echo "N=$n pairs=$(( n * (n - 1) / 2 ))"
  echo "  kernel: $(site "$tmp/s.json" 2> /dev/null || echo 'no stats')"
  echo "  seq:    $(series "$dir/tpacf.seq" "$n" "$reps")"
  echo "  forced: $(series env IDIOM_DEVICE="$dev" IDIOM_COST=off "$dir/tpacf.idiom" "$n" "$reps")"
  echo "  auto:   $(series "$dir/tpacf.idiom" "$n" "$reps")"
done
export IDIOM_CACHE_DIR="$tmp/cache.gridding"
"$dir/gridding.seq" > "$tmp/g.seq"
env IDIOM_DEVICE="$dev" IDIOM_COST=off "$dir/gridding.idiom" > /dev/null
env IDIOM_DEVICE="$dev" IDIOM_COST=off IDIOM_STATS=1 "$dir/gridding.idiom" > "$tmp/g.dev" \
  2> "$tmp/g.stats"
python3 "$dir/compare.py" "$tmp/g.seq" "$tmp/g.dev" --src "$dir/gridding.c" -q ||
  { echo "gridding: device output differs" >&2; status=1; }
echo "gridding (scatter-adds):"
grep "idiom-stats:.*histogram" "$tmp/g.stats" | sed -E 's/^/  /; s/ (tuning|decisions)=.*//'
echo "  seq:    $(series "$dir/gridding.seq")"
echo "  forced: $(series env IDIOM_DEVICE="$dev" IDIOM_COST=off "$dir/gridding.idiom")"
echo "  auto:   $(series "$dir/gridding.idiom")"
rm -rf "$tmp"
exit $status
