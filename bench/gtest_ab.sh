#!/usr/bin/env bash
# gtest_ab.sh - wall and CPU time of two builds of one GoogleTest binary
# (A: before, B: after), run whole, rounds interleaved (ABAB), in DIR (the
# test's working directory, e.g. build/test/rewrite for RewriteTests).
#
# Usage: gtest_ab.sh A_BINARY B_BINARY DIR ROUNDS
# Prints per round and side: wall s, CPU s (user + sys), the load average
# before and after, gtest's summary line, and the three slowest tests.
# Exit status 1 when a run failed.
set -u
[ $# -eq 4 ] || { echo "usage: $0 A_BINARY B_BINARY DIR ROUNDS" >&2; exit 2; }
A=$(realpath "$1") B=$(realpath "$2")
cd "$3" || exit 2
W=$(mktemp -d)
trap 'rm -rf "$W"' EXIT
st=0
for r in $(seq "$4"); do
  for side in A B; do
    bin=$A
    [ $side = B ] && bin=$B
    l0=$(cut -d' ' -f1 /proc/loadavg)
    /usr/bin/time -f '%e %U %S' -o "$W/t" "$bin" > "$W/log" 2>&1 || st=1
    l1=$(cut -d' ' -f1 /proc/loadavg)
    read -r wall u s < "$W/t"
    echo "round $r $side: wall $wall s cpu $(echo "$u $s" | awk '{print $1 + $2}') s" \
      "load $l0 -> $l1; $(grep -E '^\[  (PASSED|FAILED)' "$W/log" | head -1)"
    sed -nE 's/^\[       OK \] ([^ ]+) \(([0-9]+) ms\)$/\2 \1/p' "$W/log" |
      sort -rn | head -3 | sed 's/^/    /'
  done
done
exit $st
