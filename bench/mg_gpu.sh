#!/bin/sh
# Issue 13: the NAS MG-style V-cycle (nas-parboil/mg.c), whole program:
# psinv and resid (27-point nests with row temporaries, privatised and
# offloaded as 3-D maps), rprj3 (the restriction: row temporaries privatised,
# the fine and coarse levels of the one array checked disjoint at run time,
# passes/SharedBases.h), interp (the prolongation: row temporaries
# privatised, its four consumer loops fused, passes/ConsumerFusion.h; stats
# line mg.c:193), the norms (2-D reductions per plane), ghost-plane
# copies. Whole-process wall time of the sequential build against the
# plugin's (defaults after two warm-up runs, and IDIOM_DEVICE=gpu with the
# cost model off), median of RUNS (default 3), outputs compared with
# compare.py; then the per-site IDIOM_STATS lines of a forced run (calls,
# offloaded, kernel and transfer ms). Binaries from bench/build_mg_carry.sh:
#   mg_gpu.sh DIR [RUNS] [LT] [NIT]
# (LT 8 is a 256^3 grid, NPB class A's size; DEVICE=cpu tries the script
# where there is no GPU.)
set -eu
dir=$1; runs=${2:-3}; lt=${3:-8}; nit=${4:-4}; dev=${DEVICE:-gpu}
. "$dir/timing.sh"
cache=$(mktemp -d)
export LD_LIBRARY_PATH="$dir${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
echo "== mg lt=$lt (n=$((1 << lt))^3) nit=$nit"
"$dir/mg.seq" "$lt" "$nit" > "$dir/mg.out.seq"
series "seq" "$dir/mg.seq" "$lt" "$nit"; s=$last
for i in 1 2; do
  IDIOM_CACHE_DIR="$cache" "$dir/mg.idiom" "$lt" "$nit" > "$dir/mg.out.idiom"
done
series "defaults" env IDIOM_CACHE_DIR="$cache" "$dir/mg.idiom" "$lt" "$nit"; d=$last
series "forced $dev" env IDIOM_CACHE_DIR="$cache" IDIOM_DEVICE="$dev" IDIOM_COST=off "$dir/mg.idiom" "$lt" "$nit"; f=$last
awk -v s="$s" -v d="$d" -v f="$f" -v g="$dev" 'BEGIN{printf "speed-up: defaults %.2fx, forced %s %.2fx\n", s/d, g, s/f}'
for mode in defaults forced; do
  if [ "$mode" = forced ]; then
    env IDIOM_CACHE_DIR="$cache" IDIOM_DEVICE="$dev" IDIOM_COST=off IDIOM_STATS=1 \
      "$dir/mg.idiom" "$lt" "$nit" > "$dir/mg.out.$mode" 2> "$dir/mg.stats.$mode"
  else
    env IDIOM_CACHE_DIR="$cache" IDIOM_STATS=1 \
      "$dir/mg.idiom" "$lt" "$nit" > "$dir/mg.out.$mode" 2> "$dir/mg.stats.$mode"
  fi
  if python3 "$dir/compare.py" "$dir/mg.out.seq" "$dir/mg.out.$mode" -q; then
    echo "$mode: output matches the sequential one (compare.py)"
  else
    echo "$mode: output DIFFERS (compare.py)"
  fi
  echo "$mode: per-site stats"
  grep -E 'idiom-stats: mg.c:[0-9]+' "$dir/mg.stats.$mode" | cut -c1-400 | sed 's/^/  /'
done
rm -rf "$cache"
