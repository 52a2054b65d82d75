#!/bin/sh
# Whole-process wall time of bench/residency_axpby.c on the machine it runs
# on: sequential build against the plugin build with the residency region
# and without it (-idiom-residency=false), each with IDIOM_STAGING=auto and
# off; median of 3 after one warm-up run (fills the program and tuning
# caches). Binaries are built elsewhere (bench/build_residency_carry.sh):
#   residency_gpu.sh DIR [log2 N] [iterations]
# DIR holds axpby.seq, axpby.region and axpby.noregion.
set -eu
dir=$1; lg=${2:-24}; it=${3:-200}
export IDIOM_CACHE_DIR=$(mktemp -d)
ms() { s=$(date +%s%N); "$@" > /dev/null 2>&1; e=$(date +%s%N); echo $(( (e - s) / 1000000 )); }
median() { printf '%s\n' "$@" | sort -n | sed -n 2p; }
for v in seq region noregion; do
  for st in auto off; do
    [ $v = seq ] && [ $st = off ] && continue
    export IDIOM_STAGING=$st
    "$dir/axpby.$v" $lg $it > "$dir/out.$v.$st" 2> /dev/null
    t1=$(ms "$dir/axpby.$v" $lg $it); t2=$(ms "$dir/axpby.$v" $lg $it); t3=$(ms "$dir/axpby.$v" $lg $it)
    IDIOM_STATS=1 "$dir/axpby.$v" $lg $it 2> "$dir/stats.$v.$st" > /dev/null
    echo "$v staging=$st ms: $(median $t1 $t2 $t3) ($t1 $t2 $t3) out: $(cat "$dir/out.$v.$st")"
  done
done
grep -h "idiom-stats" "$dir"/stats.region.auto "$dir"/stats.noregion.auto | sed 's/device="[^"]*"//' | cut -c1-400
