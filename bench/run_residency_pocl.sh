#!/usr/bin/env bash
# run_residency_pocl.sh - bench/residency_axpby.c on the local OpenCL device
# (PoCL on the CPU machines): whole-process wall time of the sequential
# build against the plugin build with the defaults (cost model, background
# start-up, residency region), forced with the region (IDIOM_MIN_TRIP=0) and
# forced without it (-idiom-residency=false), forced with the region and
# copies instead of zero-copy (IDIOM_ZERO_COPY=off: runtime/lib/zerocopy.c),
# median of RUNS (default 3)
# runs each, interleaved, after one warm-up run that fills the kernel and
# tuning caches.
#
# Usage: bench/run_residency_pocl.sh BUILD [LOG2N] [ITERS]   (default 22 150)
set -eu
B=$(cd "$1" && pwd)
LG=${2:-22}
IT=${3:-150}
RUNS=${RUNS:-3}
HERE=$(cd "$(dirname "$0")" && pwd)
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
SRC=$HERE/residency_axpby.c
P="-fpass-plugin=$B/lib/libIdiom.so"
clang-19 -O2 "$SRC" -o "$T/seq"
clang-19 -O2 $P "$SRC" -L"$B/lib" -lidiomrt -lm -o "$T/region"
clang-19 -O2 -fplugin="$B/lib/libIdiom.so" $P -mllvm -idiom-residency=false \
  "$SRC" -L"$B/lib" -lidiomrt -lm -o "$T/noregion"
export IDIOM_CACHE_DIR=$T/cache
"$T/region" "$LG" 20 >/dev/null 2>&1
IDIOM_MIN_TRIP=0 "$T/noregion" "$LG" 2 >/dev/null 2>&1
"$T/seq" "$LG" "$IT" > "$T/expected"
wall() { # NAME ENV... -- CMD...: appends "NAME seconds" to $T/times
  local name=$1 t0 t1
  shift
  t0=$(date +%s.%N)
  env "$@" > "$T/out.$name"
  t1=$(date +%s.%N)
  echo "$name $(awk -v a="$t0" -v b="$t1" 'BEGIN {print b - a}')" >> "$T/times"
}
echo "load before: $(cut -d' ' -f1-3 /proc/loadavg)"
for ((r = 0; r < RUNS; r++)); do
  wall seq "$T/seq" "$LG" "$IT"
  wall default "$T/region" "$LG" "$IT"
  wall forced-region IDIOM_MIN_TRIP=0 "$T/region" "$LG" "$IT"
  wall forced-noregion IDIOM_MIN_TRIP=0 "$T/noregion" "$LG" "$IT"
  wall forced-copy IDIOM_MIN_TRIP=0 IDIOM_ZERO_COPY=off "$T/region" "$LG" "$IT"
done
echo "load after: $(cut -d' ' -f1-3 /proc/loadavg)"
echo "residency_axpby 2^$LG x $IT, median of $RUNS (s), ratio = sequential / mode:"
median() { # MODE: the median of MODE's times
  awk -v m="$1" '$1==m{print $2}' "$T/times" | sort -n |
    awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'
}
seq_med=$(median seq)
for m in seq default forced-region forced-noregion forced-copy; do
  med=$(median $m)
  awk -v m=$m -v t="$med" -v s="$seq_med" 'BEGIN {printf "  %-16s %7.3f  %.2fx\n", m, t, s / t}'
done
# The norms are float sums (reassociated, and compensated, on the device):
# the first printed line of each mode, for the reader.
for m in seq default forced-region forced-noregion forced-copy; do
  echo "  output $m: $(head -n 1 "$T/out.$m")"
done
