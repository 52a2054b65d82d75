#!/usr/bin/env bash
# gsl_device.sh - run the GSL test programs packed by gsl_pack.sh, with the
# runtime settings of each MODE, on a machine that has OpenCL but no LLVM
# (the lent GPU machine), several programs at a time.
#
# Usage: gsl_device.sh ARCHIVE OUTDIR MODE...
#   MODE is one of
#     cpu-forced   IDIOM_DEVICE=cpu IDIOM_MIN_TRIP=0 (PoCL)
#     gpu-forced   IDIOM_DEVICE=gpu IDIOM_MIN_TRIP=0
#     gpu-default  IDIOM_DEVICE=gpu, runtime defaults
# Environment: KEEP_LOGS=1 (copy every program's output to OUTDIR/MODE-logs/),
# JOBS (programs at a time, default nproc), TIMEOUT (seconds
# per program, default 480).
#
# Output: OUTDIR/MODE.txt with "dir/program RESULT SECONDS" lines (RESULT:
# PASS, FAIL (exit status), TIMEOUT or SKIP (77)), OUTDIR/MODE-fail.log with
# the last lines of every failing program's output, and a summary on stdout.
set -u
[ $# -ge 3 ] || { echo "usage: $0 ARCHIVE OUTDIR MODE..." >&2; exit 2; }
ARCH=$1 OUTD=$2
shift 2
JOBS=${JOBS:-$(nproc)}
TIMEOUT=${TIMEOUT:-480}
mkdir -p "$OUTD"
OUTD=$(cd "$OUTD" && pwd)
W=$(mktemp -d)
tar -C "$W" -xJf "$ARCH"
export IDIOM_CACHE_DIR=$W/cache

run_one() { # MODE PROG: one line appended to OUTD/MODE.txt, the output in $W/log/
  local mode=$1 p=$2 envs rc t0 t1 res
  case $mode in
    cpu-forced) envs="IDIOM_DEVICE=cpu IDIOM_MIN_TRIP=0" ;;
    gpu-forced) envs="IDIOM_DEVICE=gpu IDIOM_MIN_TRIP=0" ;;
    gpu-default) envs="IDIOM_DEVICE=gpu" ;;
    *) echo "$p BADMODE 0"; return ;;
  esac
  local log=$W/log/$mode/${p//\//_}.log
  mkdir -p "$W/log/$mode"
  t0=$(date +%s.%N)
  (cd "$W/gsl/$(dirname "$p")" && env $envs IDIOM_STATS=1 \
     timeout "$TIMEOUT" "./$(basename "$p")") >"$log" 2>&1
  rc=$?
  t1=$(date +%s.%N)
  case $rc in
    0) res=PASS ;; 77) res=SKIP ;; 124) res=TIMEOUT ;; *) res="FAIL($rc)" ;;
  esac
  awk -v p="$p" -v r="$res" -v a="$t0" -v b="$t1" 'BEGIN {printf "%s %s %.1f\n", p, r, b - a}' \
    >> "$OUTD/$mode.txt"
}
export -f run_one
export W TIMEOUT OUTD

for mode in "$@"; do
  # Lines are appended as programs finish (a killed run keeps them).
  : > "$OUTD/$mode.txt"
  xargs -P "$JOBS" -I{} bash -c "run_one $mode {}" < "$W/gsl/MANIFEST"
  sort -o "$OUTD/$mode.txt" "$OUTD/$mode.txt"
  : > "$OUTD/$mode-fail.log"
  awk '$2!="PASS" && $2!="SKIP" {print $1}' "$OUTD/$mode.txt" | while read -r p; do
    { echo "== $p"; grep -E 'FAIL|TIMEOUT|error' "$W/log/$mode/${p//\//_}.log" | head -20
      tail -n 40 "$W/log/$mode/${p//\//_}.log"; } >> "$OUTD/$mode-fail.log"
  done
  # Offloaded calls summed over the programs (IDIOM_STATS lines).
  calls=$(cat "$W/log/$mode"/*.log | sed -n 's/^idiom-stats: .* offloaded=\([0-9]*\) .*/\1/p' |
          awk '{s+=$1} END {print s+0}')
  echo "$mode: $(awk '{n[$2]++} END {for (r in n) printf "%s=%d ", r, n[r]}' "$OUTD/$mode.txt")offloaded_calls=$calls"
  [ "${KEEP_LOGS:-0}" = 1 ] && cp -r "$W/log/$mode" "$OUTD/$mode-logs"
done
