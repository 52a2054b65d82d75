#!/usr/bin/env bash
# runtime_case_load.sh - a case of idiomrt_test run RUNS times beside BUSY
# busy loops (each in its own session, as other jobs' processes are), with
# PoCL's kernel cache cold (an empty POCL_CACHE_DIR per run) or warm (one
# directory for all runs): a flake rate under load, for cases that wait on
# the device's start-up and builds (docs/Benchmarks.md, helpers citime and
# cirobust).
#
# Usage: runtime_case_load.sh BUILD_DIR CASE RUNS BUSY cold|warm
# Prints one line per run (PASS/FAIL, seconds, the first failed check) and a
# total. The environment is ctest's for runtime.* (IDIOM_PROFILE=off,
# IDIOM_ZERO_COPY=off; the working directory build/test/runtime); extra
# variables (IDIOM_CPU_EXPLORE_MS=0, ...) pass through.
set -u
[ $# -eq 5 ] || { echo "usage: $0 BUILD_DIR CASE RUNS BUSY cold|warm" >&2; exit 2; }
B=$(cd "$1" && pwd)
C=$2 R=$3 N=$4 M=$5
W=$(mktemp -d)
pids=()
cleanup() {
  [ ${#pids[@]} -gt 0 ] && kill "${pids[@]}" 2>/dev/null
  rm -rf "$W"
}
trap cleanup EXIT
for _ in $(seq "$N"); do
  setsid bash -c 'while :; do :; done' &
  pids+=($!)
done
cd "$B/test/runtime" || exit 2
pass=0 fail=0
for r in $(seq "$R"); do
  pc=$W/pocl-warm
  [ "$M" = cold ] && pc=$W/pocl-$r
  mkdir -p "$pc"
  t0=$(date +%s.%N)
  if env IDIOM_PROFILE=off IDIOM_ZERO_COPY=off POCL_CACHE_DIR="$pc" \
      "$B/bin/idiomrt_test" "$C" > "$W/log" 2>&1; then
    res=PASS pass=$((pass + 1))
  else
    res=FAIL fail=$((fail + 1))
  fi
  echo "$C run $r ($M, $N busy): $res $(echo "$(date +%s.%N) $t0" | awk '{printf "%.1f s", $1 - $2}')" \
    "$(grep -m1 'CHECK failed' "$W/log")"
  [ "$M" = cold ] && rm -rf "$pc"
done
echo "$C $M, $N busy loops: $pass pass, $fail fail; load $(cut -d' ' -f1-3 /proc/loadavg)"
