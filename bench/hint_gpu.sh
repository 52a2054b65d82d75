#!/bin/sh
# Issue 12 item 3 ("a program that never profits from the device pays no
# more than noise") on the GPU machine, from the folder that
# bench/build_hint_carry.sh filled: policy_tiny, gridding, heat3d, jds and
# mg with the default settings against their sequential builds, both
# pinned to two cores (PIN, default 2,3) as in the sixth session's table,
# medians of RUNS (default 9) after two warm runs (bench/np_gpu.sh), then
# one IDIOM_STATS run of each: whether its sites stay on the host, how many
# calls the host hint skipped ("host-hint"), and whether OpenCL was loaded
# at all (device="none" on every line: the start-up never ran).
#   sh hint_gpu.sh DIR [RUNS]
set -eu
dir=$1; runs=${2:-9}
here=$(dirname "$0")
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader 2>/dev/null || true
progs="policy_tiny gridding heat3d jds mg"
pin="taskset -c ${PIN:-2,3}"
echo "== defaults vs sequential, pinned to ${PIN:-2,3}, median of $runs"
PIN=${PIN:-2,3} sh "$here/np_gpu.sh" "$dir" "$runs" gridding heat3d jds mg
# policy_tiny prints one number (no `n N` line for compare.py): cmp, and
# the same medians as np_gpu.sh (tenths of a millisecond)
ms() { a=$(date +%s%N); $pin "$@" > /dev/null 2>&1; b=$(date +%s%N); echo $(( (b - a) / 100000 )); }
median() { printf '%s\n' "$@" | sort -n | sed -n "$(( ($# + 1) / 2 ))p"; }
cache=$(mktemp -d)
IDIOM_CACHE_DIR=$cache; export IDIOM_CACHE_DIR
t="$dir/np/policy_tiny"
for k in 1 2; do "$t.idiom" > "$t.out"; done
"$t.seq" > "$t.expected"
ok=$(cmp -s "$t.expected" "$t.out" && echo same || echo DIFF)
a=""; b=""
for k in $(seq "$runs"); do a="$a $(ms "$t.seq")"; b="$b $(ms "$t.idiom")"; done
sm=$(median $a); im=$(median $b)
echo "policy_tiny out=$ok seq ms: $(awk "BEGIN{print $sm/10}") defaults ms: $(awk "BEGIN{print $im/10}") ratio $(awk "BEGIN{printf \"%.2f\", $sm/$im}")"
rm -rf "$cache"
echo "== IDIOM_STATS of one run each (pinned)"
cache=$(mktemp -d)
IDIOM_CACHE_DIR=$cache; export IDIOM_CACHE_DIR
for p in $progs; do
  for k in 1 2; do "$dir/np/$p.idiom" > /dev/null 2>&1; done
  echo "-- $p"
  IDIOM_STATS=1 taskset -c "${PIN:-2,3}" "$dir/np/$p.idiom" 2>&1 >/dev/null |
    grep idiom-stats | sed 's/ bytes_in=.*//' | cut -c1-400
done
rm -rf "$cache"
