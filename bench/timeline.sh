#!/bin/sh
# Whole-process time line of one program with the runtime's defaults, as a
# user who runs it again and again sees it: two warm-up runs fill the
# program, tuning and profile caches (with the same IDIOM_* environment as
# the timed runs, so the profile's early start applies), then RUNS timed
# runs of the sequential and the plugin build (whole-process wall time,
# median), then one more run whose IDIOM_DEBUG=time lines are printed.
#   timeline.sh SEQ_BINARY IDIOM_BINARY [ARGS...]    (RUNS=5 by default)
set -eu
seq=$1; idiom=$2; shift 2
runs=${RUNS:-5}
cache=$(mktemp -d)
ms() { a=$(date +%s%N); "$@" > /dev/null 2>&1; b=$(date +%s%N); echo $(( (b - a) / 1000000 )); }
median() { printf '%s\n' "$@" | sort -n | sed -n "$(( ($# + 1) / 2 ))p"; }
run_idiom() { env IDIOM_CACHE_DIR="$cache" IDIOM_DEBUG=time IDIOM_STATS=1 "$idiom" "$@"; }
for i in 1 2; do run_idiom "$@" > /dev/null 2>&1; done
a=""; b=""
for i in $(seq "$runs"); do
  a="$a $(ms "$seq" "$@")"
  b="$b $(ms run_idiom "$@")"
done
echo "== $(basename "$idiom") $*: sequential $(median $a) ms ($a ), defaults $(median $b) ms ($b )"
run_idiom "$@" 2>&1 >/dev/null | grep -v 'device run' | cut -c1-260 | tail -${LINES_SHOWN:-45}
rm -rf "$cache"
