#!/bin/sh
# Whole-process wall time of one program built several ways, rounds
# interleaved (ABC...), each build with its own IDIOM_CACHE_DIR kept across
# the rounds (a user's reruns), pinned to CPUs 2 and 3:
#   builds_ab.sh DIR PROG ROUNDS BUILD...
# runs DIR/PROG.BUILD for each BUILD (e.g. seq, or a plugin build per
# branch: clang-19 -O2 -fpass-plugin=WT/build/lib/libIdiom.so prog.c
# -LWT/build/lib -lidiomrt -lm -o DIR/PROG.BRANCH). Prints one line a round.
set -eu
d=$1; p=$2; R=$3; shift 3
c=$(mktemp -d)
for r in $(seq "$R"); do
  line="round $r:"
  for b in "$@"; do
    mkdir -p "$c/$b"
    s=$(date +%s%N)
    IDIOM_CACHE_DIR="$c/$b" taskset -c 2,3 "$d/$p.$b" > /dev/null 2>&1
    e=$(date +%s%N)
    line="$line $b $(( (e - s) / 1000000 ))"
  done
  echo "$line"
done
rm -rf "$c"
