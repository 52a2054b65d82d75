#!/bin/sh
# Issue 12's 25x target for iterative programs (every loop of the time loop
# an offloaded idiom, the sequential build running 10 s or more): for each
# PROGRAM:ARGS, two warm-up runs of the plugin build in a fresh
# IDIOM_CACHE_DIR (program, tuning and profile caches, as a user who runs it
# again and again), then ROUNDS rounds of one sequential run and two
# plugin runs with the defaults, interleaved; prints every whole-process
# wall time, the medians and their ratio, and both builds' outputs (the
# iterative programs' floating-point sums are reassociated on the device).
# Binaries DIR/NAME.seq and DIR/NAME.idiom from bench/build_profile_carry.sh.
#   iter_gpu.sh DIR [ROUNDS] [NAME:ARG,ARG...]...
# Default programs: jacobi:4096,150 axpby:24,400 cg:2048,150 (the CG's 120
# iterations ran 7.5-9 s sequentially on some lent machines: under the
# target's 10 s).
set -eu
dir=$1; rounds=${2:-3}; shift; [ $# -gt 0 ] && shift
[ $# -gt 0 ] || set -- jacobi:4096,150 axpby:24,400 cg:2048,150
. "$(dirname "$0")/timing.sh"
for spec in "$@"; do
  name=${spec%%:*}; args=$(echo "${spec#*:}" | tr ',' ' ')
  [ "$spec" = "$name" ] && args=""
  cache=$(mktemp -d)
  # shellcheck disable=SC2086
  for i in 1 2; do env IDIOM_CACHE_DIR="$cache" "$dir/$name.idiom" $args > /dev/null 2>&1; done
  s=""; p=""
  for r in $(seq "$rounds"); do
    # shellcheck disable=SC2086
    s="$s $(ms "$dir/$name.seq" $args)"
    # shellcheck disable=SC2086
    p="$p $(ms env IDIOM_CACHE_DIR="$cache" "$dir/$name.idiom" $args)"
    # shellcheck disable=SC2086
    p="$p $(ms env IDIOM_CACHE_DIR="$cache" "$dir/$name.idiom" $args)"
  done
  ms_s=$(median_mean $s); ms_p=$(median_mean $p)
  echo "== $name $args: sequential $ms_s ms ($s ), defaults $ms_p ms ($p ): $(echo "$ms_s $ms_p" | awk '{printf "%.1fx", $1 / $2}')"
  # shellcheck disable=SC2086
  echo "   outputs: seq $("$dir/$name.seq" $args | tail -1) / idiom $(env IDIOM_CACHE_DIR="$cache" "$dir/$name.idiom" $args | tail -1)"
  rm -rf "$cache"
done
