#!/bin/sh
# build_runs.sh - how a program's kernel builds spread over its first runs,
# as a user who runs it again and again sees them: from an empty kernel
# cache, RUNS runs (default 6) of the plugin build with the defaults, each
# after a run of the sequential build, printing per run the wall times
# (ms), the programs built from source, the variants' "built one by one"
# lines, builds left out, and whether exit waited for a build.
#   build_runs.sh DIR PROG [RUNS]    (DIR/np/PROG.seq, PROG.idiom from
#                                     bench/build_profile_carry.sh)
set -eu
dir=$1; p=$2; runs=${3:-6}
cache=$(mktemp -d)
trap 'rm -rf "$cache"' EXIT
ms() { a=$(date +%s%N); "$@" > /dev/null 2>"$cache/err"; b=$(date +%s%N); echo $(( (b - a) / 1000000 )); }
i=1
while [ "$i" -le "$runs" ]; do
  s=$(ms "$dir/np/$p.seq")
  t=$(ms env IDIOM_CACHE_DIR="$cache" IDIOM_DEBUG=1 "$dir/np/$p.idiom")
  e=$cache/err
  echo "run $i: sequential $s ms, plugin $t ms;" \
    "built from source $(grep -c 'built program from source' "$e" || true)," \
    "rest/staged lines $(grep -c 'variants built one by one' "$e" || true)," \
    "left out $(grep -c 'left out' "$e" || true)," \
    "exit waits $(grep -c 'exit: waiting' "$e" || true)," \
    "device runs $(grep -c 'device run' "$e" || true)"
  i=$((i + 1))
done
