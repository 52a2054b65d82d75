#!/bin/sh
# Zero-copy on a host-unified OpenCL device (runtime/lib/zerocopy.c), on the
# machine it runs on: whole-process wall time of the sequential build
# against the plugin build on the CPU OpenCL device (PoCL;
# IDIOM_DEVICE=cpu), forced (every call on the device) with zero-copy and
# with copies (IDIOM_ZERO_COPY=off), and with the cost model on that device
# (IDIOM_COST=on); forced with every in-place range copied aside before the
# kernels (IDIOM_ZERO_COPY_BACKUP=always, the behaviour before the gate,
# runtime/README.md "Zero-copy"); then the defaults (the GPU where there is one). Median of
# 3 after one warm-up run of each mode (program and tuning caches). Prints
# each mode's output (float sums may differ in the last digits) and the
# IDIOM_STATS of the forced zero-copy run (zero-copy args, bytes_in/out).
# Binaries from bench/build_zerocopy_carry.sh:
#   zerocopy_cpu.sh DIR [axpby log2 N] [axpby iterations] [jacobi N] [sweeps]
# (default 24 200 4096 150).
set -eu
dir=$1; lg=${2:-24}; it=${3:-200}; jn=${4:-4096}; js=${5:-150}
export IDIOM_CACHE_DIR=${IDIOM_CACHE_DIR:-$(mktemp -d)}
ms() { s=$(date +%s%N); "$@" > /dev/null 2>&1; e=$(date +%s%N); echo $(( (e - s) / 1000000 )); }
median() { printf '%s\n' "$@" | sort -n | sed -n 2p; }
mode() { # PROGRAM ARGS MODE: prints one line
  p=$1; a=$2; m=$3
  case $m in
  seq) set -- "$dir/$p.seq" ;;
  cpu-forced) set -- env IDIOM_DEVICE=cpu "$dir/$p.idiom" ;;
  cpu-forced-copy) set -- env IDIOM_DEVICE=cpu IDIOM_ZERO_COPY=off "$dir/$p.idiom" ;;
  cpu-forced-backup) set -- env IDIOM_DEVICE=cpu IDIOM_ZERO_COPY_BACKUP=always "$dir/$p.idiom" ;;
  cpu-cost) set -- env IDIOM_DEVICE=cpu IDIOM_COST=on "$dir/$p.idiom" ;;
  defaults) set -- "$dir/$p.idiom" ;;
  esac
  "$@" $a > "$dir/out.$p.$m" 2> /dev/null
  t1=$(ms "$@" $a); t2=$(ms "$@" $a); t3=$(ms "$@" $a)
  echo "$p $m ms: $(median $t1 $t2 $t3) ($t1 $t2 $t3) out: $(cat "$dir/out.$p.$m")"
}
for m in seq cpu-forced cpu-forced-backup cpu-forced-copy cpu-cost defaults; do
  mode residency_axpby "$lg $it" $m
done
for m in seq cpu-forced cpu-forced-backup cpu-forced-copy cpu-cost defaults; do
  mode jacobi2d "$jn $js" $m
done
for p in "residency_axpby $lg $it" "jacobi2d $jn $js"; do
  set -- $p
  IDIOM_DEVICE=cpu IDIOM_STATS=1 "$dir/$1.idiom" $2 $3 2>&1 > /dev/null |
    sed 's/device="[^"]*"//' | cut -c1-400
done
