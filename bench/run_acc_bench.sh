#!/usr/bin/env bash
# Cost of compensated (Neumaier) sums on PoCL: a sum of 2^26 floats and of
# 2^26 doubles, plain vs compensated kernels, for the default lowering
# (grid-stride, the variant floating-point sums run: docs/ARCHITECTURE.md)
# and the blocked lowering (one contiguous block of 4-element rows per
# work-item). Kernels come from idiom-funil with explicit rule lists, so the
# plain kernel is the lowering without `compensate`; bench/acc_sum.c runs
# each through the runtime and prints the median kernel time of 5 calls.
# Usage: bash bench/run_acc_bench.sh [BUILD_DIR [LOG2 [REPS]]]
set -euo pipefail
cd "$(dirname "$0")/.."
B=${1:-build}
LOG2=${2:-26}
REPS=${3:-5}
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
clang-19 -O2 -Iruntime/include bench/acc_sum.c -L"$B/lib" -lidiomrt -lm -ldl -lpthread -o "$T/acc_sum"
SEQ=split-map,strided-map,blocks-map,map-fusion,map-to-mapSeq,reduce-to-reduceSeq,map-reduce-fusion,proj-tuple
declare -A LOWER=(
  [grid]="map-fusion,proj-tuple,reduce-two-stage,$SEQ"
  [blocked]="map-fusion,proj-tuple,as-vector-reduce,reduce-two-stage-blocks,$SEQ"
)
for TY in f32 f64; do
  cat > "$T/sum_$TY.funil" <<FUNIL
idiom s(x: [$TY], n0: i64) {
  return reduce(\\(a: $TY, b: $TY) => fadd(a, b), -0.0:$TY, map(\\(t: $TY) => t, view(x, 0:i64, 1:i64, n0)));
}
FUNIL
  for L in grid blocked; do
    "$B/bin/idiom-funil" "$T/sum_$TY.funil" --rules="${LOWER[$L]}" --emit=opencl \
      --kernel-name=s > "$T/plain_${TY}_$L.cl"
    "$B/bin/idiom-funil" "$T/sum_$TY.funil" --rules="compensate,${LOWER[$L]}" --emit=opencl \
      --kernel-name=s > "$T/comp_${TY}_$L.cl"
    grep -q 'fabs' "$T/comp_${TY}_$L.cl" || { echo "no compensation in comp_${TY}_$L" >&2; exit 1; }
    ! grep -q 'fabs' "$T/plain_${TY}_$L.cl" || { echo "compensation in plain_${TY}_$L" >&2; exit 1; }
    echo "$TY $L plain:       $("$T/acc_sum" "$T/plain_${TY}_$L.cl" "$TY" 1 "$LOG2" "$REPS")"
    echo "$TY $L compensated: $("$T/acc_sum" "$T/comp_${TY}_$L.cl" "$TY" 2 "$LOG2" "$REPS")"
  done
done
