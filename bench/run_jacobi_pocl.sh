#!/usr/bin/env bash
# run_jacobi_pocl.sh - bench/jacobi2d.c on the local OpenCL device (PoCL on
# the CPU machines): whole-process wall time of the sequential build
# against the plugin build with the defaults (cost model, background
# start-up, residency region, zero-copy), forced (IDIOM_COST=off
# IDIOM_MIN_TRIP=0) with zero-copy, and forced with copies
# (IDIOM_ZERO_COPY=off), median of RUNS (default 5) runs each, interleaved,
# after one warm-up run of each that fills the kernel and tuning caches.
# Prints the load average before and after (the machine is shared) and
# each mode's output (the residual is a float sum: last digits may differ).
#
# Usage: bench/run_jacobi_pocl.sh BUILD [N] [SWEEPS]   (default 2048 150)
set -eu
B=$(cd "$1" && pwd)
N=${2:-2048}
S=${3:-150}
RUNS=${RUNS:-5}
HERE=$(cd "$(dirname "$0")" && pwd)
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
SRC=$HERE/jacobi2d.c
clang-19 -O2 "$SRC" -o "$T/seq"
clang-19 -O2 -fpass-plugin="$B/lib/libIdiom.so" "$SRC" -L"$B/lib" -lidiomrt \
  -lm -o "$T/idiom"
export IDIOM_CACHE_DIR=$T/cache
MODES="seq default forced forced-copy"
run_mode() { # MODE: runs it once, output to $T/out.MODE
  case $1 in
  seq) "$T/seq" "$N" "$S" ;;
  default) "$T/idiom" "$N" "$S" ;;
  forced) env IDIOM_COST=off IDIOM_MIN_TRIP=0 "$T/idiom" "$N" "$S" ;;
  forced-copy) env IDIOM_COST=off IDIOM_MIN_TRIP=0 IDIOM_ZERO_COPY=off \
    "$T/idiom" "$N" "$S" ;;
  esac > "$T/out.$1"
}
for m in $MODES; do run_mode "$m"; done # warm-up: caches
echo "load before: $(cut -d' ' -f1-3 /proc/loadavg)"
for ((r = 0; r < RUNS; r++)); do
  for m in $MODES; do
    t0=$(date +%s.%N)
    run_mode "$m"
    t1=$(date +%s.%N)
    echo "$m $(awk -v a="$t0" -v b="$t1" 'BEGIN {print b - a}')" >> "$T/times"
  done
done
echo "load after: $(cut -d' ' -f1-3 /proc/loadavg)"
echo "jacobi2d N=$N x $S sweeps, median of $RUNS (s), ratio = sequential / mode:"
median() {
  awk -v m="$1" '$1==m{print $2}' "$T/times" | sort -n |
    awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'
}
seq_med=$(median seq)
for m in $MODES; do
  med=$(median "$m")
  all=$(awk -v m="$m" '$1==m{printf " %.3f", $2}' "$T/times")
  awk -v m="$m" -v t="$med" -v s="$seq_med" -v all="$all" \
    'BEGIN {printf "  %-12s %7.3f  %.2fx  (%s )\n", m, t, s / t, all}'
done
for m in $MODES; do echo "  output $m: $(cat "$T/out.$m")"; done
echo "IDIOM_STATS of the defaults and of forced:"
IDIOM_STATS=1 "$T/idiom" "$N" "$S" 2>&1 >/dev/null | cut -c1-400
IDIOM_STATS=1 IDIOM_COST=off IDIOM_MIN_TRIP=0 "$T/idiom" "$N" "$S" 2>&1 \
  >/dev/null | cut -c1-400
