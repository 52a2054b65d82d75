#!/usr/bin/env bash
# detect_golden.sh - record what the plugin detects and emits, to check that a
# compile-time change leaves detection and offloading unchanged.
#
# Usage: detect_golden.sh BUILD_DIR OUT_DIR
#        detect_golden.sh --compare DIR_A DIR_B
#
# Record mode writes into OUT_DIR, for every nas-parboil/*.c, test/lit/detect
# input (*.c under it), test/lit/remarks and test/lit/user-spec program:
#   NAME.print      opt -passes='loop-simplify,lcssa,print<idiom>' on its IR
#                   (clang-19 -O2 -g -fno-vectorize -fno-unroll-loops), i.e.
#                   per loop the idiom with lifted/lowered FunIL and OpenCL, or
#                   the near miss with its reason;
#   NAME.exact      the same with -idiom-fp-reassoc=false;
# and for every nas-parboil program
#   NAME.remarks    -Rpass/-Rpass-missed/-Rpass-analysis=idiom-offload remarks of a
#                   clang-19 -O2 -g plugin compile;
#   NAME.o2.ll      the IR that compile emits (stitched calls, kernels).
# user-spec programs are run with their spec (Inputs/NAME.idl).
# Compare mode diffs two such directories; exits 0 when identical, 1 if not.
# IDIOM_CACHE_DIR is set to off so that every run proves and generates
# everything afresh, unless GOLDEN_CACHE_DIR names a directory to use instead
# (run twice with the same one to check what the on-disk memos give back).
set -u

if [ "${1:-}" = --compare ]; then
  [ $# -eq 3 ] || { echo "usage: $0 --compare DIR_A DIR_B" >&2; exit 2; }
  if diff -r "$2" "$3" >/dev/null; then
    echo "detect_golden: identical ($(ls "$2" | wc -l) files)"
    exit 0
  fi
  diff -r "$2" "$3" | head -100
  echo "detect_golden: DIFFERENT" >&2
  exit 1
fi
[ $# -eq 2 ] || { echo "usage: $0 BUILD_DIR OUT_DIR" >&2; exit 2; }
B=$(cd "$1" && pwd) || exit 2
mkdir -p "$2" && OUT=$(cd "$2" && pwd) || exit 2
ROOT=$(cd "$(dirname "$0")/.." && pwd)
PLUGIN=$B/lib/libIdiom.so
[ -f "$PLUGIN" ] || { echo "no plugin at $PLUGIN" >&2; exit 2; }
export IDIOM_CACHE_DIR=${GOLDEN_CACHE_DIR:-off}
TMP=$(mktemp -d) || exit 2
trap 'rm -rf "$TMP"' EXIT
OPT="opt-19 -load-pass-plugin=$PLUGIN"

# print_idiom NAME SRC [opt flags...]
print_idiom() {
  local name=$1 src=$2
  shift 2
  clang-19 -O2 -g -fno-vectorize -fno-unroll-loops -S -emit-llvm "$src" \
    -o "$TMP/$name.ll" 2>/dev/null || { echo "clang failed on $src" >&2; exit 1; }
  $OPT "$@" -passes='loop-simplify,lcssa,print<idiom>' -disable-output \
    "$TMP/$name.ll" >"$OUT/$name.print" 2>&1
  $OPT "$@" -idiom-fp-reassoc=false -passes='loop-simplify,lcssa,print<idiom>' \
    -disable-output "$TMP/$name.ll" >"$OUT/$name.exact" 2>&1
}

for src in "$ROOT"/nas-parboil/*.c; do
  n=nas-$(basename "$src" .c)
  print_idiom "$n" "$src"
  (cd "$ROOT/nas-parboil" &&
    clang-19 -O2 -g -fpass-plugin="$PLUGIN" -c "$(basename "$src")" -o /dev/null \
      -Rpass=idiom-offload -Rpass-missed=idiom-offload -Rpass-analysis=idiom-offload) >"$OUT/$n.remarks" 2>&1
  clang-19 -O2 -g -fpass-plugin="$PLUGIN" -S -emit-llvm "$src" -o - 2>/dev/null |
    grep -v '^; ModuleID\|^source_filename' >"$OUT/$n.o2.ll"
done
while IFS= read -r src; do
  n=$(echo "${src#"$ROOT"/test/lit/}" | tr '/' '_')
  n=${n%.c}
  print_idiom "$n" "$src"
done < <(find "$ROOT/test/lit/detect" "$ROOT/test/lit/remarks" -name '*.c' | sort)
for spec in "$ROOT"/test/lit/user-spec/Inputs/*.idl; do
  base=$(basename "$spec" .idl)
  src=$ROOT/test/lit/user-spec/$base.c
  [ -f "$src" ] || continue
  print_idiom "user-$base" "$src" -idiom-spec="$spec"
done
echo "detect_golden: wrote $(ls "$OUT" | wc -l) files to $OUT"
