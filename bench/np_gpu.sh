#!/bin/sh
# Issue 12's "every nas-parboil program at least 0.95x sequential with the
# defaults": each program of DIR/np (bench/build_profile_carry.sh) against
# its sequential build, whole-process wall time, median of RUNS (default 5)
# after two warm runs that fill the program, tuning and profile caches (as a
# user who runs a program again and again), outputs compared by compare.py.
# PIN=CPUS (for example PIN=2,3) runs both builds under `taskset -c CPUS`:
# programs of 5-30 ms spread by 20-40% between runs on a 16-core machine
# whose cores differ in clock and cache; two cores leave the runtime's
# start-up thread its own core. Each line also gives the fastest run.
#   np_gpu.sh DIR [RUNS] [PROGRAM...]
set -eu
dir=$1; runs=${2:-5}; shift 2 2>/dev/null || shift $#
pin=""
[ -n "${PIN:-}" ] && pin="taskset -c $PIN"
# tenths of a millisecond
ms() { a=$(date +%s%N); $pin "$@" > /dev/null 2>&1; b=$(date +%s%N); echo $(( (b - a) / 100000 )); }
median() { printf '%s\n' "$@" | sort -n | sed -n "$(( ($# + 1) / 2 ))p"; }
least() { printf '%s\n' "$@" | sort -n | head -1; }
tenths() { awk "BEGIN{printf \"%.1f\", $1 / 10}"; }
cache=$(mktemp -d)
# Set for both builds (the sequential one ignores it): an `env` wrapper
# around one of them only would add its own exec, about a millisecond.
IDIOM_CACHE_DIR=$cache; export IDIOM_CACHE_DIR
progs=${*:-$(cd "$dir/np" && ls *.seq | sed 's/\.seq$//')}
for p in $progs; do
  s="$dir/np/$p.seq"; i="$dir/np/$p.idiom"
  "$s" > "$dir/np/$p.expected" 2>/dev/null
  for k in 1 2; do "$i" > "$dir/np/$p.out" 2>/dev/null; done
  # equal text first (compare.py needs an `n N` line, which a one-number
  # program such as policy_tiny.c does not print), else compare.py's
  # tolerances, as np_ratio_ci.py does
  ok=$(cmp -s "$dir/np/$p.expected" "$dir/np/$p.out" && echo same ||
       { python3 "$dir/np/compare.py" -q --src "$dir/np/$p.c" "$dir/np/$p.expected" "$dir/np/$p.out" && echo same || echo DIFF; })
  a=""; b=""
  for k in $(seq "$runs"); do a="$a $(ms "$s")"; b="$b $(ms "$i")"; done
  sm=$(median $a); im=$(median $b); sl=$(least $a); il=$(least $b)
  echo "$p out=$ok seq ms: $(tenths $sm) (min $(tenths $sl)) defaults ms: $(tenths $im) (min $(tenths $il)) ratio $(awk "BEGIN{printf \"%.2f\", $sm/$im}") (of the minima $(awk "BEGIN{printf \"%.2f\", $sl/$il}"))"
done
rm -rf "$cache"
