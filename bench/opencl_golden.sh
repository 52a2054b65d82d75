#!/usr/bin/env bash
# opencl_golden.sh - record the OpenCL and lowered FunIL that rewrite/ emits,
# to check that a change to generateOpenCL leaves every byte unchanged.
#
# Usage: opencl_golden.sh BUILD_DIR OUT_DIR
#        opencl_golden.sh --compare DIR_A DIR_B
#
# Record mode writes into OUT_DIR, for every test/lit/funil/*.funil,
# test/lit/funil/Inputs/*.funil and bench/*.funil, the output (stdout, stderr
# and exit status) of BUILD_DIR/bin/idiom-funil with
#   NAME.opencl        --emit=opencl --variants (the plugin's source)
#   NAME.lowered       --emit=lowered --variants (each variant's FunIL)
#   NAME.opencl0       --emit=opencl (variant 0 alone)
# then runs bench/detect_golden.sh BUILD_DIR OUT_DIR/detect (nas-parboil and
# the detection tests: print<idiom>, remarks and the emitted IR with the
# kernel strings). Compare mode diffs two such directories; exits 0 when
# identical, 1 if not.
set -u
HERE=$(cd "$(dirname "$0")" && pwd)
if [ "${1:-}" = --compare ]; then
  [ $# -eq 3 ] || { echo "usage: $0 --compare DIR_A DIR_B" >&2; exit 2; }
  if diff -r "$2" "$3" >/dev/null; then
    echo "opencl_golden: identical ($(find "$2" -type f | wc -l) files)"
    exit 0
  fi
  diff -r "$2" "$3" | head -100
  echo "opencl_golden: DIFFERENT" >&2
  exit 1
fi
[ $# -eq 2 ] || { echo "usage: $0 BUILD_DIR OUT_DIR" >&2; exit 2; }
B=$(cd "$1" && pwd) || exit 2
mkdir -p "$2" && OUT=$(cd "$2" && pwd) || exit 2
ROOT=$(cd "$HERE/.." && pwd)
FUNIL=$B/bin/idiom-funil
[ -x "$FUNIL" ] || { echo "no idiom-funil at $FUNIL" >&2; exit 2; }
export IDIOM_CACHE_DIR=off
for f in "$ROOT"/test/lit/funil/*.funil "$ROOT"/test/lit/funil/Inputs/*.funil \
         "$ROOT"/bench/*.funil; do
  n=$(echo "${f#"$ROOT"/}" | tr '/' '_')
  n=${n%.funil}
  for mode in "opencl --variants" "lowered --variants" "opencl"; do
    set -- $mode
    ext=$1
    [ $# -eq 1 ] && ext=${1}0
    "$FUNIL" --emit=$mode "$f" >"$OUT/$n.$ext" 2>&1
    echo "exit $?" >>"$OUT/$n.$ext"
  done
done
bash "$HERE/detect_golden.sh" "$B" "$OUT/detect" || exit 1
echo "opencl_golden: wrote $(find "$OUT" -type f | wc -l) files to $OUT"
