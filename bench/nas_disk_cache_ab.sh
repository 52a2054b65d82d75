#!/usr/bin/env bash
# nas_disk_cache_ab.sh - what the runtime's disk cache of program binaries
# costs nas-parboil/run.sh's device and auto runs on a CPU OpenCL device
# (PoCL): A (cache on, IDIOM_CACHE_DIR set: every program's binary saved,
# which compiles every kernel of every variant) against B (IDIOM_CACHE_DIR=
# off: PoCL compiles the kernels a run launches), rounds interleaved (ABAB),
# each with an empty PoCL and runtime cache, as in a CI run.
#
# Usage: nas_disk_cache_ab.sh BUILD_DIR ROUNDS PROG...
# Prints one line per program, round and side: wall and CPU (user + sys of
# every thread, load-insensitive where wall time is not) seconds of the
# device run (IDIOM_COST=off) and of the auto run after it, the kernel
# objects in PoCL's cache (one per kernel compile) and the load average.
set -eu
[ $# -ge 3 ] || { echo "usage: $0 BUILD_DIR ROUNDS PROG..." >&2; exit 2; }
B=$(cd "$1" && pwd)/lib
R=$2
shift 2
HERE=$(cd "$(dirname "$0")/../nas-parboil" && pwd)
W=$(mktemp -d)
trap 'rm -rf "$W"' EXIT
# seconds: wall cpu of one run; $1 the output file of time(1)
secs() { awk '{printf "%s %.2f", $1, $2 + $3}' "$1"; }
for p in "$@"; do
  clang-19 -O2 -fpass-plugin="$B/libIdiom.so" "$HERE/$p.c" -L"$B" -lidiomrt \
    -lm -Wl,-rpath,"$B" -o "$W/$p" 2>/dev/null
  for r in $(seq "$R"); do
    for side in on off; do
      rm -rf "$W/pc" "$W/ic"
      mkdir "$W/pc" "$W/ic"
      c=$W/ic
      [ $side = off ] && c=off
      for m in device auto; do
        cost=on
        [ $m = device ] && cost=off
        /usr/bin/time -o "$W/t.$m" -f "%e %U %S" env POCL_CACHE_DIR="$W/pc" \
          IDIOM_CACHE_DIR="$c" IDIOM_COST=$cost IDIOM_STATS=1 "$W/$p" \
          >/dev/null 2>&1
      done
      echo "$p round $r cache=$side device $(secs "$W/t.device") auto" \
        "$(secs "$W/t.auto") kernels=$(find "$W/pc" -name '*.so' | wc -l)" \
        "load=$(cut -d' ' -f1 /proc/loadavg)"
    done
  done
done
