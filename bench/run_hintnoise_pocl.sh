#!/usr/bin/env bash
# run_hintnoise_pocl.sh - the iterative programs of issue #12 on the local
# OpenCL CPU device (PoCL), default settings, with two runtimes in the same
# rounds: BASE (a build directory, e.g. main's, or a directory whose lib/
# holds libIdiom.so and libidiomrt.a) against NEW (this branch's build).
# Modes, interleaved in each round (ABAB), whole-process wall time:
#   seq       clang-19 -O2, no plugin
#   base      the plugin's build linked with BASE's runtime, defaults
#   new       the same plugin, NEW's runtime, defaults
#   forced    NEW, IDIOM_DEVICE=cpu IDIOM_COST=off
# median of RUNS (default 5) rounds after one warm-up of each (kernel,
# tuning and profile caches: base and new keep their own cache directory,
# as two programs would), the load average before each round (the machine
# is shared), the user+system CPU seconds of each mode (a second view when
# the load is high: a 2-thread device gets more of a loaded machine than a
# 1-thread loop), and one IDIOM_STATS run of base and new per program
# (decisions per site).
#
# Usage: bench/run_hintnoise_pocl.sh BASE NEW [LOG2N SWEEPS_AXPBY N SWEEPS_JACOBI]
#        (default 23 200 2048 150, as bench/run_cpukern_pocl.sh)
set -eu
BASE=$(cd "$1" && pwd)
NEW=$(cd "$2" && pwd)
LG=${3:-23}
AI=${4:-200}
N=${5:-2048}
JS=${6:-150}
RUNS=${RUNS:-5}
HERE=$(cd "$(dirname "$0")" && pwd)
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
mkdir -p "$T/rt.base" "$T/rt.new" "$T/cache.base" "$T/cache.new"
cp "$BASE/lib/libidiomrt.a" "$T/rt.base/"
cp "$NEW/lib/libidiomrt.a" "$T/rt.new/"
for p in residency_axpby jacobi2d; do
  clang-19 -O2 "$HERE/$p.c" -o "$T/$p.seq"
  for v in base new; do
    clang-19 -O2 -fpass-plugin="$NEW/lib/libIdiom.so" "$HERE/$p.c" \
      -L"$T/rt.$v" -lidiomrt -lm -o "$T/$p.$v"
  done
done
MODES="seq base new forced"
args() { [ "$1" = residency_axpby ] && echo "$LG $AI" || echo "$N $JS"; }
run_mode() { # PROG MODE: one run, output to $T/out.PROG.MODE
  local a
  a=$(args "$1")
  case $2 in
  seq) "$T/$1.seq" $a ;;
  base) IDIOM_CACHE_DIR=$T/cache.base "$T/$1.base" $a ;;
  new) IDIOM_CACHE_DIR=$T/cache.new "$T/$1.new" $a ;;
  forced) IDIOM_CACHE_DIR=$T/cache.new IDIOM_DEVICE=cpu IDIOM_COST=off \
    "$T/$1.new" $a ;;
  esac > "$T/out.$1.$2"
}
median() { sort -n | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'; }
cpu_s() { awk '{print $14 + $15 + $16 + $17}' "/proc/$1/stat"; }
echo "cores: $(nproc)"
for p in residency_axpby jacobi2d; do
  for m in $MODES; do run_mode "$p" "$m"; done # warm-up: caches
  : > "$T/times.$p"
  for ((r = 0; r < RUNS; r++)); do
    echo "$p round $r: load $(cut -d' ' -f1-3 /proc/loadavg)"
    for m in $MODES; do
      c0=$(awk '{print $14 + $15 + $16 + $17}' /proc/$$/stat)
      t0=$(date +%s.%N)
      run_mode "$p" "$m"
      t1=$(date +%s.%N)
      c1=$(awk '{print $14 + $15 + $16 + $17}' /proc/$$/stat)
      echo "$m $(awk -v a="$t0" -v b="$t1" 'BEGIN {print b - a}') \
$(awk -v a="$c0" -v b="$c1" -v hz="$(getconf CLK_TCK)" 'BEGIN {print (b - a) / hz}')" \
        >> "$T/times.$p"
    done
  done
  echo "$p $(args "$p"), median of $RUNS (s), ratio = sequential / mode; cpu: user+sys s:"
  s=$(awk '$1=="seq"{print $2}' "$T/times.$p" | median)
  for m in $MODES; do
    med=$(awk -v m="$m" '$1==m{print $2}' "$T/times.$p" | median)
    cpu=$(awk -v m="$m" '$1==m{print $3}' "$T/times.$p" | median)
    all=$(awk -v m="$m" '$1==m{printf " %.3f", $2}' "$T/times.$p")
    awk -v m="$m" -v t="$med" -v s="$s" -v all="$all" -v c="$cpu" \
      'BEGIN {printf "  %-8s %7.3f  %.2fx  cpu %.2f  (%s )\n", m, t, s / t, c, all}'
  done
  for m in $MODES; do echo "  output $m: $(cat "$T/out.$p.$m")"; done
  for v in base new; do
    echo "  IDIOM_STATS, $v (decisions):"
    env IDIOM_STATS=1 IDIOM_CACHE_DIR=$T/cache.$v "$T/$p.$v" $(args "$p") \
      2>&1 >/dev/null | grep 'idiom-stats: .*decisions' |
      sed 's/.*idiom-stats: \([^ ]*\) \([^ ]*\) .*decisions="\([^"]*\)".*cost="\([^"]*\)".*/\1 \2: \3; \4/' |
      sed 's/^/    /'
  done
done
