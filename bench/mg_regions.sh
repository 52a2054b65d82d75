#!/bin/sh
# NAS MG (nas-parboil/mg.c) before and after a change of the residency
# regions, in one run on one device: whole-process wall time of the
# sequential build and of two plugin builds (BEFORE, AFTER: each a directory
# made by bench/build_mg_carry.sh with another plugin build), interleaved
# (seq, before, after, before, after, ... per round, so that the machine's
# load drifts alike over both), median of RUNS, forced on the device
# (IDIOM_DEVICE=$DEVICE IDIOM_COST=off; on PoCL, a host-unified device, the
# runtime's zero-copy passes most buffers over the program's memory, so
# forced is also timed with IDIOM_ZERO_COPY=off, the copies a GPU makes)
# and with the defaults; then, with
# IDIOM_ZERO_COPY=off, the bytes each build copies in and out (the sum of
# bytes_in= and bytes_out= over the per-site IDIOM_STATS lines), forced
# and with IDIOM_MIN_TRIP=0 (every call offloaded, none declined), its
# residency stats line, and its outputs compared with compare.py:
#   mg_regions.sh BEFORE AFTER [RUNS] [LT] [NIT]
# (defaults 5 runs, LT 6 (64^3), NIT 4; DEVICE defaults to cpu: PoCL.)
set -eu
before=$1; after=$2; runs=${3:-5}; lt=${4:-6}; nit=${5:-4}; dev=${DEVICE:-cpu}
here=$(dirname "$0")
. "$here/timing.sh"
cb=$(mktemp -d); ca=$(mktemp -d)
echo "== mg lt=$lt (n=$((1 << lt))^3) nit=$nit device=$dev; load: $(cut -d' ' -f1-3 /proc/loadavg)"
"$before/mg.seq" "$lt" "$nit" > "$cb/out.seq"
for i in 1 2; do # warm the program caches
  IDIOM_CACHE_DIR="$cb" "$before/mg.idiom" "$lt" "$nit" > /dev/null 2>&1
  IDIOM_CACHE_DIR="$ca" "$after/mg.idiom" "$lt" "$nit" > /dev/null 2>&1
done
s=""; bf=""; af=""; bc=""; ac=""; bd=""; ad=""
for i in $(seq "$runs"); do
  s="$s $(ms "$before/mg.seq" "$lt" "$nit")"
  bf="$bf $(ms env IDIOM_CACHE_DIR="$cb" IDIOM_DEVICE="$dev" IDIOM_COST=off "$before/mg.idiom" "$lt" "$nit")"
  af="$af $(ms env IDIOM_CACHE_DIR="$ca" IDIOM_DEVICE="$dev" IDIOM_COST=off "$after/mg.idiom" "$lt" "$nit")"
  bc="$bc $(ms env IDIOM_CACHE_DIR="$cb" IDIOM_DEVICE="$dev" IDIOM_COST=off IDIOM_ZERO_COPY=off "$before/mg.idiom" "$lt" "$nit")"
  ac="$ac $(ms env IDIOM_CACHE_DIR="$ca" IDIOM_DEVICE="$dev" IDIOM_COST=off IDIOM_ZERO_COPY=off "$after/mg.idiom" "$lt" "$nit")"
  bd="$bd $(ms env IDIOM_CACHE_DIR="$cb" "$before/mg.idiom" "$lt" "$nit")"
  ad="$ad $(ms env IDIOM_CACHE_DIR="$ca" "$after/mg.idiom" "$lt" "$nit")"
done
echo "seq ms: $(median $s) ($s )"
echo "before forced ms: $(median $bf) ($bf )"
echo "after forced ms: $(median $af) ($af )"
echo "before forced, copies ms: $(median $bc) ($bc )"
echo "after forced, copies ms: $(median $ac) ($ac )"
echo "before defaults ms: $(median $bd) ($bd )"
echo "after defaults ms: $(median $ad) ($ad )"
echo "load after: $(cut -d' ' -f1-3 /proc/loadavg)"
bytes() { grep -o 'bytes_in=[0-9]* bytes_out=[0-9]*' "$1" |
  awk -F'[= ]' '{i += $2; o += $4} END {printf "in %d out %d", i, o}'; }
for b in before after; do
  d=$before; c=$cb
  [ "$b" = after ] && { d=$after; c=$ca; }
  for mode in forced mintrip0 defaults; do
    case $mode in
      forced) set -- IDIOM_DEVICE="$dev" IDIOM_COST=off ;;
      mintrip0) set -- IDIOM_DEVICE="$dev" IDIOM_COST=off IDIOM_MIN_TRIP=0 ;;
      defaults) set -- IDIOM_CACHE_DIR="$c" ;;
    esac
    env IDIOM_CACHE_DIR="$c" IDIOM_ZERO_COPY=off IDIOM_STATS=1 "$@" \
      "$d/mg.idiom" "$lt" "$nit" > "$c/out.$mode" 2> "$c/stats.$mode"
    if python3 "$d/compare.py" "$cb/out.seq" "$c/out.$mode" -q; then same=same; else same=DIFFERS; fi
    echo "$b $mode: bytes $(bytes "$c/stats.$mode"), output $same;" \
      "$(grep 'idiom-stats: residency' "$c/stats.$mode" | cut -d' ' -f3-6)"
  done
done
rm -rf "$cb" "$ca"
