#!/usr/bin/env bash
# csmith_scale.sh - csmith_diff.sh at scale: many seeds, in parallel shards,
# with one summary.
#
# Usage: csmith_scale.sh BUILD_DIR COUNT [JOBS] [SEED0]
#
# Splits seeds SEED0 .. SEED0+COUNT-1 (SEED0 defaults to 1) into shards of
# SHARD seeds (default 100) and runs tools/difftest/csmith_diff.sh on each,
# JOBS shards at a time (default: the number of cores), every offloaded
# loop forced onto the OpenCL device (csmith_diff.sh runs the plugin build
# with IDIOM_MIN_TRIP=1, then with IDIOM_DEVICE=seq). CSMITH_PROFILE and the
# other csmith_diff.sh variables pass through.
#
# Output: OUT_DIR (default BUILD_DIR/csmith-scale-PROFILE-SEED0-COUNT) gets
# each shard's log (shard-FIRST.log) and summary.txt, which holds the total
# of PASS/FAIL/SKIP lines, the plugin's remarks summed over the shards, the
# failing seeds with their reasons, the wall time and the command. Failing
# seeds are kept by csmith_diff.sh in OUT_DIR/failures/seed-S with
# REPRODUCE. Exits 1 when any seed failed, 0 otherwise.
#
# The run the "never wrong" issue asks for (docs/ARCHITECTURE.md,
# "Correctness contract", records its status):
#   bash tools/difftest/csmith_scale.sh build 10000 2
# (about 2.5 s of CPU per seed on these machines: some 3.5 hours on 2 cores).
set -u

[ $# -ge 2 ] && [ $# -le 4 ] || {
  echo "usage: $0 BUILD_DIR COUNT [JOBS] [SEED0]" >&2
  exit 2
}
BUILD=$(cd "$1" && pwd) || exit 2
COUNT=$2
JOBS=${3:-$(nproc)}
SEED0=${4:-1}
SHARD=${SHARD:-100}
PROFILE=${CSMITH_PROFILE:-arrays}
HERE=$(cd "$(dirname "$0")" && pwd)
OUT=${OUT_DIR:-$BUILD/csmith-scale-$PROFILE-$SEED0-$COUNT}
mkdir -p "$OUT" || exit 2
export FAIL_DIR=$OUT/failures CSMITH_PROFILE=$PROFILE

start=$(date +%s)
LAST=$((SEED0 + COUNT - 1))
running=0
for ((s = SEED0; s <= LAST; s += SHARD)); do
  n=$((LAST - s + 1))
  [ "$n" -gt "$SHARD" ] && n=$SHARD
  if [ "$running" -ge "$JOBS" ]; then
    wait -n
    running=$((running - 1))
  fi
  bash "$HERE/csmith_diff.sh" "$BUILD" "$n" "$s" >"$OUT/shard-$s.log" 2>&1 &
  running=$((running + 1))
done
wait
end=$(date +%s)

cat "$OUT"/shard-*.log >"$OUT/all.log"
pass=$(grep -c '^PASS ' "$OUT/all.log")
fail=$(grep -c '^FAIL ' "$OUT/all.log")
skip=$(grep -c '^SKIP ' "$OUT/all.log")
sum_remark() {
  grep '^plugin remarks over' "$OUT/all.log" |
    sed -n "s/.* \([0-9][0-9]*\) $1.*/\1/p" | paste -sd+ | bc
}
{
  echo "command: bash tools/difftest/csmith_scale.sh $1 $COUNT $JOBS $SEED0 (CSMITH_PROFILE=$PROFILE, SHARD=$SHARD)"
  echo "date: $(date -u +%Y-%m-%dT%H:%MZ)  host: $(nproc) cores  wall: $((end - start)) s"
  echo "seeds: $SEED0..$LAST  passed: $pass  failed: $fail  skipped: $skip"
  echo "offloaded loops: $(sum_remark 'loops offloaded')"
  echo "programs with an offload: $(grep '^plugin remarks over' "$OUT/all.log" |
    sed -n 's/.*(in \([0-9][0-9]*\) programs).*/\1/p' | paste -sd+ | bc)"
  echo "failures:"
  grep -A3 '^FAIL ' "$OUT/all.log" || echo "  none"
} >"$OUT/summary.txt"
cat "$OUT/summary.txt"
[ "$fail" -eq 0 ]
