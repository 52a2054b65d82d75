#!/bin/sh
# Issue 12's "every nas-parboil program at least 0.95x sequential with the
# defaults": each program of DIR/np (bench/build_profile_carry.sh) against
# its sequential build, whole-process wall time, median of RUNS (default 5)
# after two warm runs that fill the program, tuning and profile caches (as a
# user who runs a program again and again), outputs compared by compare.py.
#   np_gpu.sh DIR [RUNS] [PROGRAM...]
set -eu
dir=$1; runs=${2:-5}; shift 2 2>/dev/null || shift $#
ms() { a=$(date +%s%N); "$@" > /dev/null 2>&1; b=$(date +%s%N); echo $(( (b - a) / 1000000 )); }
median() { printf '%s\n' "$@" | sort -n | sed -n "$(( ($# + 1) / 2 ))p"; }
cache=$(mktemp -d)
# Set for both builds (the sequential one ignores it): an `env` wrapper
# around one of them only would add its own exec, about a millisecond.
IDIOM_CACHE_DIR=$cache; export IDIOM_CACHE_DIR
progs=${*:-$(cd "$dir/np" && ls *.seq | sed 's/\.seq$//')}
for p in $progs; do
  s="$dir/np/$p.seq"; i="$dir/np/$p.idiom"
  "$s" > "$dir/np/$p.expected" 2>/dev/null
  for k in 1 2; do "$i" > "$dir/np/$p.out" 2>/dev/null; done
  ok=$(python3 "$dir/np/compare.py" -q --src "$dir/np/$p.c" "$dir/np/$p.expected" "$dir/np/$p.out" && echo same || echo DIFF)
  a=""; b=""
  for k in $(seq "$runs"); do a="$a $(ms "$s")"; b="$b $(ms "$i")"; done
  sm=$(median $a); im=$(median $b)
  echo "$p out=$ok seq ms: $sm ($a ) defaults ms: $im ($b ) ratio $(awk "BEGIN{printf \"%.2f\", $sm/$im}")"
done
rm -rf "$cache"
