#!/bin/sh
# Issue 12, helper "mgsync": the unchanged copy of a row-temporaries nest
# (NAS MG's resid, psinv, rprj3, interp) inside a residency region syncs
# its own ranges (passes/PartialSync.h, emitSyncOwnRanges) instead of the
# whole table. Two plugin builds of one program, before and after, and the
# sequential build, interleaved per round (seq, before, after, ... so that
# the machine's load drifts alike over all), median of RUNS, with the
# defaults (cost model; the profile of the warm-up runs) and forced on
# DEVICE (IDIOM_DEVICE=$DEVICE IDIOM_COST=off); then one run of each with
# IDIOM_STATS=1: the residency lines (whole-table syncs, flushed bytes,
# partial syncs), the bytes copied in and out (sum of the per-site
# bytes_in/bytes_out) and the outputs compared with compare.py.
#   mgsync_ab.sh SEQ BEFORE AFTER [RUNS] [ARGS...]
# (bench/build_mg_carry.sh builds SEQ and one plugin build; run it with the
# plugin of each branch.) DEVICE defaults to gpu (cpu: PoCL). The
# environment passes through (on PoCL, IDIOM_ZERO_COPY=off makes the copies
# a GPU makes).
set -eu
# shellcheck disable=SC2034 # before, after: read through eval
seq=$1; before=$2; after=$3; runs=${4:-5}
shift 3; [ $# -gt 0 ] && shift
dev=${DEVICE:-gpu}
here=$(dirname "$0")
. "$here/timing.sh"
. "$here/stats.sh"
cmp=$here/../nas-parboil/compare.py
[ -f "$cmp" ] || cmp=$(dirname "$after")/compare.py
out=$(mktemp -d)
mkdir -p "$out/c.before" "$out/c.after"
echo "== $(basename "$after") $* device=$dev zero-copy=${IDIOM_ZERO_COPY:-default}; load: $(cut -d' ' -f1-3 /proc/loadavg)"
"$seq" "$@" > "$out/seq"
menv() { case $1 in
  defaults) echo "" ;;
  forced) echo "IDIOM_DEVICE=$dev IDIOM_COST=off" ;;
esac; }
modes="defaults forced"
for b in before after; do # warm the program caches and the profiles
  eval "bin=\$$b" # shellcheck disable=SC2154
  for i in 1 2; do
    IDIOM_CACHE_DIR="$out/c.$b" "$bin" "$@" > /dev/null 2>&1
    IDIOM_CACHE_DIR="$out/c.$b" IDIOM_DEVICE="$dev" IDIOM_COST=off "$bin" "$@" > /dev/null 2>&1
  done
done
s=""
for m in $modes; do eval "t_${m}_before=''; t_${m}_after=''"; done
for i in $(seq "$runs"); do
  s="$s $(ms "$seq" "$@")"
  for m in $modes; do
    for b in before after; do
      eval "bin=\$$b"
      # shellcheck disable=SC2046,SC2154 # menv: words on purpose; bin: eval
      t=$(ms env IDIOM_CACHE_DIR="$out/c.$b" $(menv $m) "$bin" "$@")
      eval "t_${m}_${b}=\"\$t_${m}_${b} $t\""
    done
  done
done
echo "seq ms: $(median $s) ($s )"
for m in $modes; do
  for b in before after; do
    eval "v=\$t_${m}_${b}"
    # shellcheck disable=SC2154,SC2086 # v: set by eval; words on purpose
    echo "$m, $b ms: $(median $v) ($v )"
  done
done
echo "load after: $(cut -d' ' -f1-3 /proc/loadavg)"
for m in $modes; do
  for b in before after; do
    eval "bin=\$$b"
    # shellcheck disable=SC2046 # menv: words on purpose
    env IDIOM_CACHE_DIR="$out/c.$b" IDIOM_STATS=1 $(menv $m) \
      "$bin" "$@" > "$out/$m.$b" 2> "$out/stats.$m.$b"
    if python3 "$cmp" "$out/seq" "$out/$m.$b" -q; then same=same; else same=DIFFERS; fi
    echo "$m, $b: bytes $(stat_bytes "$out/stats.$m.$b"), output $same"
    stat_residency "$out/stats.$m.$b"
  done
done
rm -rf "$out"
