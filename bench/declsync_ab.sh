#!/bin/sh
# Issue 12, helper "declsync": a host run inside a residency region syncing
# only its own ranges (idiom_region_sync_args, runtime/lib/resid_sync.c)
# against the whole-table sync of before, in one binary: the runtime's A/B
# knob IDIOM_PARTIAL_SYNC=off restores the full sync (and the cost model's
# region charge and fill rule of before). Whole-process wall time of the
# sequential build and of the plugin's build with the knob off and on,
# interleaved per round (seq, off, on, ... so that the machine's load drifts
# alike over both), median of RUNS, with the defaults (cost model; the
# profile of the warm-up runs), the defaults without a profile
# (IDIOM_PROFILE=off, as a first run) and forced on DEVICE
# (IDIOM_DEVICE=$DEVICE IDIOM_COST=off); then one run of
# each with IDIOM_STATS=1: the residency lines (syncs, flushed_bytes,
# partial_syncs), the bytes copied in and out (sum of the per-site
# bytes_in/bytes_out), and the outputs compared with compare.py.
#   declsync_ab.sh SEQ IDIOM [RUNS] [ARGS...]
# SEQ and IDIOM: the two builds (bench/build_adi_carry.sh,
# bench/build_mg_carry.sh make them); ARGS: the program's arguments. DEVICE
# defaults to gpu (cpu: PoCL). The environment passes through (on PoCL,
# IDIOM_ZERO_COPY=off makes the copies a GPU makes).
set -eu
seq=$1; idiom=$2; runs=${3:-5}
shift 2; [ $# -gt 0 ] && shift
dev=${DEVICE:-gpu}
here=$(dirname "$0")
. "$here/timing.sh"
. "$here/stats.sh"
cmp=$here/../nas-parboil/compare.py
[ -f "$cmp" ] || cmp=$(dirname "$idiom")/compare.py
cache=$(mktemp -d); out=$(mktemp -d)
echo "== $(basename "$idiom") $* device=$dev zero-copy=${IDIOM_ZERO_COPY:-default}; load: $(cut -d' ' -f1-3 /proc/loadavg)"
"$seq" "$@" > "$out/seq"
for i in 1 2; do # warm the program caches and the profile
  IDIOM_CACHE_DIR="$cache" "$idiom" "$@" > /dev/null 2>&1
  IDIOM_CACHE_DIR="$cache" IDIOM_DEVICE="$dev" IDIOM_COST=off "$idiom" "$@" > /dev/null 2>&1
done
# modes: the defaults (the profile of the warm-up runs kept), the defaults
# without a profile (IDIOM_PROFILE=off: every run decides afresh, as a
# first run does), forced on the device
menv() { case $1 in
  defaults) echo "" ;;
  fresh) echo "IDIOM_PROFILE=off" ;;
  forced) echo "IDIOM_DEVICE=$dev IDIOM_COST=off" ;;
esac; }
modes="defaults fresh forced"
s=""
for m in $modes; do eval "t_${m}_off=''; t_${m}_on=''"; done
for i in $(seq "$runs"); do
  s="$s $(ms "$seq" "$@")"
  for m in $modes; do
    for ps in off on; do
      # shellcheck disable=SC2046 # menv: words on purpose
      t=$(ms env IDIOM_CACHE_DIR="$cache" IDIOM_PARTIAL_SYNC=$ps $(menv $m) "$idiom" "$@")
      eval "t_${m}_${ps}=\"\$t_${m}_${ps} $t\""
    done
  done
done
echo "seq ms: $(median $s) ($s )"
for m in $modes; do
  for ps in off on; do
    eval "v=\$t_${m}_${ps}"
    # shellcheck disable=SC2154,SC2086 # v: set by eval; words on purpose
    echo "$m, partial sync $ps ms: $(median $v) ($v )"
  done
done
echo "load after: $(cut -d' ' -f1-3 /proc/loadavg)"
for m in $modes; do
  for ps in off on; do
    # shellcheck disable=SC2046 # menv: words on purpose
    env IDIOM_CACHE_DIR="$cache" IDIOM_PARTIAL_SYNC=$ps IDIOM_STATS=1 $(menv $m) \
      "$idiom" "$@" > "$out/$m.$ps" 2> "$out/stats.$m.$ps"
    if python3 "$cmp" "$out/seq" "$out/$m.$ps" -q; then same=same; else same=DIFFERS; fi
    echo "$m, partial sync $ps: bytes $(stat_bytes "$out/stats.$m.$ps"), output $same"
    stat_residency "$out/stats.$m.$ps"
  done
done
rm -rf "$cache" "$out"
