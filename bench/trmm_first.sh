#!/bin/sh
# The first product of trmm (bench/trmm_bench.c) M x N, one product a
# process, each from an empty IDIOM_CACHE_DIR (a first run), for each build
# DIR/trmm.BUILD, ROUNDS rounds interleaved: wall time, the product's time
# and hash, and the call's decisions and reasons (IDIOM_STATS).
#   trmm_first.sh DIR M N ROUNDS BUILD...
set -eu
d=$1; M=$2; N=$3; R=$4; shift 4
for r in $(seq "$R"); do
  for b in "$@"; do
    c=$(mktemp -d)
    s=$(date +%s%N)
    out=$(IDIOM_CACHE_DIR=$c IDIOM_STATS=1 "$d/trmm.$b" "$M" "$N" 1 2> "$c/stats")
    e=$(date +%s%N)
    echo "$b round $r wall $(( (e - s) / 1000000 )) ms: $out; $(grep -o 'decisions="[^"]*"' "$c/stats" | head -1) $(grep -o 'reasons="[^"]*"' "$c/stats" | head -1)"
    rm -rf "$c"
  done
done
